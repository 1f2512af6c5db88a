"""Compiled loops (numba) for products of a row subset of a CSR matrix with a vector.

These are the only places where the data matrix is touched inside the CG
loops (Table 2 of the spec paper: "The data matrix X is only involved in the
computations through matrix vector multiplication").  They take the CSR
arrays plus an index array of the rows in play, so the active set of
L2-SVM-MFN never has to be sliced out of the matrix.

Every index used inside a loop over nonzeros is unsigned: the column
indices come in as an unsigned view of the CSR ``indices`` (no copy; CSR
indices are >= 0) and positions are ``uint64`` (:data:`ONE` steps them),
which spares numba's negative-index wraparound test on every access
(measured, fused pass on one core: text20k 2.55 -> 2.0 ms, kdd99-10
12.1 -> 8.3 ms).  Row dot products use four partial sums (:func:`row_dot`)
so that the floating-point additions of a row do not form one chain of
dependent operations (text20k, one core: 1.3 ms per product instead of
2.1 ms).

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
N_CHUNKS = max(2, os.cpu_count() or 1)


#: Unsigned steps for positions (numba turns uint64 + int into float64).
ONE, TWO, THREE, FOUR = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)


@numba.njit(inline="always", nogil=True)
def row_bounds(indptr, rows, kk):
    """Positions [a, b) of the nonzeros of row ``rows[kk]``, as uint64."""
    i = np.uint64(rows[kk])
    return np.uint64(indptr[i]), np.uint64(indptr[i + ONE])


@numba.njit(inline="always", nogil=True)
def row_dot(indices, data, w, a, b):
    """sum_{jj in [a, b)} data[jj] w[indices[jj]] (a, b uint64), in four interleaved partial sums."""
    s0 = 0.0
    s1 = 0.0
    s2 = 0.0
    s3 = 0.0
    jj = a
    while jj + FOUR <= b:
        s0 += data[jj] * w[indices[jj]]
        s1 += data[jj + ONE] * w[indices[jj + ONE]]
        s2 += data[jj + TWO] * w[indices[jj + TWO]]
        s3 += data[jj + THREE] * w[indices[jj + THREE]]
        jj += FOUR
    while jj < b:
        s0 += data[jj] * w[indices[jj]]
        jj += ONE
    return (s0 + s1) + (s2 + s3)


@numba.njit(inline="always", nogil=True)
def row_axpy(indices, data, v, a, b, out):
    """out[indices[jj]] += data[jj] v for jj in [a, b) (a, b uint64)."""
    jj = a
    while jj < b:
        out[indices[jj]] += data[jj] * v
        jj += ONE


def unsigned_indices(X):
    """The CSR column indices viewed as unsigned integers of the same width (no copy)."""
    return X.indices.view(np.uint32 if X.indices.dtype == np.int32 else np.uint64)


@numba.njit(cache=True, nogil=True)
def renumber(w, new_id, out):
    """out[new_id[j]] = w[j] for every j < new_id.shape[0] (a weight vector in the numbering of
    :class:`.cg_layout.CGLayout`'s column ids)."""
    for j in range(new_id.shape[0]):
        out[new_id[j]] = w[j]


@numba.njit(parallel=True, cache=True, nogil=True)
def rows_matvec(indptr, indices, data, rows, w, bias, out):
    """out[k] = X[rows[k]] . w + bias, for every k."""
    for k in numba.prange(rows.shape[0]):
        a, b = row_bounds(indptr, rows, k)
        out[k] = row_dot(indices, data, w, a, b) + bias


@numba.njit(parallel=True, cache=True, nogil=True)
def rows_matvec_beside(indptr, indices, data, rows, known, values, w, bias, out):
    """out[k] = X[rows[k]] . w + bias, except at the ascending positions ``known``, which get ``values``.

    Row blocks run in parallel; each finds its first known position by bisection.
    """
    n = rows.shape[0]
    n_blocks = max(N_CHUNKS, 1)
    for block in numba.prange(n_blocks):
        lo, hi = block * n // n_blocks, (block + 1) * n // n_blocks
        k = np.searchsorted(known, lo)
        for kk in range(lo, hi):
            if k < known.shape[0] and known[k] == kk:
                out[kk] = values[k]
                k += 1
            else:
                a, b = row_bounds(indptr, rows, kk)
                out[kk] = row_dot(indices, data, w, a, b) + bias


@numba.njit(parallel=True, cache=True, nogil=True)
def rows_rmatvec(indptr, indices, data, rows, z, new_id, buffers, out):
    """out = X[rows].T @ z, using ``buffers`` (N_CHUNKS x n_cols) as scratch.

    The column ids ``indices`` number feature j ``new_id[j]`` (see
    :class:`.cg_layout.CGLayout`): the buffers are filled in that numbering
    and read back through ``new_id``, so each out[j] is the same sum, in
    the same order, whatever the numbering.
    """
    n_chunks, n_cols = buffers.shape
    n = rows.shape[0]
    for c in numba.prange(n_chunks):
        buf = buffers[c]
        buf[:] = 0.0
        for k in range(c * n // n_chunks, (c + 1) * n // n_chunks):
            zk = z[k]
            if zk != 0.0:
                a, b = row_bounds(indptr, rows, k)
                row_axpy(indices, data, zk, a, b, buf)
    for j in numba.prange(n_cols):
        jn = new_id[j]
        s = 0.0
        for c in range(n_chunks):
            s += buffers[c, jn]
        out[j] = s
