"""CGLS for weighted regularized least squares (Table 2 of the spec paper).

Solves  [lambda I + X^T C X] beta = X^T C Y   (Eqn 5)
without forming X^T C X, seeded from a guess ``beta`` whose outputs
``o = X beta`` are passed in.  This is a plain function in the style of
``scipy.sparse.linalg.cg``: it returns the solution and an info record.

The iterations run in compiled code (:mod:`._cg_pass`), BLOCK at a time,
with ONE pass over the active rows per iteration: q = X p and X^T (C q)
together, the residual r = X^T z - lambda beta following the recurrence
r -= gamma (X^T C q + lambda p) instead of a second pass.  Table 2's
quantities are otherwise unchanged (z, o, beta, p, omega, the test
||r|| < epsilon ||z||).  Soundness of the stop: only the exact residual
r = X^T z - lambda beta - v may stop the loop.  When the recurrence meets
the test, r is recomputed (one transposed product); if the exact residual
does not meet it, CG goes on from it (residual replacement).  On text20k
and kdd99-10 the two agree to 4e-5 relative or better; J equals the
reference's to 1e-6 relative.
"""
from dataclasses import dataclass, field

import numba
import numpy as np

from ssl_repro.solvers.engine._cg_pass import cg_steps_parallel, cg_steps_serial, chunk_bounds
from ssl_repro.solvers.engine.cg_layout import group_rows
from ssl_repro.solvers.engine._row_products import N_CHUNKS
from ssl_repro.solvers.engine._threads import refresh_threads

#: CG iterations per call of the compiled loop; between calls the idle
#: cores are re-evaluated (:func:`._threads.refresh_threads`).
BLOCK = 16


@dataclass
class CGLSInfo:
    """What one CGLS call did.

    ``seed_residual`` is r = X^T C (Y - o) - lambda beta - v at the seed and
    ``residual`` the exact r at the solution (``None`` when CGLS stopped on
    its cap, where only the recurrence's r is known): since r is affine in
    beta, L2-SVM-MFN gets the residual at any point between the two without
    a pass over X (:func:`.mfn.l2svm_mfn`).
    """

    iterations: int
    converged: bool
    residual_norm: float
    seed_residual: np.ndarray | None = field(default=None, compare=False, repr=False)
    residual: np.ndarray | None = field(default=None, compare=False, repr=False)


def cgls(op, rows, y, c, lam, beta, o, tol, max_iter, linear=None, residual=None, overwrite_o=False):
    """Run Table 2 from the seed ``beta``.

    Parameters
    ----------
    op : BiasedRows
        Data matrix with bias column.
    rows : int64 array
        Rows of ``op`` forming X (the active set).
    y, c : float arrays, one entry per row in ``rows``
        Targets Y and costs C.
    lam : float
        lambda > 0.
    beta : float array (op.n_weights,)
        Seed; not modified.
    o : float array, one entry per row in ``rows``
        ``X beta`` (outputs of the seed); not modified unless
        ``overwrite_o``.
    tol : float
        epsilon: stop when ||r|| < epsilon ||z||.
    max_iter : int
        cgitermax.
    linear : float array (op.n_weights,) or None
        Optional vector v moved to the right-hand side:
        [lambda I + X^T C X] beta = X^T C Y - v (the minimizer of the
        weighted least squares plus v . beta).  The iteration is Table 2's,
        with v subtracted wherever the residual is formed.
    residual : float array (op.n_weights,) or None
        r = X^T C (Y - o) - lambda beta - v at the seed, when the caller
        has it (saves the pass over X that forms it); not modified.  Only
        the starting direction depends on it: convergence is still decided
        on the exact residual of the iterate.
    overwrite_o : bool
        Update ``o`` in place and return it (as ``scipy.linalg``'s
        ``overwrite_b``): spares a copy of one float per active row, for
        callers that pass a fresh array.

    Returns
    -------
    beta, o, CGLSInfo
        The new solution, its outputs on ``rows``, and the info record
        (``converged`` is Table 2's ``optimality`` flag; a seed that
        already meets the test returns at once, converged, 0 iterations).
    """
    beta = beta.copy()
    if not overwrite_o:
        o = o.copy()
    z = c * (y - o)
    seed_residual = _residual(op, rows, z, lam, beta, linear) if residual is None else residual
    r = seed_residual.copy()
    p = seed_residual.copy()
    omega1 = r @ r
    # A seed that already meets the test (e.g. r = z = 0: all-zero rows, or
    # balanced labels on zero outputs) is the solution; iterating would
    # divide 0 by 0.
    converged = bool(omega1 <= tol * tol * (z @ z))
    it = 0
    if converged:
        return beta, o, CGLSInfo(it, converged, float(np.sqrt(omega1)), seed_residual, seed_residual)
    steps = op.cg_steps(rows, c, lam, tol)
    cg_scalars = np.array([omega1, omega1, z @ z, omega1])
    while it < max_iter:
        done_steps, met = steps.run(beta, o, z, r, p, cg_scalars, min(BLOCK, max_iter - it))
        it += done_steps
        omega1 = cg_scalars[0]
        if not met:
            continue
        # the exact residual decides convergence (residual replacement if it disagrees)
        steps.outputs(o, z)
        r = _residual(op, rows, z, lam, beta, linear)
        exact = r @ r
        # (or numerically 0: below the smallest normal double, where the relative test with z = 0 never holds)
        if exact < tol * tol * cg_scalars[2] or exact < np.finfo(np.float64).tiny:
            omega1, converged = exact, True
            break
        p *= exact / cg_scalars[3] if cg_scalars[3] > 0 else 0.0     # 0: the last r.r underflowed; restart at r
        p += r
        cg_scalars[:] = exact, p @ p, cg_scalars[2], exact
        omega1 = exact
    steps.outputs(o, z)
    return beta, o, CGLSInfo(it, converged, float(np.sqrt(omega1)), seed_residual, r if converged else None)


def _residual(op, rows, z, lam, beta, linear):
    """r = X^T z - lambda beta (- v): the negative gradient of the quadratic (Table 2)."""
    r = op.rmatvec(z, rows)
    r -= lam * beta
    if linear is not None:
        r -= linear
    return r


class CGSteps:
    """The compiled CG iterations (:mod:`._cg_pass`) for one active system.

    Holds the chunking of the active rows and the scratch arrays; :meth:`run`
    picks the serial or the parallel build from numba's current thread
    count (same results either way).  The pass reads X as its
    :class:`.cg_layout.CGLayout` says: identical active rows once with
    their costs added, through the compact column ids where there are some.
    :meth:`.biased_rows.BiasedRows.cg_steps` makes it; a distributed
    operator makes its own stepper with the same two methods
    (:class:`ssl_repro.distributed.distributed_rows.DistributedCGSteps`).
    """

    def __init__(self, op, rows, c, lam, tol):
        X = op.X
        layout = op.cg_layout()
        if layout.first_identical is None:
            distinct, cost, slot = rows, c, np.empty(0, np.int64)
        else:
            distinct, cost, slot = group_rows(rows, c, layout.first_identical, layout.slot_of_row)
        self.args = (X.indptr, layout.indices, X.data, distinct, cost, slot, c, layout.new_id, float(lam),
                     chunk_bounds(X.indptr, distinct, N_CHUNKS), np.zeros((N_CHUNKS, op.n_features)),
                     np.empty(op.n_features))
        self.q = np.empty(distinct.shape[0])
        self.part = np.empty((N_CHUNKS, 4))
        self.tol2 = float(tol) * float(tol)

    def run(self, beta, o, z, r, p, cg_scalars, n_steps):
        """Up to ``n_steps`` iterations in place; (iterations, whether the recurrence met the test)."""
        refresh_threads()
        kernel = cg_steps_parallel if numba.get_num_threads() > 1 else cg_steps_serial
        return kernel(*self.args, beta, o, z, r, p, self.q, self.part, cg_scalars, self.tol2, n_steps)

    def outputs(self, o, z):
        """Bring the caller's o and z up to date: :meth:`run` updates them in place, so nothing to do
        (a distributed stepper keeps them on its workers between calls and fetches them here)."""
