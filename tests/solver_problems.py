"""Small problems and helpers shared by the tests (not a test module)."""
import warnings

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning

from ssl_repro.estimators import mask_labels


def random_problem(seed, l=30, u=60, d=25, density=0.3, sep=1.5):
    """Sparse two-class data: returns X_labeled, y_labeled (+1/-1), X_unlabeled, y_unlabeled."""
    rng = np.random.default_rng(seed)
    n = l + u
    y = np.where(rng.random(n) < 0.45, 1.0, -1.0)
    y[:2] = [1.0, -1.0]
    X = sp.random(n, d, density=density, random_state=rng, format="csr")
    X = X + sp.csr_matrix(np.outer(y, np.r_[sep, np.zeros(d - 1)]))
    X = sp.csr_matrix(X)
    X.sort_indices()
    return X[:l], y[:l], X[l:], y[l:]


def augmented_dense(X):
    """[X 1] as a dense array (the bias column made explicit)."""
    return np.hstack([X.toarray(), np.ones((X.shape[0], 1))])


def dense_masked_problem(scale=1.0, n=60, d=5, n_labeled=10, seed=0):
    """Dense Gaussian rows of random class, the first ``n_labeled`` labeled (estimator labels: -1 = unlabeled)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)) * scale
    y = np.where(rng.random(n) < 0.5, 1, -1)
    y[:2] = [1, -1]
    return X, mask_labels(y, np.arange(n_labeled))


def fit_quietly(estimator, X, y):
    """``estimator.fit(X, y)`` with ConvergenceWarning silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return estimator.fit(X, y)
