"""Kernel DA and JTSVM (001; their f-steps one by one: test_kernel_fstep.py): DA returns the best point of its
path, the balance of DA's p and JTSVM's labels, two moons and two circles from two labels, the kernel form of
Eqn 18, training records, one BLAS thread, and the scikit-learn estimators."""
import importlib

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import clone

import ssl_repro.solvers.annealing as annealing
import ssl_repro.kernel.jtsvm as jtsvm_module
import ssl_repro.solvers.balance as balance
from ssl_repro.data.embedded import two_circles, two_moons
from ssl_repro.estimators import NoUnlabeledRowsWarning, mask_labels
from ssl_repro.estimators.kernel import KernelDA, KernelJTSVM
from ssl_repro.kernel import FStep, default_sigma, kernel_da, kernel_jtsvm, rbf_gram
from ssl_repro.kernel.training import kernel_eqn18, train_kernel

tsvm_module = importlib.import_module("ssl_repro.solvers.tsvm")    # the package's name tsvm is the function


@pytest.mark.parametrize("loss", ["sqr", "l2", "l1"])
def test_da_returns_the_best_objective_of_its_path_and_keeps_the_balance(loss):
    X, y = two_moons(n_rows=60, seed=1)
    K = rbf_gram(X, default_sigma(X) / 4)
    labeled = np.array([0, 1])
    unlabeled = np.arange(2, 60)
    alpha, bias, info = kernel_da(K, labeled, y[labeled].astype(float), unlabeled, 1e-2, 1.0, 0.5, loss=loss)
    assert info.own_objective == min(v for _, v in info.objective_path)
    assert info.temperatures[0] == 10.0


def test_da_separates_two_moons_from_two_labels():
    X, y = two_moons()
    K = rbf_gram(X, default_sigma(X) / 8)
    labeled = np.array([np.flatnonzero(y > 0)[0], np.flatnonzero(y < 0)[0]])
    unlabeled = np.setdiff1d(np.arange(200), labeled)
    alpha, bias, _ = kernel_da(K, labeled, y[labeled].astype(float), unlabeled, 1e-1, 1.0, 0.5, loss="l2")
    f = K[unlabeled] @ alpha + bias
    assert np.mean(np.where(f > 0, 1, -1) == y[unlabeled]) > 0.95


def test_jtsvm_keeps_its_label_balance_and_rejects_bad_loss():
    X, y = two_moons(n_rows=60, seed=2)
    K = rbf_gram(X, default_sigma(X) / 4)
    labeled, unlabeled = np.array([0, 1]), np.arange(2, 60)
    _, _, info = kernel_jtsvm(K, labeled, y[labeled].astype(float), unlabeled, 1e-2, 1.0, 0.5, loss="l2")
    assert np.isfinite(info.own_objective) and info.switches >= 0
    with pytest.raises(ValueError, match="loss must be"):
        FStep(K, 1e-2, "huber")


@pytest.mark.parametrize("loss", ["l1", "l2", "sqr"])
def test_every_p_step_of_da_meets_the_balance(moons, monkeypatch, loss):
    X, y, labeled, unlabeled, K = moons
    means = []

    def recording(gaps, T, r):
        beliefs = beliefs_for_gaps(gaps, T, r)
        means.append(beliefs.p.mean())
        return beliefs
    beliefs_for_gaps = annealing.beliefs_for_gaps
    monkeypatch.setattr(annealing, "beliefs_for_gaps", recording)
    kernel_da(K, labeled, y[labeled], unlabeled, 1e-2, 1.0, 0.3, loss=loss, max_outer=8)
    assert len(means) > 3
    np.testing.assert_allclose(means, 0.3, atol=1e-9)


@pytest.mark.parametrize("loss", ["l1", "l2"])
def test_jtsvm_switches_keep_the_number_of_positive_labels(moons, monkeypatch, loss):
    X, y, labeled, unlabeled, K = moons
    counts = []

    def recording(labels, o, max_pairs):
        counts.append(int((labels > 0).sum()))
        return switch_pairs(labels, o, max_pairs)
    switch_pairs = tsvm_module.switch_pairs
    monkeypatch.setattr(tsvm_module, "switch_pairs", recording)      # the switching loop's (switch_labels)
    _, _, info = jtsvm_module.kernel_jtsvm(K, labeled, y[labeled], unlabeled, 1e-2, 1.0, 0.3, loss=loss)
    assert len(counts) > 1 and len(set(counts)) == 1
    assert counts[0] == round(0.3 * unlabeled.size)


def test_kernel_eqn18_is_the_linear_objective_in_the_rkhs(moons):
    X, y, labeled, unlabeled, K = moons
    alpha = np.random.default_rng(1).normal(size=K.shape[0]) * 0.1
    f = K @ alpha + 0.2
    expected = (0.5 * 0.03 * alpha @ K @ alpha + 0.5 * np.mean(np.maximum(0, 1 - y[labeled] * f[labeled]) ** 2)
                + 0.5 * 2.0 * np.mean(np.maximum(0, 1 - np.abs(f[unlabeled])) ** 2))
    assert kernel_eqn18(K, alpha, 0.2, labeled, y[labeled], unlabeled, 0.03, 2.0) == pytest.approx(expected, rel=1e-12)


def test_train_kernel_reports_both_objectives(moons):
    X, y, labeled, unlabeled, K = moons
    alpha, bias, info = train_kernel("da", K, labeled, y[labeled], unlabeled, 1e-2, 1.0, 0.5, loss="l2", max_outer=6)
    # with the quadratic hinge V = max(0, 1 - t)^2 / 2, 001's Eqn 1 is exactly Eqn 18
    assert info.own_objective == pytest.approx(info.objective, rel=1e-12)
    assert info.own_objective == min(v for _, v in info.objective_path)
    assert info.temperatures[0] == 10.0 and info.method == "kernel_da_l2" and info.seconds > 0
    assert info.positive_fraction == np.mean(K[unlabeled] @ alpha + bias > 0)
    alpha_j, bias_j, info_j = train_kernel("jtsvm", K, labeled, y[labeled], unlabeled, 1e-2, 1.0, 0.5, loss="l1")
    _, _, raw = jtsvm_module.kernel_jtsvm(K, labeled, y[labeled].astype(float), unlabeled, 1e-2, 1.0, 0.5, loss="l1")
    assert info_j.switches == raw.switches and info_j.temperatures == []
    assert info_j.objective == pytest.approx(kernel_eqn18(K, alpha_j, bias_j, labeled, y[labeled], unlabeled,
                                                          1e-2, 1.0), rel=1e-12)
    with pytest.raises(ValueError, match="kernel method must be"):
        train_kernel("nabla", K, labeled, y[labeled], unlabeled, 1e-2)


def test_estimator_equals_the_solver_and_predicts_out_of_sample(moons):
    X, y, labeled, unlabeled, K = moons
    y_fit = mask_labels(y, labeled)
    est = KernelDA(lam=1e-2, r=0.5, loss="l1", sigma_factor=0.25, max_outer=6).fit(X, y_fit)
    alpha, bias, info = train_kernel("da", K, labeled, y[labeled], unlabeled, 1e-2, 1.0, 0.5, loss="l1", max_outer=6)
    np.testing.assert_allclose(est.dual_coef_[0], alpha, atol=1e-10)
    assert est.intercept_[0] == pytest.approx(bias, abs=1e-10)
    assert est.sigma_ == pytest.approx(default_sigma(X) / 4)
    np.testing.assert_allclose(est.decision_function(X), K @ alpha + bias, atol=1e-9)
    assert np.array_equal(est.transduction_[unlabeled], (K[unlabeled] @ alpha + bias > 0).astype(int))
    assert np.array_equal(est.transduction_[labeled], y_fit[labeled])
    # sparse input, an explicit width, and clone
    same = clone(est).set_params(sigma=est.sigma_).fit(sp.csr_matrix(X), y_fit)
    np.testing.assert_allclose(same.dual_coef_, est.dual_coef_, atol=1e-10)
    X_new = X[:5] + 0.01
    np.testing.assert_allclose(est.decision_function(X_new), rbf_gram(X_new, est.sigma_, X) @ alpha + bias, atol=1e-9)
    assert set(est.predict(X_new)) <= {0, 1}


def test_jtsvm_estimator_and_bad_input(moons):
    X, y, labeled, unlabeled, K = moons
    y_fit = mask_labels(y, labeled)
    est = KernelJTSVM(lam=1e-2, r=0.5, loss="l2", sigma_factor=0.25, switches="max").fit(X, y_fit)
    assert est.diagnostics_.method == "kernel_jtsvm_l2" and est.predict(X).shape == (50,)
    with pytest.raises(ValueError, match="'loss' parameter of KernelDA must be a str among"):
        KernelDA(loss="huber").fit(X, y_fit)
    with pytest.warns(NoUnlabeledRowsWarning, match="fits the supervised problem"):   # tests/estimators/test_fresh_fits.py
        KernelDA().fit(X, (y > 0).astype(int))
    with pytest.raises(ValueError, match="mask_labels"):          # raw +1/-1 labels: the way out is named
        KernelDA().fit(X, np.where(np.arange(50) < 2, 1, -1))
    with pytest.raises(ValueError, match="needs two classes"):
        KernelDA().fit(X, np.where(np.arange(50) < 2, 5, -1))


def test_estimators_are_registered_refuse_too_many_rows_and_predict_by_blocks(moons, monkeypatch):
    import ssl_repro.estimators.kernel as beyond
    from ssl_repro.harness.methods import METHODS
    X, y, labeled, unlabeled, K = moons
    assert METHODS["kernel_da"].estimator_class is KernelDA and METHODS["kernel_jtsvm"].estimator_class is KernelJTSVM
    y_fit = mask_labels(y, labeled)
    with pytest.raises(ValueError, match=r"KernelJTSVM: 50 training rows exceed the kernel methods' limit of "
                                         r"max_rows=49: they build the dense 50 x 50 Gram matrix"):
        KernelJTSVM(max_rows=49).fit(sp.csr_matrix(X), y_fit)
    est = KernelDA(lam=1e-2, r=0.5, loss="sqr", max_rows=None, max_outer=3).fit(X, y_fit)
    whole = est.decision_function(X)
    monkeypatch.setattr(beyond, "BLOCK_ROWS", 7)
    np.testing.assert_allclose(est.decision_function(sp.csc_matrix(X)), whole, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(whole, rbf_gram(X, est.sigma_) @ est.dual_coef_[0] + est.intercept_[0], atol=1e-9)


@pytest.mark.slow   # longer than ~3 s
def test_da_hinge_succeeds_on_two_circles_from_two_labels():
    """001 Table 2's success (every unlabeled point right) for DA (l1), at a point of the paper's grid
    (lambda = 1e-3, sigma = default / 8); see test_da_separates_two_moons_from_two_labels for DA (l2) on the moons."""
    X, y = two_circles()
    labeled = np.array([np.flatnonzero(y > 0)[0], np.flatnonzero(y < 0)[0]])
    est = KernelDA(lam=1e-3, r=0.5, loss="l1", sigma_factor=1 / 8).fit(X, mask_labels(y, labeled))
    assert np.array_equal(est.transduction_, (y > 0).astype(int))


@pytest.mark.parametrize("loss", ["l1", "l2"])
def test_jtsvm_ends_on_the_two_circles_that_made_the_hinge_cycle(loss):
    """2CIRCLES, lambda = 0.01, default width, labeled points 134 and 161: libsvm's tolerance once let the
    hinge's label switching cycle (1.4 million switches at one lambda' level).  The shared switching loop
    (switch_labels) accepts a switch only if the objective falls: within every lambda' level the path
    strictly decreases, and the run ends on its own rule."""
    X, y = two_circles()
    K = rbf_gram(X, default_sigma(X))
    labeled = np.array([134, 161])
    unlabeled = np.setdiff1d(np.arange(y.size), labeled)
    _, _, info = kernel_jtsvm(K, labeled, y[labeled].astype(float), unlabeled, 1e-2, 1.0, 0.5, loss=loss)
    assert info.stop_reason == "tolerance" and info.converged and info.switches > 0
    by_level = {}
    for level, value in info.objective_path:
        by_level.setdefault(level, []).append(value)
    assert list(by_level) == info.lam_u_levels
    assert all(np.all(np.diff(values) < 0) for values in by_level.values())
    # f-steps: the supervised start, one per level, one per accepted switch round, at most one rejected per level
    accepted = len(info.objective_path) - len(info.lam_u_levels)
    assert 1 + len(info.lam_u_levels) + accepted <= info.mfn_calls <= 1 + 2 * len(info.lam_u_levels) + accepted


@pytest.mark.parametrize("solver", [kernel_da, jtsvm_module.kernel_jtsvm])
def test_kernel_solvers_run_with_one_blas_thread(moons, monkeypatch, solver):
    """However they are called (the toy-table script calls them directly), the f-steps see one BLAS thread."""
    from threadpoolctl import threadpool_info
    X, y, labeled, unlabeled, K = moons
    seen = []
    solve = FStep.solve

    def probe(self, *args, **kwargs):
        seen.extend(pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas")
        return solve(self, *args, **kwargs)
    monkeypatch.setattr(FStep, "solve", probe)
    solver(K, labeled, y[labeled], unlabeled, 1e-2, 1.0, 0.5, loss="l2")
    assert seen and set(seen) == {1}


def test_da_settles_when_r_times_u_is_not_an_integer(monkeypatch):
    """r u = 29.5: one unit of mass stays split, so only the rule at the nearest integer mass can stop
    the annealing; taken literally (H(p) <= u eps) it runs every temperature to the same best J."""
    X, y = two_moons(n_rows=61, seed=1)
    K = rbf_gram(X, default_sigma(X) / 4)
    labeled, unlabeled = np.array([0, 1]), np.arange(2, 61)
    run = lambda: kernel_da(K, labeled, y[labeled].astype(float), unlabeled, 1e-2, 1.0, 0.5, loss="l2")
    _, _, info = run()
    assert info.stop_reason == "tolerance" and len(info.temperatures) < 30
    monkeypatch.setattr(annealing, "unsettled_entropy",
                        lambda g, T, r: balance.entropy(balance.beliefs_for_gaps(g, T, r)))
    _, _, literal = run()
    assert literal.stop_reason == "max_outer" and len(literal.temperatures) == 30
    assert literal.objective_path[:len(info.objective_path)] == info.objective_path
    assert info.own_objective == pytest.approx(literal.own_objective, rel=1e-9)
