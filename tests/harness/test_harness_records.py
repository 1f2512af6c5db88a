"""What a job's record says about how it was measured: ``seconds`` is the fit alone (numba's
compilation is ``compile_seconds``), and every record names the code, machine and date of its run."""
import datetime
import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from ssl_repro.harness import compilation, runner
from ssl_repro.harness.aggregate import collect
from ssl_repro.harness.result_files import write_result
from ssl_repro.solvers import warm_up_kernels

REPO = Path(__file__).resolve().parents[2]
SVM_JOB = {"dataset": {"name": "text-like"}, "method": {"name": "svm", "variant": "svm", "lam": None},
           "split": 0, "n_labeled": 16, "n_unlabeled": 300}


def test_compilation_is_timed_apart_from_the_fit(monkeypatch):
    pause = 1.0

    def slow_warm_up(**kwargs):          # as if numba took a second more to compile the kernels
        warm_up_kernels(**kwargs)
        time.sleep(pause)
    monkeypatch.setattr(compilation, "warm_up_kernels", slow_warm_up)
    record = runner.run_job(SVM_JOB)
    assert record["compile_seconds"] >= pause
    assert 0 < record["seconds"] < pause     # a 316-row SVM fit: a few milliseconds


def slow_warm_up_recording(calls, misses):
    """A warm-up that takes 0.3 s, as if numba compiled (``misses`` > 0: kernels missed its cache) or
    loaded the kernels slowly on a busy machine (``misses`` = 0), noting what it was asked for."""
    def slow_warm_up(dtypes, index_dtypes):
        calls.append((dtypes, index_dtypes))
        time.sleep(0.3)
    return slow_warm_up, lambda: misses


def test_a_slow_warm_up_says_once_that_it_compiles_and_only_the_jobs_value_and_index_types(monkeypatch, caplog):
    calls = []
    warm_up, misses = slow_warm_up_recording(calls, misses=3)     # a fresh install
    monkeypatch.setattr(compilation, "warm_up_kernels", warm_up)
    monkeypatch.setattr(compilation, "numba_cache_misses", misses)
    monkeypatch.setattr(compilation, "COMPILE_NOTICE_AFTER", 0.05)
    with caplog.at_level(logging.INFO, logger="ssl_repro"):
        runner.run_job(SVM_JOB)
        runner.run_job({**SVM_JOB, "method": {"name": "kernel_da", "variant": "kernel_da"}, "n_unlabeled": 50})
    # text-like is float64 with int32 indices; the kernel method uses no linear kernels
    assert calls == [((np.float64,), [np.dtype(np.int32)])]
    notices = [r.getMessage() for r in caplog.records if "compiling" in r.getMessage()]
    assert len(notices) == 1 and "float64" in notices[0] and "once after an install" in notices[0]


@pytest.mark.parametrize("warm_up", [lambda dtypes, index_dtypes: None, slow_warm_up_recording([], misses=0)[0]],
                         ids=["fast", "slow-loading-cached-kernels"])
def test_a_warm_up_that_compiles_nothing_says_nothing(monkeypatch, caplog, warm_up):
    monkeypatch.setattr(compilation, "warm_up_kernels", warm_up)
    monkeypatch.setattr(compilation, "numba_cache_misses", lambda: 0)
    monkeypatch.setattr(compilation, "COMPILE_NOTICE_AFTER", 0.05)
    with caplog.at_level(logging.INFO, logger="ssl_repro"):
        runner.run_job(SVM_JOB)
    assert not [r for r in caplog.records if "compiling" in r.getMessage()]


def test_a_record_names_its_command_commit_date_and_machine():
    record = runner.run_job(SVM_JOB)
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    prov = record["provenance"]
    assert prov["git_commit"].startswith(head) and prov["command"].startswith("python ")
    date = datetime.datetime.fromisoformat(prov["date"])
    assert abs((datetime.datetime.now(datetime.timezone.utc) - date).total_seconds()) < 120
    assert prov["machine"]["cores"] >= 1


def test_aggregated_rows_carry_commit_date_command_and_compile_seconds_empty_for_older_records(tmp_path):
    record = runner.run_job(SVM_JOB)
    write_result(tmp_path / "new", record)
    older = {k: v for k, v in record.items() if k not in ("provenance", "compile_seconds")}
    write_result(tmp_path / "old", {**older, "split": 1})
    table = collect(tmp_path).set_index("split")
    assert table.loc[0, "git_commit"] == record["provenance"]["git_commit"]
    assert table.loc[0, "date"] == record["provenance"]["date"]
    assert table.loc[0, "command"] == record["provenance"]["command"]
    assert table.loc[0, "compile_seconds"] == record["compile_seconds"]
    assert table.loc[1, ["git_commit", "date", "command", "compile_seconds"]].isna().all()


def _loaded_kernels():
    """Every compiled signature (compiled now or loaded from numba's cache) of the package's kernels."""
    from numba.core.registry import CPUDispatcher
    return {(module.__name__, name, sig) for module in list(sys.modules.values())
            if getattr(module, "__name__", "").startswith("ssl_repro")
            for name, value in vars(module).items() if isinstance(value, CPUDispatcher)
            for sig in value.overloads}


@pytest.mark.slow     # a fresh interpreter fitting every method
@pytest.mark.parametrize("data", ["text-like", "svmlight"])
def test_the_warm_up_loads_every_kernel_any_method_calls(data, tmp_path):
    """After a job's :func:`~ssl_repro.harness.compilation.compile_solvers`, no fit compiles or loads
    a kernel inside its timer: on the embedded float64 data (int32 CSR indices) and on the same rows
    read from an svmlight file (scikit-learn's reader gives int64 indices; the first svmlight job
    after an install once timed 6 s of compiling inside its fit)."""
    from sklearn.datasets import dump_svmlight_file
    from ssl_repro.data import load_dataset
    text = load_dataset("text-like")
    dump_svmlight_file(text.X[:400], text.y[:400], str(tmp_path / "mine.svm"), zero_based=False)
    dataset = {"name": "text-like"} if data == "text-like" else {"name": "svmlight", "path": str(tmp_path / "mine.svm")}
    code = f"""
import sys, warnings
sys.path.insert(0, {str(REPO)!r})
warnings.simplefilter("ignore")
from tests.harness.test_harness_records import _loaded_kernels
from ssl_repro.harness import runner
from ssl_repro.harness.methods import METHODS
compiled = runner.compile_solvers
def compile_then_note(*matrices):
    seconds = compiled(*matrices)
    global before
    before = _loaded_kernels()
    return seconds
runner.compile_solvers = compile_then_note
compiled_kernel_method = runner.compile_kernel_method
def kernel_method_then_note(estimator):
    seconds = compiled_kernel_method(estimator)
    global before
    before = _loaded_kernels()
    return seconds
runner.compile_kernel_method = kernel_method_then_note
for name in sorted(METHODS):
    before = _loaded_kernels()
    runner.run_job({{"dataset": {dataset!r}, "method": {{"name": name, "variant": name}},
                    "split": 0, "n_labeled": 16, "n_unlabeled": 200}})
    new = _loaded_kernels() - before
    assert not new, (name, sorted(new))
print("ok", len(before))
"""
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("ok"), proc.stdout + proc.stderr[-3000:]
    assert int(proc.stdout.split()[1]) >= 10


@pytest.mark.slow     # numba compiles every kernel from scratch (~15-40 s)
def test_a_fresh_process_records_about_the_seconds_of_a_warm_one(tmp_path):
    """``python run.py`` with an empty numba cache: the fit's seconds stay within 2x of a re-run's
    in a process that loads the compiled kernels from the cache (same machine, one thread); the
    fresh run says once that it is compiling, the re-run does not."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    records = {}
    for run in ("fresh", "warm"):
        proc = subprocess.run([sys.executable, "run.py", "solver_threads=1", f"hydra.run.dir={tmp_path / run}"],
                              cwd=REPO, env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr[-3000:]
        records[run] = json.loads((tmp_path / run / "result.json").read_text())
        records[run]["notices"] = (proc.stdout + proc.stderr).count("compiling the solvers' numba kernels")
    fresh, warm = records["fresh"], records["warm"]
    assert fresh["compile_seconds"] > fresh["seconds"]          # compiling dominated the process
    assert fresh["seconds"] < 2 * warm["seconds"]
    assert fresh["objective_own"] == warm["objective_own"]
    assert (fresh["notices"], warm["notices"]) == (1, 0)


def test_the_commit_is_marked_uncommitted_for_code_changes_only(tmp_path):
    """A record written while the records, the docs or README.md differ from HEAD still names HEAD
    alone; a changed source file marks it "+uncommitted changes"."""
    from ssl_repro.utils.provenance import git_commit

    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)
    for name in ("solver.py", "README.md", "docs/guide.md", "results/table.csv"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("first\n")
    git("init", "-q")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "first")
    head = subprocess.run(["git", "-C", str(tmp_path), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()
    for name in ("README.md", "docs/guide.md", "results/table.csv"):
        (tmp_path / name).write_text("rendered again\n")
    assert git_commit(tmp_path) == head
    (tmp_path / "solver.py").write_text("changed\n")
    assert git_commit(tmp_path) == head + "+uncommitted changes"


def test_runs_that_start_together_all_stay_in_the_provenance(tmp_path):
    """add_provenance locks the record: of four processes writing at once, none is lost from ``earlier``."""
    path = tmp_path / "provenance.json"
    code = ("import sys; from ssl_repro.utils.provenance import add_provenance; "
            "add_provenance(sys.argv[1], last=sys.argv[2])")
    root = Path(__file__).resolve().parents[2]
    runs = [subprocess.Popen([sys.executable, "-c", code, str(path), f"run {k}"], cwd=root) for k in range(4)]
    assert all(run.wait() == 0 for run in runs)
    record = json.loads(path.read_text())
    assert len(record["earlier"]) == 3 and record["last"].startswith("run ")
    assert "provenance" in record and all("date" in entry for entry in record["earlier"])


def test_a_run_that_recomputed_the_whole_record_names_no_earlier_run(tmp_path):
    from ssl_repro.utils.provenance import add_provenance
    path = tmp_path / "provenance.json"
    add_provenance(path)
    assert len(add_provenance(path)["earlier"]) == 1
    assert add_provenance(path, merged=False)["earlier"] == []
    assert json.loads(path.read_text())["earlier"] == []
