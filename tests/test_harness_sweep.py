"""A small multirun end to end: jobs, crash and resume, aggregation, figures."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ssl_repro.harness import plots
from ssl_repro.harness.aggregate import write_tables
from ssl_repro.harness.runner import run_job
from ssl_repro.harness.store import finished_result, write_result

REPO = Path(__file__).resolve().parents[1]


def sweep(tmp_path, *overrides):
    cmd = [sys.executable, str(REPO / "run.py"), "-m", "dataset=text-like", f"results_dir={tmp_path}",
           "sweep_name=test", "hydra.job_logging.root.level=INFO", *overrides]
    return subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)


@pytest.fixture(scope="module")
def finished_sweep(tmp_path_factory):
    root = tmp_path_factory.mktemp("sweep")
    proc = sweep(root, "method=svm,tsvm_smax,da", "split=0,1", "n_labeled=16,32")
    assert proc.returncode == 0, proc.stderr[-3000:]
    return root


def results_of(root):
    return sorted((root / "test").rglob("result.json"))


def test_sweep_writes_one_complete_result_per_job(finished_sweep):
    paths = results_of(finished_sweep)
    assert len(paths) == 3 * 2 * 2
    record = json.loads(paths[0].read_text())
    for key in ("dataset", "method", "split", "n_labeled", "n_unlabeled", "n_test", "test_error",
                "transductive_error", "objective", "objective_eqn18", "seconds", "diagnostics", "config"):
        assert key in record
    assert record["diagnostics"]["mfn_calls"] >= 1 and record["config"]["dataset"]["name"] == "text-like"


def test_rerun_after_interruption_computes_only_the_missing_jobs(finished_sweep):
    paths = results_of(finished_sweep)
    removed = paths[:3]
    kept_mtimes = {p: p.stat().st_mtime_ns for p in paths[3:]}
    for p in removed:
        p.unlink()
    proc = sweep(finished_sweep, "method=svm,tsvm_smax,da", "split=0,1", "n_labeled=16,32")
    assert proc.returncode == 0, proc.stderr[-3000:]
    log = proc.stdout + proc.stderr
    assert log.count(": running") == 3 and log.count("already done, skipped") == 9
    assert all(p.exists() for p in removed)
    assert {p: p.stat().st_mtime_ns for p in paths[3:]} == kept_mtimes


def test_a_crashing_job_leaves_no_file_and_loses_no_finished_result(tmp_path):
    proc = sweep(tmp_path, "method=svm", "split=0", "n_labeled=16,999999")
    assert proc.returncode != 0 and "n_labeled must be between 2" in proc.stderr
    assert [p.parent.name for p in results_of(tmp_path)] == ["l=16"]
    assert not list(tmp_path.rglob(".result.*"))
    proc = sweep(tmp_path, "method=svm", "split=0", "n_labeled=16")
    assert proc.returncode == 0 and "already done, skipped" in proc.stdout + proc.stderr


def test_changed_configuration_is_recomputed_not_reused(tmp_path):
    cfg = {"dataset": {"name": "text-like"}, "method": {"name": "svm", "variant": "svm", "lam": None},
           "split": 0, "n_labeled": 16}
    record = run_job(cfg)
    write_result(tmp_path, record)
    assert finished_result(tmp_path, cfg) is not None
    assert finished_result(tmp_path, {**cfg, "split": 1}) is None
    assert finished_result(tmp_path, {**cfg, "data_root": "/elsewhere", "solver_threads": 1}) is not None


def test_aggregation_and_figures_agree(finished_sweep, tmp_path):
    table, summary = write_tables([finished_sweep / "test"], tmp_path)
    assert len(table) == 12 and set(summary["n_splits"]) == {2}
    assert (tmp_path / "summary.md").read_text().count("| text-like | 16 |") == 5
    row = summary[(summary.method == "da") & (summary.n_labeled == 16)].iloc[0]
    part = table[(table.method == "da") & (table.n_labeled == 16)]
    assert row["test_error_mean"] == pytest.approx(part["test_error"].mean())
    assert row["test_error_std"] == pytest.approx(part["test_error"].std(ddof=1))
    fig = plots.metric_vs_labels(summary, "text-like", "transductive_error")
    ax = fig.axes[0]
    for bars in ax.containers:  # one errorbar container per method
        line = bars.lines[0]
        expected = summary[summary.method == bars.get_label()].sort_values("n_labeled")
        np.testing.assert_allclose(line.get_xdata().astype(float), expected["n_labeled"])
        np.testing.assert_allclose(line.get_ydata().astype(float), expected["transductive_error_mean"])
    assert {bars.get_label() for bars in ax.containers} == {"svm", "tsvm-Smax", "da"}
    figures = plots.dataset_figures(summary, "text-like")
    assert {"text-like_test_error", "text-like_objective", "text-like_seconds"} <= set(figures)
    for stem, figure in figures.items():
        plots.save(figure, tmp_path, stem)
    assert (tmp_path / "text-like_objective.png").stat().st_size > 1000
    assert (tmp_path / "text-like_objective.pdf").exists()


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
    assert np.isfinite(record["objective"])
