"""Speed beside SVM-light (000 Table 9, 003 Table 4)."""
import numpy as np
import pandas as pd

from ssl_repro.claims.timing_rules import svmlight_ratios
from ssl_repro.report.paper_beside import beside_lines, our_table9_rows
from ssl_repro.report.record_text import NOT_YET, data_kind, real_name, short_commit
from ssl_repro.report.tables import NAMES, claim_lines, fmt, num, pct, table


def section_svmlight(records):
    """000 Table 9 / 003 Table 4: the paper's seconds and errors beside SVM-light's (``peers/table9.csv``)
    and ours (the timing sweeps' split 0 at the lowest label count, else the learning curves')."""
    peers = records.csv("peers/table9.csv")
    lines = ["## Speed beside SVM-light (svmlight-speed: 000 Table 9, 003 Table 4)", "",
             *claim_lines(records, "svmlight-speed"), "",
             "The first split at the lowest label count. 003's Table 4 has the same rows but its numbers are not "
             "legible in its text; 000 Table 9's are (MATLAB, error rate not said to be test or transductive). "
             "Ours: the timing sweep's split 0 at the lowest label count (else the learning curve's), one "
             "solver thread, seconds of the fit; SVM-light: its printed CPU seconds; a run killed at its CPU-time "
             "cap shows the CPU seconds its process had used at the kill, as recorded (\"killed at ... CPU s\"; "
             "\"> cap\" where the record has no CPU seconds)."]
    ours = our_table9_rows(records)
    if peers is None:
        lines.append("SVM-light: " + NOT_YET + " (`peers/table9.csv` absent).")
        svmlight = ours.iloc[0:0]
    else:
        svmlight = peers[peers["method"] == "svmlight-tsvm"].assign(
            code=lambda f: [f"`peers/table9.csv`: {short_commit(c)}, {str(d)[:10]}" for c, d in zip(f["git_commit"],
                                                                                               f["date"])])
        lines.append("SVM-light from `peers/table9.csv` (its binary, command, machine and load in "
                     "`peers/table9.json`).")
    both = pd.concat([svmlight, ours], ignore_index=True)
    order = {m: i for i, m in enumerate(("svmlight-tsvm", "tsvm-S1", "tsvm-Smax", "da"))}
    both = both.sort_values(["dataset", "method"], key=lambda c: c.map(order) if c.name == "method" else c,
                            kind="stable")
    rows = []
    for _, r in both.iterrows():
        paper_s = records.paper_value(paper="000", where="Table 9", dataset=real_name(r["dataset"]),
                                      method=r["method"], quantity="seconds")
        paper_e = records.paper_value(paper="000", where="Table 9", dataset=real_name(r["dataset"]),
                                      method=r["method"], quantity="error")
        seconds = _killed_text(r) if bool(r.get("capped", False)) else num(r["seconds"], 3)
        rows.append([r["dataset"], data_kind(r["dataset"]), r["n_labeled"], NAMES.get(r["method"], r["method"]),
                     fmt(paper_s), seconds, pct(paper_e), pct(r["test_error"]), pct(r["transductive_error"]),
                     r["code"]])
    ratios = svmlight_ratios(records)
    faster = [f"{dataset}: {'>= ' if capped else ''}{ratio:.3g}x ({basis})"
              for dataset, ratio, capped, basis in ratios if ratio is not None]
    unmeasured = [dataset for dataset, ratio, _, _ in ratios if ratio is None]
    if unmeasured:
        faster.append(f"no ratio on {', '.join(unmeasured)}: our seconds there are a learning curve's (jobs in "
                      "parallel), never set in a ratio")
    lines += ["", table(["dataset", "data", "labels", "method", "000 seconds", "ours seconds", "000 error",
                         "ours test error", "ours transductive error", "record"], rows)]
    if faster:
        lines += ["", "SVM-light's seconds over TSVM S=max's (the ratio claims 000 Table 9 and 003 Table 4 are "
                  "judged on): " + "; ".join(faster) + "."]
    return lines + beside_lines(records, [("000", "Table 9")])


def _killed_text(row):
    """``killed at 594.9 CPU s (cap 600)`` from the record; ``> 600`` when it has no CPU seconds."""
    cpu = row.get("cpu_seconds", np.nan)
    if cpu is None or not np.isfinite(cpu):
        return f"> {row['cap_seconds']:g}"
    return f"killed at {cpu:.1f} CPU s (cap {row['cap_seconds']:g})"
