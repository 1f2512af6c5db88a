"""Reader and writer of the benchmark file format, that of the benchmark matrix ``text20k.npz``.

Arrays ``data``, ``indices``, ``indptr``, ``shape`` (a CSR matrix without a
bias column), ``y_true`` (+1/-1 for every row), ``labeled`` (bool mask) and
``r_true`` (positive fraction of the unlabeled rows).  ``text20k.npz`` and
larger matrices of its model are made by :mod:`ssl_repro.bench.text_model`;
:func:`bench_rows_of_split` and :func:`save_bench_npz` write any dataset and
split of the harness in that format (``benchmarks/write_bench_file.py``
does both), so that it can be timed against the papers' C++ reference.
"""
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp


@dataclass
class BenchData:
    X: sp.csr_matrix
    y: np.ndarray
    labeled: np.ndarray
    r_true: float

    def matrix_mb(self):
        """Size of the CSR arrays in MiB."""
        return (self.X.data.nbytes + self.X.indices.nbytes + self.X.indptr.nbytes) / 2**20


def load_bench_npz(path):
    """Load a benchmark file without copying its arrays more than needed."""
    with np.load(path) as f:
        data, indices, indptr = f["data"], f["indices"], f["indptr"]
        if indptr[-1] < np.iinfo(np.int32).max:
            # one index dtype for indices and indptr, so scipy keeps the arrays as they are
            indptr = indptr.astype(np.int32)
            indices = indices.astype(np.int32, copy=False)
        X = sp.csr_matrix((data, indices, indptr), shape=tuple(int(s) for s in f["shape"]), copy=False)
        return BenchData(X, f["y_true"].astype(np.float64), f["labeled"].astype(bool), float(f["r_true"]))


def bench_rows_of_split(dataset, split):
    """(X, y_true, labeled mask) of a harness split: its labeled and unlabeled rows in row order.

    Test rows are left out (the benchmark is transductive).  Every row
    needs a known label: a split of a reference-software pair whose labels
    file leaves rows unlabeled (0) cannot be written.
    """
    rows = np.sort(np.concatenate([split.labeled, split.unlabeled]))
    y = np.asarray(dataset.y[rows], dtype=np.int8)
    if np.any(y == 0):
        raise ValueError(f"{dataset.name}: {int(np.sum(y == 0))} rows have no known label (0 in the "
                         "labels file); a benchmark file needs the truth of every row")
    X = dataset.X if rows.size == dataset.X.shape[0] else dataset.X[rows]
    return X, y, np.isin(rows, split.labeled)


def save_bench_npz(path, X, y_true, labeled, dtype=np.float64):
    """Write rows ``X`` (CSR), labels ``y_true`` (+1/-1) and the labeled mask in the benchmark format.

    Values in ``dtype`` (float64 or float32; :func:`load_bench_npz` keeps it),
    the other dtypes as in ``text20k.npz`` (int32 column indices,
    int64 row pointers, int8 labels); ``r_true`` is computed from the
    unlabeled rows.  Compressed like the generator's files.
    """
    X = sp.csr_matrix(X)
    y_true = np.asarray(y_true)
    labeled = np.asarray(labeled, dtype=bool)
    if y_true.shape != (X.shape[0],) or labeled.shape != (X.shape[0],):
        raise ValueError(f"y_true and labeled need one entry per row ({X.shape[0]}), got "
                         f"{y_true.shape} and {labeled.shape}")
    if not np.all(np.abs(y_true) == 1):
        raise ValueError("y_true must be +1/-1 for every row")
    if labeled.all() or not labeled.any():
        raise ValueError("a benchmark needs labeled and unlabeled rows")
    if not X.has_sorted_indices:
        X = X.sorted_indices()
    if dtype not in (np.float64, np.float32):
        raise ValueError(f"dtype must be float64 or float32, got {dtype!r}")
    np.savez_compressed(path, data=X.data.astype(dtype, copy=False),
                        indices=X.indices.astype(np.int32, copy=False),
                        indptr=X.indptr.astype(np.int64, copy=False), shape=np.array(X.shape, dtype=np.int64),
                        y_true=y_true.astype(np.int8), labeled=labeled,
                        r_true=np.float64(np.mean(y_true[~labeled] > 0)))
