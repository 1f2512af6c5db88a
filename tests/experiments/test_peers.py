"""The peer comparisons' scripts (SVM-light, UniverSVM) without the binaries, and the calibration record."""
import importlib.util
import json
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

ROOT = Path(__file__).resolve().parents[2]


def script(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "experiments" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fake_binary(path, body):
    path.write_text(f"#!{sys.executable}\n{body}")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_the_calibration_record_is_of_the_registry_parameters_and_meets_the_tolerance():
    from ssl_repro.data.registry import standin_parameters
    calibrate = script("calibrate_standins")
    record = json.loads((ROOT / "results" / "calibration" / "calibration.json").read_text())
    assert {"command", "date", "git_commit", "machine"} <= set(record["provenance"])
    rows = {row["dataset"]: row for row in record["rows"]}
    assert set(rows) == {f"synthetic-{name}" for name in calibrate.TARGETS}
    for name, target in calibrate.TARGETS.items():
        row = rows[f"synthetic-{name}"]
        assert row["generator"] == standin_parameters(name)      # no stale record
        assert row["paper_error"] == target and row["matched"] == "transductive error"
        assert abs(row["reached_error"] - target) <= calibrate.TOLERANCE


def test_svmlight_files_round_trip_and_the_transduction_file_is_read(tmp_path):
    from sklearn.datasets import load_svmlight_file
    from ssl_repro.harness.external import cpu_seconds, read_transduction, write_svmlight
    X = sp.csr_matrix(np.array([[0.5, 0, 1.25], [0, 0, 0.1], [2, 3, 0]]))
    path = tmp_path / "rows.svm"
    write_svmlight(path, X, np.array([1, 0, -1]))
    X_read, y_read = load_svmlight_file(str(path), n_features=3, zero_based=False)
    assert np.allclose(X_read.toarray(), X.toarray()) and y_read.tolist() == [1, 0, -1]
    path.write_text("1.73:-1 -1.73:+1\n0.2:+1 -0.2:-1\n")
    assert read_transduction(path).tolist() == [-1, 1]
    assert cpu_seconds("...\nRuntime in cpu-seconds: 12.34\nNumber of SV: 3") == 12.34


def test_svmlin_pairs_round_trip_through_the_reference_format_reader(tmp_path):
    from ssl_repro.data.files import read_svmlin_pair
    from ssl_repro.harness.external import write_svmlin_pair
    X = sp.csr_matrix(np.array([[0.5, 0, 1.25], [0, 0, 0.1], [2, 3, 0]]))
    write_svmlin_pair(tmp_path / "examples", tmp_path / "labels", X, np.array([1, 0, -1]))
    X_read, labels = read_svmlin_pair(tmp_path / "examples", tmp_path / "labels")
    assert np.allclose(X_read[:, :3].toarray(), X.toarray()) and labels.tolist() == [1, 0, -1]


def test_svmlin_agreement_reads_the_objective_it_prints_last():
    agreement = script("svmlin_agreement")
    log = "L2_SVM_MFN Iteration# 1 (9 active examples,  objective_value = 0.5)\nObjective Value = 0.15932\n"
    assert float(agreement.OBJECTIVE.findall(log)[-1]) == 0.15932
    assert float(agreement.OBJECTIVE.findall("(min) Objective Value = 0.299799\n")[-1]) == 0.299799

def small_problem():
    from ssl_repro.data import DATASETS, Dataset, make_split
    from ssl_repro.data.embedded import text_like
    X, y = text_like(n_rows=400, n_features=300, seed=3)
    dataset = Dataset("text-like", X, y, "test", DATASETS["text-like"])
    return dataset, make_split(dataset, 0, 16)


def test_an_svm_light_run_past_the_cap_is_killed_and_recorded_as_capped(tmp_path):
    table9 = script("svmlight_table9")
    dataset, split = small_problem()
    spinner = fake_binary(tmp_path / "svm_learn", "while True:\n    pass\n")
    row = table9.svmlight_row(dataset, split, spinner, 1.0, tmp_path)
    assert row["capped"] and row["seconds"] == 1.0 and row["cap_seconds"] == 1.0
    assert 0.9 <= row["cpu_seconds"] < 3 and np.isnan(row["transductive_error"])


def test_the_cap_is_cpu_time_and_a_child_that_spends_none_meets_the_wall_guard(tmp_path):
    """A spinning child is stopped by its CPU limit, with about ``cap`` CPU seconds; a sleeping one
    spends no CPU and is killed by the wall guard; an exit code is passed on, not called capped."""
    import time
    from ssl_repro.harness.external import run_capped
    cpu, capped, code = run_capped([sys.executable, "-c", "while True: pass"], 1.0, tmp_path / "log")
    assert capped and code is None and 0.9 <= cpu < 2.5
    start = time.perf_counter()
    cpu, capped, code = run_capped([sys.executable, "-c", "import time; time.sleep(60)"], 0.5, tmp_path / "log")
    assert capped and code is None and cpu < 0.5 and time.perf_counter() - start < 10
    cpu, capped, code = run_capped([sys.executable, "-c", "import sys; sys.exit(3)"], 5.0, tmp_path / "log")
    assert not capped and code == 3


def test_an_svm_light_run_is_scored_on_its_transductive_labels(tmp_path):
    """A fake svm_learn that labels the unlabeled rows (label 0 in its input) all +1: its
    transductive error is the unlabeled rows' negative fraction."""
    table9 = script("svmlight_table9")
    dataset, split = small_problem()
    body = ("import sys\nrows = [l for l in open(sys.argv[-2]) if l.startswith('0 ')]\n"
            "open(sys.argv[sys.argv.index('-l') + 1], 'w').write(''.join('1.0:+1 -1.0:-1\\n' for _ in rows))\n"
            "print('Runtime in cpu-seconds: 0.25')\n")
    row = table9.svmlight_row(dataset, split, fake_binary(tmp_path / "svm_learn", body), 30.0, tmp_path)
    assert not row["capped"] and row["seconds"] == 0.25
    assert row["transductive_error"] == pytest.approx(np.mean(dataset.y[split.unlabeled] < 0))
    failing = fake_binary(tmp_path / "svm_learn", "import sys\nprint('bad input')\nsys.exit(3)\n")
    with pytest.raises(RuntimeError, match="exit code 3"):
        table9.svmlight_row(dataset, split, failing, 30.0, tmp_path)


def test_svmlight_table9_refuses_a_missing_binary_and_a_bad_cap(tmp_path, capsys):
    table9 = script("svmlight_table9")
    with pytest.raises(SystemExit):
        table9.main(["--svm-learn", str(tmp_path / "nothing"), "--out", str(tmp_path / "t")])
    assert "not an executable file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        table9.main(["--cap", "0", "--out", str(tmp_path / "t")])
    assert "must be positive" in capsys.readouterr().err


def test_merge_keeps_earlier_rows_of_other_pairs():
    from ssl_repro.harness.external import merge
    old = [{"dataset": "a", "method": "da", "seconds": 1}, {"dataset": "a", "method": "tsvm-S1", "seconds": 2}]
    new = [{"dataset": "a", "method": "da", "seconds": 3}]
    assert merge(old, new, ("dataset", "method")) == [old[1], new[0]]


def test_universvm_cost_maps_the_projects_lambda():
    """J/lambda = 1/2 ||w||^2 + 1/(2 l lambda) sum H: C = 1/(2 l lambda); with UniverSVM's default
    C* = (l/u) C = 1/(2 u lambda), the project's lambda' = 1."""
    compare = script("universvm_compare")
    assert compare.universvm_cost(2, 1e-3) == pytest.approx(250.0)
    assert compare.universvm_cost(584, 1e-3) * 584 / 1000 == pytest.approx(1 / (2 * 1000 * 1e-3))


def test_universvm_values_are_read_and_scored_on_unlabeled_then_test_rows(tmp_path):
    """A fake universvm that writes -D values +1 for the first half of its -T rows, -1 after."""
    compare = script("universvm_compare")
    (tmp_path / "v.txt").write_text("# function values\nf{1} = [ -3.01 ,2.96 ,1e-2 ,-0.5];\n")
    assert compare.read_function_values(tmp_path / "v.txt").tolist() == [-3.01, 2.96, 0.01, -0.5]
    dataset, split = small_problem()
    problem = compare.Problem("text-like", 0, dataset.X, dataset.y, split.labeled, split.unlabeled, split.test)
    body = ("import sys\nargs = sys.argv\nn = sum(1 for _ in open(args[args.index('-T') + 1]))\n"
            "values = ['1' if i < n // 2 else '-1' for i in range(n)]\n"
            "open(args[args.index('-D') + 1], 'w').write('f{1} = [ ' + ' ,'.join(values) + '];\\n')\n")
    row = compare.universvm_row(problem, fake_binary(tmp_path / "universvm", body), 30.0, tmp_path)
    n = split.unlabeled.size + split.test.size
    predicted = np.where(np.arange(n) < n // 2, 1, -1)
    truth = dataset.y[np.concatenate([split.unlabeled, split.test])]
    assert row["transductive_error"] == pytest.approx(np.mean(predicted[:split.unlabeled.size] != truth[:split.unlabeled.size]))
    assert row["test_error"] == pytest.approx(np.mean(predicted[split.unlabeled.size:] != truth[split.unlabeled.size:]))
    assert json.loads(row["parameters"])["-c"] == compare.universvm_cost(split.labeled.size)
    capped = compare.universvm_row(problem, fake_binary(tmp_path / "slow", "while True:\n    pass\n"),
                                   1.0, tmp_path)
    assert capped["capped"] and capped["seconds"] == 1.0 and np.isnan(capped["transductive_error"])


def test_the_version_line_survives_bytes_that_are_not_utf8(tmp_path):
    from ssl_repro.harness.external import version_line
    binary = fake_binary(tmp_path / "svm_learn",
                         "import sys\nsys.stdout.buffer.write(b'\\nSVM-light V6.02: learning module\\nJoachims \\xf6\\n')\n")
    assert version_line(binary) == "SVM-light V6.02: learning module"


def test_an_svm_light_fit_of_002_records_the_work_it_printed_beside_its_seconds(tmp_path, experiment_script):
    """Claim 75's rule shows SVM-light's kernel evaluations beside its CPU seconds: a fake svm_learn printing
    SVM-light's closing lines (iterations, kernel evaluations) and labelling every unlabeled row +1; the counts it
    printed last are recorded, and a log without them records None."""
    from ssl_repro.harness.external import work_counts
    peers = experiment_script("cccp_002_peers")
    X = sp.csr_matrix(np.eye(6))
    y = np.array([1, -1, 1, -1, 1, -1])
    body = ("import sys\nrows = [l for l in open(sys.argv[-2]) if l.startswith('0 ')]\n"
            "open(sys.argv[sys.argv.index('-l') + 1], 'w').write(''.join('1.0:+1 -1.0:-1\\n' for _ in rows))\n"
            "print('done. (12 iterations)\\nRetraining..done\\ndone. (8539 iterations)')\n"
            "print('Runtime in cpu-seconds: 1.64\\nNumber of kernel evaluations: 625437')\n")
    row = peers.svmlight_fit(fake_binary(tmp_path / "svm_learn", body), X, y, np.arange(2), np.arange(2, 6), 0.5,
                             1.0, 30.0)
    assert (row["svmlight_iterations"], row["kernel_evaluations"], row["svmlight_runtime"]) == (8539, 625437, 1.64)
    assert row["transductive_error"] == 0.5 and not row["capped"]
    assert work_counts("Optimization finished\n") == (None, None)


def test_an_svm_light_fit_that_gives_up_for_slow_progress_is_recorded_not_converged_and_the_grid_goes_on(
        tmp_path, experiment_script):
    """SVM-light V6.02 on g50c (split 2, width 0.5 x the median distance, C = 1) prints that it relaxes the KT
    conditions and terminates, exits with 0 and writes no labels: 002's fit records it not converged, given up,
    with its CPU seconds and work (it once ended the whole Table 2 run with FileNotFoundError); without that
    message a missing label file is an error naming the file."""
    from ssl_repro.harness.external import GAVE_UP
    peers = experiment_script("cccp_002_peers")
    X, y = sp.csr_matrix(np.eye(6)), np.array([1, -1, 1, -1, 1, -1])
    body = (f"print({GAVE_UP!r})\nprint('Retraining.done. (238895 iterations)')\n"
            "print('Runtime in cpu-seconds: 26.54\\nNumber of kernel evaluations: 13297497')\n")
    row = peers.svmlight_fit(fake_binary(tmp_path / "svm_learn", body), X, y, np.arange(2), np.arange(2, 6), 0.5,
                             1.0, 30.0)
    assert row["svmlight_gave_up"] and not row["converged"] and not row["capped"]
    assert np.isnan(row["transductive_error"]) and row["seconds"] >= 0
    assert (row["svmlight_iterations"], row["kernel_evaluations"]) == (238895, 13297497)
    silent = fake_binary(tmp_path / "svm_learn", "print('done')\n")
    with pytest.raises(RuntimeError, match="wrote no .*transduction.txt"):
        peers.svmlight_fit(silent, X, y, np.arange(2), np.arange(2, 6), 0.5, 1.0, 30.0)
    table9 = script("svmlight_table9")                       # 000 Table 9's row of such a run: no error, not converged
    dataset, split = small_problem()
    row = table9.svmlight_row(dataset, split, fake_binary(tmp_path / "svm_learn", body), 30.0, tmp_path)
    assert not row["converged"] and not row["capped"] and np.isnan(row["transductive_error"])


def test_a_caller_stopped_while_its_peer_runs_takes_the_peer_and_its_scratch_folder_with_it(tmp_path):
    """SIGTERM to a script waiting on a peer (``run all`` stops a step so): the peer, in its own session, is
    killed and the script's temporary folder removed; before, both outlived it (a killed 002 grid left an
    ``svm_learn`` running and a ``/tmp/svmlight-*`` folder)."""
    import os
    import signal
    import time
    caller = tmp_path / "caller.py"
    caller.write_text(
        "import sys, tempfile\n"
        "from pathlib import Path\n"
        "from ssl_repro.harness.external import run_capped\n"
        "with tempfile.TemporaryDirectory(dir=sys.argv[1]) as scratch:\n"
        "    Path(sys.argv[1], 'scratch').write_text(scratch)\n"
        "    run_capped([sys.executable, '-c', 'import os, sys, time; open(sys.argv[1], \"w\").write(str(os.getpid()));"
        " time.sleep(60)', str(Path(sys.argv[1]) / 'peer')], 30.0, Path(scratch) / 'log')\n")
    process = subprocess.Popen([sys.executable, str(caller), str(tmp_path)])
    end = time.time() + 30
    while not (tmp_path / "peer").exists() or not (tmp_path / "peer").read_text():
        assert time.time() < end and process.poll() is None
        time.sleep(0.05)
    peer = int((tmp_path / "peer").read_text())
    process.send_signal(signal.SIGTERM)
    assert process.wait(20) != 0
    with pytest.raises(ProcessLookupError):
        os.kill(peer, 0)
    assert not Path((tmp_path / "scratch").read_text()).exists()
