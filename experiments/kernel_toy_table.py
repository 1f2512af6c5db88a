"""Table 2 of 001: successes out of 10 random draws of 2 labeled points on 2MOONS and 2CIRCLES.

    python experiments/kernel_toy_table.py [--methods M ...] [--out results/kernel_toy_table]

A success is a decision boundary that classifies every unlabeled point
correctly.  For each method (JTSVM l1/l2, nabla-TSVM, DA l1/l2/sqr) the table reports
the best count over 001's grid: lambda in {1e-4, 1e-3, 1e-2, 1e-1}, RBF
width sigma0 x {1/8, 1/4, 1/2, 1, 2, 4, 8} (sigma0 = median pairwise
distance), lambda' = 1, r = 0.5 (the true ratio).  Draw k picks one
labeled point per class with numpy's default_rng(k).

``--methods`` runs only those methods and keeps the other methods' grid
points of an existing ``grid.json``; ``provenance.json`` holds this run's
machine, date and command and those of the earlier runs it merged with (none
when it ran every method).  Each grid point of ``grid.json`` carries ``data_keys``, the key of the set it
was run on (an earlier run's point keeps its own); ``provenance.json`` carries the keys of both sets, as the
last run that generated each stamped them.
"""
import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))     # the code beside this script, not an installed copy

from ssl_repro.data.embedded import two_circles, two_moons  # noqa: E402
from ssl_repro.data.keys import data_keys  # noqa: E402
from ssl_repro.kernel import default_sigma, rbf_gram  # noqa: E402
from ssl_repro.harness.methods import recipe_variants  # noqa: E402
from ssl_repro.utils.provenance import add_provenance  # noqa: E402

LAMBDAS = (1e-4, 1e-3, 1e-2, 1e-1)
WIDTHS = (1 / 8, 1 / 4, 1 / 2, 1, 2, 4, 8)
#: Row label -> its variant of :data:`ssl_repro.harness.methods.VARIANTS` (tagged ``kernel_toy_table``).
METHODS = {v.label: v for v in recipe_variants("kernel_toy_table")}
DATASETS = {"2MOONS": two_moons, "2CIRCLES": two_circles}
#: 001's Table 2 (2MOONS, 2CIRCLES); it has no DA (sqr) row.
PAPER = {"JTSVM (l1)": (0, 1), "JTSVM (l2)": (0, 1), "nabla-TSVM": (3, 2), "DA (l1)": (10, 10), "DA (l2)": (6, 3)}


def draws(y, n_draws=10):
    for k in range(n_draws):
        rng = np.random.default_rng(k)
        yield np.array([rng.choice(np.flatnonzero(y > 0)), rng.choice(np.flatnonzero(y < 0))])


def successes(X, y, variant, lam, width):
    solver, options = variant.kernel_solver
    K = rbf_gram(X, width * default_sigma(X))
    count = 0
    for labeled in draws(y):
        unlabeled = np.setdiff1d(np.arange(y.size), labeled)
        alpha, bias, _ = solver(K, labeled, y[labeled].astype(float), unlabeled, lam, 1.0, 0.5, **options)
        f = K[unlabeled] @ alpha + bias
        count += int(np.all(np.where(f > 0, 1, -1) == y[unlabeled]))
    return count


def best(grid, dataset, method):
    """(successes, lambda, sigma factor) of the best grid point (the first on ties)."""
    return max(((v, lam, w) for (d, m, lam, w), (v, *_) in grid.items() if (d, m) == (dataset, method)),
               key=lambda cell: cell[0])


def table(grid):
    """Markdown: ours (best over the grid, and where) beside 001's Table 2."""
    lines = ["| method | " + " | ".join(f"{d}: ours | {d}: 001 | {d}: best (lambda, sigma factor)" for d in DATASETS)
             + " |", "|---|" + "---|---|---|" * len(DATASETS)]
    for mname in [m for m in METHODS if any(key[1] == m for key in grid)]:
        cells = []
        for i, d in enumerate(DATASETS):
            count, lam, width = best(grid, d, mname)
            cells += [str(count), str(PAPER[mname][i]) if mname in PAPER else "-", f"{lam:g}, {width:g}"]
        lines.append(f"| {mname} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def earlier_grid(path, methods):
    """The grid points of ``path`` (a grid.json) of the methods not in ``methods``, as ``main`` keys them, each
    with the ``data_keys`` its run stamped (and its ``keyed_at``, when it was keyed later)."""
    if not path.exists():
        return {}
    return {(c["dataset"], c["method"], c["lambda"], c["sigma_factor"]):
            (c["successes"], c["seconds_10_draws"], {k: c[k] for k in ("data_keys", "keyed_at") if k in c})
            for c in json.loads(path.read_text()) if c["method"] not in methods}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--methods", nargs="+", default=list(METHODS), choices=list(METHODS))
    ap.add_argument("--out", default="results/kernel_toy_table")
    args = ap.parse_args(argv)
    out = Path(args.out)
    grid = earlier_grid(out / "grid.json", args.methods)
    merged = bool(grid)        # no earlier grid point kept: no earlier run is part of the record
    used = {}
    for (dname, make), mname in itertools.product(DATASETS.items(), args.methods):
        X, y = used[dname] = make()
        keys = {"data_keys": data_keys({dname: (X, y)})}
        for lam, width in itertools.product(LAMBDAS, WIDTHS):
            start = time.perf_counter()
            grid[(dname, mname, lam, width)] = (successes(X, y, METHODS[mname], lam, width),
                                                time.perf_counter() - start, keys)
        print(dname, mname, best(grid, dname, mname)[0], flush=True)
    add_provenance(out / "provenance.json", merged=merged, data_keys=data_keys(used))
    cells = sorted(grid.items(), key=lambda cell: (list(DATASETS).index(cell[0][0]), list(METHODS).index(cell[0][1])))
    (out / "grid.json").write_text(json.dumps([{"dataset": d, "method": m, "lambda": lam, "sigma_factor": w,
                                                "successes": v, "seconds_10_draws": round(t, 3), **keys}
                                               for (d, m, lam, w), (v, t, keys) in cells], indent=1))
    text = table(grid)
    (out / "table.md").write_text("Successes out of 10 draws of 2 labeled points (best over the grid)\n\n" + text + "\n")
    print(text)


if __name__ == "__main__":
    main()
