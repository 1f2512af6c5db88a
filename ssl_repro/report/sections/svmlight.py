"""Speed beside SVM-light (000 Table 9, 003 Table 4)."""
import numpy as np
import pandas as pd

from ssl_repro.report.record_text import NOT_YET, commit_note, data_kind, real_name, short_commit, sweep_frames
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
    ours = _our_table9_rows(records)
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
    rows, faster = [], []
    for _, r in both.iterrows():
        paper_s = records.paper_value(paper="000", where="Table 9", dataset=real_name(r["dataset"]),
                                      method=r["method"], quantity="seconds")
        paper_e = records.paper_value(paper="000", where="Table 9", dataset=real_name(r["dataset"]),
                                      method=r["method"], quantity="error")
        seconds = _killed_text(r) if bool(r.get("capped", False)) else num(r["seconds"], 3)
        rows.append([r["dataset"], data_kind(r["dataset"]), r["n_labeled"], NAMES.get(r["method"], r["method"]),
                     fmt(paper_s), seconds, pct(paper_e), pct(r["test_error"]), pct(r["transductive_error"]),
                     r["code"]])
    for dataset, part in both.groupby("dataset"):
        by_method = part.set_index("method")
        if {"svmlight-tsvm", "tsvm-Smax"} <= set(by_method.index):
            peer = by_method.loc["svmlight-tsvm"]
            capped = bool(peer.get("capped", False))
            spent = _spent(peer) if capped else peer["seconds"]
            faster.append(f"{dataset}: {spent / by_method.loc['tsvm-Smax', 'seconds']:.3g}x"
                          + (" (SVM-light killed at its cap: at least)" if capped else ""))
    lines += ["", table(["dataset", "data", "labels", "method", "000 seconds", "ours seconds", "000 error",
                         "ours test error", "ours transductive error", "record"], rows)]
    if faster:
        lines += ["", "SVM-light's seconds over TSVM S=max's: " + "; ".join(faster) + "."]
    return lines


def _spent(row):
    """A capped run's CPU seconds at the kill (``cpu_seconds``), else its recorded seconds (the cap)."""
    cpu = row.get("cpu_seconds", np.nan)
    return cpu if cpu is not None and np.isfinite(cpu) else row["seconds"]


def _killed_text(row):
    """``killed at 594.9 CPU s (cap 600)`` from the record; ``> 600`` when it has no CPU seconds."""
    cpu = row.get("cpu_seconds", np.nan)
    if cpu is None or not np.isfinite(cpu):
        return f"> {row['cap_seconds']:g}"
    return f"killed at {cpu:.1f} CPU s (cap {row['cap_seconds']:g})"


def _our_table9_rows(records):
    """Our S=1, S=max, DA rows at the lowest label count, split 0, from the timing (else learning-curve) folders."""
    rows = []
    for prefix in ("timing_", "learning_curve_"):
        for folder, dataset, frame in sweep_frames(records, prefix):
            if any(r["dataset"] == dataset for r in rows):
                continue
            low = frame[(frame["split"] == 0) & (frame["n_labeled"] == frame["n_labeled"].min())]
            for method in ("tsvm-S1", "tsvm-Smax", "da"):
                part = low[low["method"] == method]
                if not part.empty:
                    r = part.iloc[0]
                    rows.append({"dataset": dataset, "n_labeled": int(r["n_labeled"]), "method": method,
                                 "seconds": r["seconds"], "capped": False, "test_error": r["test_error"],
                                 "transductive_error": r["transductive_error"],
                                 "code": f"`{folder}`: {commit_note(part)}"})
    return pd.DataFrame(rows, columns=["dataset", "n_labeled", "method", "seconds", "capped", "test_error",
                                       "transductive_error", "code"])
