"""The data matrix spread over workers by rows, behind the interface of :class:`~ssl_repro.solvers.BiasedRows`.

:class:`DistributedRows` answers what the solvers ask of X (``matvec``,
``rmatvec``, ``largest_entry``, ``cg_steps``) by calling the
:class:`.partition.RowPartition` of each worker (in a Ray actor): X stays on
the workers; per-row vectors (outputs o, labels, costs) stay on the driver
as vectors of length l + u, as in the single-process solvers, so MFN's
line search (Table 3), TSVM's switching (Table 4) and OPTIMIZE-P
(Table 6) run unchanged.

One CG iteration of Table 2 (:class:`DistributedCGSteps`) is one round
trip: p (n_features + 1 numbers) and the last gamma go to every worker,
each returns X_k^T C_k q_k and five scalars, the driver adds the replies
in worker order (the all-reduce) and updates beta, r and p.  The per-row
state of the solve (o, z, C) stays on the workers from the first
iteration to the end of the CGLS call.
"""
import numpy as np

from ssl_repro.distributed.partition import STEP_SCALARS


class WorkerLost(RuntimeError):
    """A worker holding a partition died; its rows and CG state are gone, so the solve stops."""


class DistributedRows:
    """Products with ``[X 1]`` whose rows ``bounds[k]:bounds[k+1]`` live on worker k.

    Parameters
    ----------
    workers : list of Ray actor handles of :class:`.partition.PartitionHost`
        holding the partitions under ``key``
    key : the problem's key on the hosts
    bounds : int array (n_workers + 1,), the row boundaries of the partitions
    n_features : number of columns of X (without the bias)
    """

    def __init__(self, workers, key, bounds, n_features):
        self.workers = list(workers)
        self.key = key
        self.bounds = np.asarray(bounds, dtype=np.int64)
        self.n_rows = int(self.bounds[-1])
        self.n_features = int(n_features)
        self.n_weights = self.n_features + 1
        self.matvec_calls = 0
        self.rmatvec_calls = 0

    def split(self, rows):
        """Per worker: (positions in ``rows`` of its rows, their local row numbers)."""
        owner = np.searchsorted(self.bounds, rows, side="right") - 1
        order = np.argsort(owner, kind="stable")
        ends = np.cumsum(np.bincount(owner, minlength=len(self.workers)))
        parts = []
        for k, (a, b) in enumerate(zip(np.r_[0, ends[:-1]], ends)):
            pos = order[a:b]
            parts.append((pos, rows[pos] - self.bounds[k]))
        return parts

    def call(self, method, per_worker_args):
        """``method`` of every worker's partition with its arguments, the replies in worker order."""
        return self.gather([wk.call.remote(self.key, method, *args)
                            for wk, args in zip(self.workers, per_worker_args)])

    def call_all(self, method, *args):
        """``method(*args)`` of every worker's partition (the same arguments)."""
        return self.call(method, [args] * len(self.workers))

    @staticmethod
    def gather(futures):
        """``ray.get`` of one call per worker, a dead worker named."""
        import ray
        try:
            return ray.get(futures)
        except ray.exceptions.RayActorError as err:
            raise WorkerLost(f"a worker of the distributed backend died ({err}); its rows of X and the "
                             "CG state are lost, so this solve cannot finish: start the job again") from err

    def matvec(self, w, rows):
        """Outputs ``x_i . w[:-1] + w[-1]`` of the (global) rows ``rows``."""
        import ray
        parts = self.split(rows)
        w_ref = ray.put(w)
        replies = self.call("matvec", [(w_ref, local) for _, local in parts])
        out = np.empty(rows.shape[0])
        for (pos, _), reply in zip(parts, replies):
            out[pos] = reply
        self.matvec_calls += 1
        return out

    def rmatvec(self, z, rows):
        """``[X 1][rows]^T z``, the workers' parts added in worker order."""
        parts = self.split(rows)
        replies = self.call("rmatvec", [(z[pos], local) for pos, local in parts])
        self.rmatvec_calls += 1
        return _ordered_sum(replies)

    def matvec_beside(self, w, rows, known, values):
        """:meth:`matvec` of ``rows`` where the outputs at the positions ``known`` are ``values``
        already: only the other rows go to the workers."""
        out = np.empty(rows.shape[0])
        out[known] = values
        rest = np.setdiff1d(np.arange(rows.shape[0]), known, assume_unique=True)
        if rest.size:
            out[rest] = self.matvec(w, rows[rest])
        return out

    def largest_entry(self):
        """max |x_ij| over every partition."""
        return max(self.call_all("largest_entry"))

    def cg_steps(self, rows, c, lam, tol):
        """The distributed CG iterations of :func:`ssl_repro.solvers.engine.cgls.cgls` on ``rows``."""
        return DistributedCGSteps(self, rows, c, lam, tol)


def _ordered_sum(replies):
    """Sum of the workers' vectors in worker order (the same bits for the same partitioning)."""
    total = np.array(replies[0], dtype=np.float64)
    for reply in replies[1:]:
        total += reply
    return total


class DistributedCGSteps:
    """CG iterations of Table 2 with X on the workers (the interface of :class:`~ssl_repro.solvers.engine.cgls.CGSteps`).

    :meth:`run` sends the active rows, costs, o and z to the workers on its
    first call of a solve; :meth:`outputs` fetches o and z back and ends
    the workers' part of the solve.  Each iteration: p and the previous
    gamma out, X^T C q and (sum C q, q.Cq, z.Cq, Cq.Cq, z.z) back; gamma =
    omega1 / (lambda p.p + q.Cq), beta += gamma p, r -= gamma (X^T C q +
    lambda p) (the recurrence of :mod:`ssl_repro.solvers.engine._cg_pass`),
    z.z of the new z = z.z - 2 gamma z.Cq + gamma^2 Cq.Cq.  When the
    recurrence meets ||r|| < epsilon ||z|| it returns and cgls decides on
    the exact residual.
    """

    def __init__(self, op, rows, c, lam, tol):
        self.op = op
        self.parts = op.split(rows)
        self.c = c
        self.lam = float(lam)
        self.tol2 = float(tol) * float(tol)
        self.gamma = 0.0
        self.started = False

    def run(self, beta, o, z, r, p, cg_scalars, n_steps):
        """Up to ``n_steps`` iterations (beta, r, p, cg_scalars in place); (iterations, whether the
        recurrence met the test)."""
        import ray
        op, lam = self.op, self.lam
        if not self.started:
            op.call("cg_begin", [(local, self.c[pos], o[pos], z[pos]) for pos, local in self.parts])
            self.started, self.gamma = True, 0.0
        omega1, pp, zz, omega2 = cg_scalars
        n_w = op.n_weights
        steps, met = 0, False
        while steps < n_steps:
            p_ref = ray.put(p)
            total = _ordered_sum(op.call_all("cg_step", p_ref, self.gamma))
            qcq, zcq, cqcq, zz_now = total[n_w:n_w + len(STEP_SCALARS)]
            gamma = omega1 / (lam * pp + qcq)
            beta += gamma * p
            r -= gamma * (total[:n_w] + lam * p)
            omega2, omega1 = omega1, r @ r
            zz = zz_now - 2.0 * gamma * zcq + gamma * gamma * cqcq
            self.gamma = gamma
            steps += 1
            if omega1 < self.tol2 * zz:
                met = True
                break
            reduction = omega1 / omega2
            p *= reduction
            p += r
            pp = p @ p
        cg_scalars[:] = omega1, pp, zz, omega2
        return steps, met

    def outputs(self, o, z):
        """Fetch o and z of the active rows from the workers into ``o`` and ``z``."""
        if not self.started:
            return
        replies = self.op.call_all("cg_end", self.gamma)
        for (pos, _), (o_k, z_k) in zip(self.parts, replies):
            o[pos] = o_k
            z[pos] = z_k
        self.started = False
