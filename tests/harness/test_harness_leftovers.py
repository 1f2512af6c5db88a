"""Nothing is left behind, and nothing is silent, when a run is refused or interrupted:
a refused sweep leaves no ``multirun.yaml``, a sweep says that it started before composing its jobs,
Ctrl-C in a single run leaves no folder without a result (during run.py's imports: one line), Ctrl-C in a sweep ends with one line,
removes its jobs' ``.job.lock`` files and the folders of the jobs it interrupted (and its folder when
no job finished), and the same command then computes only the rest."""
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def start(cwd, *args):
    """run.py in a subprocess, with SIGINT handled as a terminal's Ctrl-C finds it (a test run in the
    background, e.g. under nohup, would pass SIGINT on ignored)."""
    return subprocess.Popen([sys.executable, str(REPO / "run.py"), *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONPATH": str(REPO)},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def interrupt_while_running(process, after=1.0, event=": running ("):
    """Send SIGINT (Ctrl-C) ``after`` seconds after the first log line holding ``event`` (default: the first
    job's start); return (exit status, the log)."""
    seen = []
    for line in process.stdout:
        seen.append(line)
        if event in line:
            time.sleep(after)
            process.send_signal(signal.SIGINT)
            break
    rest = process.communicate(timeout=300)[0]
    return process.returncode, "".join(seen) + rest


@pytest.mark.slow   # a Hydra sweep in a subprocess
def test_a_refused_sweep_into_an_existing_folder_leaves_no_multirun_yaml(tmp_path):
    sweep_dir = tmp_path / "runs" / "mine"
    (sweep_dir / "earlier").mkdir(parents=True)
    proc = start(tmp_path, "-m", f"results_dir={tmp_path / 'runs'}", "sweep_name=mine", "method=svm,rls",
                 "solver_threads=0")
    log = proc.communicate(timeout=300)[0]
    assert proc.returncode == 1 and "Error: solver_threads=0 is not a number of threads" in log, log[-2000:]
    assert "sweep" in log.splitlines()[0] and "composing its jobs" in log.splitlines()[0]   # said before composing
    assert sorted(p.name for p in sweep_dir.iterdir()) == ["earlier"]


def mapped(process, library):
    """Whether ``process`` has loaded a shared library whose path holds ``library`` (Linux's /proc)."""
    try:
        return library in Path(f"/proc/{process.pid}/maps").read_text()
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="no /proc/PID/maps here (not Linux): the test "
                    "finds the moment run.py is inside its imports by the libraries it has loaded")
def test_ctrl_c_while_run_py_imports_prints_one_line(tmp_path):
    """Ctrl-C once numpy is loaded (run.py then imports scipy, scikit-learn and numba: seconds): one line, exit
    status 130, no traceback, no folder."""
    process = start(tmp_path, "method=svm")
    deadline = time.monotonic() + 60
    while not mapped(process, "numpy") and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    process.send_signal(signal.SIGINT)
    log = process.communicate(timeout=60)[0]
    assert process.returncode == 130 and log.splitlines() == [
        "Interrupted before the job started: nothing run, nothing written"], log[-3000:]
    assert not (tmp_path / "outputs").exists()


@pytest.mark.slow   # run.py in a subprocess, interrupted
def test_ctrl_c_in_a_single_run_leaves_no_folder_without_a_result(tmp_path):
    # kernel DA: about a minute on text-like, so the interrupt 1 s in always lands inside the fit (DA's 0.6 s
    # job had ended before it on a fast machine, and the interpreter was then killed on its way out)
    code, log = interrupt_while_running(start(tmp_path, "method=kernel_da", "solver_threads=1"))
    assert code == 130 and "Interrupted: no result kept" in log and "Traceback" not in log, log[-3000:]
    assert not (tmp_path / "outputs").exists()


def job_folders(runs):
    return {p: sorted(c.name for c in p.iterdir()) for p in Path(runs).rglob("cfg-*")}


@pytest.mark.slow   # Hydra sweeps in a subprocess, interrupted
# in the first jobs, none done; as soon as one is done (events in the log, not seconds: the nine jobs take
# under 4 s on an idle machine, far longer on a busy one)
@pytest.mark.parametrize("after, event", [(0.2, ": running ("), (0.0, ": test error ")])
def test_ctrl_c_in_a_sweep_ends_with_one_line_and_leaves_only_finished_jobs(tmp_path, after, event):
    sweep = ["-m", f"results_dir={tmp_path / 'runs'}", "method=da,tsvm_smax,svm", "split=0,1,2", "solver_threads=1"]
    code, log = interrupt_while_running(start(tmp_path, *sweep), after=after, event=event)
    assert code != 0 and "Traceback" not in log, log[-3000:]
    last = log.strip().splitlines()[-1]
    assert last.startswith("Interrupted: sweep ") and "the same command computes the rest" in last
    done = int(last.split(" stopped, ")[1].split("/")[0])
    assert not list(tmp_path.rglob(".job.lock"))
    folders = job_folders(tmp_path / "runs")
    # every folder left holds a result; a job that finished while the sweep was stopping (after its count) is
    # kept, so the folders may be one or two more than the count said
    assert all("result.json" in files for files in folders.values()) and done <= len(folders) <= done + 2, folders
    done = len(folders)
    if done == 0:       # no job finished: no multirun.yaml, no folder at all
        assert not (tmp_path / "runs").exists()
    else:
        assert (tmp_path / "runs" / "default" / "multirun.yaml").exists()
    proc = start(tmp_path, *sweep)      # the rerun computes only the rest
    rerun = proc.communicate(timeout=600)[0]
    assert proc.returncode == 0 and f"9 jobs, {done} already done, {9 - done} to run" in rerun, rerun[-3000:]
