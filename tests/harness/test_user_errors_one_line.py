"""A user's mistake on any command is one ``Error:`` line, not a traceback."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ssl_repro.data import load_dataset, make_split
from ssl_repro.harness.aggregate import main as aggregate
from ssl_repro.report.plots import main as plots
from ssl_repro.harness.result_files import write_result

REPO = Path(__file__).resolve().parents[2]


def record():
    return {"dataset": "text-like", "method": "svm", "split": 0, "n_labeled": 16, "n_unlabeled": 100, "n_test": 10,
            "r": 0.5, "lam": 1e-3, "lam_u": 1.0, "test_error": 0.1, "transductive_error": 0.2, "objective_own": 0.3,
            "objective_eqn18": 0.3, "seconds": 0.01, "converged": True, "diagnostics": {}}


def test_aggregate_into_an_existing_file_is_one_error_line(tmp_path, shown):
    (tmp_path / "runs" / "job").mkdir(parents=True)
    write_result(tmp_path / "runs" / "job", record())
    (tmp_path / "table.csv").write_text("mine\n")
    with pytest.raises(SystemExit, match=r"^Error: --out .*table\.csv is a file: name a folder") as stop:
        aggregate([str(tmp_path / "runs"), "--out", str(tmp_path / "table.csv")])
    shown("aggregate {tmp}/runs --out {tmp}/table.csv   (table.csv a file)", stop.value.code)
    assert (tmp_path / "table.csv").read_text() == "mine\n"


def test_plots_of_a_missing_summary_is_one_error_line(tmp_path, shown):
    with pytest.raises(SystemExit, match=r"^Error: --summary .*nosuch\.csv: no such file") as stop:
        plots(["--summary", str(tmp_path / "nosuch.csv"), "--out", str(tmp_path / "figures")])
    shown("plots --summary {tmp}/nosuch.csv --out {tmp}/figures", stop.value.code)
    assert not (tmp_path / "figures").exists()


@pytest.mark.parametrize("args, message", [
    ((0, 2.5), r"make_split: n_labeled=2\.5 is not accepted: give a whole number or 'all'"),
    ((0, "64"), r"make_split: n_labeled='64' is not accepted: give a whole number or 'all' \(an int, not str\)"),
    ((-1, 64), r"make_split: seed=-1 is not accepted: give a whole number >= 0"),
    ((0, 64, 2.5), r"make_split: n_unlabeled=2\.5 is not accepted"),
])
def test_make_split_refuses_a_value_of_the_wrong_kind_naming_it(args, message, shown):
    with pytest.raises(ValueError, match=message) as caught:
        make_split(load_dataset("text-like"), *args)
    shown(f"make_split(load_dataset('text-like'), {', '.join(map(repr, args))})", caught.value)


def run_py(cwd, *args):
    proc = subprocess.run([sys.executable, str(REPO / "run.py"), *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=600)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.slow   # run.py in subprocesses
def test_a_single_run_whose_folder_cannot_be_written_is_one_error_line(tmp_path, shown):
    (tmp_path / "a_file").write_text("")
    code, log = run_py(tmp_path, "method=svm", f"hydra.run.dir={tmp_path / 'a_file' / 'job'}")
    shown("python run.py method=svm hydra.run.dir={tmp}/a_file/job   (a_file a file)", log.strip())
    assert code == 1 and log.startswith("Error: a single run writes its result under") and "hydra.run.dir=DIR" in log
    assert "Traceback" not in log and len(log.strip().splitlines()) == 1, log


@pytest.mark.slow   # run.py in subprocesses
def test_solver_threads_abc_is_one_error_line(tmp_path, shown):
    code, log = run_py(tmp_path, "method=svm", "solver_threads=abc")
    shown("python run.py method=svm solver_threads=abc", log.strip())
    assert code == 1 and log.startswith("Error: solver_threads=abc is not a number of threads"), log
    assert "invalid literal" not in log and not (tmp_path / "outputs").exists()
