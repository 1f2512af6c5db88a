"""Kernel nabla-TSVM (ssl_repro/kernel/nabla.py): the linear method on the empirical kernel map.

With a linear kernel it must be the linear nabla-TSVM; with an RBF kernel it keeps the balance
constraint; the map reproduces K; bad input is refused by name."""
import numpy as np
import pytest
import scipy.sparse as sp

from ssl_repro.estimators.comparison import LinearNablaTSVM
from ssl_repro.estimators import NoUnlabeledRowsWarning, mask_labels
from ssl_repro.kernel import EmpiricalKernelMap, default_sigma, kernel_nabla_tsvm, rbf_gram
from ssl_repro.kernel.nabla import EIGEN_RTOL
from ssl_repro.kernel.training import kernel_eqn18, train_kernel
from ssl_repro.estimators.kernel import KernelNablaTSVM
from ssl_repro.harness.methods import METHODS


def linear_data(seed=0, n=40, d=5):
    """Two overlapping Gaussian clouds in d < n dimensions, 3 labels per class, and 15 new points."""
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(1.0, 1.0, (n // 2, d)), rng.normal(-1.0, 1.0, (n // 2, d))]
    y = np.r_[np.ones(n // 2), -np.ones(n // 2)]
    labeled = np.r_[0:3, n // 2:n // 2 + 3]
    return X, y, labeled, np.setdiff1d(np.arange(n), labeled), rng.normal(0.0, 2.0, (15, d))


@pytest.mark.parametrize("r", [0.5, 0.35])
def test_linear_kernel_gives_the_linear_nabla_tsvm(r):
    """K = X X': f on the training rows and on new rows equals LinearNablaTSVM's on X (same lambda, lambda', r)."""
    X, y, labeled, unlabeled, X_new = linear_data()
    linear = LinearNablaTSVM(lam=1e-2, lam_u=1.0, r=r).fit(X, mask_labels(y, labeled))
    alpha, bias, raw = kernel_nabla_tsvm(X @ X.T, labeled, y[labeled], unlabeled, 1e-2, 1.0, r)
    assert EmpiricalKernelMap(X @ X.T).s.size == X.shape[1]
    np.testing.assert_allclose(X @ X.T @ alpha + bias, linear.decision_function(X), atol=1e-6)
    np.testing.assert_allclose(X_new @ X.T @ alpha + bias, linear.decision_function(X_new), atol=1e-6)
    assert raw.own_objective == pytest.approx(linear.diagnostics_.own_objective, rel=1e-8)


def test_rbf_kernel_keeps_the_balance_constraint_on_the_unlabeled_rows(moons):
    """mean_j f(x'_j) = 2r - 1 (the constraint the bias elimination enforces), for r != the labeled ratio."""
    X, y, labeled, unlabeled, _ = moons
    for r in (0.5, 0.3):
        est = KernelNablaTSVM(lam=1e-2, r=r, sigma_factor=0.25).fit(X, mask_labels(y, labeled))
        assert est.decision_function(X[unlabeled]).mean() == pytest.approx(2 * r - 1, abs=1e-9)
        assert est.diagnostics_.converged and est.diagnostics_.lam_u_levels[-1] == 1.0
    info = est.diagnostics_
    K = rbf_gram(X, est.sigma_)
    assert info.objective == pytest.approx(kernel_eqn18(K, est.dual_coef_[0], est.intercept_[0], labeled,
                                                        y[labeled], unlabeled, 1e-2, 1.0), rel=1e-12)


@pytest.mark.parametrize("width", [0.25, 1.0, 4.0])
def test_the_map_reproduces_the_gram_matrix(moons, width):
    """Phi Phi' = K up to the dropped eigenvalues (below EIGEN_RTOL x the largest); alpha = V s^-1/2 w
    gives K alpha = Phi w; a rank-3 Gram matrix keeps 3 columns."""
    X = moons[0]
    K = rbf_gram(X, width * default_sigma(X))
    kmap = EmpiricalKernelMap(K)
    s_max = kmap.s.max()
    assert np.linalg.norm(kmap.features @ kmap.features.T - K, 2) <= EIGEN_RTOL * s_max + 1e-12 * s_max
    assert kmap.s.min() > EIGEN_RTOL * s_max
    w = np.random.default_rng(0).normal(size=kmap.s.size)
    np.testing.assert_allclose(K @ kmap.dual_coefficients(w), kmap.features @ w, atol=1e-8)
    Z = np.random.default_rng(1).normal(size=(30, 3))
    low_rank = EmpiricalKernelMap(Z @ Z.T)
    assert low_rank.s.size == 3
    np.testing.assert_allclose(low_rank.features @ low_rank.features.T, Z @ Z.T, atol=1e-12)


def test_bad_input_is_refused_by_name(moons):
    X, y, labeled, unlabeled, K = moons
    y_fit = mask_labels(y, labeled)
    with pytest.raises(ValueError, match=r"KernelNablaTSVM: 50 training rows exceed the kernel methods' limit of "
                                         r"max_rows=49"):
        KernelNablaTSVM(max_rows=49).fit(sp.csr_matrix(X), y_fit)
    with pytest.raises(ValueError, match=r"quadratic hinge \(loss='l2'\).*got loss='l1'"):
        kernel_nabla_tsvm(K, labeled, y[labeled], unlabeled, 1e-2, loss="l1")
    with pytest.raises(ValueError, match=r"must be square, got shape \(50, 49\)"):
        EmpiricalKernelMap(K[:, :49])
    with pytest.raises(ValueError, match="NaN or infinite"):
        EmpiricalKernelMap(np.where(np.eye(50) > 0, np.nan, K))
    with pytest.raises(ValueError, match="no positive eigenvalue"):
        EmpiricalKernelMap(np.zeros((4, 4)))
    with pytest.warns(NoUnlabeledRowsWarning, match="KernelNablaTSVM: y marks no row unlabeled"):
        KernelNablaTSVM().fit(X, (y > 0).astype(int))          # the supervised problem (tests/estimators/test_fresh_fits.py)
    with pytest.raises(ValueError, match="'steps' parameter of KernelNablaTSVM"):
        KernelNablaTSVM(steps=0).fit(X, y_fit)
    with pytest.raises(ValueError, match=r"r \(positive fraction of unlabeled rows\) must lie strictly in \(0, 1\)"):
        kernel_nabla_tsvm(K, labeled, y[labeled], unlabeled, 1e-2, r=1.5)


def test_registered_and_reported_like_the_other_kernel_methods(moons):
    X, y, labeled, unlabeled, K = moons
    assert METHODS["kernel_nabla_tsvm"].estimator_class is KernelNablaTSVM and METHODS["kernel_nabla_tsvm"].kernel
    alpha, bias, info = train_kernel("nabla_tsvm", K, labeled, y[labeled], unlabeled, 1e-2, 1.0, 0.5)
    assert info.method == "kernel_nabla_tsvm_l2" and info.lbfgs_iterations > 0 and len(info.objective_path) == 10
    assert info.positive_fraction == np.mean(K[unlabeled] @ alpha + bias > 0)
