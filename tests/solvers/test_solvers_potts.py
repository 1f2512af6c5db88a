"""The Potts-glass DA over K classes (ssl_repro.solvers.potts): its p-step, its path, and K = 2."""
import numpy as np
import pytest
import scipy.sparse as sp

from solver_problems import fit_quietly
from ssl_repro.estimators import LinearDA
from ssl_repro.solvers import deterministic_annealing, from_mask
from ssl_repro.solvers.potts import objective_of_weights, potts_beliefs, potts_da


def sinkhorn(G, T, r, sweeps=20000):
    """An independent reference: the same p by iterative proportional fitting of exp(-G/T) to rows summing
    to 1 and columns to u r (the entropic projection the p-step solves)."""
    P = np.exp(-(G - G.min(axis=1, keepdims=True)) / T)
    for _ in range(sweeps):
        P /= P.sum(axis=1, keepdims=True)
        P *= (G.shape[0] * r) / P.sum(axis=0)
    return P / P.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("T", [5.0, 0.5])
def test_the_p_step_gives_distributions_meeting_every_balance_constraint(T):
    rng = np.random.default_rng(0)
    G = rng.normal(size=(200, 4)) * 3
    r = np.array([0.1, 0.2, 0.3, 0.4])
    P, nu, steps, converged = potts_beliefs(G, T, r)
    assert converged and steps < 50
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_allclose(P.mean(axis=0), r, atol=1e-10)
    np.testing.assert_allclose(P, sinkhorn(G, T, r), atol=1e-7)


def three_class_problems(seed=0, per_class=40, labeled_per_class=4):
    """Three Gaussian classes in 6 dimensions (CSR); the K problems class k against the rest."""
    rng = np.random.default_rng(seed)
    X = np.vstack([3.0 * np.eye(6)[k] + rng.normal(size=(per_class, 6)) for k in range(3)])
    codes = np.repeat(np.arange(3), per_class)
    labeled = np.zeros(codes.size, dtype=bool)
    for k in range(3):
        labeled[k * per_class:k * per_class + labeled_per_class] = True
    X = sp.csr_matrix(X)
    return X, codes, labeled, [from_mask(X, np.where(codes[labeled] == k, 1.0, -1.0), labeled) for k in range(3)]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")   # max_outer=8: the path is the point
def test_the_annealing_objective_never_rises_at_one_temperature():
    """Each w-step minimizes F_T over W for fixed P and each p-step over P for fixed W (module doc), so F_T
    after successive w-steps at one temperature is non-increasing (up to MFN's tolerance)."""
    _, _, _, problems = three_class_problems()
    W, info = potts_da(problems, 1e-2, 1.0, np.full(3, 1 / 3), max_outer=8)
    path = info.annealing_path
    assert len(path) > len(info.temperatures)
    for (T_a, F_a), (T_b, F_b) in zip(path, path[1:]):
        if T_a == T_b:
            assert F_b <= F_a + 1e-9 * abs(F_a)
    assert info.objective == pytest.approx(objective_of_weights(problems, W, 1e-2, 1.0), rel=1e-10)
    assert info.objective == min(value for _, value in info.objective_path)


def test_with_two_classes_it_is_the_binary_da_at_half_the_temperature():
    """K = 2 (module doc): w_1 the binary DA's w at T/2, w_0 = -w_1 (the binary DA as Table 7 has it:
    every w-step solved to 1e-6, as the Potts DA solves its own)."""
    X, codes, labeled, _ = three_class_problems()
    y_pm1 = np.where(codes[labeled] == 0, 1.0, -1.0)         # class 0 against classes 1 and 2: two classes
    binary = from_mask(X, y_pm1, labeled)
    rest = from_mask(X, -y_pm1, labeled)
    r = 1 / 3
    w, _ = deterministic_annealing(binary, 1e-2, 1.0, r, fixed_temperature=0.3, eps=1e-10,
                                   inner_cg_tol=None)
    W, _ = potts_da([rest, binary], 1e-2, 1.0, np.array([1 - r, r]), fixed_temperature=0.6, eps=1e-10)
    np.testing.assert_allclose(W[1], w, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(W[0], -w, rtol=1e-6, atol=1e-8)


def test_the_estimator_takes_k_classes_by_potts():
    X, codes, labeled, _ = three_class_problems()
    y = np.where(labeled, codes, -1)
    estimator = fit_quietly(LinearDA(lam=1e-2, multiclass="potts"), X, y)
    outputs = estimator.decision_function(X)
    assert estimator.coef_.shape == (3, 6) and outputs.shape == (X.shape[0], 3)
    assert not hasattr(estimator, "estimators_")
    assert np.mean(estimator.predict(X) == codes) > 0.9
    np.testing.assert_array_equal(estimator.transduction_[~labeled], estimator.predict(X[~labeled]))
    assert estimator.n_iter_ == len(estimator.diagnostics_.temperatures)
