"""Training time (000 Fig 11, 003 Fig 3, 004 Fig 1.6): seconds and their ratios, as the timing claims read them:
medians of the timing protocol's undisturbed runs (:mod:`ssl_repro.claims.timing_rules`), never means."""
import numpy as np

from ssl_repro.claims.timing_rules import protocol_runs
from ssl_repro.report.record_text import cells, data_kind, sweep_frames
from ssl_repro.report.tables import claim_lines, folder_line, seconds, stopped, table, tally

METHODS = ("tsvm-S1", "tsvm-S10", "tsvm-S100", "tsvm-Smax", "da")


def section_timing(records):
    lines = ["## Training time (timing: 000 Fig 11, 003 Fig 3, 004 Fig 1.6)", "", *claim_lines(records, "timing"), ""]
    rows, tenfold, sixfold, between = [], [], [], []
    for folder, dataset, frame in sweep_frames(records, "timing_"):
        lines.append(folder_line(records, folder, frame))
        runs = protocol_runs(frame)
        if runs is None:
            lines.append(f"{folder}: not timed by the protocol; no seconds shown.")
            continue
        for l, u, cell in cells(runs):
            median = cell.groupby("method")["seconds"].median()
            count = cell.groupby("method").size()
            s1, smax, da = (median.get(k, np.nan) for k in ("tsvm-S1", "tsvm-Smax", "da"))
            ratio = s1 / smax
            tenfold.append("yes" if ratio >= 10 else "no")
            sixfold.append("yes" if 5.5 <= ratio < 7.5 else "no")
            between.append("yes" if smax < da < s1 else "no")
            rows.append([dataset, data_kind(dataset), l, cell["split"].nunique(),
                         *(f"{seconds(median[m])} ({count[m]})" if m in median else "-" for m in METHODS),
                         f"{ratio:.3g}", f"{da / smax:.3g}", tenfold[-1], sixfold[-1], between[-1],
                         stopped(cell, METHODS)])
    return lines + ["", "Seconds of training: the median over the timing protocol's undisturbed runs of a cell "
                    "(in brackets: how many), as the timing claims read them (`timing_*/results.csv`). S=1 at "
                    f"least ten times S=max (003: \"an order of magnitude\"): {tally(tenfold)}; six to seven times "
                    f"(004, a ratio that rounds to 6 or 7): {tally(sixfold)}; DA between S=max and S=1 "
                    f"(003): {tally(between)}.", "",
                    table(["dataset", "data", "labels", "splits", "S=1 (s)", "S=10 (s)", "S=100 (s)", "S=max (s)",
                           "DA (s)", "S=1 / S=max", "DA / S=max", "S=1 >= 10 x S=max", "S=1 / S=max in [5.5, 7.5)",
                           "S=max < DA < S=1", "not converged"], rows)]
