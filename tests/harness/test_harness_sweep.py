"""A small multirun end to end: jobs, progress, a killed sweep resumed, aggregation, figures.

The sweeps run ``python run.py -m`` in a subprocess on the embedded text-like
data with 300 unlabeled rows and one solver thread, so each job takes well
under a second.
"""
import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ssl_repro.report import plots
from ssl_repro.harness.aggregate import write_tables
from ssl_repro.harness.app import job_threads
from ssl_repro.harness.runner import run_job
from ssl_repro.harness.result_files import finished_result, write_result

REPO = Path(__file__).resolve().parents[2]
SMALL = ["dataset=text-like", "n_unlabeled=300", "solver_threads=1"]
GRID = ["method=svm,rls,tsvm_smax", "split=0,1", "n_labeled=16,32"]

#: A Hydra callback that kills its own process (SIGKILL: no clean-up at all)
#: when the k-th job has ended: a sweep interrupted outright.
KILLER = '''
import os, signal
from hydra.experimental.callback import Callback

class KillAfter(Callback):
    def __init__(self, jobs):
        self.jobs, self.ended = jobs, 0

    def on_job_end(self, config, job_return, **kwargs):
        self.ended += 1
        if self.ended == self.jobs:
            os.kill(os.getpid(), signal.SIGKILL)
'''


def sweep(results_dir, *overrides, env=None):
    cmd = [sys.executable, str(REPO / "run.py"), "-m", *SMALL, f"results_dir={results_dir}", "sweep_name=test",
           *overrides]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, env=env)
    proc.log = proc.stdout + proc.stderr
    return proc


def results_of(root):
    return sorted((Path(root) / "test").rglob("result.json"))


@pytest.fixture(scope="module")
def finished_sweep(tmp_path_factory):
    root = tmp_path_factory.mktemp("sweep")
    proc = sweep(root, *GRID)
    assert proc.returncode == 0, proc.log[-3000:]
    return root, proc.log


@pytest.mark.slow   # Hydra sweeps in subprocesses
def test_sweep_writes_one_complete_result_per_job_and_counts_progress(finished_sweep):
    root, log = finished_sweep
    paths = results_of(root)
    assert len(paths) == 3 * 2 * 2
    record = json.loads(next(p for p in paths if "tsvm-Smax" in str(p)).read_text())
    for key in ("dataset", "method", "split", "n_labeled", "n_unlabeled", "n_test", "test_error",
                "transductive_error", "objective_own", "objective_eqn18", "seconds", "diagnostics", "config"):
        assert key in record
    assert record["diagnostics"]["mfn_calls"] >= 1 and record["config"]["dataset"]["name"] == "text-like"
    # objective_own: the method's own (RLS: least squares); objective_eqn18: Eqn 18 from the solver's record
    rls = json.loads(next(p for p in paths if "/rls/" in str(p)).read_text())
    assert "own_objective" not in rls["diagnostics"] and "objective" not in rls["diagnostics"]   # stored once
    assert record["objective_own"] == record["objective_eqn18"]
    assert record["n_unlabeled"] == 300 and record["config"]["split"] in (0, 1)
    assert "12 jobs, 0 already done, 12 to run" in log
    # each job counts the finished ones when it ends; two parallel jobs may end together (then both say 2/12)
    counts = [int(done) for done in re.findall(r"(\d+)/12 jobs done, \d+ remaining", log)]
    assert len(counts) == 12 and min(counts) >= 1 and "12/12 jobs done, 0 remaining" in log
    assert log.count("running (1 solver thread)") == 12
    assert log.count("test error") == log.count("/result.json\n") == 12     # each job reported in one line
    manifest = json.loads((root / "test" / ".sweep" / "jobs.json").read_text())["jobs"]
    assert sorted(manifest) == sorted(str(p.parent.resolve()) for p in paths)    # the sweeper's list: Hydra's jobs
    history = [json.loads(line) for line in (root / "test" / ".sweep" / "history.jsonl").read_text().splitlines()]
    assert history[-1]["jobs"] == 12 and history[-1]["done_after"] == 12 and history[-1]["seconds"] > 0


@pytest.mark.slow   # Hydra sweeps in subprocesses
def test_sweep_killed_outright_resumes_with_only_the_missing_jobs(tmp_path):
    (tmp_path / "killer.py").write_text(KILLER)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    grid = ["method=svm,rls", "split=0,1,2", "n_labeled=16"]
    proc = sweep(tmp_path, *grid, "+hydra.callbacks.killer._target_=killer.KillAfter",
                 "+hydra.callbacks.killer.jobs=4", "hydra/launcher=basic", env=env)   # jobs in the sweep's process
    assert proc.returncode == -9, proc.log[-3000:]          # killed by the signal, mid-sweep
    survivors = {p: p.stat().st_mtime_ns for p in results_of(tmp_path)}
    assert len(survivors) == 4
    proc = sweep(tmp_path, *grid)
    assert proc.returncode == 0, proc.log[-3000:]
    assert "6 jobs, 4 already done, 2 to run" in proc.log
    assert proc.log.count(": running") == 2 and proc.log.count("already done, skipped") == 4
    assert len(results_of(tmp_path)) == 6
    assert {p: p.stat().st_mtime_ns for p in survivors} == survivors   # finished results untouched


@pytest.mark.slow   # Hydra sweeps in subprocesses
def test_a_crashing_job_leaves_no_file_and_loses_no_finished_result(tmp_path):
    proc = sweep(tmp_path, "method=svm", "split=0", "n_labeled=999999,16")
    assert proc.returncode != 0 and "n_labeled must be between 2" in proc.log
    # the sweep went on past the failing job and ended with its summary line
    assert "1/2 jobs done (1 run by this sweep, 0 by another process meanwhile, 0 done before), 1 failed" in proc.log
    assert [p.parent.parent.name for p in results_of(tmp_path)] == ["l=16"]
    errors = list(tmp_path.rglob("error.txt"))
    assert len(errors) == 1 and "n_labeled must be between 2" in errors[0].read_text()
    assert not list(tmp_path.rglob(".result.*")) and not list(tmp_path.rglob(".job.lock"))


@pytest.mark.slow   # Hydra sweeps in subprocesses
def test_local_launcher_runs_jobs_in_parallel_with_their_share_of_the_cores(tmp_path):
    cmd = [sys.executable, str(REPO / "run.py"), "-m", "dataset=text-like", "n_unlabeled=300",
           "method=svm", "split=0,1", "n_labeled=16", f"results_dir={tmp_path}", "sweep_name=test",
           "hydra/launcher=local"]          # n_jobs = 2, solver_threads unset: cores // 2 each
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-3000:]
    threads = job_threads(None, parallel_jobs=2)
    assert "local launcher: 2 jobs, 2 at once" in log
    assert log.count(f"running ({threads} solver thread") == 2 and "2/2 jobs done, 0 remaining" in log
    assert len(results_of(tmp_path)) == 2


@pytest.mark.slow   # Hydra sweeps in subprocesses
def test_a_plain_multirun_is_parallel_and_two_identical_sweeps_say_who_computed_what(tmp_path):
    """``python run.py -m`` without a launcher runs on the local launcher, 2 at once; two identical sweeps
    into one folder compute each job once, and each summary splits the jobs between them."""
    grid = ["method=svm,rls", "split=0,1,2", "n_labeled=16"]
    cmd = [sys.executable, str(REPO / "run.py"), "-m", *SMALL, f"results_dir={tmp_path}", "sweep_name=test", *grid]
    procs = [subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for _ in range(2)]
    logs = [proc.communicate()[0] for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0], logs
    assert all("local launcher: 6 jobs, 2 at once" in log for log in logs)
    summary = r"(\d)/6 jobs done \((\d) run by this sweep, (\d) by another process meanwhile, 0 done before\)"
    counts = [tuple(map(int, re.search(summary, log).groups())) for log in logs]     # (done, ran, elsewhere)
    assert all(done == ran + elsewhere for done, ran, elsewhere in counts), counts
    assert sum(ran for _, ran, _ in counts) == 6 and max(done for done, _, _ in counts) == 6
    assert sum(log.count(": running (") for log in logs) == 6                        # each job computed once
    assert len(results_of(tmp_path)) == 6


def test_failed_write_keeps_the_old_result_and_leaves_no_temp_file(tmp_path):
    write_result(tmp_path, {"test_error": 0.25})
    with pytest.raises(TypeError, match="cannot store object"):
        write_result(tmp_path, {"test_error": 0.5, "oops": object()})   # fails half way through the dump
    assert json.loads((tmp_path / "result.json").read_text()) == {"test_error": 0.25}
    assert [p.name for p in tmp_path.iterdir()] == ["result.json"]


def test_changed_configuration_is_recomputed_not_reused(tmp_path):
    cfg = {"dataset": {"name": "text-like"}, "method": {"name": "svm", "variant": "svm", "lam": None},
           "split": 0, "n_labeled": 16}
    record = run_job(cfg)
    write_result(tmp_path, record)
    assert finished_result(tmp_path, cfg) is not None
    assert finished_result(tmp_path, {**cfg, "split": 1}) is None
    assert finished_result(tmp_path, {**cfg, "data_root": "/elsewhere", "solver_threads": 1}) is not None


@pytest.mark.slow   # Hydra sweeps in subprocesses
def test_aggregation_and_figures_agree(finished_sweep, tmp_path):
    root, _ = finished_sweep
    table, summary = write_tables([root / "test"], tmp_path)
    assert len(table) == 12 and set(summary["n_splits"]) == {2}
    assert (tmp_path / "summary.md").read_text().count("| text-like | 16 |") == 5   # one per metric
    row = summary[(summary.method == "tsvm-Smax") & (summary.n_labeled == 16)].iloc[0]
    part = table[(table.method == "tsvm-Smax") & (table.n_labeled == 16)]
    assert row["test_error_mean"] == pytest.approx(part["test_error"].mean())
    assert row["test_error_std"] == pytest.approx(part["test_error"].std(ddof=1))
    for metric in ("transductive_error", "objective_own", "seconds"):
        fig = plots.metric_vs_labels(summary, "text-like", metric)
        ax = fig.axes[0]
        lines = {line.get_label(): line for line in ax.get_lines()}
        assert set(lines) == {"svm", "rls", "tsvm-Smax"}
        bands = ax.collections            # one band per method, drawn in the lines' order
        assert len(bands) == 3
        for line, band in zip(ax.get_lines(), bands):   # line: the means; band: one standard error over splits
            expected = summary[summary.method == line.get_label()].sort_values("n_labeled")
            np.testing.assert_allclose(line.get_xdata().astype(float), expected["n_labeled"])
            np.testing.assert_allclose(line.get_ydata().astype(float), expected[f"{metric}_mean"])
            sem = expected[f"{metric}_std"].to_numpy(float) / np.sqrt(expected["n_splits"].to_numpy(float))
            heights = band.get_paths()[0].vertices[:, 1]
            np.testing.assert_allclose(heights.max() - heights.min(),
                                       np.max(expected[f"{metric}_mean"] + sem) - np.min(expected[f"{metric}_mean"] - sem))
    figures = plots.dataset_figures(summary, "text-like")
    # one semi-supervised method: its objective and time figures would show it alone (tables instead)
    assert set(figures) == {"text-like_test_error", "text-like_transductive_error"}
    for stem, figure in figures.items():
        plots.save(figure, tmp_path, stem)
    assert (tmp_path / "text-like_test_error.png").stat().st_size > 1000
    assert (tmp_path / "text-like_test_error.pdf").exists()


def test_loss_figures_show_the_papers_curves():
    o = np.linspace(-2, 2, 81)
    np.testing.assert_allclose(plots.da_effective_loss(o, 1e-4), np.maximum(0, 1 - np.abs(o)) ** 2, atol=1e-3)
    wide = plots.da_effective_loss(o, 1e4)
    np.testing.assert_allclose(wide, 1 + o ** 2 - 0.5 * np.where(np.abs(o) > 1, (np.abs(o) - 1) ** 2, 0),
                               rtol=1e-3, atol=1e-3)
    fig = plots.balance_figure()
    marker = next(line for line in fig.axes[0].lines if line.get_label().startswith("root"))
    root = marker.get_xdata()[0]
    g = np.linspace(-5, 5, 200)
    assert np.mean(1 / (1 + np.exp(g - root))) == pytest.approx(0.15, abs=1e-9)


def test_job_on_the_reference_two_file_format_scores_nothing_it_cannot_know(tmp_path):
    from ssl_repro.data import load_dataset
    ds = load_dataset("text-like")
    X = ds.X[:300].tocsr()
    lines = [" ".join(f"{j + 1}:{float(v)!r}" for j, v in zip(X.indices[X.indptr[i]:X.indptr[i + 1]],
                                                        X.data[X.indptr[i]:X.indptr[i + 1]])) for i in range(300)]
    (tmp_path / "ex.svmlin").write_text("\n".join(lines) + "\n")
    labels = np.where(np.arange(300) < 40, ds.y[:300], 0)
    (tmp_path / "labels").write_text("\n".join(str(int(v)) for v in labels) + "\n")
    cfg = {"dataset": {"name": "svmlin", "examples": str(tmp_path / "ex.svmlin"), "labels": str(tmp_path / "labels")},
           "method": {"name": "tsvm", "variant": "tsvm-Smax", "lam": None, "lam_u": None, "r": None, "switches": "max"},
           "split": 0, "n_labeled": 40}
    record = run_job(cfg)
    assert record["n_labeled"] == 40 and record["n_unlabeled"] == 260 and record["n_test"] == 0
    assert np.isnan(record["transductive_error"]) and np.isnan(record["test_error"])
    assert record["r"] == pytest.approx(np.mean(labels[:40] > 0))
    assert np.isfinite(record["objective_own"])


def test_sweep_over_a_method_parameter_keeps_one_record_per_value_readable_by_the_group(tmp_path):
    proc = sweep(tmp_path, "method=svm", "method.lam=0.01,0.1", "split=0", "n_labeled=16")
    assert proc.returncode == 0, proc.log[-3000:]
    records = [json.loads(p.read_text()) for p in results_of(tmp_path)]
    assert sorted(r["lam"] for r in records) == [0.01, 0.1]            # the lambda actually used
    assert all(r["lam"] == r["config"]["method"]["lam"] for r in records)
    assert "2/2 jobs done" in proc.log
    mask = os.umask(0)
    os.umask(mask)
    for path in results_of(tmp_path) + [tmp_path / "test" / ".sweep" / "jobs.json"]:
        assert path.stat().st_mode & 0o777 == 0o666 & ~mask
    again = sweep(tmp_path, "method=svm", "method.lam=0.01,0.1", "split=0", "n_labeled=16")
    assert again.log.count("already done, skipped") == 2
    table, summary = write_tables([tmp_path], tmp_path / "agg")
    assert sorted(summary["method"]) == ["svm lam=0.01", "svm lam=0.1"]
    assert list(summary["n_not_converged"]) == [0, 0] and table["converged"].all()


def test_aggregation_keeps_earlier_rows_whose_result_folders_are_gone(tmp_path):
    """--keep: jobs aggregated before stay in results.csv after their folders are deleted; a job
    found again is not counted twice."""
    cfg = {"dataset": {"name": "text-like"}, "method": {"name": "svm", "variant": "svm", "lam": None},
           "n_labeled": 16}
    runs = tmp_path / "runs"
    for split in (0, 1):
        write_result(runs / f"split={split}", run_job({**cfg, "split": split}))
    first, _ = write_tables([runs], tmp_path / "agg")
    assert sorted(first["split"]) == [0, 1]
    (runs / "split=0" / "result.json").unlink()
    write_result(runs / "split=2", run_job({**cfg, "split": 2}))
    table, summary = write_tables([runs], tmp_path / "agg", keep=[tmp_path / "agg" / "results.csv"])
    assert sorted(table["split"]) == [0, 1, 2]
    assert table[table.split == 0]["test_error"].item() == first[first.split == 0]["test_error"].item()
    assert summary["n_splits"].tolist() == [3]
    assert "earlier rows of" in (tmp_path / "agg" / "summary.md").read_text()


def test_a_job_locked_by_another_process_is_not_computed_twice(tmp_path):
    from ssl_repro.harness.app import run_configured_job
    from ssl_repro.harness.result_files import job_lock
    cfg = {"dataset": {"name": "text-like"}, "method": {"name": "svm", "variant": "svm", "lam": None},
           "split": 0, "n_labeled": 16, "n_unlabeled": 300}
    with job_lock(tmp_path) as mine:
        assert mine
        with job_lock(tmp_path) as second:
            assert not second
        assert run_configured_job(cfg, tmp_path) is None
        assert not (tmp_path / "result.json").exists()
    assert run_configured_job(cfg, tmp_path)["method"] == "svm"
    assert not (tmp_path / ".job.lock").exists()


def write_own_files(folder, n=300, n_known=40):
    """The first 300 text-like rows as the reference software's pair of files, 40 of them labeled."""
    from ssl_repro.data import load_dataset
    ds = load_dataset("text-like")
    X = ds.X[:n].tocsr()
    lines = [" ".join(f"{j + 1}:{float(v)!r}" for j, v in zip(X.indices[X.indptr[i]:X.indptr[i + 1]],
                                                        X.data[X.indptr[i]:X.indptr[i + 1]])) for i in range(n)]
    (folder / "ex.svmlin").write_text("\n".join(lines) + "\n")
    labels = np.where(np.arange(n) < n_known, ds.y[:n], 0)
    (folder / "labels").write_text("\n".join(str(int(v)) for v in labels) + "\n")
    return X, labels


def test_own_data_job_uses_the_files_labels_and_saves_weights_and_outputs(tmp_path, caplog):
    from hydra import compose, initialize_config_dir

    from ssl_repro.harness import jobkey
    from ssl_repro.harness.app import run_configured_job
    X, labels = write_own_files(tmp_path)
    jobkey.register()
    with initialize_config_dir(config_dir=str(REPO / "conf"), version_base=None):
        cfg = compose("config", overrides=["dataset=svmlin", "method=tsvm_smax", f"dataset.examples={tmp_path / 'ex.svmlin'}",
                                           f"dataset.labels={tmp_path / 'labels'}"])
    from omegaconf import OmegaConf
    cfg = OmegaConf.to_container(cfg, resolve=True)
    assert cfg["n_labeled"] == "all"                     # the own-data default: the file's labeled rows
    out = tmp_path / "job"
    with caplog.at_level(logging.INFO, logger="ssl_repro"):
        record = run_configured_job(cfg, out)
    assert record["n_labeled"] == 40 and record["n_unlabeled"] == 260 and record["n_test"] == 0
    (line,) = [r.getMessage() for r in caplog.records if "result.json" in r.getMessage()]   # one line per job
    assert "no test rows" in line and "nan" not in line
    w = np.load(out / "weights.npy")
    outputs = np.load(out / "outputs.npz")
    np.testing.assert_array_equal(outputs["unlabeled_rows"], np.arange(40, 300))
    np.testing.assert_allclose(outputs["unlabeled_decision"], X[40:] @ w[:-1] + w[-1], rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(outputs["unlabeled_predicted"], np.where(outputs["unlabeled_decision"] > 0, 1, -1))
    assert outputs["test_rows"].size == 0
    assert (outputs["unlabeled_predicted"] == 1).any() and (outputs["unlabeled_predicted"] == -1).any()


def test_own_svmlight_file_reads_label_0_as_unlabeled(tmp_path):
    from ssl_repro.data import load_dataset
    from sklearn.datasets import dump_svmlight_file
    X, labels = write_own_files(tmp_path)
    dump_svmlight_file(X, labels, str(tmp_path / "own.svmlight"))
    cfg = {"dataset": {"name": "svmlight", "path": str(tmp_path / "own.svmlight")},
           "method": {"name": "svm", "variant": "svm", "lam": None}, "split": 0, "n_labeled": "all"}
    record = run_job(cfg)
    assert record["n_labeled"] == 40 and record["n_unlabeled"] == 260
    assert np.array_equal(load_dataset("svmlight", path=tmp_path / "own.svmlight").y, labels)
    dump_svmlight_file(X, np.where(labels == 0, 1, labels), str(tmp_path / "full.svmlight"))
    with pytest.raises(ValueError, match="set n_labeled to a number"):
        run_job({**cfg, "dataset": {"name": "svmlight", "path": str(tmp_path / "full.svmlight")}})


def test_a_job_rerun_under_another_folder_name_replaces_its_earlier_row(tmp_path):
    """--keep: when the folder naming changed between two runs of the same job (same dataset, method,
    split, labels and lambdas), the earlier row is replaced, not kept beside the new one."""
    cfg = {"dataset": {"name": "text-like"}, "method": {"name": "svm", "variant": "svm", "lam": None},
           "n_labeled": 16, "split": 0}
    write_result(tmp_path / "old" / "u=None", run_job(cfg))
    first, _ = write_tables([tmp_path / "old"], tmp_path / "agg")
    write_result(tmp_path / "new" / "cfg-0123456789", run_job(cfg))
    table, summary = write_tables([tmp_path / "new"], tmp_path / "agg", keep=[tmp_path / "agg" / "results.csv"])
    assert len(first) == 1 and len(table) == 1 and "cfg-0123456789" in table["path"].item()
    assert summary["n_splits"].tolist() == [1]


@pytest.mark.slow   # a Hydra sweep in a subprocess
def test_a_sweep_whose_data_is_missing_stops_before_any_job_with_one_message(tmp_path):
    (tmp_path / "empty").mkdir()
    proc = sweep(tmp_path / "runs", "dataset=pcmac", "method=svm,da", "split=0,1", "n_labeled=29", "download=false",
                 env={**os.environ, "SSL_REPRO_DATA": str(tmp_path / "empty")})
    assert proc.returncode == 1 and "Traceback" not in proc.log, proc.log[-3000:]
    assert proc.log.count("Error: dataset 'pcmac'") == 1 and "20newsgroups/20news-bydate_py3.pkz missing" in proc.log
    assert "no job was run" in proc.log and ": running" not in proc.log
    assert [p.name for p in tmp_path.rglob("*")] == ["empty"]      # no sweep folder, nothing in the data root
