"""A new method through the path the developers' guide gives: one declaration and its solver
(``tests/toy_method.py``), nothing else edited, run by ``run.py``, the benchmark script and
scikit-learn's estimator checks; its answer checked against the closed form."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.utils.estimator_checks import check_estimator

import toy_method
from ssl_repro.harness.methods import METHODS

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def toy_registered(monkeypatch):
    monkeypatch.setitem(METHODS, toy_method.NAME, toy_method.DECLARATION)


def labeled_data(seed=0, n=60, d=8):
    rng = np.random.RandomState(seed)
    y = np.where(rng.rand(n) < 0.5, 1, -1)
    X = 0.5 * y[:, None] + 0.5 * rng.randn(n, d)        # classes centred on +-0.5 in every feature
    return sp.csr_matrix(X), (y + 1) // 2          # classes 0 / 1 (-1 would mark an unlabeled row)


def test_the_toy_solver_returns_the_closed_form_minimizer():
    X, y = labeled_data()
    lam = 0.1
    model = toy_method.LinearMeanMargin(lam=lam).fit(X, y)
    Xb = np.c_[X.toarray(), np.ones(X.shape[0])]
    y = 2.0 * y - 1                                    # the solver's +1 / -1
    expected = Xb.T @ y / (len(y) * lam)
    np.testing.assert_allclose(np.r_[model.coef_[0], model.intercept_], expected, rtol=1e-12)
    w = expected
    assert model.diagnostics_.own_objective == pytest.approx(0.5 * lam * w @ w - np.mean(y * (Xb @ w)), rel=1e-12)


def test_the_toy_passes_scikit_learns_estimator_checks():
    check_estimator(toy_method.LinearMeanMargin(), expected_failed_checks={
        "check_classifiers_classes": "labels -1/+1 read as unlabeled/+1 (sklearn.semi_supervised convention)"})


def test_the_benchmark_script_runs_the_toy_by_name(toy_registered):
    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        from bench_solvers import run_method
    finally:
        sys.path.remove(str(REPO / "benchmarks"))
    X, y = labeled_data(1)
    y_fit = np.where(np.arange(y.size) < 20, y, -1)     # the first 20 rows labeled
    model = run_method(toy_method.NAME, X, y_fit, 0.1, 1.0, 0.5)
    assert isinstance(model, toy_method.LinearMeanMargin) and model.lam == 0.1
    assert np.mean(model.predict(X) == y) > 0.8


def test_run_py_trains_and_records_the_toy(tmp_path):
    """``python run.py method=toy_mean_margin`` once the declaration is registered (in a fresh process:
    the Hydra config of every method in the table is stored when the harness is imported)."""
    run_dir = tmp_path / "job"
    code = ("import runpy, sys; sys.path.insert(0, 'tests'); import toy_method; toy_method.register(); "
            f"sys.argv = ['run.py', 'method={toy_method.NAME}', 'solver_threads=1', 'hydra.run.dir={run_dir}']; "
            "runpy.run_path('run.py', run_name='__main__')")
    proc = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
    record = json.loads(next(run_dir.rglob("result.json")).read_text())
    assert record["method"] == toy_method.NAME
    assert 0.0 <= record["test_error"] < 0.5 and np.isfinite(record["objective_eqn18"])
