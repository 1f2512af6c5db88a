"""Kernel DA (001): each f-step against an independent solve, the balance, and 2MOONS."""
import numpy as np
import pytest
from scipy.optimize import minimize

from ssl_repro.data.embedded import two_moons
from ssl_repro.kernel import FStep, default_sigma, kernel_da, kernel_jtsvm, rbf_gram


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


@pytest.mark.parametrize("loss", ["sqr", "l2", "l1"])
def test_da_returns_the_best_objective_of_its_path_and_keeps_the_balance(loss):
    X, y = two_moons(n_rows=60, seed=1)
    K = rbf_gram(X, default_sigma(X) / 4)
    labeled = np.array([0, 1])
    unlabeled = np.arange(2, 60)
    alpha, bias, info = kernel_da(K, labeled, y[labeled].astype(float), unlabeled, 1e-2, 1.0, 0.5, loss=loss)
    assert info["objective"] == min(v for _, v in info["path"])
    assert info["temperatures"][0] == 10.0


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
    assert np.isfinite(info["objective"]) and info["switches"] >= 0
    with pytest.raises(ValueError, match="loss must be"):
        FStep(K, 1e-2, "huber")
