"""The f-steps of 001 (``ssl_repro/kernel/fstep.py``) and the Gram matrix, each against an independent
solve: the squared loss (Eqn 7: a dense solve, one factorization per weight vector), the quadratic hinge
(finite Newton against scipy), the hinge (against scipy on the primal and an independent dual QP)."""
import numpy as np
import pytest
from scipy.optimize import minimize

import ssl_repro.kernel.fstep as fstep_module
from ssl_repro.kernel import FStep, kernel_da, rbf_gram
from ssl_repro.kernel.svc import weighted_svc


@pytest.fixture(scope="module")
def small():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    K = rbf_gram(X, 1.0)
    points = np.r_[np.arange(6), np.arange(6, 30), np.arange(6, 30)]
    y = np.r_[np.where(np.arange(6) % 2 == 0, 1.0, -1.0), np.ones(24), -np.ones(24)]
    p = rng.random(24)
    c = np.r_[np.full(6, 1 / 6), p / 24, (1 - p) / 24]
    return K, points, y, c


def test_rbf_gram_matches_its_definition():
    X = np.random.default_rng(1).normal(size=(5, 3))
    K = rbf_gram(X, 0.7)
    i, j = 1, 3
    assert K[i, j] == pytest.approx(np.exp(-np.sum((X[i] - X[j]) ** 2) / (2 * 0.49)))
    np.testing.assert_allclose(rbf_gram(X, 0.7, X), K, atol=1e-12)


def test_kernel_rls_step_equals_a_dense_solve(small):
    """Eqn 7 of 001: alpha = (G + lambda C)^-1 Y with C = diag(l, u/lambda'), Y = (y, 2p - 1)."""
    K, points, y, c = small
    alpha, bias = FStep(K, 0.05, "sqr").solve(points, y, c)
    p = c[6:30] * 24
    Y = np.r_[y[:6], 2 * p - 1]
    C = np.diag(np.r_[np.full(6, 6.0), np.full(24, 24.0)])
    np.testing.assert_allclose(alpha, np.linalg.solve(K + 0.05 * C, Y), rtol=1e-8, atol=1e-10)
    assert bias == 0.0


def test_weighted_system_equals_the_dense_system_with_zero_weights(small):
    """(lambda I + W K) alpha = W t by one Cholesky factorization on the support of W: alpha is 0
    where w = 0 and the same as a dense LU solve of the full system elsewhere."""
    K, _, _, _ = small
    rng = np.random.default_rng(3)
    weight = np.where(rng.random(30) < 0.3, 0.0, rng.random(30))
    rhs = weight * rng.normal(size=30)
    alpha = fstep_module.WeightedSystem(K, 0.05, weight).solve(rhs)
    np.testing.assert_allclose(alpha, np.linalg.solve(0.05 * np.eye(30) + weight[:, None] * K, rhs),
                               rtol=1e-10, atol=1e-12)
    assert np.all(alpha[weight == 0] == 0.0)


@pytest.mark.slow   # longer than ~3 s
def test_kernel_l2_newton_equals_scipy_on_the_same_objective(small):
    K, points, y, c = small
    fstep = FStep(K, 0.05, "l2")
    alpha, _ = fstep.solve(points, y, c)
    ref = minimize(lambda a: fstep.objective(a, points, y, c), np.zeros(30),
                   jac=lambda a: 0.05 * K @ a - K[:, points] @ (c * y * np.maximum(0, 1 - y * (K @ a)[points])),
                   method="L-BFGS-B", options={"gtol": 1e-12, "ftol": 1e-15, "maxiter": 10000})
    assert fstep.objective(alpha, points, y, c) == pytest.approx(ref.fun, rel=1e-7)


def test_kernel_l1_step_is_no_worse_than_scipy_on_the_hinge_objective(small):
    K, points, y, c = small
    fstep = FStep(K, 0.05, "l1")
    alpha, bias = fstep.solve(points, y, c)
    # SVC also fits a bias; compare with a subgradient-free solver given the same bias
    ref = minimize(lambda a: fstep.objective(a, points, y, c, bias), alpha * 0.5, method="Powell",
                   options={"xtol": 1e-10, "ftol": 1e-12, "maxiter": 200000})
    assert fstep.objective(alpha, points, y, c, bias) <= ref.fun + 1e-6


def test_weighted_svc_is_svc_bit_for_bit(small):
    """The l1 f-step calls libsvm as SVC does (ssl_repro/kernel/svc.py): same support, dual
    coefficients and intercept as SVC(kernel="precomputed") with sample weights, to the last bit."""
    from sklearn.svm import SVC
    K, points, y, c = small
    gram, weights = K[np.ix_(points, points)], c / 1e-3
    support, dual_coef, intercept = weighted_svc(gram, y, weights, 1e-3)
    svm = SVC(C=1.0, kernel="precomputed", tol=1e-3).fit(gram, y, sample_weight=weights)
    assert np.array_equal(support, svm.support_)
    assert np.array_equal(dual_coef, svm.dual_coef_[0])
    assert intercept == svm.intercept_[0]
    with pytest.raises(ValueError, match="both labels"):
        weighted_svc(gram, np.ones_like(y), weights, 1e-3)


def test_hinge_fstep_closes_the_duality_gap_of_an_independent_dual(moons):
    """Weak duality: the SVC step's primal value is at most the optimum of the dual QP (solved by SLSQP)
    plus libsvm's tolerance.  Dual: max sum b - b'Qb/(2 lambda), 0 <= b_k <= c_k, sum b_k y_k = 0."""
    X, y, labeled, unlabeled, K = moons
    rng = np.random.default_rng(0)
    unlabeled = unlabeled[:20]      # 42 dual variables keep SLSQP quick
    u, lam = unlabeled.size, 0.05
    p = rng.random(u)
    points = np.r_[labeled, unlabeled, unlabeled]
    labels = np.r_[y[labeled], np.ones(u), -np.ones(u)]
    c = np.r_[np.full(2, 0.5), p / u, (1 - p) / u]
    step = FStep(K, lam, "l1")
    alpha, bias = step.solve(points, labels, c)
    primal = step.objective(alpha, points, labels, c, bias)
    # in b = c * z with z in [0, 1] (c ~ 1/u would leave SLSQP badly scaled), objective scaled by 1/sum(c)
    Q = (labels[:, None] * labels[None, :]) * K[np.ix_(points, points)]
    Qc, scale = c[:, None] * Q * c[None, :] / lam, 1.0 / c.sum()
    ref = minimize(lambda z: -scale * (c @ z - z @ Qc @ z / 2), np.full(c.size, 0.5),
                   jac=lambda z: -scale * (c - Qc @ z), method="SLSQP", bounds=[(0.0, 1.0)] * c.size,
                   constraints=[{"type": "eq", "fun": lambda z: scale * (c * z) @ labels,
                                 "jac": lambda z: scale * c * labels}],
                   options={"ftol": 1e-15, "maxiter": 5000})
    assert ref.success
    dual = -ref.fun / scale
    assert dual <= primal + 1e-9
    assert primal - dual <= 1e-3 * max(1.0, abs(primal))
    # and the expansion SVC returns is the dual's f = K (b * y) / lambda on the points
    f_ref = K[:, points] @ (c * ref.x * labels) / lam
    np.testing.assert_allclose(K @ alpha, f_ref, atol=5e-2 * np.abs(f_ref).max())


def count_factorizations(monkeypatch):
    """A list that grows by one at each factorization of the squared-loss system."""
    calls, system = [], fstep_module.WeightedSystem
    monkeypatch.setattr(fstep_module, "WeightedSystem", lambda *a: calls.append(1) or system(*a))
    return calls


def test_da_squared_loss_factors_its_matrix_once(moons, monkeypatch):
    """001, Eqn 7: (G + lambda C)^-1 does not depend on p, so one factorization serves the whole run."""
    X, y, labeled, unlabeled, K = moons
    calls = count_factorizations(monkeypatch)
    _, _, info = kernel_da(K, labeled, y[labeled], unlabeled, 1e-2, 1.0, 0.5, loss="sqr", max_outer=5)
    assert len(info.objective_path) > 1
    assert len(calls) == 1


def test_newton_step_reuses_a_factor_only_for_the_same_weights(small, monkeypatch):
    """The l2 f-step reuses the last factorization when the active weights are exactly those it was
    built for (JTSVM's retraining after a switch inside the margin starts there): a solve warm-started
    at the last solution factors nothing, and gives bit for bit what a fresh f-step gives."""
    K, points, y, c = small
    calls = count_factorizations(monkeypatch)
    fstep = FStep(K, 0.05, "l2")
    alpha, _ = fstep.solve(points, y, c)
    first = len(calls)
    again, _ = fstep.solve(points, y, c, alpha)
    assert len(calls) == first
    fresh, _ = FStep(K, 0.05, "l2").solve(points, y, c, alpha)
    assert len(calls) == first + 1
    assert np.array_equal(again, fresh)


def test_squared_loss_step_refactors_when_the_weights_really_change(moons, monkeypatch):
    """JTSVM raises lambda' level by level: each new weight vector needs a new factor, and every solve
    equals a dense solve with the weights of that call; a change of a relative 1e-9 (far above
    rounding) refactors too, while weights equal up to rounding (DA's split p/u + (1-p)/u) do not."""
    X, y, labeled, unlabeled, K = moons
    calls = count_factorizations(monkeypatch)
    lam, n, l, u = 1e-2, K.shape[0], labeled.size, unlabeled.size
    step = FStep(K, lam, "sqr")

    def dense(points, labels, c):
        """sum_k c_k (y_k - f_{i_k})^2 / 2 + lam/2 a'Ka is minimal where (W K + lam I) a = sum_k c_k y_k e_{i_k}."""
        W, b = np.zeros(n), np.zeros(n)
        for i, label, cost in zip(points, labels, c):
            W[i] += cost
            b[i] += cost * label
        return np.linalg.solve(W[:, None] * K + lam * np.eye(n), b)

    def check(points, labels, c, factors):
        alpha, bias = step.solve(points, labels, c)
        assert bias == 0.0 and len(calls) == factors
        np.testing.assert_allclose(alpha, dense(points, labels, c), rtol=1e-8, atol=1e-10 * np.abs(alpha).max())

    check(labeled, y[labeled], np.full(l, 1.0 / l), 1)            # labeled only: zero weights elsewhere
    points = np.r_[labeled, unlabeled]
    labels = np.r_[y[labeled], np.where(np.arange(u) % 3 == 0, 1.0, -1.0)]
    for factors, level in enumerate([1e-5, 1.5e-5, 0.1, 1.0], start=2):
        check(points, labels, np.r_[np.full(l, 1.0 / l), np.full(u, level / u)], factors)
    check(points, -labels, np.r_[np.full(l, 1.0 / l), np.full(u, 1.0 / u)], 5)   # labels switched: same factor
    nudged = np.r_[np.full(l, 1.0 / l), np.full(u, 1.0 / u)] * (1 + 1e-9)
    check(points, labels, nudged, 6)
    p = np.random.default_rng(2).random(u)
    check(np.r_[labeled, unlabeled, unlabeled], np.r_[y[labeled], np.ones(u), -np.ones(u)],
          np.r_[np.full(l, 1.0 / l), p / u, (1 - p) / u] * (1 + 1e-9), 6)
