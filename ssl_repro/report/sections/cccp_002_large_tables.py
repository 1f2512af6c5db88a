"""002's large experiment (Sec. 5.1) in the report: Table 4 beside 002's, Fig 8's times and work counts.

The protocol's constants, the selection rule and the claims' tests are
:mod:`ssl_repro.claims.cccp_002_large_rules`'s.
"""
import pandas as pd

from ssl_repro.claims.cccp_002_large_rules import (DATASET, LABELS, PROVENANCE, RECORD, UNLABELED, VALIDATION_ROWS,
                                                   fig8_points, table4)
from ssl_repro.claims.scaling import exponent
from ssl_repro.report.record_text import provenance


def _pct(value):
    return "-" if value is None or pd.isna(value) else f"{100 * value:.2f}"


def section_lines(records, table):
    """The large experiment's lines of the 002 section: Table 4 beside 002's, Fig 8's times and work."""
    frame = records.csv(RECORD)
    head = ["**Table 4 and Fig 8 (002 Sec. 5.1) on the 20 Newsgroups analog of RCV1's CCAT vs GCAT**", ""]
    if frame is None:
        return head + ["Not run yet: `python experiments/cccp_002.py large`.", ""]
    prov = records.json(PROVENANCE)
    rows = table4(frame)
    splits = sorted(frame["split"].unique())
    ran = sorted(int(u) for u in rows.loc[rows["method"] == "cccp-tsvm", "n_unlabeled"].unique())
    note = (prov or {}).get("provenance", {}).get("note")
    lines = head + [f"Records `{RECORD}`" + (f": {provenance(prov)}" if prov else "") + (f" ({note})" if note else "")
                    + ". "
                    f"{DATASET}: comp.* + sci.* (+1) vs talk.* + alt.atheism + soc.religion.christian, "
                    f"{VALIDATION_ROWS:,} validation rows, the rest the test rows (sizes beside 002's in "
                    "experiments/cccp_002_large.py). Run: " + f"{len(splits)} split(s), U = "
                    + ", ".join(f"{u:,}" for u in ran) + "; the protocol's U: "
                    + ", ".join("all" if u is None else f"{u:,}" for u in UNLABELED) + ".", ""]
    lines += ["Table 4: test error (%), mean over the splits, of the fit chosen on the validation rows "
              "(SVM: C and sigma; CCCP-TSVM: C and sigma once per L with the validation rows unlabeled, then "
              "C* and s per U); 002's on RCV1 beside.", ""]
    body = []
    for (L, U), cell in rows.groupby(["n_labeled", "n_unlabeled"]):
        method = cell["method"].iloc[0]
        paper = records.paper_value(paper="002", where="Table 4", n_labeled=int(L), n_unlabeled=int(U))
        point = cell.iloc[0]
        params = f"C={point.C:g}, factor={point.factor:g}" + (
            f", C*/C={point.c_star_ratio:g}, s={point.s:g}" if method == "cccp-tsvm" else "")
        body.append([method, int(L), f"{int(U):,}", _pct(paper / 100 if paper is not None else None),
                     _pct(cell["test_error"].mean()), params + (f" (split {int(point.split)})" if len(splits) > 1
                                                                  else ""),
                     _pct(cell["validation_error"].mean())])
    lines += [table(["method", "L", "U", "002 (RCV1)", "ours", "chosen", "validation error"], body), ""]
    tsvm = rows[rows["method"] == "cccp-tsvm"]
    for L, part in tsvm.groupby("n_labeled"):
        means = part.groupby("n_unlabeled")["test_error"].mean()
        paper = records.paper_numbers(paper="002", where="Sec. 5.1", n_labeled=int(L))
        lines.append(f"- L = {L}: lowest test error over the U run {_pct(means.min())}% at U = {means.idxmin():,}"
                     + (f" (002: {paper[0]['value']:g}% at U = {paper[0]['n_unlabeled']:,})" if paper else ""))
    return lines + [""] + fig8_lines(records, rows, table)

def fig8_lines(records, rows, table):
    """Fig 8: the selected fits' CPU seconds and work counts against U (:func:`fig8_points`), with the
    exponents."""
    tsvm, basis = fig8_points(records, rows)
    if tsvm.empty:
        return []
    out = [f"Fig 8: training time of the selected CCCP-TSVM fits against U (CPU seconds; {basis}) and the work "
           "counts; 002: "
           + "; ".join(f"about {records.paper_value(paper='002', where='Sec. 5.1 (Fig 8)', n_labeled=L):g} minutes "
                       f"at 12,500 unlabeled rows with {L:,} labels" for L in LABELS
                       if records.paper_value(paper="002", where="Sec. 5.1 (Fig 8)", n_labeled=L) is not None)
           + " (a 64-bit Opteron).", "",
           table(["L", "U", "CPU s", "load", "runs", "CCCP steps", "SMO steps", "kernel evaluations",
                  "converged (share)"],
                 [[int(r.n_labeled), f"{int(r.n_unlabeled):,}", f"{r.seconds:.3g}", f"{r.load:.1f}", int(r.runs),
                   f"{r.cccp_iterations:.3g}", f"{r.smo_iterations:.3g}", f"{r.kernel_evaluations:.3g}",
                   f"{r.converged:.0%}"]
                  for r in tsvm.itertuples()]), ""]
    for L, part in tsvm.groupby("n_labeled"):
        if len(part) < 3:
            out.append(f"- L = {L}: fewer than 3 U timed, no exponent")
            continue
        n = (part["n_labeled"] + part["n_unlabeled"]).to_numpy(float)
        for what in ("seconds", "kernel_evaluations", "smo_iterations"):
            p, lo, hi = exponent(n, part[what].to_numpy(float))
            out.append(f"- L = {L}: {what} ~ n^p over n = L + U = {int(n.min()):,}..{int(n.max()):,}: p = {p:.2f} "
                       f"(95% interval {lo:.2f} to {hi:.2f})")
    return out + [""]
