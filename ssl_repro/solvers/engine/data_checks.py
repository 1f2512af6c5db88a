"""Checks of the data the engine reads: X's values (type, finite, scale), the labels, and the
memory its dense per-feature arrays will take; messages name the problem."""
import warnings
from pathlib import Path

import numpy as np
import scipy.sparse as sp


#: Value types the solvers read X in as they are; any other is converted to float64.
DATA_DTYPES = (np.float64, np.float32)


def data_dtype(dtype):
    """The type the solvers keep X's values in: float32 stays float32 (read as such, every
    product and sum taken in float64), anything else becomes float64."""
    return np.float32 if dtype == np.float32 else np.float64


def check_matrix(X, name):
    """CSR view of ``X`` in float64 or float32 (:func:`data_dtype`); rejects NaN/inf and non-2-D input."""
    if sp.issparse(X):
        X = X.tocsr()
        values = X.data
    else:
        X = np.asarray(X)
        X = np.asarray(X, dtype=data_dtype(X.dtype))
        if X.ndim != 2:
            raise ValueError(f"{name} must be 2-D, got an array of shape {X.shape}")
        values = X
        X = sp.csr_matrix(X)
    check_scale(values, name)
    return X.astype(data_dtype(X.dtype), copy=False)


#: Largest |entry| of a data matrix the solvers accept.  CGLS forms
#: q = X p with p ~ X^T z, and then q . q: fourth powers of the entries,
#: which overflow float64 (1.8e308) beyond about 1e77; 1e50 leaves room for
#: sums over rows and features.  Tiny entries need no limit: their products
#: underflow to 0, the regularizer dominates, and the answer is the (finite)
#: model of all-zero rows (bias only).
MAX_ABS_ENTRY = 1e50


def largest_magnitude(values):
    """max |v| over ``values`` (0 when empty) without an array-sized temporary.

    ``np.abs(values).max()`` would allocate a copy of the values: for a data
    matrix that is two thirds of its CSR bytes (measured as the peak memory
    of ``fit``).  The extremes give the same answer, and since a NaN or an
    infinity propagates into them, a non-finite result means non-finite values.
    """
    values = np.asarray(values)
    if not values.size:
        return 0.0
    return max(float(values.max()), -float(values.min()))


def check_scale(values, name):
    """Refuse non-finite data, and data whose entries are so large that the solvers' products overflow."""
    largest = largest_magnitude(values)
    if not np.isfinite(largest):
        raise ValueError(f"{name} contains NaN or infinity")
    if largest > MAX_ABS_ENTRY:
        raise ValueError(
            f"{name} has entries up to {largest:.3g} in absolute value; the solvers multiply four entries "
            f"together (X^T X products), which overflows float64 above |x| = {MAX_ABS_ENTRY:.0e}: rescale "
            f"{name} (e.g. divide it by its largest entry, or scale each row to unit norm)")


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


#: The largest feature id (column count) :func:`largest_id_allowed` accepts whatever the data's size: a few
#: dense vectors of this length cost milliseconds per CG step.
ID_SPAN_FLOOR = 100_000


def largest_id_allowed(nnz):
    """The largest feature id a file with ``nnz`` non-zeros may use: ``max(nnz, ID_SPAN_FLOOR)``.

    Each CG step goes over the non-zeros once and over the solver's dense
    per-feature vectors about ``2 * cores + 16`` times, so with ids up to the
    non-zeros the dense part costs no more than a few passes over the data.
    """
    return max(int(nnz), ID_SPAN_FLOOR)


class WideDataWarning(UserWarning):
    """A sparse X with far more columns than non-zeros (:func:`warn_wide`)."""


def warn_wide(X, estimator):
    """Warn (:class:`WideDataWarning`) when a sparse ``X`` has more columns than :func:`largest_id_allowed`
    of its non-zeros, the rule by which the data files' readers refuse such a feature id.

    Decision: the estimators warn and fit, where the readers refuse: in a file a stray id is a typo,
    while a matrix built in Python may be wide on purpose (a hashing vectorizer's 2**20 columns), and
    its fit is right, only slow (a 500-row matrix of 10**7 columns takes a minute and gigabytes, for
    the dense per-feature vectors).  The warning comes before any work, with the fix.
    """
    if not sp.issparse(X) or X.shape[1] <= largest_id_allowed(X.nnz):
        return
    used = np.unique(X.indices).size
    warnings.warn(
        f"{estimator}: X has {X.shape[1]:,} columns but {X.nnz:,} non-zeros, in {used:,} of the columns (the data "
        f"files may use at most {largest_id_allowed(X.nnz):,}, the larger of the non-zeros and {ID_SPAN_FLOOR:,}); "
        f"the solvers keep dense vectors of one number per column, so the empty columns cost time and memory for "
        f"nothing. Keep the columns that occur: cols = numpy.unique(X.indices); fit on X[:, cols] (and predict on "
        f"the same columns)", WideDataWarning, stacklevel=4)


#: Arrays of ``n_features + 1`` float64 a solve holds besides the per-chunk scratch of the
#: products (weights, CG's residual and direction, the exact residual, the linear term, DA's and
#: TSVM's previous weights, the returned ``coef_``), with room to spare.
WEIGHT_VECTORS = 16


def feature_memory_bytes(n_features, n_chunks):
    """Bytes of the dense per-feature arrays of a solve on ``n_features`` columns.

    The products ``X[rows].T @ z`` add the rows of each of ``n_chunks`` row
    chunks into a buffer of ``n_features`` numbers (one for :class:`.biased_rows.BiasedRows`,
    one for CG's fused steps), plus :data:`WEIGHT_VECTORS` weight-sized vectors.
    """
    return 8 * (n_features + 1) * (2 * n_chunks + WEIGHT_VECTORS)


def available_memory_bytes():
    """Memory this process may still use: the smaller of /proc/meminfo's MemAvailable and what
    its cgroup's ``memory.max`` leaves; None where neither is known (not Linux)."""
    limits = []
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                limits.append(int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    try:
        cgroup = Path("/sys/fs/cgroup")
        cap = (cgroup / "memory.max").read_text().strip()
        if cap != "max":
            limits.append(int(cap) - int((cgroup / "memory.current").read_text()))
    except (OSError, ValueError):
        pass
    return min(limits) if limits else None


def check_feature_memory(X, n_chunks):
    """Refuse a CSR ``X`` whose column count would make the solve's dense per-feature arrays
    (:func:`feature_memory_bytes`) larger than the memory available, before allocating them.

    Sparse data costs its non-zeros plus these arrays; feature ids far beyond
    the features that occur (a svmlight token ``1000000000:1``) would
    otherwise exhaust the machine's memory.
    """
    need = feature_memory_bytes(X.shape[1], n_chunks)
    have = available_memory_bytes()
    if have is None or need <= have:
        return
    used = np.unique(X.indices).size
    raise ValueError(
        f"X has {X.shape[1]:,} feature columns, of which {used:,} hold a non-zero: the solver's dense "
        f"per-feature arrays ({2 * n_chunks + WEIGHT_VECTORS} vectors of n_features + 1 float64) would need "
        f"{need / 2**30:,.1f} GiB, more than the {have / 2**30:,.1f} GiB available. Number the features "
        f"consecutively: keep the columns that occur (X[:, numpy.unique(X.indices)]), or renumber the "
        f"feature ids of a svmlight file to 1..{used}")
