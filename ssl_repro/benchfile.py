"""Reader for the benchmark file format of ``shared/bench/text20k.npz``.

Arrays ``data``, ``indices``, ``indptr``, ``shape`` (a CSR matrix without a
bias column), ``y_true`` (+1/-1 for every row), ``labeled`` (bool mask) and
``r_true`` (positive fraction of the unlabeled rows), as written by
``shared/bench/make_text_like.py``.
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
