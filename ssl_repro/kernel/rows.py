"""Kernel rows on demand for the SMO solver of :mod:`ssl_repro.kernel.smo` (002, Sec. 3).

002 solves each CCCP step with "a state-of-the-art SMO implementation",
which touches the kernel matrix one row at a time; so no n x n Gram
matrix is built here.  A row K(x_d, .) over the n training rows is
computed from the CSR data (sparse text or dense rows alike: one scatter
of x_d into a dense work vector, then one sparse dot product per row) and
kept in a cache of ``cache_rows`` rows, the least recently used one
replaced first (libsvm's policy).  Kernels: ``"linear"`` x.z and
``"rbf"`` exp(-gamma ||x - z||^2) (002 Sec. 4's exp(-gamma ||x - x'||^2)).

:func:`cache_rows_for` turns a byte budget into a number of rows and
refuses, before anything is allocated, a budget that does not hold two
rows (one SMO step needs two) or that exceeds the memory available.
"""
import numba
import numpy as np

from ssl_repro.solvers.engine.data_checks import available_memory_bytes

LINEAR, RBF = 0, 1
KERNELS = {"linear": LINEAR, "rbf": RBF}

#: Bytes of the row cache by default (libsvm's default cache is 100 MB; 256 MiB holds every row
#: of a problem of up to 5,792 rows, and 2,485 rows of a 13,500-row one).
CACHE_BYTES = 256 * 2**20


def cache_rows_for(n_rows, cache_bytes, what):
    """Rows of ``n_rows`` float64 the cache of ``cache_bytes`` holds (at most ``n_rows``); a
    ValueError naming rows, bytes and the limit when fewer than 2 fit or when the cache would
    exceed the memory available (:func:`~ssl_repro.solvers.engine.data_checks.available_memory_bytes`)."""
    row_bytes = 8 * n_rows
    rows = int(min(n_rows, cache_bytes // row_bytes))
    if rows < 2:
        raise ValueError(f"{what}: a kernel-row cache of {cache_bytes:,} bytes holds {rows} row(s) of "
                         f"{n_rows:,} float64 ({row_bytes:,} bytes each); SMO needs 2: raise cache_bytes to at "
                         f"least {2 * row_bytes:,}")
    need, have = rows * row_bytes, available_memory_bytes()
    if have is not None and need > have:
        raise ValueError(f"{what}: the kernel-row cache of {rows:,} rows x {n_rows:,} float64 needs "
                         f"{need:,} bytes, more than the {have:,} bytes of memory available: lower "
                         f"cache_bytes (now {cache_bytes:,}) or use fewer rows")
    return rows


class RowCache:
    """The arrays of a least-recently-used cache of kernel rows over the CSR matrix ``X``
    (passed to the compiled solver as they are; :func:`kernel_row` fills and reads them)."""

    def __init__(self, X, kernel, gamma, n_slots):
        self.X = X
        self.indptr, self.indices, self.data = X.indptr.astype(np.int64), X.indices.astype(np.int64), X.data
        self.sq = np.asarray(X.multiply(X).sum(axis=1), dtype=np.float64).ravel()
        self.kernel, self.gamma = KERNELS[kernel], float(gamma)
        self.rows = np.empty((n_slots, X.shape[0]))
        self.slot_of = np.full(X.shape[0], -1, dtype=np.int64)
        self.row_in = np.full(n_slots, -1, dtype=np.int64)
        self.used = np.zeros(n_slots, dtype=np.int64)
        self.work = np.zeros(X.shape[1])
        self.counts = np.zeros(3, dtype=np.int64)   # clock, kernel evaluations, row computations

    def arrays(self):
        return (self.indptr, self.indices, self.data, self.sq, self.kernel, self.gamma, self.rows,
                self.slot_of, self.row_in, self.used, self.work, self.counts)

    def diagonal(self):
        """K(x_d, x_d) for every row."""
        return np.ones_like(self.sq) if self.kernel == RBF else self.sq.copy()

    def row(self, d):
        """K(x_d, .) (a copy), through the cache."""
        return kernel_row(d, *self.arrays()).copy()

    def mean_row(self, members):
        """(1/|members|) sum_{m in members} K(x_m, .): the row of 002's extra example x_0 (Eqn 10),
        computed exactly: for the linear kernel as X . mean(x_m); for the RBF kernel one row per
        member (not cached: each is used once)."""
        if self.kernel == LINEAR:
            self.counts[1] += self.sq.size
            return np.asarray(self.X @ np.asarray(self.X[members].mean(axis=0)).ravel(), dtype=np.float64)
        out = np.zeros(self.sq.size)
        mean_kernel_row(np.asarray(members, dtype=np.int64), out, *self.arrays())
        return out


@numba.njit(cache=True, nogil=True)
def compute_row(d, out, indptr, indices, data, sq, kernel, gamma, work, counts):
    """out[e] = K(x_d, x_e) for every row e (scatter x_d into ``work``, one dot per row)."""
    for jj in range(indptr[d], indptr[d + 1]):
        work[indices[jj]] = data[jj]
    for e in range(out.shape[0]):
        s = 0.0
        for jj in range(indptr[e], indptr[e + 1]):
            s += data[jj] * work[indices[jj]]
        if kernel == 1:
            s = np.exp(-gamma * max(sq[d] + sq[e] - 2.0 * s, 0.0))
        out[e] = s
    for jj in range(indptr[d], indptr[d + 1]):
        work[indices[jj]] = 0.0
    counts[1] += out.shape[0]
    counts[2] += 1


@numba.njit(cache=True, nogil=True)
def kernel_row(d, indptr, indices, data, sq, kernel, gamma, rows, slot_of, row_in, used, work, counts):
    """The cached row K(x_d, .), computed into the least recently used slot when absent."""
    counts[0] += 1
    slot = slot_of[d]
    if slot < 0:
        slot = np.argmin(used)
        if row_in[slot] >= 0:
            slot_of[row_in[slot]] = -1
        row_in[slot] = d
        slot_of[d] = slot
        compute_row(d, rows[slot], indptr, indices, data, sq, kernel, gamma, work, counts)
    used[slot] = counts[0]
    return rows[slot]


@numba.njit(cache=True, nogil=True)
def mean_kernel_row(members, out, indptr, indices, data, sq, kernel, gamma, rows, slot_of, row_in, used, work,
                    counts):
    """out = mean over ``members`` of K(x_m, .), computed row by row into a scratch row."""
    scratch = np.empty(out.shape[0])
    for m in members:
        compute_row(m, scratch, indptr, indices, data, sq, kernel, gamma, work, counts)
        out += scratch
    out /= members.shape[0]
