"""Numba kernels for products of a row subset of a CSR matrix with a vector.

These are the only places where the data matrix is touched inside the CG
loops (Table 2 of the spec paper: "The data matrix X is only involved in the
computations through matrix vector multiplication").  They take the CSR
arrays plus an index array of the rows in play, so the active set of
L2-SVM-MFN never has to be sliced out of the matrix.

Column indices come in as an unsigned view of the CSR ``indices`` (no
copy; scipy guarantees they are >= 0), which spares numba's negative-index
wraparound test on every nonzero.  Row dot products use four partial sums
(:func:`row_dot`) so that the floating-point additions of a row do not
form one chain of dependent operations (measured on text20k, one core:
1.3 ms per product instead of 2.1 ms).

Determinism: the transposed product splits the rows into a fixed number of
chunks (independent of the number of threads), accumulates each chunk into
its own buffer and adds the buffers in a fixed order, so results are the
same bit for bit whatever ``NUMBA_NUM_THREADS`` is.
"""
import os

import numba
import numpy as np

#: Number of row chunks, each with its own partial-sum buffer in transposed
#: products: fixed per machine, not per thread count, so the thread count
#: never changes a result.
N_CHUNKS = max(4, os.cpu_count() or 1)


@numba.njit(inline="always", nogil=True)
def row_dot(indices, data, w, a, b):
    """sum_{jj in [a, b)} data[jj] w[indices[jj]], in four interleaved partial sums."""
    s0 = 0.0
    s1 = 0.0
    s2 = 0.0
    s3 = 0.0
    jj = a
    while jj + 4 <= b:
        s0 += data[jj] * w[indices[jj]]
        s1 += data[jj + 1] * w[indices[jj + 1]]
        s2 += data[jj + 2] * w[indices[jj + 2]]
        s3 += data[jj + 3] * w[indices[jj + 3]]
        jj += 4
    while jj < b:
        s0 += data[jj] * w[indices[jj]]
        jj += 1
    return (s0 + s1) + (s2 + s3)


def unsigned_indices(X):
    """The CSR column indices viewed as unsigned integers of the same width (no copy)."""
    return X.indices.view(np.uint32 if X.indices.dtype == np.int32 else np.uint64)


@numba.njit(parallel=True, cache=True, nogil=True)
def rows_matvec(indptr, indices, data, rows, w, bias, out):
    """out[k] = X[rows[k]] . w + bias, for every k."""
    for k in numba.prange(rows.shape[0]):
        i = rows[k]
        out[k] = row_dot(indices, data, w, indptr[i], indptr[i + 1]) + bias


@numba.njit(parallel=True, cache=True, nogil=True)
def rows_rmatvec(indptr, indices, data, rows, z, buffers, out):
    """out = X[rows].T @ z, using ``buffers`` (N_CHUNKS x n_cols) as scratch."""
    n_chunks, n_cols = buffers.shape
    n = rows.shape[0]
    for c in numba.prange(n_chunks):
        buf = buffers[c]
        buf[:] = 0.0
        for k in range(c * n // n_chunks, (c + 1) * n // n_chunks):
            zk = z[k]
            if zk != 0.0:
                i = rows[k]
                for jj in range(indptr[i], indptr[i + 1]):
                    buf[indices[jj]] += data[jj] * zk
    for j in numba.prange(n_cols):
        s = 0.0
        for c in range(n_chunks):
            s += buffers[c, j]
        out[j] = s
