"""Issue 10: degenerate but legal input ends fast with a finite answer or a clear error, every
solver says when it stopped on a cap (converged / stop_reason + ConvergenceWarning), and
parameters that would make a loop not run are refused."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from ssl_repro.estimators import (LinearCCCPTSVM, LinearDA, LinearNablaTSVM, LinearRLS, LinearSVM, LinearTSVM,
                                  mask_labels)
from ssl_repro.solvers import cgls, from_blocks
from ssl_repro.solvers.annealing import deterministic_annealing
from ssl_repro.solvers.balance import Beliefs, kl_divergence
from ssl_repro.solvers.cccp import cccp_tsvm
from ssl_repro.solvers.nabla import nabla_tsvm
from ssl_repro.solvers.tsvm import tsvm

LINEAR = [LinearSVM, LinearRLS, LinearTSVM, LinearDA, LinearNablaTSVM, LinearCCCPTSVM]


def data(scale=1.0, n=60, d=5, n_labeled=10, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * scale
    y = np.where(rng.random(n) < 0.5, 1, -1)
    y[:2] = [1, -1]
    return X, mask_labels(y, np.arange(n_labeled))


def fit_quietly(estimator, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return estimator.fit(X, y)


@pytest.mark.parametrize("estimator", LINEAR)
@pytest.mark.parametrize("case", ["zero_rows", "opposite_duplicates", "tiny_1e-150", "tiny_1e-200"])
def test_degenerate_data_gives_finite_weights(estimator, case):
    X, y = data()
    if case == "zero_rows":
        X[:] = 0.0
        y[:10] = [1, 0] * 5                       # balanced: zero starting residual in CGLS
    elif case == "opposite_duplicates":
        X[1] = X[0]
        y[:] = -1
        y[:2] = [1, 0]                            # two identical labeled rows, opposite labels
    else:
        X *= float(case.split("_")[1])
    model = fit_quietly(estimator(), X, y)
    assert np.all(np.isfinite(model.coef_)) and np.all(np.isfinite(model.intercept_))
    assert np.isfinite(model.diagnostics_.objective)


@pytest.mark.parametrize("estimator", LINEAR)
@pytest.mark.parametrize("scale", [1e150, 1e200, 1e40])
def test_huge_values_are_refused_with_a_clear_error(estimator, scale):
    X, y = data(scale)
    with pytest.raises(ValueError, match="rescale"):
        estimator().fit(X, y)


def test_cgls_returns_at_once_when_the_seed_residual_is_zero():
    X = sp.csr_matrix((4, 3))
    prob = from_blocks(X, np.array([1.0, -1.0, 1.0, -1.0]))
    rows = prob.labeled
    with warnings.catch_warnings():
        warnings.simplefilter("error")            # no 0/0 RuntimeWarning
        beta, o, info = cgls(prob.op, rows, prob.y, np.full(4, 0.25), 1e-3, np.zeros(4), np.zeros(4), 1e-6, 100)
    assert info.converged and info.iterations == 0
    assert np.all(beta == 0.0)


def test_kl_stays_finite_when_p_underflows():
    old = Beliefs(np.array([0.0, 0.5]), np.array([1.0, 0.5]), 0.0, 0)
    new = Beliefs(np.array([1e-3, 0.5]), np.array([1 - 1e-3, 0.5]), 0.0, 0)
    kl = kl_divergence(new, old)
    assert np.isfinite(kl) and kl > 0


@pytest.mark.parametrize("estimator, params, name", [
    (LinearDA, dict(eps=1.0), "eps"), (LinearDA, dict(eps=0.0), "eps"),
    (LinearDA, dict(max_outer=0), "max_outer"), (LinearDA, dict(max_inner=0), "max_inner"),
    (LinearDA, dict(T0=0.0), "T0"), (LinearDA, dict(anneal_rate=1.0), "anneal_rate"),
    (LinearDA, dict(eps=0.2, r=0.05), "eps"), (LinearDA, dict(r=1e-9), "eps"),
    (LinearCCCPTSVM, dict(max_iter=0), "max_iter"), (LinearNablaTSVM, dict(steps=0), "steps"),
    (LinearTSVM, dict(switches=0), "switches"), (LinearTSVM, dict(lam_u_growth=1.0), "lam_u_growth"),
])
def test_parameters_that_stop_a_loop_from_running_are_refused(estimator, params, name):
    X, y = data()
    with pytest.raises(ValueError, match=name):
        estimator(**params).fit(X, y)


def test_da_with_a_hot_start_on_the_outer_cap_says_so():
    X, y = data()
    with pytest.warns(ConvergenceWarning, match="max_outer"):
        model = LinearDA(T0=1e8).fit(X, y)
    d = model.diagnostics_.as_dict()
    assert d["converged"] is False and d["stop_reason"] == "max_outer"
    assert model.coef_ is not None and np.all(np.isfinite(model.coef_))


def test_da_that_converges_says_so_without_a_warning():
    X, y = data()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = LinearDA().fit(X, y)
    assert model.diagnostics_.as_dict()["converged"] is True
    assert model.diagnostics_.stop_reason == "tolerance"


def test_cccp_on_its_iteration_cap_says_so():
    X, y = data()
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        model = LinearCCCPTSVM(max_iter=1).fit(X, y)
    assert model.diagnostics_.converged is False and model.diagnostics_.stop_reason == "max_iter"


def test_nabla_lbfgs_cap_says_so():
    X, y = data()
    prob = from_blocks(X[:10], np.where(y[:10] == 1, 1.0, -1.0), X[10:])
    with pytest.warns(ConvergenceWarning, match="lbfgs_max_iter"):
        _, info = nabla_tsvm(prob, 1e-3, 1.0, 0.5, steps=2, max_iter=1)
    assert info.converged is False and info.capped["lbfgs_max_iter"] >= 1


def test_tsvm_switch_rounds_are_capped_and_reported():
    X, y = data(n=200)
    prob = from_blocks(X[:10], np.where(y[:10] == 1, 1.0, -1.0), X[10:])
    _, free = tsvm(prob, 1e-3, 1.0, 0.5, lam_u_start=1.0)
    assert free.converged and free.switches > 1            # several rounds needed at lambda' = 1
    with pytest.warns(ConvergenceWarning, match="max_switch_rounds"):
        _, capped = tsvm(prob, 1e-3, 1.0, 0.5, lam_u_start=1.0, max_switch_rounds=1)
    assert capped.converged is False and capped.stop_reason == "max_switch_rounds"
    assert capped.switches == 1


@pytest.mark.parametrize("solver, kwargs, name", [
    (deterministic_annealing, dict(max_outer=0), "max_outer"),
    (deterministic_annealing, dict(eps=1.5), "eps"),
    (cccp_tsvm, dict(max_iter=0), "max_iter"),
    (nabla_tsvm, dict(steps=0), "steps"),
    (tsvm, dict(max_switch_rounds=0), "max_switch_rounds"),
])
def test_solver_functions_check_the_same_parameters(solver, kwargs, name):
    X, y = data()
    prob = from_blocks(X[:10], np.where(y[:10] == 1, 1.0, -1.0), X[10:])
    with pytest.raises(ValueError, match=name):
        solver(prob, 1e-3, 1.0, 0.5, **kwargs)


def test_raw_plus_minus_one_labels_are_refused_with_the_way_out():
    X, y = data()
    raw = np.where(y == 1, 1, -1)                     # every row labeled, +1/-1
    with pytest.raises(ValueError, match="mask_labels"):
        LinearSVM().fit(X, raw)


def test_the_svmlin_loader_returns_labels_the_estimators_read_right(tmp_path):
    from ssl_repro.data import load_svmlin_pair
    X, y = data(n=60)
    truth = np.where(y == 1, 1, -1)
    file_labels = np.where(np.arange(60) < 20, truth, 0)
    (tmp_path / "ex").write_text("\n".join(" ".join(f"{j + 1}:{float(v)!r}" for j, v in enumerate(row)) for row in X) + "\n")
    (tmp_path / "lab").write_text("\n".join(str(v) for v in file_labels) + "\n")
    X_file, y_file = load_svmlin_pair(tmp_path / "ex", tmp_path / "lab")
    model = fit_quietly(LinearDA(), X_file, y_file)
    reference = fit_quietly(LinearDA(), X, mask_labels(truth, np.arange(20)))
    np.testing.assert_allclose(model.coef_, reference.coef_, rtol=1e-9, atol=1e-12)
    assert (np.flatnonzero(y_file == -1) == np.arange(20, 60)).all()
