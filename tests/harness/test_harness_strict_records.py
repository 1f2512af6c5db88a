"""Records are strict JSON, hold each figure once and no setting a single run never used."""
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

REPO = Path(__file__).resolve().parents[2]


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


def test_report_check_on_the_command_line_checks_the_render_of_the_committed_records(
        experiment_script, committed_render, monkeypatch, capsys):
    """``paper_artifacts.py report --check`` renders the repository's results/ (here: the session's render of
    them, ``committed_render``), checks it and exits 0 saying every file is up to date."""
    artifacts = experiment_script("paper_artifacts")
    rendered = []

    def render(results):
        rendered.append(Path(results))
        return committed_render
    monkeypatch.setattr(artifacts, "rendered_files", render)
    keyed = []       # the data keys' check loads every dataset (minutes with cold caches): the slow test below runs it
    monkeypatch.setattr(artifacts, "check_keys", lambda results, **options: keyed.append(Path(results)) or 0)
    with pytest.raises(SystemExit) as exited:
        artifacts.main(["report", "--check"])
    assert exited.value.code == 0 and rendered == [REPO / "results"] and keyed == [REPO / "results"]
    assert capsys.readouterr().out == f"{len(committed_render)} rendered files up to date\n"


@pytest.mark.slow   # a whole render (about 20 s) in a subprocess
def test_the_committed_records_still_render_the_same_report():
    """``report --check`` end to end as a user runs it: the script started as a program in a fresh process
    (its imports from its own folder, the environment) renders the committed records and exits 0.  Slow, as
    it renders everything once more; the default run checks the same on one render per session
    (``committed_render``): that render is the committed files and a copy of results/ outside the repository
    renders the same README (test_report.py), the check fails on an edited or a stale page (test_claims.py),
    and the command line parses and checks it (the test above)."""
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
