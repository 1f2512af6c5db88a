"""One worker's rows of X: the products and the CG pass of Table 2 on its partition.

A :class:`RowPartition` holds the contiguous rows ``[start, stop)`` of the
data matrix, read from its own shard files (:mod:`.shards`) or received
once; it lives in a worker process inside a :class:`PartitionHost` (the
body of a Ray actor, see :mod:`.ray_backend`).  Row numbers in calls are
local (0 = ``start``).  Both are plain classes, not tied to an engine.

Per CGLS solve (:func:`ssl_repro.solvers.engine.cgls.cgls`) the worker keeps its
share of the per-row state of Table 2 (active rows, costs C, outputs o,
residuals z) between iterations; an iteration receives only the direction
p and the previous step length gamma, and returns one vector of
``n_features + 5`` numbers (see :meth:`RowPartition.cg_step`).
"""
import numba
import numpy as np

from ssl_repro.solvers.engine._row_products import ONE, row_axpy, row_bounds, row_dot
from ssl_repro.solvers.engine.biased_rows import BiasedRows

#: Entries of a :meth:`RowPartition.cg_step` reply after X^T C q and its bias part.
STEP_SCALARS = ("qcq", "zcq", "cqcq", "zz")


class RowPartition:
    """Rows ``[start, stop)`` of X (CSR, no bias column) and the CG state of the current solve.

    Parameters
    ----------
    source : :class:`.shards.ShardRows` (read here, on the worker) or
        :class:`.shards.MatrixRows` (rows shipped once): ``load()`` gives the
        partition's CSR rows and the global number of its first row
    """

    def __init__(self, source):
        X, start = source.load()
        self.op = BiasedRows(X)
        self.start = start
        self.stop = start + self.op.n_rows
        self._cg = None

    def largest_entry(self):
        """max |x_ij| of the partition."""
        return self.op.largest_entry()

    def matvec(self, w, rows):
        """Outputs x_i . w + b of the local rows ``rows``."""
        return self.op.matvec(w, rows)

    def rmatvec(self, z, rows):
        """[X 1][rows]^T z of the local rows ``rows`` (``n_features + 1`` numbers)."""
        return self.op.rmatvec(z, rows)

    def cg_begin(self, rows, c, o, z):
        """Start a CGLS solve on the local active rows ``rows`` with costs c, outputs o, residuals z."""
        self._cg = _CGState(rows, c, o.copy(), z.copy())

    def cg_step(self, p, gamma):
        """Finish the previous iteration (o += gamma q, z -= gamma C q), then one pass for ``p``.

        Returns ``[X^T C q, sum C q, q.Cq, z.Cq, Cq.Cq, z.z]`` with q = [X 1] p
        on the active rows and z the residuals before this iteration's
        update: the driver sums the replies of all workers (the all-reduce)
        and gets gamma, the residual recurrence and the new z.z of Table 2
        (z.z - 2 gamma z.Cq + gamma^2 Cq.Cq) from them.
        """
        cg = self._cg
        cg.advance(gamma)
        X = self.op.X
        reply = np.empty(self.op.n_weights + len(STEP_SCALARS))
        reply[:self.op.n_features] = 0.0
        reply[self.op.n_features:] = _fused_pass(X.indptr, self.op.indices, X.data, cg.rows, cg.c, cg.z, p,
                                                 cg.q, reply[:self.op.n_features])
        return reply

    def cg_end(self, gamma):
        """Finish the last iteration and return (o, z) of the active rows; the solve's state is dropped."""
        cg, self._cg = self._cg, None
        cg.advance(gamma)
        return cg.o, cg.z


class StaleProblem(RuntimeError):
    """A call for a problem whose partitions a newer problem of the same backend replaced."""


class PartitionHost:
    """A worker process's slot for one :class:`RowPartition` at a time (the body of a Ray actor).

    The backend starts its hosts once and loads each new problem's rows into
    them under a new key; a call with an older key (a problem built before
    the current one on the same backend) is refused with
    :class:`StaleProblem` instead of running on the wrong rows.
    """

    def __init__(self, threads=1):
        numba.set_num_threads(threads)
        self.key = None
        self.partition = None

    def ready(self):
        """True once the process runs (the backend waits for this)."""
        return True

    def load(self, key, source):
        """Replace the held partition by the rows of ``source`` under ``key``; returns its row count."""
        self.partition = None
        self.partition = RowPartition(source)
        self.key = key
        return self.partition.op.n_rows

    def call(self, key, method, *args):
        """``method(*args)`` of the held partition, if it belongs to the problem ``key``."""
        if key != self.key:
            raise StaleProblem("this problem's rows were replaced on the workers by a newer problem of the same "
                               "backend (a backend holds one problem at a time): rebuild it, or use a second backend")
        return getattr(self.partition, method)(*args)


class _CGState:
    """Per-row state of one CGLS solve on a worker (Table 2: C, o, z and the last q)."""

    def __init__(self, rows, c, o, z):
        self.rows, self.c, self.o, self.z = rows, c, o, z
        self.q = np.empty(rows.shape[0])
        self.has_q = False

    def advance(self, gamma):
        """Apply the step gamma of the last pass: o += gamma q, z -= gamma C q."""
        if self.has_q:
            self.o += gamma * self.q
            self.z -= gamma * (self.c * self.q)
        self.has_q = True


@numba.njit(cache=True, nogil=True)
def _fused_pass(indptr, indices, data, rows, c, z, p, q, out):
    """q = [X 1][rows] p and out += X[rows]^T (C q) in one pass over the rows.

    Returns the array [sum C q, q.Cq, z.Cq, Cq.Cq, z.z] (the bias entry of
    X^T C q first, then the scalars of :meth:`RowPartition.cg_step`).
    """
    n_feat = out.shape[0]
    p_bias = p[n_feat]
    s_cq = 0.0
    qcq = 0.0
    zcq = 0.0
    cqcq = 0.0
    zz = 0.0
    kk = np.uint64(0)
    n = np.uint64(rows.shape[0])
    while kk < n:
        a, b = row_bounds(indptr, rows, kk)
        s = row_dot(indices, data, p, a, b) + p_bias
        q[kk] = s
        cq = c[kk] * s
        row_axpy(indices, data, cq, a, b, out)
        s_cq += cq
        qcq += s * cq
        zcq += z[kk] * cq
        cqcq += cq * cq
        zz += z[kk] * z[kk]
        kk += ONE
    return np.array([s_cq, qcq, zcq, cqcq, zz])
