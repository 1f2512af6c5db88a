"""Records are strict JSON, hold each figure once and no setting a single run never used (issue 40, item 7)."""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ssl_repro.harness.aggregate import collect
from ssl_repro.harness.runner import train_job
from ssl_repro.harness.result_files import read_result, write_result

REPO = Path(__file__).resolve().parents[1]


def strict_load(path):
    """json.loads as JavaScript's JSON.parse reads: a bare NaN or Infinity is an error."""
    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")
    return json.loads(Path(path).read_text(), parse_constant=refuse)


def own_file_job(tmp_path):
    """A job with no test rows (a user's own file): its test error is NaN."""
    import numpy as np
    from sklearn.datasets import dump_svmlight_file
    rng = np.random.default_rng(1)
    X = rng.random((80, 6))
    dump_svmlight_file(X, np.where(X[:, 0] > 0.5, 1, -1), str(tmp_path / "mine.svm"), zero_based=False)
    return {"dataset": {"name": "svmlight", "path": str(tmp_path / "mine.svm")}, "method": {"name": "svm",
            "variant": "svm", "lam": None}, "split": 0, "n_labeled": 10, "n_unlabeled": None, "download": False}


def test_a_record_without_test_rows_is_strict_json_and_reads_back_as_nan(tmp_path):
    record, _ = train_job(own_file_job(tmp_path))
    assert math.isnan(record["test_error"])
    (tmp_path / "job").mkdir()
    write_result(tmp_path / "job", record)
    stored = strict_load(tmp_path / "job" / "result.json")
    assert stored["test_error"] is None and stored["transductive_error"] == pytest.approx(record["transductive_error"])
    assert math.isnan(read_result(tmp_path / "job" / "result.json")["test_error"])
    assert math.isnan(collect(tmp_path)["test_error"][0])


def test_a_record_holds_each_objective_and_the_seconds_once(tmp_path):
    record, _ = train_job(own_file_job(tmp_path))
    figures = [key for key in record if "objective" in key] + [key for key in record["diagnostics"]
                                                               if "objective" in key and key != "objective_path"]
    assert sorted(figures) == ["objective_eqn18", "objective_own"]
    assert "seconds" in record and "seconds" not in record["diagnostics"]


def test_the_committed_records_still_render_the_same_report():
    proc = subprocess.run([sys.executable, "experiments/paper_artifacts.py", "report", "--check"], cwd=REPO,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]


@pytest.mark.slow   # run.py in a subprocess
def test_a_single_runs_record_keeps_no_sweep_setting(tmp_path):
    proc = subprocess.run([sys.executable, str(REPO / "run.py"), "method=svm", "n_unlabeled=200"], cwd=tmp_path,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    [path] = (tmp_path / "outputs").rglob("result.json")
    config = strict_load(path)["config"]
    assert "results_dir" not in config and "sweep_name" not in config and config["method"]["name"] == "svm"
