"""The Potts DA (K classes at once) beside one-vs-rest DA: error, objective and seconds on K-class data.

    python experiments/potts_vs_ovr.py --datasets digits,mnist-5k,20ng-all --splits 10

For each data set (:mod:`ssl_repro.data.multiclass`) and split (seeded): ``--labeled`` random rows
labeled (every class among them), up to ``--unlabeled`` other rows unlabeled; both methods fit
:class:`~ssl_repro.estimators.LinearDA` at lam, lam' on the same rows (``multiclass="ovr"``, 002's
one-vs-rest with r per class, and ``multiclass="potts"``, :mod:`ssl_repro.solvers.potts`), r the labeled
rows' class shares.  Printed per split and as means: the error on the unlabeled rows (transduction), J
over K classes (:func:`ssl_repro.solvers.potts.objective_of_weights`, the same function of the K weight
vectors for both) and the seconds of the fit (the machine may be shared: rough).
"""
import argparse
import os
import time
import warnings
from pathlib import Path

import numpy as np

from ssl_repro.data.multiclass import MULTICLASS_DATASETS
from ssl_repro.estimators import LinearDA
from ssl_repro.solvers import from_mask
from ssl_repro.solvers.potts import objective_of_weights

#: Labeled and most unlabeled rows per data set (small enough that ten splits run in minutes).
SIZES = {"digits": (100, 1697), "mnist-5k": (100, 2000), "20ng-all": (400, 3000)}


def split(y, labeled, unlabeled, seed):
    """(labeled rows, unlabeled rows): every class among the labeled rows."""
    rng = np.random.default_rng(seed)
    while True:
        order = rng.permutation(y.size)
        rows_l, rows_u = order[:labeled], order[labeled:labeled + unlabeled]
        if np.unique(y[rows_l]).size == np.unique(y).size:
            return rows_l, rows_u


def compare(X, y, rows_l, rows_u, lam, lam_u):
    """{method: (unlabeled error, J over K, seconds)} on one split."""
    rows = np.r_[rows_l, rows_u]
    X_fit, truth = X[rows], y[rows]
    y_fit = np.full(rows.size, -1)
    y_fit[:rows_l.size] = truth[:rows_l.size]
    labeled = y_fit != -1
    classes = np.unique(truth[labeled])
    problems = [from_mask(X_fit, np.where(truth[labeled] == c, 1.0, -1.0), labeled) for c in classes]
    out = {}
    for method in ("ovr", "potts"):
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = LinearDA(lam=lam, lam_u=lam_u, multiclass=method).fit(X_fit, y_fit)
        seconds = time.perf_counter() - start
        W = np.hstack([model.coef_, model.intercept_[:, None]])
        error = float(np.mean(model.transduction_[~labeled] != truth[~labeled]))
        out[method] = (error, objective_of_weights(problems, W, lam, lam_u), seconds)
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", default="digits,mnist-5k,20ng-all")
    parser.add_argument("--splits", type=int, default=10)
    parser.add_argument("--lam", type=float, default=1e-3)
    parser.add_argument("--lam-u", type=float, default=1.0)
    parser.add_argument("--max-unlabeled", type=int, default=None, help="fewer unlabeled rows than SIZES' (quicker)")
    args = parser.parse_args(argv)
    root = Path(os.environ.get("SSL_REPRO_DATA", "data"))
    for name in args.datasets.split(","):
        X, y = MULTICLASS_DATASETS[name](root)
        labeled, unlabeled = SIZES[name]
        unlabeled = min(unlabeled, args.max_unlabeled or unlabeled)
        print(f"{name}: {X.shape[0]} rows, {X.shape[1]} features, {np.unique(y).size} classes; l={labeled}, "
              f"u={min(unlabeled, X.shape[0] - labeled)}, lam={args.lam:g}, lam_u={args.lam_u:g}", flush=True)
        results = []
        for seed in range(args.splits):
            result = compare(X, y, *split(y, labeled, unlabeled, seed), args.lam, args.lam_u)
            results.append(result)
            print(f"  split {seed}: " + "; ".join(f"{m} error {e:.4f} J {j:.5f} {s:.1f} s"
                                                 for m, (e, j, s) in result.items()), flush=True)
        for method in ("ovr", "potts"):
            figures = np.array([r[method] for r in results])
            print(f"  mean over {len(results)} splits, {method:5s}: error {figures[:, 0].mean():.4f} "
                  f"(sd {figures[:, 0].std(ddof=1) if len(results) > 1 else 0:.4f}), J {figures[:, 1].mean():.5f}, "
                  f"{figures[:, 2].mean():.1f} s", flush=True)
        wins = sum(r["potts"][1] < r["ovr"][1] for r in results)
        print(f"  Potts J lower than one-vs-rest's on {wins} of {len(results)} splits", flush=True)


if __name__ == "__main__":
    main()
