"""002's Fig 6 (Sec. 4.3): the heuristics C* = C and UC* = LC as unlabeled rows are added, on digits.

    python experiments/cccp_002_fig6.py [--splits 6] [--sizes 500 1000 1747]

002 took uspst (the 2,007 USPS test digits), 50 labeled rows on each of 10 splits and the others unlabeled,
then added up to 6,000 unlabeled rows from USPS's training part, and reported per heuristic the best
over gamma and C of the mean error over the splits, on uspst's rows.  USPS is not here; digits
(scikit-learn's 1,797 8x8 digits, the registry's analog of uspst) stands for it, 10 classes one-vs-rest,
each binary problem's r its class's share (002's scheme; ``cccp_002.fit_row``).  Split s: 50 labeled rows
(5 per class, ``cccp_002_data.split_rows``) and the other 1,747 in an order drawn with seed 2000 + s; the
first :data:`TEST_ROWS` of them are uspst's part (always unlabeled; the error is on them), the others are
the added rows, taken in that order: U = 500 (none added) ... 1,747 (all).  C* = C is lam_u = U / L,
UC* = LC lam_u = 1 (:class:`ssl_repro.estimators.KernelCCCPTSVM`).

Reduced (the step's default work stays at minutes: a 10-class fit at U = 1,747 took about 12 CPU s on a
shared machine, and C* = C takes more CCCP steps): one kernel width (the median pairwise distance) and
C = 10, Table 2's digits grid, instead of the best over gamma and C; s = 0 (Table 3's fixed-s rows);
:data:`SPLITS` splits of 002's 10 (the fewest whose paired signed-rank test can reach p < 0.05); the sizes
:data:`SIZES`: the test part alone, about as many added, then every row digits holds (3.5 times the
test part; 002: 1,957 rows plus up to 6,000 added, about 4 times).  mnist-5k's larger sizes are not run (a
step of its own would take tens of minutes).

Rows (``results/cccp_002/fig6.csv``): per split, heuristic and U the error on the test part, the fit's CPU
seconds (``time.process_time``, one thread) and wall seconds (on a shared machine: not timings), CCCP and
SMO steps summed over the 10 problems.  Data keys: ``provenance.json``'s (``cccp_002_data.note``).
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ssl_repro.estimators.kernel_cccp import KernelCCCPTSVM, sampled_sigma  # noqa: E402

from cccp_002 import C_STAR_IS_C, GRIDS, fit_row  # noqa: E402
from cccp_002_data import OUT, load, note, split_rows, write  # noqa: E402

RECORD = OUT / "fig6.csv"
DATASET = "digits"
#: The rows of each split that stand for uspst's (always unlabeled; the error is on them).
TEST_ROWS = 500
#: The unlabeled-row counts (TEST_ROWS plus the added rows; 1,747: every row of digits not labeled).
SIZES = (500, 1000, 1747)
#: Every row of digits not labeled (1,797 less 50).
ALL = 1747
SPLITS = 6
#: 002's two heuristics as lam_u (the record's ``heuristic``: "C*=C", "UC*=LC").
HEURISTICS = (C_STAR_IS_C, 1.0)
#: Table 2's digits point (one width, one C) and Table 3's fixed s.
FACTOR, C, S = GRIDS[DATASET]["factor"][0], GRIDS[DATASET]["C"][0], 0.0


def unlabeled_rows(labeled, n_rows, size, seed):
    """(the unlabeled rows of ``size``, the test part): the rows not labeled in an order drawn with ``seed``,
    the first :data:`TEST_ROWS` the test part, then the added rows, up to ``size`` in all."""
    order = np.random.default_rng(seed).permutation(np.setdiff1d(np.arange(n_rows), labeled))
    return np.sort(order[:size]), np.sort(order[:TEST_ROWS])


def fig6(splits, sizes):
    """Fig 6's fits (module doc), merged into :data:`RECORD` (each written as it ends)."""
    X, y = load(DATASET)
    sigma = FACTOR * sampled_sigma(X)
    for split in range(splits):
        labeled, _ = split_rows(y, split)
        rows = []
        for size in sizes:
            unlabeled, test = unlabeled_rows(labeled, y.size, size, 2000 + split)
            for lam_u in HEURISTICS:
                wall = time.perf_counter()
                row = fit_row("cccp-tsvm", X, y, labeled, unlabeled, sigma, C, S, lam_u, scored=test)
                rows.append({"dataset": DATASET, "split": split, "n_labeled": labeled.size, "factor": FACTOR, **row,
                             "n_test": test.size, "wall_seconds": time.perf_counter() - wall})
                print(f"{DATASET} fig6 split {split} U={size} {row['heuristic']}: error "
                      f"{100 * row['transductive_error']:.2f}%, {row['seconds']:.1f} CPU s", flush=True)
                write(RECORD, rows, ("dataset", "split", "heuristic", "n_unlabeled"))
        note(None, f"fig6 {DATASET}", {DATASET: (X, y)})


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--splits", type=int, default=SPLITS, help=f"splits (default {SPLITS}; 002: 10)")
    ap.add_argument("--sizes", type=int, nargs="+", default=SIZES,
                    help=f"unlabeled-row counts, each from {TEST_ROWS} (none added) to {ALL} (all digits holds)")
    args = ap.parse_args(argv)
    if args.splits < 1:
        ap.error(f"--splits {args.splits}: must be positive")
    if any(not TEST_ROWS <= u <= ALL for u in args.sizes):
        ap.error(f"--sizes {args.sizes}: each must lie in {TEST_ROWS}..{ALL} (the test part, then added rows)")
    from ssl_repro.harness.app import limit_threads
    limit_threads(1)
    KernelCCCPTSVM.warm_up()
    fig6(args.splits, sorted(set(args.sizes)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
