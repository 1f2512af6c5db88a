"""Linear nabla-TSVM: gradient, balance constraint, the optimum of its convex special case, and its reported
objectives and stationary points against a dense evaluation."""
import numpy as np
import pytest
from scipy.optimize import approx_fprime, minimize

from solver_problems import augmented_dense, random_problem
from ssl_repro.estimators.comparison import LinearNablaTSVM
from ssl_repro.estimators import mask_labels
from ssl_repro.solvers import from_blocks
from ssl_repro.solvers.nabla import BalancedObjective, nabla_tsvm


@pytest.fixture(scope="module")
def problem():
    Xl, yl, Xu, yu = random_problem(0, l=12, u=60, d=15, sep=0.5)
    return from_blocks(Xl, yl, Xu), Xl, yl, Xu


def test_gradient_equals_finite_differences(problem):
    prob, *_ = problem
    obj = BalancedObjective(prob, 0.01, 2.0, 0.1)
    rng = np.random.default_rng(0)
    for _ in range(3):
        w = rng.normal(size=15) * 0.5
        numeric = approx_fprime(w, lambda v: obj.value_and_gradient(v)[0], 1e-7)
        np.testing.assert_allclose(obj.value_and_gradient(w)[1], numeric, rtol=1e-5, atol=1e-6)


def test_value_matches_a_dense_evaluation(problem):
    prob, Xl, yl, Xu = problem
    obj = BalancedObjective(prob, 0.01, 2.0, 0.1)
    w = np.random.default_rng(1).normal(size=15)
    b = 0.1 - Xu.toarray().mean(axis=0) @ w
    o_l, o_u = Xl @ w + b, Xu @ w + b
    expected = (0.005 * w @ w + 0.5 * np.mean(np.maximum(0, 1 - yl * o_l) ** 2)
                + np.mean(np.exp(-3 * o_u ** 2)))
    assert obj.value_and_gradient(w)[0] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("r", [0.3, 0.5, None])
def test_balance_constraint_holds(problem, r):
    prob, Xl, yl, Xu = problem
    wb, info = nabla_tsvm(prob, 0.01, 1.0, r)
    target = np.mean(yl) if r is None else 2 * r - 1
    o_u = augmented_dense(Xu) @ wb
    assert o_u.mean() == pytest.approx(target, abs=1e-10)
    assert info.lam_u_levels[0] == pytest.approx(0.01) and info.lam_u_levels[-1] == pytest.approx(1.0)
    assert len(info.lam_u_levels) == 10 and info.lbfgs_iterations > 0 and info.temperatures == []


def test_convex_case_reaches_the_optimum_of_an_independent_solver(problem):
    """With a vanishing unlabeled weight the problem is convex: BFGS on a dense copy agrees."""
    prob, Xl, yl, Xu = problem
    lam_u = 1e-12
    wb, info = nabla_tsvm(prob, 0.01, lam_u, 0.5, steps=1, start_fraction=1.0)
    A, mean_u = Xl.toarray(), Xu.toarray().mean(axis=0)

    def dense(w):
        b = 0.0 - mean_u @ w
        return 0.005 * w @ w + 0.5 * np.mean(np.maximum(0, 1 - yl * (A @ w + b)) ** 2)

    ref = minimize(dense, np.ones(15), method="BFGS", options={"gtol": 1e-10})
    assert info.own_objective == pytest.approx(ref.fun, rel=1e-6)


def test_estimator_fits_and_predicts():
    Xl, yl, Xu, yu = random_problem(2, l=10, u=80, d=20, sep=0.5)
    import scipy.sparse as sp
    X = sp.vstack([Xl, Xu], format="csr")
    est = LinearNablaTSVM(lam=1e-2, r=0.45).fit(X, mask_labels(np.r_[yl, yu], np.arange(10)))
    assert est.diagnostics_.method == "nabla_tsvm" and est.predict(Xu).shape == (80,)
    assert np.isfinite(est.diagnostics_.objective)


@pytest.fixture(scope="module")
def dense_problem():
    """A harder problem (sep 0.6) with its dense [X 1] blocks, for the independent dense solvers."""
    Xl, yl, Xu, yu = random_problem(3, l=10, u=50, d=10, sep=0.6)
    return from_blocks(Xl, yl, Xu), augmented_dense(Xl), yl, augmented_dense(Xu)


def test_nabla_reported_objectives_match_a_dense_evaluation(dense_problem):
    prob, A_l, y_l, A_u = dense_problem
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
