"""svm_columns: K label columns of one labeled set solved together (L2-SVM-MFN per column, shared products);
each column is its separate :func:`svm` fit (J within 1e-9 relative, the same signs) and reports its own cap."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.optimize import minimize
from sklearn.exceptions import ConvergenceWarning

from solver_problems import augmented_dense
from ssl_repro.solvers import from_mask, svm
from ssl_repro.solvers.columns import svm_columns


def four_classes(sparse, seed=0, n=120, d=30, dtype=np.float64):
    """n rows of 4 classes (a shifted feature each), half labeled; returns X, the labeled mask, Y (l, 4) +1/-1."""
    rng = np.random.default_rng(seed)
    classes = rng.integers(0, 4, n)
    X = rng.normal(size=(n, d)) * (rng.random((n, d)) < (0.2 if sparse else 1.0))
    X[np.arange(n), classes] += 2.0
    X = (sp.csr_matrix(X) if sparse else X).astype(dtype)
    labeled = rng.random(n) < 0.5
    return X, labeled, np.column_stack([np.where(classes[labeled] == k, 1.0, -1.0) for k in range(4)])


@pytest.mark.parametrize("sparse, dtype", [(False, np.float64), (True, np.float64), (True, np.float32)])
def test_each_column_is_its_separate_svm_fit(sparse, dtype):
    X, labeled, Y = four_classes(sparse, dtype=dtype)
    W, infos, products = svm_columns(from_mask(X, Y[:, 0], labeled), Y, 1e-2)
    cg_alone = 0
    for k in range(4):
        problem = from_mask(X, Y[:, k], labeled)
        w, info = svm(problem, 1e-2)
        assert infos[k].objective == pytest.approx(info.objective, rel=1e-9, abs=0)
        assert infos[k].own_objective == pytest.approx(info.own_objective, rel=1e-9, abs=0)
        assert infos[k].converged and infos[k].stop_reason == "tolerance" and infos[k].mfn_calls == 1
        outputs = problem.op.matvec(W[:, k], np.arange(X.shape[0]))
        np.testing.assert_array_equal(outputs > 0, problem.op.matvec(w, np.arange(X.shape[0])) > 0)
        cg_alone += info.cg_iterations
    # shared: the separate fits make at least one pass over X per CG iteration, the columns fewer in all
    assert products < cg_alone


def test_a_column_minimizes_eqn_18_as_scipy_finds_it():
    """An independent reference: L-BFGS on lambda/2 ||w||^2 + 1/(2l) sum max(0, 1 - y o)^2 of one column."""
    X, labeled, Y = four_classes(False, n=60, d=6)
    W, infos, _ = svm_columns(from_mask(X, Y[:, 0], labeled), Y, 1e-2)
    A = augmented_dense(sp.csr_matrix(X[labeled]))
    for k in range(4):
        def J(w):
            margin = np.maximum(0.0, 1.0 - Y[:, k] * (A @ w))
            return 0.5e-2 * (w @ w) + 0.5 * np.mean(margin * margin)

        def grad(w):
            margin = np.maximum(0.0, 1.0 - Y[:, k] * (A @ w))
            return 1e-2 * w - A.T @ (Y[:, k] * margin) / A.shape[0]

        ref = minimize(J, np.zeros(A.shape[1]), jac=grad, method="L-BFGS-B", options={"gtol": 1e-12, "ftol": 1e-15})
        assert infos[k].objective == pytest.approx(ref.fun, rel=1e-7)
        assert infos[k].objective <= ref.fun * (1 + 1e-12)


def test_each_column_reports_its_cap():
    """A Newton cap stops every column on it: each record says so and each warns (ConvergenceWarning)."""
    X, labeled, Y = four_classes(True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _, infos, _ = svm_columns(from_mask(X, Y[:, 0], labeled), Y, 1e-2, max_newton_iter=1)
    assert [(i.converged, i.stop_reason, i.newton_iterations) for i in infos] == [(False, "max_newton_iter", 1)] * 4
    assert sum(issubclass(w.category, ConvergenceWarning) for w in caught) == 4
