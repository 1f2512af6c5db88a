"""Training time (000 Fig 11, 003 Fig 3, 004 Fig 1.6): seconds and their ratios."""
import numpy as np

from ssl_repro.report.record_text import cells, data_kind, sweep_frames
from ssl_repro.report.tables import cell_text, claim_lines, folder_line, seconds, stopped, table, tally


def section_timing(records):
    lines = ["## Training time (timing: 000 Fig 11, 003 Fig 3, 004 Fig 1.6)", "", *claim_lines(records, "timing"), ""]
    rows, tenfold, sixfold, between = [], [], [], []
    for folder, dataset, frame in sweep_frames(records, "timing_"):
        lines.append(folder_line(records, folder, frame))
        for l, u, cell in cells(frame):
            mean = cell.groupby("method")["seconds"].mean()
            s1, smax, da = (mean.get(k, np.nan) for k in ("tsvm-S1", "tsvm-Smax", "da"))
            ratio = s1 / smax
            tenfold.append("yes" if ratio >= 10 else "no")
            sixfold.append("yes" if ratio >= 6 else "no")
            between.append("yes" if smax < da < s1 else "no")
            rows.append([dataset, data_kind(dataset), l, cell["split"].nunique(),
                         *(cell_text(cell, m, "seconds", seconds)
                           for m in ("tsvm-S1", "tsvm-S10", "tsvm-S100", "tsvm-Smax", "da")),
                         f"{ratio:.3g}", f"{da / smax:.3g}", tenfold[-1], sixfold[-1], between[-1],
                         stopped(cell, ("tsvm-S1", "tsvm-S10", "tsvm-S100", "tsvm-Smax", "da"))])
    return lines + ["", "Seconds of training, mean over the splits run (`timing_*/results.csv`). S=1 at least ten "
                    f"times S=max (003: \"an order of magnitude\"): {tally(tenfold)}; at least six times "
                    f"(004: \"six to seven times\"): {tally(sixfold)}; DA between S=max and S=1 "
                    f"(003): {tally(between)}.", "",
                    table(["dataset", "data", "labels", "splits", "S=1 (s)", "S=10 (s)", "S=100 (s)", "S=max (s)",
                           "DA (s)", "S=1 / S=max", "DA / S=max", "S=1 >= 10 x S=max", "S=1 >= 6 x S=max",
                           "S=max < DA < S=1", "not converged"], rows)]
