"""Linear CCCP-TSVM: each step solves its convex problem exactly, the balance holds, J_ramp never rises,
the run stops at a fixed point of its linearization (against SLSQP), UC* = LC with the labeled mean, and
the estimator equals the solver."""
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize

from solver_problems import augmented_dense, random_problem
from ssl_repro.estimators.comparison import LinearCCCPTSVM
from ssl_repro.estimators import mask_labels
from ssl_repro.solvers import from_blocks, objective_of_weights
from ssl_repro.solvers.cccp import BALANCE_TOL, cccp_tsvm


@pytest.fixture(scope="module")
def problem():
    Xl, yl, Xu, yu = random_problem(0, l=8, u=60, d=12, sep=0.4)
    return from_blocks(Xl, yl, Xu), Xl, yl, Xu


def ramp(A_l, y, A_u, w, lam, lam_u, s):
    h = np.maximum(0, 1 - y * (A_l @ w)) ** 2
    o = A_u @ w
    plateau = (1 - s) ** 2
    ru = np.minimum(np.maximum(0, 1 - o) ** 2, plateau) + np.minimum(np.maximum(0, 1 + o) ** 2, plateau)
    return 0.5 * lam * w @ w + 0.5 * h.mean() + 0.5 * lam_u * ru.mean()


@pytest.mark.parametrize("s", [0.0, 0.3])
def test_ramp_objective_never_rises_and_balance_holds(problem, s):
    prob, Xl, yl, Xu = problem
    w, info = cccp_tsvm(prob, 0.01, 1.0, 0.4, s=s)
    values = [v for _, v in info.objective_path]
    assert len(values) >= 2
    assert all(b <= a + 1e-10 for a, b in zip(values, values[1:]))
    A_l, A_u = augmented_dense(Xl), augmented_dense(Xu)
    assert (A_u @ w).mean() == pytest.approx(2 * 0.4 - 1, abs=BALANCE_TOL)
    assert info.own_objective == pytest.approx(ramp(A_l, yl, A_u, w, 0.01, 1.0, s), rel=1e-10)
    assert info.objective == pytest.approx(objective_of_weights(prob, w, 0.01, 1.0), rel=1e-12)


@pytest.mark.slow   # longer than ~3 s
def test_with_s_zero_the_ramp_is_the_tsvm_loss_plus_one(problem):
    prob, Xl, yl, Xu = problem
    w, info = cccp_tsvm(prob, 0.01, 1.0, 0.4, s=0.0)
    assert info.own_objective == pytest.approx(info.objective + 0.5, rel=1e-10)


@pytest.mark.parametrize("r", [0.3, 0.4])
def test_a_cccp_step_is_the_optimum_of_its_convex_problem(problem, r):
    """Stop after one step and compare with SLSQP on the same linearized, constrained problem
    (the multiplier search ends on a solve within BALANCE_TOL or between two bracketing ones)."""
    prob, Xl, yl, Xu = problem
    lam, lam_u, s, target = 0.01, 1.0, 0.0, 2 * r - 1
    w1, info = cccp_tsvm(prob, lam, lam_u, r, s=s, max_iter=1)
    from ssl_repro.solvers import train_svm
    w0, _ = train_svm(Xl, yl, lam=lam)
    A_l, A_u = augmented_dense(Xl), augmented_dense(Xu)
    u = A_u.shape[0]
    o0 = A_u @ w0
    A_pair = np.vstack([A_u, A_u])
    y_pair = np.r_[np.ones(u), -np.ones(u)]
    t0 = y_pair * np.r_[o0, o0]
    slope = np.where(t0 < s, (lam_u / u) * (1 - t0), 0.0) * y_pair   # tangent of the concave part

    def convex(w):
        h_l = np.maximum(0, 1 - yl * (A_l @ w)) ** 2
        h_u = np.maximum(0, 1 - y_pair * (A_pair @ w)) ** 2
        return 0.5 * lam * w @ w + 0.5 * h_l.mean() + 0.5 * lam_u / u * h_u.sum() + slope @ (A_pair @ w)

    ref = minimize(convex, w0, method="SLSQP", constraints=[{"type": "eq", "fun": lambda w: (A_u @ w).mean() - target}],
                   options={"ftol": 1e-14, "maxiter": 1000})
    assert ref.success
    assert (A_u @ w1).mean() == pytest.approx(target, abs=BALANCE_TOL)
    assert convex(w1) == pytest.approx(ref.fun, rel=1e-6)
    np.testing.assert_allclose(w1, ref.x, atol=1e-4)


def test_bad_plateau(problem):
    prob, *_ = problem
    with pytest.raises(ValueError, match="plateau s must be < 1"):
        cccp_tsvm(prob, 0.01, 1.0, 0.4, s=1.0)


@pytest.fixture(scope="module")
def dense_problem():
    """A harder problem (sep 0.6) with its dense [X 1] blocks, for the independent dense solvers."""
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
def test_cccp_stops_at_the_optimum_of_its_own_linearization(dense_problem, s):
    """When the linearization stops changing, w minimizes the convex problem linearized at w."""
    prob, A_l, y_l, A_u = dense_problem
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


def test_uc_star_equals_lc_with_the_labeled_mean_as_target(dense_problem):
    """002's defaults: lambda' = 1 (UC* = LC) and mean unlabeled output = mean labeled label,
    to cccp.py's documented BALANCE_TOL."""
    prob, A_l, y_l, A_u = dense_problem
    w, _ = cccp_tsvm(prob, 0.02)
    assert (A_u @ w).mean() == pytest.approx(y_l.mean(), abs=1e-9)


def test_cccp_estimator_with_r_none_matches_the_solver():
    Xl, yl, Xu, yu = random_problem(4, l=12, u=40, d=8, sep=0.8)
    X = sp.vstack([Xl, Xu], format="csr")
    est = LinearCCCPTSVM(lam=0.02).fit(X, mask_labels(np.r_[yl, yu], np.arange(12)))
    w, info = cccp_tsvm(from_blocks(Xl, yl, Xu), 0.02, 1.0, float(np.mean(yl > 0)))
    np.testing.assert_allclose(np.r_[est.coef_[0], est.intercept_], w, atol=1e-12)
    assert est.diagnostics_.objective == pytest.approx(info.objective, rel=1e-12)
    assert est.n_iter_ == info.cccp_iterations == len(info.objective_path)
