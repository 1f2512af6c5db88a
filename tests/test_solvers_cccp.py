"""Linear CCCP-TSVM: each step solves its convex problem exactly, the balance holds, J_ramp never rises."""
import numpy as np
import pytest
from scipy.optimize import minimize

from solver_problems import augmented_dense, random_problem
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
