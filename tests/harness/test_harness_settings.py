"""No setting silently does nothing or something else: every setting of a job is
checked before its data are read, a refusal naming the fix (:mod:`ssl_repro.harness.settings`)."""
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ssl_repro.harness.app import job_threads, run_or_skip

REPO = Path(__file__).resolve().parents[2]


def job(**changes):
    cfg = {"dataset": {"name": "text-like", "lam": None, "lam_u": None}, "method": {"name": "svm", "variant": "svm",
           "lam": None}, "split": 0, "n_labeled": 16, "n_unlabeled": None, "data_root": None, "download": True,
           "results_dir": "results/runs", "sweep_name": "default", "solver_threads": 1}
    cfg.update(changes)
    return cfg


@pytest.mark.parametrize("changes, message", [
    ({"lamm": 1}, r"lamm is not a setting of a job.*did you mean .*method\.lam=VALUE"),
    ({"solver_threads": 0}, r"solver_threads=0 is not a number of threads: give a whole number >= 1, or "
                            r"solver_threads=null"),
    ({"solver_threads": -1}, r"solver_threads=-1 is not a number of threads"),
    ({"solver_threads": "abc"}, r"solver_threads=abc is not a number of threads"),
    ({"download": "maybe"}, r"download=maybe is neither true nor false"),
    ({"n_labeled": -3}, r"n_labeled=-3: a split needs at least 2 labeled rows"),
    ({"n_unlabeled": 0}, r"n_unlabeled=0 is not a number of unlabeled rows"),
    ({"dataset": {"name": "pcmak"}}, r"unknown dataset 'pcmak' \(did you mean pcmac\?\)"),
])
def test_a_setting_that_would_do_nothing_or_something_else_is_refused_before_the_data(changes, message, tmp_path,
                                                                                    monkeypatch):
    def no_data(*args, **kwargs):
        raise AssertionError("the data were read before the settings were checked")
    monkeypatch.setattr("ssl_repro.harness.runner.load_dataset", no_data)
    with pytest.raises(ValueError, match=message):
        run_or_skip(job(**changes), tmp_path / "job")
    assert not (tmp_path / "job").exists()


def test_solver_threads_is_the_number_given_or_refused():
    assert job_threads(3) == 3
    for refused in (0, -1, "abc", 2.5):
        with pytest.raises(ValueError, match="is not a number of threads"):
            job_threads(refused)


def test_n_labeled_below_two_on_a_downloadable_set_is_refused_before_any_fetch(tmp_path):
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"n_labeled=-3"):
        run_or_skip(job(dataset={"name": "pcmac", "lam": None, "lam_u": None}, n_labeled=-3,
                        data_root=str(tmp_path / "empty")), tmp_path / "job")
    assert time.perf_counter() - start < 2 and not (tmp_path / "empty").exists()


def run_py(cwd, *args):
    proc = subprocess.run([sys.executable, str(REPO / "run.py"), *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=600)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.slow   # a Hydra sweep in a subprocess
def test_two_method_configs_of_one_job_are_run_once_and_said_so(tmp_path):
    code, log = run_py(tmp_path, "-m", "hydra/launcher=basic", f"results_dir={tmp_path / 'runs'}", "method=tsvm,tsvm_s1",
                       "n_labeled=16", "n_unlabeled=300")
    assert code == 0, log[-3000:]
    assert "method=tsvm_s1 is the job of method=tsvm (same settings, same folder): run once" in log
    assert "1 jobs, 0 already done, 1 to run" in log and "0 by another process meanwhile" in log
    assert len(list((tmp_path / "runs").rglob("result.json"))) == 1


@pytest.mark.slow   # run.py in subprocesses
@pytest.mark.parametrize("args, message", [
    (["dataset=pcmak"], "Error: dataset=pcmak: no such dataset config (did you mean pcmac?)"),
    (["-m", "method=svm,tsvmm"], "Error: method=tsvmm: no such method config (did you mean tsvm"),
    (["+lamm=1"], "Error: lamm is not a setting of a job"),
    (["-m", "+lamm=1", "method=svm"], "Error: lamm is not a setting of a job"),
])
def test_run_py_refuses_an_unknown_name_in_one_line_and_leaves_nothing(args, message, tmp_path):
    code, log = run_py(tmp_path, *args, f"results_dir={tmp_path / 'runs'}")
    assert code == 1 and message in log and "Traceback" not in log and len(log.strip().splitlines()) <= 3, log
    assert not (tmp_path / "outputs").exists() and not list(tmp_path.rglob("multirun.yaml"))
