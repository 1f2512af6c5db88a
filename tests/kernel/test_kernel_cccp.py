"""Kernel CCCP-TSVM (002): the SMO dual against scipy, Algorithm 2's invariants, the estimator."""
import warnings

import numpy as np
import pytest
import scipy.optimize as so
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

from solver_problems import random_problem
from ssl_repro.estimators.comparison import LinearCCCPTSVM
from ssl_repro.estimators import mask_labels
from ssl_repro.kernel.cccp import kernel_cccp_tsvm, ramp_objective
from ssl_repro.kernel.rows import RowCache, cache_rows_for
from ssl_repro.kernel.smo import Dual, bias, dual_objective, smo
from ssl_repro.estimators.kernel_cccp import KernelCCCPTSVM
from ssl_repro.harness.methods import METHODS
from estimator_checks import checked_estimator


def toy(seed, n=40, L=8, d=5):
    rng = np.random.default_rng(seed)
    y_all = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    X = rng.normal(size=(n, d)) + 0.8 * y_all[:, None]
    return sp.csr_matrix(X), y_all, np.arange(L), np.arange(L, n)


def cccp_dual(seed, kernel, C=2.0, C_star=0.5, with_x0=True):
    """A dual of Eqn 27 with random beta (each copy's box), and its dense Q for scipy."""
    X, y_all, lab, unl = toy(seed)
    rng = np.random.default_rng(seed + 100)
    U, y = unl.size, y_all[lab]
    cache = RowCache(X, kernel, 0.2, 3)   # 3 rows of 40: the cache replaces rows all along
    sign = np.r_[np.ones(U), -np.ones(U)]
    beta = np.where(rng.random(2 * U) < 0.5, C_star, 0.0)
    lo = np.r_[np.where(y > 0, 0, -C), np.where(sign > 0, -beta, beta - C_star)]
    hi = np.r_[np.where(y > 0, C, 0), np.where(sign > 0, C_star - beta, beta)]
    owner, zeta = np.r_[lab, unl, unl], np.r_[y, sign]
    K = np.array([RowCache(X, kernel, 0.2, 2).row(i) for i in range(X.shape[0])])
    if not with_x0:
        dual = Dual(owner, zeta, lo, hi)
        return cache, dual, K[np.ix_(owner, owner)]
    k0 = cache.mean_row(unl)
    dual = Dual(np.r_[0, owner], np.r_[0.3, zeta], np.r_[-np.inf, lo], np.r_[np.inf, hi], 0, k0,
                float(k0[unl].mean()))
    Q = np.empty((owner.size + 1,) * 2)
    Q[1:, 1:] = K[np.ix_(owner, owner)]
    Q[0, 1:] = Q[1:, 0] = k0[owner]
    Q[0, 0] = dual.k00
    np.testing.assert_allclose(k0, K[unl].mean(axis=0), rtol=1e-12)   # Eqn 10
    return cache, dual, Q


@pytest.mark.parametrize("kernel", ["rbf", "linear"])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("with_x0", [True, False])
def test_smo_reaches_the_dual_optimum_of_scipy(kernel, seed, with_x0):
    """002's dual (Eqn 27) by our SMO against SLSQP on the same dense QP: within 1e-6 relative."""
    cache, dual, Q = cccp_dual(seed, kernel, with_x0=with_x0)
    a, g = np.zeros(dual.zeta.size), np.zeros(cache.sq.size)
    steps, converged, g0 = smo(dual, cache, a, g, 0.0, tol=1e-9)
    assert converged and steps > 0
    assert abs(a.sum()) < 1e-10 and np.all(a >= dual.lo - 1e-12) and np.all(a <= dual.hi + 1e-12)
    ours = dual_objective(dual, a, g, g0)
    assert ours == pytest.approx(dual.zeta @ a - 0.5 * a @ Q @ a, rel=1e-10)   # kept gradient = dense Q a
    bounds = [(None if np.isinf(lo) else lo, None if np.isinf(hi) else hi) for lo, hi in zip(dual.lo, dual.hi)]
    ref = so.minimize(lambda x: 0.5 * x @ Q @ x - dual.zeta @ x, np.zeros(a.size), jac=lambda x: Q @ x - dual.zeta,
                      method="SLSQP", bounds=bounds, options={"ftol": 1e-15, "maxiter": 5000},
                      constraints=[{"type": "eq", "fun": np.sum, "jac": np.ones_like}])
    assert abs(ref.x.sum()) < 1e-8
    assert ours == pytest.approx(-ref.fun, rel=1e-6)
    assert ours >= -ref.fun - 1e-9 * abs(ref.fun)    # SMO's optimum is not below scipy's


def test_bias_meets_the_balance_through_x0():
    """b = -G_0: the mean output over the unlabeled rows (x_0's output) is zeta_0 = 0.3 exactly, even
    at a loose SMO tolerance."""
    cache, dual, Q = cccp_dual(0, "rbf")
    a, g = np.zeros(dual.zeta.size), np.zeros(cache.sq.size)
    _, _, g0 = smo(dual, cache, a, g, 0.0, tol=1e-2)
    b = bias(dual, a, dual.gradient(g, g0))
    unlabeled = toy(0)[3]
    assert (g[unlabeled] + b).mean() == pytest.approx(0.3, abs=1e-12)


@pytest.mark.parametrize("kernel,s", [("rbf", -0.3), ("rbf", 0.0), ("linear", -0.3)])
@pytest.mark.parametrize("seed", [0, 3])
def test_cccp_objective_never_rises_and_the_balance_holds(kernel, s, seed):
    """Algorithm 2: J^s (Eqn 3) non-increasing at every CCCP step, mean unlabeled output 2r - 1, and
    J^s recomputed in the primal from the returned coefficients (linear kernel: w = X' coef)."""
    X, y_all, lab, unl = toy(seed, n=60, L=6)
    coef, b, f, info = kernel_cccp_tsvm(X, lab, y_all[lab], unl, 3.0, 0.4, s=s, r=0.45, kernel=kernel,
                                        gamma=0.2, tol=1e-10)
    path = [value for _, value in info.objective_path]
    assert info.converged and len(path) >= 1
    assert all(later <= earlier * (1 + 1e-9) for earlier, later in zip(path, path[1:]))
    assert f[unl].mean() == pytest.approx(2 * 0.45 - 1, abs=1e-9)
    K = np.array([RowCache(X, kernel, 0.2, 2).row(i) for i in range(X.shape[0])])
    np.testing.assert_allclose(K @ coef + b, f, atol=1e-8)
    assert ramp_objective(coef @ K @ coef, K @ coef + b, lab, y_all[lab], unl, 3.0, 0.4, s) == \
        pytest.approx(path[-1], rel=1e-9)
    if kernel == "linear":
        w = X.T @ coef
        assert ramp_objective(w @ w, X @ w + b, lab, y_all[lab], unl, 3.0, 0.4, s) == pytest.approx(path[-1], rel=1e-9)


def test_linear_kernel_against_the_linear_cccp_tsvm():
    """Not the same objective (module docs): the linear CCCP-TSVM squares the hinge and regularizes the
    bias.  Comparable: both meet the same balance mean f = 2r - 1, and on a clustered problem both
    label the unlabeled rows alike, here each with at most 2 of 80 rows wrong."""
    Xl, yl, Xu, yu = random_problem(5, l=10, u=80, d=20, sep=1.0)
    X = sp.vstack([Xl, Xu], format="csr")
    y_true = np.r_[yl, yu]
    y_fit = mask_labels(y_true, np.arange(10))
    r = float(np.mean(yu > 0))
    kern = KernelCCCPTSVM(lam=1e-2, lam_u=1.0, r=r, kernel="linear", tol=1e-8).fit(X, y_fit)
    lin = LinearCCCPTSVM(lam=1e-2, lam_u=1.0, r=r, max_iter=1000).fit(X, y_fit)
    o_k, o_l = kern.decision_function(Xu), lin.decision_function(Xu)
    assert o_k.mean() == pytest.approx(2 * r - 1, abs=1e-9) and o_l.mean() == pytest.approx(2 * r - 1, abs=1e-6)
    assert np.sum(np.sign(o_k) != yu) <= 2 and np.sum(np.sign(o_l) != yu) <= 2
    assert np.mean(np.sign(o_k) == np.sign(o_l)) >= 0.97


def test_estimator_predicts_what_it_trained_and_reports_work():
    X, y_all, lab, unl = toy(4, n=80, L=10)
    y_fit = mask_labels(y_all, lab)
    est = KernelCCCPTSVM(lam=1e-2, s=-0.2, sigma_factor=1.5).fit(X, y_fit)
    assert est.n_iter_ == est.diagnostics_.cccp_iterations >= 1
    assert est.diagnostics_.smo_iterations > 0 and est.diagnostics_.kernel_evaluations >= 80 * 11
    f = est.decision_function(X.toarray()[unl])
    assert np.array_equal(est.transduction_[unl], est.classes_[(f > 0).astype(int)])
    assert est.C_ == pytest.approx(1 / (1e-2 * 10)) and est.C_star_ == pytest.approx(1 / (1e-2 * 70))
    assert KernelCCCPTSVM(lam=1e-2, lam_u="C*=C").fit(X, y_fit).C_star_ == pytest.approx(est.C_)
    assert METHODS["kernel_cccp_tsvm"].estimator_class is KernelCCCPTSVM


def test_cap_warns_and_says_not_converged():
    X, y_all, lab, unl = toy(0, n=60, L=6)
    with pytest.warns(ConvergenceWarning, match="max_iter reached"):
        est = KernelCCCPTSVM(lam=1e-2, s=0.0, max_iter=1).fit(X, mask_labels(y_all, lab))
    assert not est.diagnostics_.converged and est.diagnostics_.stop_reason == "max_iter"


def test_cache_is_refused_before_allocation(monkeypatch):
    with pytest.raises(ValueError, match=r"holds 1 row\(s\) of 13,500 float64 \(108,000 bytes each\)"):
        cache_rows_for(13_500, 200_000, "kernel CCCP-TSVM")
    import ssl_repro.kernel.rows as rows
    monkeypatch.setattr(rows, "available_memory_bytes", lambda: 10**6)
    with pytest.raises(ValueError, match=r"2,485 rows x 13,500 float64 needs 268,380,000 bytes, more than "
                                         r"the 1,000,000 bytes"):
        cache_rows_for(13_500, rows.CACHE_BYTES, "kernel CCCP-TSVM")
    X, y_all, lab, unl = toy(0)
    with pytest.raises(ValueError, match="SMO needs 2"):
        KernelCCCPTSVM(cache_bytes=100).fit(X, mask_labels(y_all, lab))


@pytest.mark.slow   # a 13,500-row RBF problem (about 30 s on one core)
def test_a_13500_row_rbf_problem_runs_in_the_row_cache():
    rng = np.random.default_rng(0)
    n, L = 13_500, 100
    y_all = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    X = sp.random(n, 2000, density=0.01, random_state=1, format="csr") + sp.csr_matrix(
        (0.3 * y_all, (np.arange(n), np.zeros(n, dtype=int))), shape=(n, 2000))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)   # max_iter=3: the size is the point
        est = KernelCCCPTSVM(lam=1e-3, sigma=1.0, max_iter=3).fit(X, mask_labels(y_all, np.arange(L)))
    assert est.diagnostics_.cccp_iterations >= 1 and est.transduction_.shape == (n,)
    f = est.decision_function(X[L:])
    assert f.mean() == pytest.approx(np.mean(y_all[:L]), abs=1e-6)      # 002's balance, zeta_0 = labeled mean
    assert est.diagnostics_.kernel_evaluations >= (n - L) * n            # x_0's row: every unlabeled row's


@pytest.mark.slow   # scikit-learn's full check_estimator suite
# the checks whose labels the wrapper leaves whole fit on fully labeled rows: the estimator says it fits the
# supervised problem (as in tests/estimators/test_estimators.py)
@pytest.mark.filterwarnings("ignore:\\w+. y marks no row unlabeled:ssl_repro.estimators.NoUnlabeledRowsWarning")
@parametrize_with_checks([checked_estimator("kernel_cccp_tsvm")], expected_failed_checks=lambda est: {
    "check_classifiers_classes": "labels -1/+1 read as unlabeled/+1 (sklearn.semi_supervised convention)"})
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)
