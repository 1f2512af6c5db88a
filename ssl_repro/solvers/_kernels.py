"""Numba kernels for products of a row subset of a CSR matrix with a vector.

These are the only places where the data matrix is touched inside the CG
loops (Table 2 of the spec paper: "The data matrix X is only involved in the
computations through matrix vector multiplication").  They take the CSR
arrays plus an index array of the rows in play, so the active set of
L2-SVM-MFN never has to be sliced out of the matrix.

Determinism: the transposed product splits the rows into a fixed number of
chunks (independent of the number of threads), accumulates each chunk into
its own buffer and adds the buffers in a fixed order, so results are the
same bit for bit whatever ``NUMBA_NUM_THREADS`` is.
"""
import numba
import numpy as np

#: Number of partial-sum buffers of the transposed product (fixed for determinism).
N_CHUNKS = 4


@numba.njit(parallel=True, cache=True, nogil=True)
def rows_matvec(indptr, indices, data, rows, w, bias, out):
    """out[k] = X[rows[k]] . w + bias, for every k."""
    for k in numba.prange(rows.shape[0]):
        i = rows[k]
        s = 0.0
        for jj in range(indptr[i], indptr[i + 1]):
            s += data[jj] * w[indices[jj]]
        out[k] = s + bias


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
