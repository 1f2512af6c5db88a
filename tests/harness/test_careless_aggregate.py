"""A careless hand on a sweep's result.json files, then ``aggregate``: each edited value is named in one warning
line (the record left out, the means over the others) or the command ends in one ``Error:`` line with nothing
written; a sweep stopped half-way is said to be ("2 of the 4 jobs").  One row per case."""
import json
import re

import pandas as pd
import pytest

from ssl_repro.harness.aggregate import main as aggregate
from ssl_repro.harness.progress import MANIFEST
from ssl_repro.harness.result_files import write_result


def record(split, **changes):
    return {"dataset": "text-like", "method": "svm", "split": split, "n_labeled": 16, "n_unlabeled": 100,
            "n_test": 10, "r": 0.5, "lam": 1e-3, "lam_u": 1.0, "test_error": 0.1 + split / 10,
            "transductive_error": 0.2, "objective_own": 0.3, "objective_eqn18": 0.3, "seconds": 0.01 + split,
            "converged": True, "diagnostics": {}, "provenance": {"dataset_key": "aaaa"}, **changes}


def replace(old, new):
    """An edit of the last record's text: ``old`` (its JSON text) made ``new``."""
    def edit(text):
        assert old in text, (old, text)
        return text.replace(old, new, 1)
    edit.case = f"{old} -> {new}" if new else f"{old.rstrip(', ')} deleted"
    return edit


# (the edit of the third of three records, the warning's pattern naming it)
EDITS = [
    (replace('"test_error": 0.30000000000000004', '"test_error": "0.25"'), r'test_error holds "0\.25", not a number'),
    (replace('"test_error": 0.30000000000000004, ', ""), r"an incomplete record \(no test_error\)"),
    (replace('"split": 2', '"split": "zero"'), r'split holds "zero", not a whole number'),
    (replace('"n_labeled": 16', '"n_labeled": "8"'), r'n_labeled holds "8", not a whole number or "all"'),
    (replace('"converged": true', '"converged": "false"'), r'converged holds "false", not true or false'),
    (replace('"test_error": 0.30000000000000004', '"test_error": 1e999'),
     r"test_error holds inf \(a number too large for a float: 1e999\?\), not a finite number"),
    (replace('"dataset_key": "aaaa"', '"dataset_key": "bbbb"'),
     r"made from other data than the other 2 records of text-like \(dataset key bbbb, theirs aaaa\): run the job "
     r"again"),
]


@pytest.mark.parametrize("edit, message", EDITS)
def test_an_edited_record_is_named_and_left_out(edit, message, tmp_path, capsys, shown):
    for split in range(3):
        write_result(tmp_path / "runs" / f"job{split}", record(split))
    edited = tmp_path / "runs" / "job2" / "result.json"
    edited.write_text(edit(json.dumps(json.loads(edited.read_text()))))
    aggregate([str(tmp_path / "runs"), "--out", str(tmp_path / "table")])
    out, err = capsys.readouterr()
    warnings = [line for line in err.splitlines() if line.startswith("warning:")]
    shown(f"aggregate {{tmp}}/runs --out {{tmp}}/table   (the third result.json edited: {edit.case})",
          "\n".join(warnings))
    assert len(warnings) == 1 and str(edited) in warnings[0] and re.search(message, warnings[0]), err
    assert "2 jobs, 1 groups" in out and "1 result.json skipped" in out, out
    summary = pd.read_csv(tmp_path / "table" / "summary.csv")
    assert summary["n_splits"].tolist() == [2] and summary["test_error_mean"].tolist() == [pytest.approx(0.15)]


def test_a_tie_of_dataset_keys_is_one_error_line_and_nothing_written(tmp_path, shown):
    for split, key in enumerate(["aaaa", "bbbb"]):
        write_result(tmp_path / "runs" / f"job{split}", record(split, provenance={"dataset_key": key}))
    with pytest.raises(SystemExit) as stop:
        aggregate([str(tmp_path / "runs"), "--out", str(tmp_path / "table")])
    shown("aggregate {tmp}/runs --out {tmp}/table   (two records, dataset keys aaaa and bbbb)", stop.value.code)
    assert re.fullmatch(r"Error: the records of text-like were made from 2 different data \(dataset keys aaaa: 1 "
                        r"records, bbbb: 1 records\): aggregate the folders of one checkout, or run the jobs again",
                        str(stop.value.code)), stop.value.code
    assert not (tmp_path / "table").exists()


def test_the_only_record_edited_is_one_error_line_and_nothing_written(tmp_path, capsys, shown):
    write_result(tmp_path / "runs" / "job0", record(0))
    path = tmp_path / "runs" / "job0" / "result.json"
    path.write_text(path.read_text().replace('"test_error": 0.1', '"test_error": "0.25"'))
    with pytest.raises(SystemExit) as stop:
        aggregate([str(tmp_path / "runs"), "--out", str(tmp_path / "tables")])
    shown('aggregate {tmp}/runs --out {tmp}/tables   (the only result.json: "test_error": "0.25")', stop.value.code)
    assert str(stop.value.code).startswith("Error: no readable result.json under ") and "1 incomplete" in str(
        stop.value.code)
    assert not (tmp_path / "tables").exists()       # no results.csv left behind


def test_a_sweep_stopped_half_way_is_said_to_be(tmp_path, capsys, shown):
    sweep = tmp_path / "runs"
    jobs = [sweep / f"job{split}" for split in range(4)]
    for split in range(2):
        write_result(jobs[split], record(split))
    (sweep / MANIFEST).parent.mkdir()
    (sweep / MANIFEST).write_text(json.dumps({"sweep_dir": str(sweep), "jobs": [str(j) for j in jobs]}))
    aggregate([str(sweep), "--out", str(tmp_path / "table")])
    out, err = capsys.readouterr()
    shown("aggregate {tmp}/runs --out {tmp}/table   (a sweep of 4 jobs, 2 done)", err.strip())
    assert "2 jobs, 1 groups" in out
    assert re.fullmatch(r"warning: 2 of the 4 jobs of the sweep .*runs are done, 2 not \(stopped, failed or still "
                        r"running\): the means cover the done ones; run the sweep again to finish it, then aggregate "
                        r"again\n", err), err
