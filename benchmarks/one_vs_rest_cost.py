"""What one-vs-rest costs: a K-class fit against the K binary fits a user would run by hand.

The K-class path of every estimator (:mod:`ssl_repro.estimators.base`) checks and
converts the data once and then runs K binary fits; the compiled engine solves one
right-hand side per pass over X, so the binary problems share no pass.  This script
times, for each estimator named, one K-class ``fit`` on the registry's ``digits``
(scikit-learn's 1,797 digits in [0, 1], CSR, as ``run.py dataset=digits`` loads them;
``--labeled`` rows labeled) and the K binary fits from the same data (class k against
the rest, r = its share of the labeled rows, as the K-class path sets it).  The two are
timed in turn, A B A B, ``--repeats`` pairs, after one untimed fit that compiles (or loads
numba's cache); per estimator it records the wall and CPU seconds of every repeat, their
medians and spread, the ratio of the medians, and the work of each path (the sum of the K
fits' ``n_iter_``: equal when the K-class path runs the same K problems).  The load
average is read before and after: time on an idle machine, one job at a time.

    python benchmarks/one_vs_rest_cost.py --methods LinearSVM,LinearTSVM,LinearDA --repeats 5

The record goes to ``results/benchmarks/one_vs_rest_cost.json`` (``--out``), with its provenance and the
key of the digits it used; ``--show`` prints the committed record without running.
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


def _timed(fit):
    """(wall s, CPU s of this process, the work: summed ``n_iter_``) of ``fit()``, which returns the fitted
    estimators."""
    wall, cpu = time.perf_counter(), time.process_time()
    fitted = fit()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return wall, cpu, int(sum(np.sum(e.n_iter_) for e in fitted))


def _spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "all": values}


def measure(Estimator, X, y_fit, repeats):
    """One estimator's row (module doc): the K-class fit and the K binary fits, A B A B."""
    classes = np.unique(y_fit[y_fit != -1])
    share = {c: float(np.mean(y_fit[y_fit != -1] == c)) for c in classes}
    semi = "r" in Estimator().get_params()

    def together():
        return [Estimator().fit(X, y_fit)]

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
                     "work": sorted({t[2] for t in timed})}
    row["ratio_wall"] = row["k_class"]["wall_seconds"]["median"] / row["k_binary"]["wall_seconds"]["median"]
    return row


def _cell(seconds):
    """A median with its range, as the table prints it."""
    return f"{seconds['median']:.3f} ({seconds['min']:.3f}-{seconds['max']:.3f})"


def show(record):
    """The record as a table: medians with their range, the ratio, the work of each path."""
    s = record["settings"]
    print(f"digits: {s['rows']} rows, {s['labeled']} labeled; A B A B, {s['repeats']} pairs; load "
          f"{record['load_before']:.2f} before, {record['load_after']:.2f} after; "
          f"{record['provenance']['git_commit'][:7]}, {record['provenance']['date']}")
    print(f"{'estimator':14s} {'K-class fit s (range)':>24s} {'K binary fits s (range)':>24s} {'ratio':>6s} "
          f"{'CPU s K-class / binary':>23s} {'work K-class / binary':>22s}")
    for r in record["rows"]:
        a, b = r["k_class"], r["k_binary"]
        print(f"{r['estimator']:14s} {_cell(a['wall_seconds']):>24s} {_cell(b['wall_seconds']):>24s} "
              f"{r['ratio_wall']:6.2f} {a['cpu_seconds']['median']:11.3f} / {b['cpu_seconds']['median']:.3f} "
              f"{str(a['work']):>12s} / {b['work']}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--methods", default="LinearSVM,LinearTSVM,LinearDA",
                        help="estimator classes of ssl_repro.estimators, comma-separated")
    parser.add_argument("--labeled", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--show", action="store_true", help="print the record at --out; run nothing")
    args = parser.parse_args(argv)
    if args.show:
        if not args.out.exists():
            sys.exit(f"Error: no record at {args.out}: run python benchmarks/one_vs_rest_cost.py first")
        return show(json.loads(args.out.read_text()))
    unknown = [m for m in args.methods.split(",") if not hasattr(estimators, m)]
    if unknown:
        sys.exit(f"Error: --methods names {', '.join(unknown)}, not an estimator of ssl_repro.estimators; "
                 f"give classes such as LinearSVM,LinearTSVM,LinearDA")
    if args.out.is_dir():
        sys.exit(f"Error: --out {args.out} is a folder: give the record's file, e.g. {OUT.relative_to(ROOT)}")
    if args.repeats < 1 or args.labeled < 2:
        sys.exit(f"Error: --repeats {args.repeats} --labeled {args.labeled}: give --repeats >= 1 and --labeled >= 2")
    digits = load_dataset("digits")
    labeled = np.random.default_rng(0).choice(digits.y.size, args.labeled, replace=False)
    y_fit = np.full(digits.y.size, -1)
    y_fit[labeled] = digits.y[labeled]
    load_before = os.getloadavg()[0]
    rows = [measure(getattr(estimators, m), digits.X, y_fit, args.repeats) for m in args.methods.split(",")]
    record = {"provenance": provenance(), "data_keys": data_keys({"digits": digits}),
              "settings": {"rows": int(digits.y.size), "labeled": args.labeled, "repeats": args.repeats,
                           "seed": 0},
              "load_before": load_before, "load_after": os.getloadavg()[0], "rows": rows}
    with atomic_write(args.out) as f:
        json.dump(record, f, indent=1)
    show(record)


if __name__ == "__main__":
    main()
