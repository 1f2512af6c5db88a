"""What one-vs-rest costs: a K-class fit against the K binary fits a user would run by hand.

The K-class path of the estimators (:mod:`ssl_repro.estimators.base`) checks and converts the data once; where
every binary solve is the labeled rows' L2-SVM (LinearSVM) it runs the K problems as one solve whose K columns
share each product over X (:mod:`ssl_repro.solvers.columns`), elsewhere (LinearTSVM, LinearDA) K binary fits.
This script times, for each estimator named and each data set of ``--data`` (the registry's ``digits``, 1,797
rows, 64 features, K = 10, and ``20ng-all``, 18,846 rows, 54,426 tf-idf features, K = 20, as
``run.py dataset=...`` loads them; ``--labeled`` rows labeled, by default 100 on digits and 1,000 on
20ng-all), one K-class ``fit`` and the K binary fits from the same data (class k against the rest, r = its
share of the labeled rows, as the K-class path sets it).  The two are timed in turn, A B A B, ``--repeats``
pairs, after one untimed fit that compiles (or loads numba's cache); per estimator and data set it records the
wall and CPU seconds of every repeat, their medians and spread, the ratio of the medians, the work of each path
(the sum of the K fits' ``n_iter_`` and of their CG iterations), the agreement of J (Eqn 18) of every class's
problem between the two paths (``j_agreement``: the relative difference per class and the largest; 0 when the
bits agree) and of their predictions on the training rows (``same_predictions``).  The load average is read
before and after: time on an idle machine, one job at a time.

    python benchmarks/one_vs_rest_cost.py --methods LinearSVM,LinearTSVM,LinearDA --data digits,20ng-all --repeats 5

The record goes to ``results/benchmarks/one_vs_rest_cost.json`` (``--out``), with its provenance and the
keys of the data sets it used; ``--show`` prints the committed record without running.
"""
import argparse
import json
import os
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np

import ssl_repro.estimators as estimators
from ssl_repro.data import load_dataset
from ssl_repro.data.keys import data_keys
from ssl_repro.utils.atomic import atomic_write
from ssl_repro.utils.provenance import provenance

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "results" / "benchmarks" / "one_vs_rest_cost.json"
#: The data sets a record covers, with their default number of labeled rows.
DATA = {"digits": 100, "20ng-all": 1000}


def _timed(fit):
    """(wall s, CPU s of this process, the work: summed ``n_iter_`` and CG iterations, the fitted binary
    estimators) of ``fit()``, which returns the fitted binary estimators."""
    wall, cpu = time.perf_counter(), time.process_time()
    fitted = fit()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    work = (int(sum(np.sum(e.n_iter_) for e in fitted)), int(sum(e.diagnostics_.cg_iterations for e in fitted)))
    return wall, cpu, work, fitted


def _spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "all": values}


def measure(Estimator, X, y_fit, repeats):
    """One estimator's row (module doc): the K-class fit and the K binary fits, A B A B."""
    classes = np.unique(y_fit[y_fit != -1])
    share = {c: float(np.mean(y_fit[y_fit != -1] == c)) for c in classes}
    semi = "r" in Estimator().get_params()

    def together():
        return Estimator().fit(X, y_fit).estimators_

    def apart():
        return [Estimator(**({"r": share[c]} if semi else {})).fit(X, np.where(y_fit == -1, -1, (y_fit == c) * 1))
                for c in classes]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        together()                                          # compile (or load numba's cache) outside the timing
        runs = {"k_class": [], "k_binary": []}
        for _ in range(repeats):
            runs["k_class"].append(_timed(together))
            runs["k_binary"].append(_timed(apart))
    row = {"estimator": Estimator.__name__, "classes": int(classes.size)}
    for path, timed in runs.items():
        row[path] = {"wall_seconds": _spread([t[0] for t in timed]), "cpu_seconds": _spread([t[1] for t in timed]),
                     "work": sorted({t[2][0] for t in timed}), "cg_iterations": sorted({t[2][1] for t in timed})}
    row["ratio_wall"] = row["k_class"]["wall_seconds"]["median"] / row["k_binary"]["wall_seconds"]["median"]
    joint, alone = runs["k_class"][-1][3], runs["k_binary"][-1][3]
    row["j_agreement"] = j_agreement(joint, alone)
    row["same_predictions"] = all(np.array_equal(a.predict(X), b.predict(X)) for a, b in zip(joint, alone))
    return row


def j_agreement(joint, alone):
    """J (Eqn 18) of each class's problem in the K-class fit (``joint``, its ``estimators_``) and in its
    separate fit (``alone``): the relative difference per class and the largest."""
    per_class = [abs(a.diagnostics_.objective - b.diagnostics_.objective) / abs(b.diagnostics_.objective)
                 for a, b in zip(joint, alone)]
    return {"max_relative": max(per_class), "per_class": per_class}


def _cell(seconds):
    """A median with its range, as the table prints it."""
    return f"{seconds['median']:.3f} ({seconds['min']:.3f}-{seconds['max']:.3f})"


def show(record):
    """The record as a table: medians with their range, the ratio, the work of each path, J's agreement."""
    s = record["settings"]
    print(f"A B A B, {s['repeats']} pairs; load {record['load_before']:.2f} before, {record['load_after']:.2f} after; "
          f"{record['provenance']['git_commit'][:7]}, {record['provenance']['date']}")
    for name, data in s["data"].items():
        print(f"{name}: {data['rows']} rows, {data['features']} features, {data['labeled']} labeled")
    print(f"{'data':9s} {'estimator':11s} {'K-class fit s (range)':>24s} {'K binary fits s (range)':>26s} "
          f"{'ratio':>6s} {'CPU s K-class / binary':>23s} {'CG its K-class / binary':>24s} {'max rel dJ':>10s} "
          "same predictions")
    for r in record["rows"]:
        a, b = r["k_class"], r["k_binary"]
        print(f"{r['data']:9s} {r['estimator']:11s} {_cell(a['wall_seconds']):>24s} {_cell(b['wall_seconds']):>26s} "
              f"{r['ratio_wall']:6.2f} {a['cpu_seconds']['median']:11.3f} / {b['cpu_seconds']['median']:.3f} "
              f"{str(a['cg_iterations']):>12s} / {b['cg_iterations']} {r['j_agreement']['max_relative']:10.1e} "
              f"{r['same_predictions']}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--methods", default="LinearSVM,LinearTSVM,LinearDA",
                        help="estimator classes of ssl_repro.estimators, comma-separated")
    parser.add_argument("--data", default=",".join(DATA), help=f"data sets, comma-separated, of {', '.join(DATA)}")
    defaults = ", ".join(f"{name} {labeled}" for name, labeled in DATA.items())
    parser.add_argument("--labeled", type=int, default=None, help=f"labeled rows per data set (default: {defaults})")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--show", action="store_true", help="print the record at --out; run nothing")
    args = parser.parse_args(argv)
    if args.show:
        if not args.out.exists():
            sys.exit(f"Error: no record at {args.out}: run python benchmarks/one_vs_rest_cost.py first")
        record = json.loads(args.out.read_text())
        if "data" not in record["settings"]:
            sys.exit(f"Error: the record at {args.out} is of the form before --data (digits only, no J agreement): "
                     f"remake it with python benchmarks/one_vs_rest_cost.py")
        return show(record)
    unknown = [m for m in args.methods.split(",") if not hasattr(estimators, m)]
    if unknown:
        sys.exit(f"Error: --methods names {', '.join(unknown)}, not an estimator of ssl_repro.estimators; "
                 f"give classes such as LinearSVM,LinearTSVM,LinearDA")
    names = args.data.split(",")
    if not set(names) <= set(DATA):
        sys.exit(f"Error: --data {args.data}: give data sets of {', '.join(DATA)}, comma-separated")
    if args.out.is_dir():
        sys.exit(f"Error: --out {args.out} is a folder: give the record's file, e.g. {OUT.relative_to(ROOT)}")
    if args.repeats < 1 or (args.labeled is not None and args.labeled < 2):
        labeled = args.labeled if args.labeled is not None else "default"
        sys.exit(f"Error: --repeats {args.repeats} --labeled {labeled}: give --repeats >= 1 and --labeled >= 2")
    load_before = os.getloadavg()[0]
    loaded, settings, rows = {}, {}, []
    for name in names:
        data = loaded[name] = load_dataset(name)
        labeled = args.labeled if args.labeled is not None else DATA[name]
        chosen = np.random.default_rng(0).choice(data.y.size, labeled, replace=False)
        y_fit = np.full(data.y.size, -1)
        y_fit[chosen] = data.y[chosen]
        settings[name] = {"rows": int(data.y.size), "features": int(data.X.shape[1]), "labeled": labeled}
        rows += [{"data": name, **measure(getattr(estimators, m), data.X, y_fit, args.repeats)}
                 for m in args.methods.split(",")]
    record = {"provenance": provenance(), "data_keys": data_keys(loaded),
              "settings": {"data": settings, "repeats": args.repeats, "seed": 0},
              "load_before": load_before, "load_after": os.getloadavg()[0], "rows": rows}
    with atomic_write(args.out) as f:
        json.dump(record, f, indent=1)
    show(record)


if __name__ == "__main__":
    main()
