"""The Potts DA (K classes at once) beside one-vs-rest DA: error, objective and seconds on K-class data.

    python experiments/potts_vs_ovr.py [--datasets digits mnist-5k 20ng-all] [--splits 10] [--out results/potts_vs_ovr]

For each data set (:mod:`ssl_repro.data.multiclass`) and split (seeded, :func:`split`): :data:`SIZES`' labeled
rows (every class among them), unlabeled rows and test rows, drawn at random; both methods fit
:class:`~ssl_repro.estimators.LinearDA` at lambda = 0.001, lambda' = 1 (the papers' values) on the same
rows: ``multiclass="ovr"`` (002's one-vs-rest, r per class) and ``multiclass="potts"`` (the Potts glass of
the footnote of 000 Sec. 3 / 004 Sec. 1.3, :mod:`ssl_repro.solvers.potts`), r the labeled rows' class shares.
Beside them, as the reference, the supervised :class:`~ssl_repro.estimators.LinearSVM` on the labeled rows
alone (:data:`REFERENCE`; its J over K is that of its weights).  Per split and method the record holds: the
error on the unlabeled rows (transduction) and on the test rows, J over K classes
(:func:`ssl_repro.solvers.potts.objective_of_weights`: the same function of the K weight vectors for every
method, the sum over classes of Eqn 18's terms at the hard labels), the CPU seconds of the fit (the
process's, every thread: a busy machine slows it less than the wall clock, which is recorded too and is
*not a timing*), the DA iterations (the reference's: Newton iterations) and whether every solve converged.

Decision (sizes): the labeled counts are 002's smallest MNIST count (100) on the two digit sets and ten
per class on 20ng-all (200); the unlabeled and test rows are capped (the module's :data:`SIZES`;
``--max-unlabeled`` caps them further for a quick look).  Ten splits cost about 2 CPU minutes on digits,
14 on 20ng-all and 31 on mnist-5k (one split of each measured on a shared machine, 2026-11-28: 84 and 185
CPU s; DA's CG solves on the dense pixel rows of MNIST take most of it); ``run all`` runs one step per set.

Writes ``OUT/<dataset>.json`` per data set run, the whole record of that set anew after each split (a rerun
replaces it, no points of an earlier run are kept; a run cut short leaves the splits it finished, and
``settings`` says how many of those asked): ``provenance``, ``data_keys`` (the key of the set's X and y,
:func:`ssl_repro.data.keys.data_keys`, checked by ``experiments/data_keys.py``'s ``SCRIPT_SETS``),
``settings`` and ``rows``.  The report's "Beyond the papers" page renders them with a paired test per set
(:mod:`ssl_repro.report.sections.beyond_multiclass`).
"""
import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ssl_repro.data.cache import data_root  # noqa: E402
from ssl_repro.data.keys import data_keys  # noqa: E402
from ssl_repro.data.multiclass import MULTICLASS_DATASETS  # noqa: E402
from ssl_repro.estimators import LinearDA, LinearSVM  # noqa: E402
from ssl_repro.solvers import from_mask  # noqa: E402
from ssl_repro.solvers.potts import objective_of_weights  # noqa: E402
from ssl_repro.utils.provenance import provenance  # noqa: E402

#: (labeled, unlabeled, test) rows per data set (module doc: what ten splits of each cost).
SIZES = {"digits": (100, 600, 300), "mnist-5k": (100, 500, 300), "20ng-all": (200, 800, 500)}
OUT = ROOT / "results" / "potts_vs_ovr"
METHODS = ("ovr", "potts")
#: The supervised reference on the same split (decision, 2026-11-28): :class:`~ssl_repro.estimators.LinearSVM`
#: on the labeled rows alone, one-vs-rest, at the same lambda, so that a reader sees whether either DA helps at
#: all (on mnist-5k's first split both DAs erred on about half the test rows, the SVM on 30%).
REFERENCE = "svm"
LAM, LAM_U = 1e-3, 1.0


def split(y, labeled, unlabeled, test, seed):
    """(labeled, unlabeled, test) row numbers of split ``seed``: a random permutation cut in three, drawn
    again until every class is among the labeled rows."""
    rng = np.random.default_rng(seed)
    while True:
        order = rng.permutation(y.size)
        rows_l = order[:labeled]
        if np.unique(y[rows_l]).size == np.unique(y).size:
            return rows_l, order[labeled:labeled + unlabeled], order[labeled + unlabeled:labeled + unlabeled + test]


def converged(diagnostics):
    """Whether every solve of a fit converged (one-vs-rest keeps a list of K binary records)."""
    return all(d.converged for d in (diagnostics if isinstance(diagnostics, list) else [diagnostics]))


def compare(X, y, rows_l, rows_u, rows_t, lam=LAM, lam_u=LAM_U):
    """[row of the record] of both methods on one split (module doc)."""
    rows = np.r_[rows_l, rows_u]
    X_fit, truth = X[rows], y[rows]
    y_fit = np.full(rows.size, -1)
    y_fit[:rows_l.size] = truth[:rows_l.size]
    labeled = y_fit != -1
    classes = np.unique(truth[labeled])
    problems = [from_mask(X_fit, np.where(truth[labeled] == c, 1.0, -1.0), labeled) for c in classes]
    found = []
    for method in METHODS + (REFERENCE,):
        cpu, wall = time.process_time(), time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")         # a capped solve is recorded (converged), not printed
            model = (LinearSVM(lam=lam) if method == REFERENCE
                     else LinearDA(lam=lam, lam_u=lam_u, multiclass=method)).fit(X_fit, y_fit)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        W = np.hstack([model.coef_, model.intercept_[:, None]])
        guess = getattr(model, "transduction_", None)
        guess = model.predict(X_fit[~labeled]) if guess is None else guess[~labeled]
        found.append({
            "method": method, "transductive_error": float(np.mean(guess != truth[~labeled])),
            "test_error": float(np.mean(model.predict(X[rows_t]) != y[rows_t])) if rows_t.size else float("nan"),
            "objective_k": float(objective_of_weights(problems, W, lam, lam_u)), "cpu_seconds": cpu,
            "wall_seconds_not_a_timing": wall, "iterations": int(np.sum(model.n_iter_)),
            "converged": converged(model.diagnostics_)})
    return found


def run(name, X, y, splits, sizes, lam=LAM, lam_u=LAM_U):
    """The record of data set ``name`` (module doc) over ``splits`` splits at ``sizes`` (l, u, t), yielded after
    each split (the record of the splits so far: ``settings``' ``splits`` is those done of ``splits_asked``)."""
    rows, keys = [], data_keys({name: (X, y)})
    for seed in range(splits):
        rows_l, rows_u, rows_t = split(y, *sizes, seed)
        for row in compare(X, y, rows_l, rows_u, rows_t, lam, lam_u):
            rows.append({"dataset": name, "split": seed, **row})
            print(f"  {name} split {seed} {row['method']:5s}: transductive {row['transductive_error']:.4f}, test "
                  f"{row['test_error']:.4f}, J {row['objective_k']:.5f}, {row['cpu_seconds']:.1f} CPU s", flush=True)
        yield {"provenance": provenance(), "data_keys": keys,
               "settings": {"dataset": name, "rows": int(X.shape[0]), "features": int(X.shape[1]),
                            "classes": int(np.unique(y).size), "n_labeled": int(rows_l.size),
                            "n_unlabeled": int(rows_u.size), "n_test": int(rows_t.size), "splits": seed + 1,
                            "splits_asked": splits, "lam": lam, "lam_u": lam_u, "r": "labeled rows' shares"},
               "rows": rows}


def write_records(out, names, make):
    """Write each record ``make(name)`` yields to ``out/<name>.json`` (atomically, replacing the one before: the
    file holds this run's points alone, and a run cut short leaves its splits so far), for each of ``names``;
    the kernels are compiled first (compilation is not a fit: not timed)."""
    from ssl_repro.solvers import warm_up_kernels
    from ssl_repro.utils.atomic import atomic_write
    warm_up_kernels()
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name in names:
        for record in make(name):
            with atomic_write(out / f"{name}.json") as f:
                f.write(json.dumps(record, indent=1) + "\n")
        print(f"wrote {out / f'{name}.json'}", flush=True)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--datasets", nargs="+", default=list(SIZES), choices=list(SIZES))
    ap.add_argument("--splits", type=int, default=10)
    ap.add_argument("--max-unlabeled", type=int, default=None, help="fewer unlabeled and test rows (a quick look)")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args(argv)

    def record(name):
        X, y = MULTICLASS_DATASETS[name](data_root())
        labeled, unlabeled, test = SIZES[name]
        cap = args.max_unlabeled or unlabeled
        return run(name, X, y, args.splits, (labeled, min(unlabeled, cap), min(test, cap)))
    write_records(args.out, args.datasets, record)
    return 0


if __name__ == "__main__":
    sys.exit(main())
