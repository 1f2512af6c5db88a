"""CGLS for weighted regularized least squares (Table 2 of the spec paper).

Solves  [lambda I + X^T C X] beta = X^T C Y   (Eqn 5)
without forming X^T C X, seeded from a guess ``beta`` whose outputs
``o = X beta`` are passed in.  This is a plain function in the style of
``scipy.sparse.linalg.cg``: it returns the solution and an info record.
"""
from dataclasses import dataclass

import numpy as np


@dataclass
class CGLSInfo:
    """What one CGLS call did."""

    iterations: int
    converged: bool
    residual_norm: float


def cgls(op, rows, y, c, lam, beta, o, tol, max_iter, linear=None):
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
        ``X beta`` (outputs of the seed); not modified.
    tol : float
        epsilon: stop when ||r|| < epsilon ||z||.
    max_iter : int
        cgitermax.
    linear : float array (op.n_weights,) or None
        Optional vector v moved to the right-hand side:
        [lambda I + X^T C X] beta = X^T C Y - v (the minimizer of the
        weighted least squares plus v . beta).  The iteration is Table 2's,
        with v subtracted wherever the residual is formed.

    Returns
    -------
    beta, o, CGLSInfo
        The new solution, its outputs on ``rows``, and the info record
        (``converged`` is Table 2's ``optimality`` flag; a seed that
        already meets the test returns at once, converged, 0 iterations).
    """
    beta = beta.copy()
    o = o.copy()
    z = c * (y - o)
    r = _residual(op, rows, z, lam, beta, linear)
    p = r.copy()
    omega1 = r @ r
    # A seed that already meets the test (e.g. r = z = 0: all-zero rows, or
    # balanced labels on zero outputs) is the solution; iterating would
    # divide 0 by 0.
    converged = bool(omega1 <= tol * tol * (z @ z))
    it = 0
    if converged:
        return beta, o, CGLSInfo(it, converged, float(np.sqrt(omega1)))
    while it < max_iter:
        it += 1
        q = op.matvec(p, rows)
        cq = c * q
        gamma = omega1 / (lam * (p @ p) + q @ cq)
        beta += gamma * p
        o += gamma * q
        z -= gamma * cq
        omega2 = omega1
        r = _residual(op, rows, z, lam, beta, linear)
        omega1 = r @ r
        if omega1 < tol * tol * (z @ z):
            converged = True
            break
        p *= omega1 / omega2
        p += r
    return beta, o, CGLSInfo(it, converged, float(np.sqrt(omega1)))


def _residual(op, rows, z, lam, beta, linear):
    """r = X^T z - lambda beta (- v): the negative gradient of the quadratic (Table 2)."""
    r = op.rmatvec(z, rows)
    r -= lam * beta
    if linear is not None:
        r -= linear
    return r
