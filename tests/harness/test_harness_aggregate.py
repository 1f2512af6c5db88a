"""``python -m ssl_repro.harness.aggregate`` on folders a careless user gives it: an incomplete
``result.json`` is skipped with a warning naming it (as ``run.py`` computes such a job again), nothing
readable fails without leaving an empty ``--out`` folder, a missing folder is named."""
import pytest

from ssl_repro.harness.aggregate import main as aggregate
from ssl_repro.harness.result_files import RESULT_FILE, finished_result, write_result

RECORD = {"dataset": "text-like", "method": "svm", "split": 0, "n_labeled": 16, "n_unlabeled": 300, "n_test": 100,
          "r": 0.4, "lam": 1e-3, "lam_u": 0.0, "test_error": 0.1, "transductive_error": 0.2, "objective_own": 0.5,
          "objective_eqn18": 0.5, "seconds": 0.01, "compile_seconds": 0.0, "converged": True,
          "diagnostics": {"cg_iterations": 7}, "config": {"split": 0}}

#: result.json contents that are no complete record: truncated, empty object, a list, no diagnostics
INCOMPLETE = {"truncated": '{"dataset": "text-like", "meth', "empty": "{}", "list": "[1, 2]",
              "no-diagnostics": '{"dataset": "d", "method": "m", "split": 0, "n_labeled": 1, "n_unlabeled": 2}'}


@pytest.fixture
def runs(tmp_path):
    """A sweep folder with one complete record and one file of each kind of :data:`INCOMPLETE`."""
    write_result(tmp_path / "runs" / "good", RECORD)
    for name, text in INCOMPLETE.items():
        (tmp_path / "runs" / name).mkdir()
        (tmp_path / "runs" / name / RESULT_FILE).write_text(text)
    return tmp_path / "runs"


def test_incomplete_records_are_skipped_with_a_warning_naming_each_file(runs, tmp_path, capsys):
    aggregate([str(runs), "--out", str(tmp_path / "out")])
    out, err = capsys.readouterr()
    assert (tmp_path / "out" / "results.csv").read_text().count("\n") == 2       # header + the good job
    for name in INCOMPLETE:
        assert f"{runs / name / RESULT_FILE}" in err
    assert err.count("warning: skipped") == len(INCOMPLETE)
    assert f"1 jobs, 1 groups -> {tmp_path / 'out'}; {len(INCOMPLETE)} result.json skipped" in out


def test_run_py_computes_again_exactly_what_the_aggregation_skips(runs):
    assert finished_result(runs / "good", RECORD["config"]) is not None
    for name in INCOMPLETE:
        assert finished_result(runs / name, RECORD["config"]) is None


def test_nothing_readable_fails_and_leaves_no_out_folder(runs, tmp_path, capsys):
    (runs / "good" / RESULT_FILE).unlink()
    with pytest.raises(SystemExit, match=rf"no readable result.json under {runs} \(4 incomplete, skipped\)"):
        aggregate([str(runs), "--out", str(tmp_path / "out")])
    assert not (tmp_path / "out").exists()
    assert capsys.readouterr().err.count("warning: skipped") == len(INCOMPLETE)


def test_a_missing_folder_is_named_and_nothing_is_created(tmp_path):
    with pytest.raises(SystemExit, match=rf"^Error: {tmp_path / 'nope'} does not exist or is not a folder"):
        aggregate([str(tmp_path / "nope"), "--out", str(tmp_path / "out")])
    assert not (tmp_path / "out").exists()
