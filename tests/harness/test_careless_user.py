"""A hurried user's mistakes, one table per kind, each answered as its neighbours are: one ``Error:`` line
naming the value and the fix, no traceback, nothing left behind; a flag a command does not read refused;
records that cannot be averaged named; messages that name the real problem.  The command-line cases
call each command's ``main`` in this process (``run.py``'s checks before Hydra: :func:`run.refusal`),
and a few go through a subprocess to see the console itself."""
import json
import math
import os
import re
import shlex
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from ssl_repro.estimators import LinearDA, LinearSVM, mask_labels
from ssl_repro.harness.aggregate import main as aggregate
from ssl_repro.harness.result_files import write_result
from ssl_repro.peers.__main__ import main as build_peer
from ssl_repro.report.plots import main as plots
from ssl_repro.solvers.engine.data_checks import WideDataWarning, largest_id_allowed

REPO = Path(__file__).resolve().parents[2]
LONG = "x" * 300        # a name longer than any file system's NAME_MAX (255 bytes)


def files_under(folder):
    return sorted(str(p.relative_to(folder)) for p in Path(folder).rglob("*"))


def one_error_line(text):
    """``text`` is one line starting ``Error:``, without a traceback."""
    return text.startswith("Error: ") and "\n" not in text.strip() and "Traceback" not in text


def record(split=0, **changes):
    return {"dataset": "text-like", "method": "svm", "split": split, "n_labeled": 16, "n_unlabeled": 100,
            "n_test": 10, "r": 0.5, "lam": 1e-3, "lam_u": 1.0, "test_error": 0.1 + split / 10,
            "transductive_error": 0.2, "objective_own": 0.3, "objective_eqn18": 0.3, "seconds": 0.01 + split,
            "converged": True, "diagnostics": {}, **changes}


@pytest.fixture
def paper_artifacts(experiment_script):
    return experiment_script("paper_artifacts").main


# (command, argv with {tmp} for the test's folder, the message's pattern)
COMMAND_REFUSALS = [
    ("aggregate", ["{tmp}/runs", "--out", "{tmp}/table", "--keep", "{tmp}/garbage.csv"],
     r"--keep .*garbage\.csv has no column path, dataset, method: it is not a results\.csv"),
    ("plots", ["--summary", "{tmp}/garbage.csv", "--out", "{tmp}/figures"],
     r"--summary .*garbage\.csv has no column dataset, method, n_labeled, .*: it is not a summary\.csv"),
    ("paper_artifacts", ["run", "tsvm-loss", "--results", "{tmp}/garbage.csv"],
     r"--results .*garbage\.csv is a file: give a folder"),
    ("paper_artifacts", ["run", "tsvm-loss", "--dataset", "pcmac", "--results", "{tmp}/out"],
     r"--dataset pcmac is not read by tsvm-loss, a drawing: drop it"),
    ("paper_artifacts", ["run", "learning-curves", "--stand-ins", "--results", "{tmp}/out"],
     r"--stand-ins is not read by learning-curves, one sweep: drop it \(run all reads it\)"),
    ("paper_artifacts", ["run", "all", "--dataset", "pcmac", "--dry-run", "--results", "{tmp}/out"],
     r"--dataset pcmac is not read by 'run all', which runs every dataset"),
    ("paper_artifacts", ["run", "all", "--dry-run", "--svm-learn", "{tmp}/nonexistent/svm_learn", "--results",
                         "{tmp}/out"],
     r"--svm-learn .*/nonexistent/svm_learn does not exist: give the path of the peer's program"),
    ("paper_artifacts", ["run", "all", "--dry-run", "--universvm", "{tmp}/garbage.csv", "--results", "{tmp}/out"],
     r"--universvm .*garbage\.csv is not executable"),
    ("paper_artifacts", ["render", "--results", "{tmp}/nothing_here"],
     r"--results .*nothing_here: no such folder \(render reads the records there\)"),
    ("paper_artifacts", ["report", "--results", "{tmp}/nothing_here"],
     r"--results .*nothing_here: no such folder \(report reads the records there\)"),
    ("paper_artifacts", ["report", "--results", "{tmp}/garbage.csv"],
     r"--results .*garbage\.csv is a file, not a folder \(report reads the records in a folder\)"),
    ("paper_artifacts", ["render", "--force", "--results", "{tmp}/garbage.csv"], r"garbage\.csv is a file, not a folder"),
    ("paper_artifacts", ["run", "learning-curves", "--dataset", "pcmac", "--data-root", "{tmp}/runs", "--results",
                         "{tmp}/out"],
     r"^Error: learning-curves on pcmac: dataset 'pcmac': expected file\(s\) .*missing .*--data-root DIR"),
    ("paper_artifacts", ["run", "learning-curves", "--dataset", "pcmak", "--results", "{tmp}/out"],
     r"^Error: learning-curves is made on .*, not 'pcmak': give --dataset one of them$"),
    ("peers", ["build", "svmlin", "--archive", "{tmp}/garbage.csv", "--cache", "{tmp}/peers"],
     r"garbage\.csv has sha256 [0-9a-f]{64}, not that of SVMlin v1\.0's svmlin-v1\.0-src\.tar\.gz \([0-9a-f]{64}, "
     r"checked .*\): give the unmodified file from"),
    ("peers", ["build", "universvm", "--cache", "{tmp}/peers"],
     r"UniverSVM 1\.22 is built from its authors' published archive .*build universvm --archive PATH$"),
    ("peers", ["build", "svm-light", "--sdist", "{tmp}/svmlight-0.4.tar.gz", "--cache", "{tmp}/peers"],
     r"--sdist .*svmlight-0\.4\.tar\.gz: no such file; give SVM-light V6\.02's svmlight-0\.4\.tar\.gz \(from "
     r"`?pip download"),
]


@pytest.mark.parametrize("command, argv, message", COMMAND_REFUSALS)
def test_a_command_refuses_in_one_line_and_leaves_nothing(command, argv, message, tmp_path, request, shown):
    (tmp_path / "runs" / "job").mkdir(parents=True)
    write_result(tmp_path / "runs" / "job", record())
    (tmp_path / "garbage.csv").write_text("x,y\n1,2\n")
    before = files_under(tmp_path)
    main = {"aggregate": aggregate, "plots": plots, "peers": build_peer}.get(command) or request.getfixturevalue(
        "paper_artifacts")
    with pytest.raises(SystemExit) as stop:
        main([a.format(tmp=tmp_path) for a in argv])
    line = shown(shlex.join([command, *argv]), stop.value.code)
    assert one_error_line(line), line
    assert re.search(message, line), line
    assert files_under(tmp_path) == before


@pytest.fixture
def read_only_folder(tmp_path):
    """A folder of records this process cannot write: mode 555, or (for root, whom modes do not stop) the
    immutable attribute; skipped where neither stops a write."""
    folder = tmp_path / "read_only"
    (folder / "runs" / "job").mkdir(parents=True)
    write_result(folder / "runs" / "job", record())
    folder.chmod(0o555)
    if os.access(folder, os.W_OK):
        subprocess.run(["chattr", "+i", str(folder)], capture_output=True)
    try:
        (folder / "probe").touch()
    except OSError:
        yield folder
    else:
        pytest.skip("no way to make a folder read-only here")
    finally:
        subprocess.run(["chattr", "-i", str(folder)], capture_output=True)
        folder.chmod(0o755)


@pytest.mark.parametrize("argv", [["render", "--force"], ["report"], ["run", "tsvm-loss"],
                                  ["run", "learning-curves", "--dataset", "pcmac"]])
def test_a_read_only_results_folder_is_refused_before_any_work(argv, read_only_folder, paper_artifacts, shown):
    with pytest.raises(SystemExit) as stop:
        paper_artifacts([*argv, "--results", str(read_only_folder)])
    line = shown(shlex.join(["paper_artifacts", *argv, "--results", "{tmp}/read_only"]) + "   (a folder mode 555)",
                 stop.value.code)
    assert one_error_line(line), line
    assert re.search(rf"^Error: --results .*read_only cannot be written \(.*\), and {argv[0]} writes "
                     r"there: give a folder you can write with --results DIR", line)


@pytest.fixture(scope="module")
def run_py():
    sys.path.insert(0, str(REPO))
    try:
        import run
    finally:
        sys.path.remove(str(REPO))
    return run


# run.py command lines refused before Hydra composes (nothing written): the arguments, the message's pattern
RUN_REFUSALS = [
    (["hydra.run.dir=/proc/ssl_out"], r"writes its result under /proc/ssl_out, which cannot be written \("
                                      r"(cannot make a folder in /proc|/proc: permission denied).*hydra\.run\.dir=DIR"),
    ([f"hydra.run.dir={LONG}"], r"cannot be written \(the name x{40}\.\.\. is 300 bytes long, more than the \d+ allowed"),
    (["+experiment=learning_curve", "dataset=svmlight"],
     r"^Error: dataset 'svmlight' has no curve_labels in ssl_repro/data/registry\.py, so this experiment does not "
     r"apply to it \(no recipe does: run single jobs, python run\.py dataset=svmlight"),
    (["+experiment=learning_curve", "dataset=kdd99-10"],
     r"does not apply to it \(the recipes that do: \+experiment=transductive, \+experiment=scale_timing\)$"),
    (["+repeat=3", "method=svm"], r"^Error: \+repeat=3 numbers the repeats of a timing sweep.*drop \+repeat=3"),
    (["n_labeled=${oc.env:NO_SUCH_VAR}"], r"^Error: n_labeled=\$\{oc.env:NO_SUCH_VAR\}: the environment variable "
                                          r"NO_SUCH_VAR is not set: set it, or give a default as \$\{oc.env:NO_SUCH_VAR,VALUE\}$"),
    (["n_labeled=${no_such_setting}"], r"names 'no_such_setting', which is no setting of a job"),
    (["n_labeled=${nosuch:x}"], r"^Error: n_labeled=\$\{nosuch:x\}: its interpolation cannot be resolved \(Unsupported "
                                r"interpolation type nosuch\): give the value itself$"),
    (["~method"], r"^Error: ~method deletes method, which every job reads .*: set it instead, e.g. method=VALUE"),
    (["split=[0,1"], r"^Error: the override 'split=\[0,1' is not in Hydra's syntax \(no viable alternative"),
    (["dataset"], r"^Error: 'dataset' is not an override \(Hydra takes KEY=VALUE\): write dataset=VALUE"),
    (["method.lam=1)"], r"^Error: the override 'method.lam=1\)' is not in Hydra's syntax \(extraneous input"),
    (["n_labeled=${foo"], r"^Error: the override 'n_labeled=\$\{foo' is not in Hydra's syntax"),
    (["-m", "split=range(0,"], r"^Error: the override 'split=range\(0,' is not in Hydra's syntax .*-m 'KEY=range"),
    (["method=dA"], r"^Error: method=dA: no such method config \(did you mean da\?\)"),
    (["method=TSVM"], r"^Error: method=TSVM: no such method config \(did you mean tsvm\b"),
    (["dataset=PCMAC"], r"^Error: dataset=PCMAC: no such dataset config \(did you mean pcmac\?\)"),
]


@pytest.mark.parametrize("argv, message", RUN_REFUSALS)
def test_run_py_refuses_before_hydra_in_one_line(argv, message, run_py, tmp_path, monkeypatch, shown):
    monkeypatch.chdir(tmp_path)
    refusal = run_py.refusal(argv)
    assert refusal is not None and one_error_line(refusal), refusal
    shown(shlex.join(["python", "run.py", *argv]), refusal)
    assert re.search(message, refusal), refusal
    assert files_under(tmp_path) == []


def test_a_folder_that_can_be_made_is_not_refused(run_py, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_py.refusal([f"hydra.run.dir={'x' * 200}/job", "method=svm"]) is None
    assert run_py.refusal(["+experiment=learning_curve", "dataset=pcmac"]) is None
    assert files_under(tmp_path) == []         # the write test's folder removed


def run_cli(cwd, *args):
    proc = subprocess.run([sys.executable, str(REPO / "run.py"), *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=600)
    return proc.returncode, proc.stdout + proc.stderr


def test_the_console_shows_the_one_line(tmp_path, shown):
    code, log = run_cli(tmp_path, "+experiment=learning_curve", "dataset=svmlight")
    shown("python run.py +experiment=learning_curve dataset=svmlight   (the console)", log.strip())
    assert code == 1 and one_error_line(log) and "curve_labels" in log, log
    assert files_under(tmp_path) == []


@pytest.mark.slow   # Hydra sweeps in subprocesses
@pytest.mark.parametrize("args, message", [
    (["results_dir=/proc/ssl_out", "split=0"], r"cannot write the sweep folder /proc/ssl_out/default"),
    ([f"sweep_name={LONG}"], r"cannot write the sweep folder results/runs/x+ \(the name x{40}\.\.\. is 300 bytes"),
])
def test_a_sweep_into_a_folder_that_cannot_be_made_is_one_line(args, message, tmp_path, shown):
    code, log = run_cli(tmp_path, "-m", "method=svm", *args)
    error = [line for line in log.splitlines() if line.startswith("Error:")]
    shown(shlex.join(["python", "run.py", "-m", "method=svm", *args]), "\n".join(error))
    assert code == 1 and len(error) == 1 and "Traceback" not in log, log[-3000:]
    assert __import__("re").search(message, error[0]), error
    assert files_under(tmp_path) == []          # no results/runs/ left behind


@pytest.mark.slow   # Hydra sweeps in subprocesses
@pytest.mark.parametrize("cwd, results_dir, folder", [
    (None, str(REPO / "results"), "results/default"),                       # absolute
    (REPO, "results", "results/default"),                                   # relative, from the repository
    (None, str(REPO / "results" / "learning_curve_pcmac"), "results/learning_curve_pcmac/default"),  # an artifact's
])
def test_a_sweep_into_the_committed_results_is_refused_as_aggregate_refuses(cwd, results_dir, folder, tmp_path,
                                                                           shown):
    before = files_under(REPO / "results")
    code, log = run_cli(cwd or tmp_path, "-m", "method=svm", f"results_dir={results_dir}")
    error = [line for line in log.splitlines() if line.startswith("Error:")]
    shown(shlex.join(["python", "run.py", "-m", "method=svm", f"results_dir={results_dir}"])
          + ("   (from the repository)" if cwd else ""), "\n".join(error))
    assert code == 1 and len(error) == 1 and "Traceback" not in log, log[-3000:]
    assert re.search(rf"^Error: the sweep folder .*{folder} is in the repository's committed results \(.*\), which "
                     r"aggregate and plots refuse to write: set results_dir=DIR outside it", error[0]), error
    assert files_under(REPO / "results") == before


@pytest.mark.slow   # a Hydra sweep in a subprocess
def test_a_failed_job_of_a_sweep_is_one_console_line_and_its_traceback_stays_in_error_txt(tmp_path, shown):
    code, log = run_cli(tmp_path, "-m", f"results_dir={tmp_path / 'runs'}", "method=da", "n_labeled=8,2999",
                        "solver_threads=1")
    assert code == 1 and "Traceback" not in log, log[-3000:]
    failed = [line for line in log.splitlines() if ": failed: " in line]
    shown("python run.py -m results_dir={tmp}/runs method=da n_labeled=8,2999 solver_threads=1", "\n".join(failed))
    assert len(failed) == 1 and "n_labeled=2999" in failed[0] and "error.txt" in failed[0], log[-3000:]
    error_txt = list((tmp_path / "runs").rglob("error.txt"))
    assert len(error_txt) == 1 and error_txt[0].read_text().startswith("Traceback")
    assert log.strip().splitlines()[-1].startswith("sweep ") and "1 job(s) failed" in log


@pytest.mark.parametrize("token, field", [("NaN", "test_error"), ("Infinity", "seconds"), ("-Infinity", "seconds")])
def test_a_record_with_a_non_finite_number_is_named_and_left_out_of_the_means(token, field, tmp_path, capsys,
                                                                              shown):
    for split in (0, 1):
        write_result(tmp_path / "runs" / f"job{split}", record(split))
    bad = tmp_path / "runs" / "job1" / "result.json"
    bad.write_text(bad.read_text().replace(f'"{field}": {json.dumps(record(1)[field])}', f'"{field}": {token}'))
    assert token in bad.read_text()
    aggregate([str(tmp_path / "runs"), "--out", str(tmp_path / "table")])
    out, err = capsys.readouterr()
    shown(f"aggregate {{tmp}}/runs --out {{tmp}}/table   (a result.json with \"{field}\": {token})", err.strip())
    assert f"{bad}: holds {token}, which is not JSON" in err and "run the job again" in err, err
    assert "1 result.json skipped" in out
    import pandas as pd
    summary = pd.read_csv(tmp_path / "table" / "summary.csv")
    assert summary["n_splits"].tolist() == [1]          # what was averaged: the good record alone
    assert summary[f"{field}_mean"].tolist() == [record(0)[field]] and math.isfinite(summary["seconds_mean"][0])


@pytest.mark.parametrize("case, call, error, message", [
    ("mask_labels(np.array([1, -1, 1, -1]), [0, 1, -1, -2])",
     lambda: mask_labels(np.array([1, -1, 1, -1]), [0, 1, -1, -2]), ValueError,
     r"mask_labels: labeled holds the negative index -2; give the labeled rows' numbers 0\.\.3, or a boolean mask"),
    ("LinearDA().fit(np.eye(6), np.array([True, False, -1, -1, True, False], dtype=object))",
     lambda: LinearDA().fit(np.eye(6), np.array([True, False, -1, -1, True, False], dtype=object)), ValueError,
     r"LinearDA: the labeled rows hold the boolean classes True/False .* give them as 1/0"),
])
def test_the_python_api_names_the_mistake(case, call, error, message, shown):
    with pytest.raises(error, match=message) as caught:
        call()
    shown(case, caught.value)


def test_the_fix_the_boolean_message_gives_fits():
    y = np.array([True, False, -1, -1, True, False], dtype=object)
    fixed = np.where(y == -1, -1, y == True).astype(int)        # noqa: E712 (the message's own fix)
    X = np.random.default_rng(0).normal(size=(6, 3)) + 2 * fixed[:, None]
    assert LinearDA().fit(X, fixed).classes_.tolist() == [0, 1]
    assert mask_labels(np.array([1, -1, 1, -1]), [0, 1]).tolist() == [1, 0, -1, -1]


@pytest.mark.parametrize("estimator", [LinearDA, LinearSVM])
def test_a_matrix_far_wider_than_its_nonzeros_is_warned_of_before_any_work(estimator, shown):
    rng = np.random.default_rng(0)
    nnz, width = 2500, 10 ** 7
    X = sp.csr_matrix((np.ones(nnz), (np.repeat(np.arange(500), 5), rng.integers(0, width, nnz))), shape=(500, width))
    y = np.tile([1, 0], 250)
    y[20:] = -1
    with warnings.catch_warnings():
        warnings.simplefilter("error", WideDataWarning)     # raised at the warning: no fit is run
        with pytest.raises(WideDataWarning, match=rf"X has 10,000,000 columns but 2,500 non-zeros.*at most "
                                                  rf"{largest_id_allowed(nnz):,}.*numpy\.unique\(X\.indices\)") as caught:
            estimator().fit(X, y)
    shown(f"{estimator.__name__}().fit(X, y)   (500 rows, 10,000,000 columns, 2,500 non-zeros)", caught.value)
    narrow = X[:, np.unique(X.indices)]                     # the fix the warning gives
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                     # these toy rows' convergence warnings
        warnings.simplefilter("error", WideDataWarning)
        estimator().fit(narrow, y)
