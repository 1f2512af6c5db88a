"""Modified finite Newton L2-SVM (L2-SVM-MFN, Table 1 of the spec paper).

Minimizes the weighted squared-hinge objective of a :class:`SquaredHingeLoss`
by alternating CGLS solves of the Newton system on the active set (Eqn 4,
Table 2) with exact line searches (Table 3), seeded from the previous
solution when one is given.  The loss is used through its methods only
(origin, outputs, active system, optimality test; the line search through
its pieces of phi').
"""
from dataclasses import dataclass

import numpy as np

from .cgls import cgls
from .line_search import line_search

#: Cold start: first CGLS with a crude tolerance and few iterations (Table 1).
COLD_TOL, COLD_MAX_ITER = 1e-2, 10
#: Tolerance and iteration cap of the CGLS solves once a guess exists (Table 1).
TOL, MAX_CG_ITER = 1e-6, 10_000
#: Maximum number of Newton iterations (Table 1).
MAX_NEWTON_ITER = 50


@dataclass
class MFNInfo:
    """What one L2-SVM-MFN call did."""

    newton_iterations: int = 0
    cg_iterations: int = 0
    converged: bool = False
    #: "tolerance" (Table 1's optimality test met) or "max_newton_iter".
    stop_reason: str = "max_newton_iter"


def l2svm_mfn(loss, w=None, o=None, tau=1e-6, max_newton_iter=MAX_NEWTON_ITER):
    """Minimize ``loss`` (Eqn 2) by L2-SVM-MFN (Table 1).

    Parameters
    ----------
    loss : SquaredHingeLoss
    w : weights to seed from (``n_features + 1`` with the bias last), or
        ``None`` for the cold start w = 0 (crude first CGLS, Table 1).
    o : outputs of the seed on the loss's distinct rows (computed if omitted).
    tau : optimality tolerance on the margins (Table 1: 1e-6, Table 7: 1e-8).

    Returns
    -------
    w, o, MFNInfo
        Minimizer, its outputs on the loss's distinct rows, and the counters.

    Notes
    -----
    When the crude cold-start solve already satisfies the optimality
    conditions, Table 1 tightens epsilon and repeats the CGLS solve from the
    old ``w``; we continue from the crude solution instead (it minimizes the
    same quadratic on the same active set, so it is no worse), which saves a
    solve and reaches the same optimum.
    """
    if w is None:
        w, o = loss.origin()
        tol, max_cg = COLD_TOL, COLD_MAX_ITER
    else:
        if o is None:
            o = loss.outputs(w)
        tol, max_cg = TOL, MAX_CG_ITER
    info = MFNInfo()
    while info.newton_iterations < max_newton_iter:
        info.newton_iterations += 1
        w_bar, o_bar, act, cg = _newton_point(loss, w, o, tol, max_cg)
        info.cg_iterations += cg.iterations
        max_cg = MAX_CG_ITER
        if cg.converged and loss.optimal(o_bar, act, tau):
            w, o = w_bar, o_bar
            if tol == TOL:
                info.converged, info.stop_reason = True, "tolerance"
                break
            tol = TOL
            continue
        delta = line_search(loss, w, w_bar, o, o_bar)
        w = w + delta * (w_bar - w)
        o = o + delta * (o_bar - o)
    return w, o, info


def _newton_point(loss, w, o, tol, max_cg):
    """w_bar solving the Newton system on the active set j(w) by CGLS (Eqn 4, Table 2).

    Returns (w_bar, its outputs on every distinct row of ``loss``, the active
    pseudo-row mask, CGLSInfo); the system's arrays are freed on return,
    before the line search allocates its own.
    """
    system = loss.active_system(o)
    pos = system.positions
    w_bar, o_bar_act, cg = cgls(system.op, system.rows, system.target, system.cost, system.lam, w, o[pos],
                                tol, max_cg, system.linear)
    o_bar = np.empty_like(o)
    o_bar[pos] = o_bar_act
    rest = np.ones(o.shape[0], dtype=bool)
    rest[pos] = False
    rest_pos = np.flatnonzero(rest)
    if rest_pos.size:
        o_bar[rest_pos] = loss.outputs(w_bar, rest_pos)
    return w_bar, o_bar, system.active, cg
