"""Input checks shared by the solver functions, with messages naming the problem."""
import numbers

import numpy as np
import scipy.sparse as sp


def check_matrix(X, name):
    """CSR float64 view of ``X``; rejects NaN/inf and non-2-D input."""
    if sp.issparse(X):
        X = X.tocsr()
        values = X.data
    else:
        X = np.asarray(X, dtype=np.float64)
        if X.ndim != 2:
            raise ValueError(f"{name} must be 2-D, got an array of shape {X.shape}")
        values = X
        X = sp.csr_matrix(X)
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{name} contains NaN or infinity")
    if X.dtype != np.float64:
        X = X.astype(np.float64)
    return X


def check_labels_pm1(y, n_rows):
    """Labels as float +1/-1; both classes must be present."""
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n_rows:
        raise ValueError(f"shape mismatch: {n_rows} labeled rows but labels of shape {y.shape}")
    if not np.all(np.isfinite(y.astype(np.float64))):
        raise ValueError("labels contain NaN or infinity")
    if y.shape[0] == 0:
        raise ValueError("there are no labeled rows; at least one of each class is needed")
    bad = np.setdiff1d(np.unique(y), [-1, 1])
    if bad.size:
        raise ValueError(f"labels must be +1 or -1 for the solver functions, got {bad[:5].tolist()}")
    if np.unique(y).size < 2:
        raise ValueError(f"the labeled rows hold one class only ({int(y[0]):+d}); two are needed")
    return y.astype(np.float64)


def check_positive(value, name, allow_zero=False):
    """A finite real number > 0 (or >= 0 when ``allow_zero``)."""
    if not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if value < 0 or (value == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be {bound}, got {value!r}")
    return float(value)


def check_fraction(r):
    """The positive fraction r, strictly inside (0, 1)."""
    if not isinstance(r, numbers.Real) or not 0.0 < r < 1.0:
        raise ValueError(f"r (positive fraction of unlabeled rows) must lie strictly in (0, 1), got {r!r}")
    return float(r)


def check_has_unlabeled(problem, method):
    """Semi-supervised methods need at least one unlabeled row."""
    if problem.n_unlabeled == 0:
        raise ValueError(f"{method} is semi-supervised and needs unlabeled rows; none were given")
