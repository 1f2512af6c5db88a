""""Beyond the papers" at a glance: a matrix of compact marks (wins k/n, mean difference in points), the
verdict row the questions' verdicts, the full evidence folded, and the figure of the paired differences."""
import numpy as np
import pandas as pd

from ssl_repro.claims.beyond_rules import verdicts
from ssl_repro.claims.records import Records
from ssl_repro.report.sections import beyond_table as beyond

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_mark_counts_the_cells_won_on_every_error_and_the_mean_difference_in_points():
    rows = []
    for l, gap in ((2, -0.10), (4, -0.10), (8, 0.0)):           # lower by 10 points in two cells, equal in one
        for split in range(8):             # 8 splits: the signed-rank p of 8 wins is 2/256
            base = 0.3 + 0.01 * split
            rows += [{"dataset": "pcmac", "n_labeled": l, "n_unlabeled": 100, "split": split, "method": m,
                      "transductive_error": e, "test_error": e} for m, e in (("da", base + gap), ("svm_cv", base))]
    frame = pd.DataFrame(rows)
    pairs = beyond.cells(frame, "da", "svm_cv", ("transductive_error", "test_error"))
    assert beyond.mark(pairs) == f"2/3,\u00a0{100 * np.mean([-0.10, -0.10, 0.0]):+.1f}" == "2/3,\u00a0-6.7"
    assert beyond.mark(([], 0)) == "-"
    # a cell won only on runs that did not converge is left out, as the verdict leaves it (the old mark counted it)
    frame["converged"] = ~((frame["n_labeled"] == 4) & (frame["method"] == "da") & (frame["split"] < 6))
    frame.loc[(frame["n_labeled"] == 4) & (frame["method"] == "da") & (frame["split"] >= 6), "transductive_error"] += 0.1
    judged = beyond.cells(frame, "da", "svm_cv", ("transductive_error", "test_error"))
    assert judged[1] == 1 and beyond.mark(judged).startswith("1/2,") and beyond.mark(judged).endswith("(1\u00a0out)")


def test_the_matrix_has_a_column_per_question_and_its_verdict_row_is_the_questions_verdict():
    records = Records(ROOT / "results", ROOT)
    head, rows = beyond.matrix(records, "learning_curve", *beyond.SWEEPS[0][1:])
    found = {(m, b): v for m, b, f, v in verdicts(records) if f == "learning_curve"}
    assert len(head) == 1 + len(found) and rows[-1][0] == "**verdict**"
    assert rows[-1][1:] == [f"**{v.category}**" for v in found.values()]
    assert all(len(cell) <= 22 for row in rows[:-1] for cell in row[1:])            # compact marks
    assert not any("synthetic-" in row[0] for row in rows)


def test_the_section_folds_the_evidence_and_no_line_of_it_is_long():
    lines = "\n".join(beyond.section(Records(ROOT / "results", ROOT))).splitlines()
    assert "<details><summary>The evidence, question by question</summary>" in lines
    assert lines.index("<details><summary>The evidence, question by question</summary>") > max(
        k for k, line in enumerate(lines) if line.startswith("| **verdict**"))
    assert max(len(line) for line in lines) <= 600      # a verdict naming five sets, an analog's check beside each
    assert (ROOT / "results" / f"{beyond.FIGURE}.png").exists()


def test_the_figure_draws_one_panel_per_method_with_a_bar_per_dataset_and_baseline():
    records = Records(ROOT / "results", ROOT)
    found = beyond.differences(records)
    fig = beyond.figure(records)
    assert len(fig.axes) == 2
    bars = sum(len(v) for v in found.values())
    assert sum(len(ax.lines) for ax in fig.axes) == 2 * bars + 2          # a bar and a dot each, the zero lines
