"""A careless hand on the committed records: ``report --check`` (and ``report``, ``render``) on a record that
is truncated, lacks a key, holds a number as text or NaN, or a results.csv with a text cell, a missing
column, an odd ``converged`` or a lone NaN error, ends in one ``Error:`` line naming the file, the line or
key and the value (:mod:`ssl_repro.claims.record_file`), never in a traceback or a changed verdict.
One row per case: the committed record copied into an otherwise empty results folder, edited, checked."""
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[2]
BIAS, CURVE, KERNEL = "svm_bias/pcmac.json", "learning_curve_pcmac/results.csv", "kernel_benchmarks/runs.jsonl"


def edit_text(old, new):
    def edited(path):
        text = path.read_text()
        assert old in text, f"{old!r} not in {path}"
        path.write_text(text.replace(old, new, 1))
    edited.case = f"{old.strip()} -> {new.strip() or '(nothing)'}"
    return edited


def truncate(path):
    path.write_text(path.read_text()[:path.stat().st_size // 2])


truncate.case = "cut at half its length"


def edit_table(change):
    def edited(path):
        frame = pd.read_csv(path)
        change(frame)
        frame.to_csv(path, index=False)
    edited.case = change.case
    return edited


def set_cell(column, row, value):
    def change(frame):
        frame[column] = frame[column].astype(object)
        frame.loc[row, column] = value
    change.case = f"row {row}'s {column} set to {value!r}"
    return change


def drop_column(column):
    def change(frame):
        frame.pop(column)
    change.case = f"column {column} deleted"
    return change


# (record, its edit, the one line's pattern)
CASES = [
    (BIAS, truncate, r"svm_bias/pcmac\.json: not JSON at line \d+, column \d+ \(.*\): "
                                               r"restore it \(git checkout -- FILE\) or re-run the command"),
    (BIAS, edit_text('"bias": ', '"bias_renamed": '),
     r"svm_bias/pcmac\.json has no 'bias' \(its keys: labeled_positives, bias_renamed, .*\): restore it"),
    (BIAS, edit_text('"bias": 0.0', '"bias": "0.25"'),
     r"svm_bias/pcmac\.json: 'bias' holds the text '0\.25', not a number: write 0\.25 without quotes"),
    (BIAS, edit_text('"bias": 0.0', '"bias": NaN'), r"svm_bias/pcmac\.json: 'bias' holds nan, not a finite number"),
    (KERNEL, edit_text("}\n", "\n"),
     r"kernel_benchmarks/runs\.jsonl line 1: not JSON at line 1, column \d+ \(Expecting ',' delimiter\)"),
    (CURVE, edit_table(set_cell("test_error", 3, "abc")),
     r"learning_curve_pcmac/results\.csv: line 5, column test_error: 'abc' is not a number \(1 such row\)"),
    (CURVE, edit_table(drop_column("n_labeled")),
     r"learning_curve_pcmac/results\.csv has no column n_labeled \(a sweep's results\.csv holds dataset, method"),
    (CURVE, edit_table(set_cell("converged", 0, "maybe")),
     r"learning_curve_pcmac/results\.csv: line 2, column converged: 'maybe' is not True or False"),
    (CURVE, edit_table(set_cell("test_error", 6, float("nan"))),
     r"learning_curve_pcmac/results\.csv: line 8, column test_error: an empty or NaN cell where other rows hold "
     r"an error \(1 such row\)"),
    (CURVE, edit_table(set_cell("split", 2, "zero")),
     r"learning_curve_pcmac/results\.csv: line 4, column split: 'zero' is not a number"),
]


@pytest.mark.parametrize("command", [["report", "--check"], ["render", "--force"]])
@pytest.mark.parametrize("record, edit, message", CASES)
def test_a_malformed_record_is_one_error_line_naming_it(record, edit, message, command, tmp_path, experiment_script,
                                                        shown):
    target = tmp_path / "results" / record
    target.parent.mkdir(parents=True)
    shutil.copy(REPO / "results" / record, target)
    edit(target)
    before = sorted(p.name for p in (tmp_path / "results").rglob("*"))
    with pytest.raises(SystemExit) as stop:
        experiment_script("paper_artifacts").main([*command, "--results", str(tmp_path / "results")])
    line = shown(f"paper_artifacts {' '.join(command)}   (results/{record}: {edit.case})", stop.value.code)
    assert line.startswith("Error: ") and "\n" not in line, line
    assert re.search(message, line), line
    assert sorted(p.name for p in (tmp_path / "results").rglob("*")) == before       # nothing written
