"""002's 10-class artifacts in the report: Table 2's uspst column on digits (its analog), Fig 6 on digits and
mnist-5k (:mod:`.cccp_002_fig6`) and Table 5 / Fig 9 on mnist-5k (a real subset of MNIST), beside 002's numbers;
lines of the section of :mod:`.cccp_002_tables`.  The records and the claims' tests:
:mod:`ssl_repro.claims.cccp_002_rules` (``record`` tests), :mod:`ssl_repro.claims.cccp_002_mnist_rules` and
:mod:`ssl_repro.claims.cccp_002_fig6_rules`; what each run reduces: ``experiments/artifact_table.py``.
"""
import numpy as np

from ssl_repro.claims.cccp_002_mnist_rules import RECORD as MNIST
from ssl_repro.claims.cccp_002_rules import TABLE2_ROWS, best
from ssl_repro.claims.scaling import exponent
from ssl_repro.report.sections.cccp_002_fig6 import SECONDS_SAID, fig6_lines

DIGITS = "cccp_002/grid_digits.csv"
#: The work counts of a CCCP-TSVM fit in mnist.csv (the SVM's rows leave them empty).
WORK = ("kernel_evaluations", "cccp_iterations")
#: Table 2's rows that run on digits: the peers (SVM-light's TSVM, UniverSVM) are two-class programs here.
DIGITS_ROWS = tuple(row for row in TABLE2_ROWS if row[2] in ("svm", "nabla-tsvm", "cccp-tsvm"))


def section_lines(records, table):
    """The lines of Table 2's uspst column and of Table 5 / Fig 9 (or how to make them, when not run)."""
    return _digits_lines(records, table) + fig6_lines(records, table) + _mnist_lines(records, table)


def _digits_lines(records, table):
    grid = records.csv(DIGITS)
    head = ["**Table 2's uspst column on digits (002-table2-uspst)**", ""]
    if grid is None:
        return head + ["Not run yet: `python experiments/cccp_002.py table2 --dataset digits`.", ""]
    rows = []
    for label, paper_key, method, fixed in DIGITS_ROWS:
        paper = records.paper_value(paper="002", where="Table 2", dataset="Uspst", method=paper_key)
        found = best(grid, "digits", method, fixed)
        point = ", ".join(f"{k}={v:g}" for k, v in found[1].items()) if found else ""
        rows.append([label, f"{paper:.2f}" if paper is not None else "-",
                     f"{100 * found[0]:.2f} ({point}; {found[2]} splits)" if found else "not run"])
    fits = grid.groupby("method")["seconds"].agg(["size", "sum"])
    spent = "; ".join(f"{m} {int(r['size'])} fits, {r['sum']:.0f} s" for m, r in fits.iterrows())
    return head + ["Error on the unlabeled rows (%), best over the grid of the mean over splits, as Table 2; digits "
                   "(scikit-learn's 1,797 8x8 digits) stands for uspst (the 2,007 USPS test digits, 16x16): 10 "
                   "classes one-vs-rest, each problem's balance its class's share, 50 labeled rows (5 per class). "
                   f"Reduced to keep the step to minutes: {grid['split'].nunique()} splits of 002's 10, one kernel "
                   "width (the median "
                   "pairwise distance), C = 10, s in {0, -0.3}, lam_u in {1, 3} (1: UC* = LC).", "",
                   table(["method", "uspst: 002", "digits: ours"], rows), "",
                   f"Fits: {spent} ({SECONDS_SAID}).", ""]


def _mnist_lines(records, table):
    frame = records.csv(MNIST)
    head = ["**Table 5 and Fig 9 on mnist-5k (002-mnist)**", ""]
    if frame is None:
        return head + ["Not run yet: `python experiments/cccp_002_mnist.py table5 --most 4000 --fresh`.", ""]
    frame = frame.reindex(columns=list(dict.fromkeys([*frame.columns, *WORK])))      # SVM rows alone have none
    cells = frame.groupby(["n_labeled", "method", "n_unlabeled"])
    means = cells[["test_error", "seconds", *WORK]].mean().join(
        cells.size().rename("splits")).reset_index()
    rows = []
    for r in means.itertuples():
        paper = records.paper_value(paper="002", where="Table 5", dataset="MNIST", method=r.method,
                                    n_labeled=int(r.n_labeled), n_unlabeled=int(r.n_unlabeled))
        rows.append([r.method, int(r.n_labeled), int(r.n_unlabeled), f"{paper:.2f}" if paper is not None else "-",
                     f"{100 * r.test_error:.2f}", f"{r.seconds:.1f}",
                     "-" if np.isnan(r.cccp_iterations) else f"{r.cccp_iterations:g}", r.splits])
    lines = head + ["Test error (%) on the 1,000 test rows of mnist-5k (5,000 of MNIST's digits), the unlabeled rows "
                    "the test rows first, then training rows, as 002 draws them; 002's settings (gamma = 0.0128, "
                    "C = 10, s = -0.1), C* by UC* = LC (002 chose it on a validation set; UC* = LC gives its "
                    "choice at 1,000 labels and 2,000 unlabeled rows). Reduced: this record reaches "
                    f"{int(frame['n_unlabeled'].max()):,} unlabeled rows (the subset holds 4,000 besides 1,000 labels: "
                    f"`--most 4000`, minutes more; 002: 60,000), {frame['split'].nunique()} split(s) "
                    "(002's table is one run). 002's numbers are at its sizes; ours at the sizes mnist-5k holds "
                    f"(- where 002 has no row). Seconds: {SECONDS_SAID}.", "",
                    table(["method", "labels", "unlabeled", "002 (MNIST)", "ours (mnist-5k)", "CPU s", "CCCP steps",
                           "splits"], rows), ""]
    timed = means[(means["method"] == "cccp-tsvm") & (means["n_labeled"] == means["n_labeled"].max())]
    if len(timed) >= 3:
        n = (timed["n_labeled"] + timed["n_unlabeled"]).to_numpy(float)
        p, lo, hi = exponent(n, timed["seconds"].to_numpy(float))
        a, b, c = np.polyfit(timed["n_unlabeled"].to_numpy(float), timed["seconds"].to_numpy(float), 2)
        lines += [f"Fig 9 (CCCP-TSVM at {int(timed['n_labeled'].max()):,} labels): CPU seconds ~ n^{p:.2f} (95% "
                  f"{lo:.2f} to {hi:.2f}; n = L + U); 002's degree-two least-squares fit on ours: seconds = "
                  f"{a:.3g} U^2 + {b:.3g} U + {c:.3g}.", ""]
    return lines
