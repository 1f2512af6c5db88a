"""Optimality of linear CCCP-TSVM and nabla-TSVM (their mechanics: test_solvers_{cccp,nabla}.py): CCCP stops at a fixed
point of its linearization (checked against SLSQP), UC* = LC with the labeled mean, and nabla-TSVM's
reported objective against a dense evaluation."""
import numpy as np
import pytest
from scipy.optimize import minimize

from solver_problems import augmented_dense, random_problem
from ssl_repro.estimators import LinearCCCPTSVM, mask_labels
from ssl_repro.solvers import from_blocks
from ssl_repro.solvers.cccp import cccp_tsvm
from ssl_repro.solvers.nabla import nabla_tsvm


@pytest.fixture(scope="module")
def data():
    Xl, yl, Xu, yu = random_problem(3, l=10, u=50, d=10, sep=0.6)
    return from_blocks(Xl, yl, Xu), augmented_dense(Xl), yl, augmented_dense(Xu)


def linearized_ramp(A_l, y_l, A_u, w_at, lam, lam_u, s):
    """The convex CCCP problem at ``w_at``: squared hinge on both labels of each unlabeled row
    minus the tangent (at w_at) of V_s(t) = [t < s]((1 - t)^2 - (1 - s)^2)."""
    u = A_u.shape[0]

    def value(w):
        o_l, o_u = A_l @ w, A_u @ w
        total = 0.5 * lam * w @ w + 0.5 * np.mean(np.maximum(0, 1 - y_l * o_l) ** 2)
        for sign in (1.0, -1.0):
            t, t0 = sign * o_u, sign * (A_u @ w_at)
            tangent = np.where(t0 < s, -2 * (1 - t0) * (t - t0), 0.0)   # slope of V_s at t0, times (t - t0)
            total += 0.5 * lam_u / u * np.sum(np.maximum(0, 1 - t) ** 2 - tangent)
        return total
    return value


@pytest.mark.parametrize("s", [0.0, 0.2])
def test_cccp_stops_at_the_optimum_of_its_own_linearization(data, s):
    """When the linearization stops changing, w minimizes the convex problem linearized at w."""
    prob, A_l, y_l, A_u = data
    lam, lam_u, r = 0.02, 1.0, 0.45
    w, info = cccp_tsvm(prob, lam, lam_u, r, s=s)
    assert info.cccp_iterations < 100        # converged, not capped
    convex = linearized_ramp(A_l, y_l, A_u, w, lam, lam_u, s)
    ref = minimize(convex, np.zeros_like(w), method="SLSQP",
                   constraints=[{"type": "eq", "fun": lambda v: (A_u @ v).mean() - (2 * r - 1)}],
                   options={"ftol": 1e-14, "maxiter": 2000})
    assert ref.success
    assert convex(w) == pytest.approx(ref.fun, rel=1e-7, abs=1e-12)
    np.testing.assert_allclose(w, ref.x, atol=1e-4)


def test_uc_star_equals_lc_with_the_labeled_mean_as_target(data):
    """002's defaults: lambda' = 1 (UC* = LC) and mean unlabeled output = mean labeled label,
    to cccp.py's documented BALANCE_TOL."""
    prob, A_l, y_l, A_u = data
    w, _ = cccp_tsvm(prob, 0.02)
    assert (A_u @ w).mean() == pytest.approx(y_l.mean(), abs=1e-9)


def test_cccp_estimator_with_r_none_matches_the_solver():
    Xl, yl, Xu, yu = random_problem(4, l=12, u=40, d=8, sep=0.8)
    import scipy.sparse as sp
    X = sp.vstack([Xl, Xu], format="csr")
    est = LinearCCCPTSVM(lam=0.02).fit(X, mask_labels(np.r_[yl, yu], np.arange(12)))
    w, info = cccp_tsvm(from_blocks(Xl, yl, Xu), 0.02, 1.0, float(np.mean(yl > 0)))
    np.testing.assert_allclose(np.r_[est.coef_[0], est.intercept_], w, atol=1e-12)
    assert est.diagnostics_.objective == pytest.approx(info.objective, rel=1e-12)
    assert est.n_iter_ == info.cccp_iterations == len(info.objective_path)


def test_nabla_reported_objectives_match_a_dense_evaluation(data):
    prob, A_l, y_l, A_u = data
    lam, lam_u, r = 0.02, 1.0, 0.45
    wb, info = nabla_tsvm(prob, lam, lam_u, r)
    o_l, o_u = A_l @ wb, A_u @ wb
    w = wb[:-1]        # nabla-TSVM's bias is not regularized (eliminated by the balance)
    own = 0.5 * lam * w @ w + 0.5 * np.mean(np.maximum(0, 1 - y_l * o_l) ** 2) + 0.5 * lam_u * np.mean(np.exp(-3 * o_u ** 2))
    eqn18 = (0.5 * lam * wb @ wb + 0.5 * np.mean(np.maximum(0, 1 - y_l * o_l) ** 2)
             + 0.5 * lam_u * np.mean(np.maximum(0, 1 - np.abs(o_u)) ** 2))
    assert info.own_objective == pytest.approx(own, rel=1e-10)
    assert info.objective == pytest.approx(eqn18, rel=1e-10)
    # each level's L-BFGS solve ends at a stationary point of the bias-eliminated objective
    mean_u = A_u[:, :-1].mean(axis=0)

    def dense(v):
        full = np.r_[v, (2 * r - 1) - mean_u @ v]
        return (0.5 * lam * v @ v + 0.5 * np.mean(np.maximum(0, 1 - y_l * (A_l @ full)) ** 2)
                + 0.5 * lam_u * np.mean(np.exp(-3 * (A_u @ full) ** 2)))
    h = 1e-6
    grad = np.array([(dense(w + h * e) - dense(w - h * e)) / (2 * h) for e in np.eye(w.size)])
    assert np.linalg.norm(grad) < 1e-5
