"""Modified finite Newton L2-SVM (L2-SVM-MFN, Table 1 of the spec paper).

Minimizes the weighted squared-hinge objective of a :class:`SquaredHingeLoss`
by alternating CGLS solves of the Newton system on the active set (Eqn 4,
Table 2) with exact line searches (Table 3), seeded from the previous
solution when one is given.  The loss is used through its methods only
(origin, outputs, active system, optimality test; the line search through
its pieces of phi').
"""
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ssl_repro.solvers.engine.cgls import cgls
from ssl_repro.solvers.engine.line_search import line_search

#: Cold start: first CGLS with a crude tolerance and few iterations (Table 1).
COLD_TOL, COLD_MAX_ITER = 1e-2, 10
#: Tolerance and iteration cap of the CGLS solves once a guess exists (Table 1).
TOL, MAX_CG_ITER = 1e-6, 10_000
#: Maximum number of Newton iterations (Table 1).
MAX_NEWTON_ITER = 50


class NewtonState(NamedTuple):
    """The last Newton system of a converged call and its CGLS record, at the returned w.

    Passed to the next call (``previous``), it gives that call's first
    residual without a pass over X when the new loss differs from the old
    one in a few rows' labels or costs (TSVM's switches): see :func:`_next_system`.
    """

    system: object
    cg: object


@dataclass
class MFNInfo:
    """What one L2-SVM-MFN call did."""

    newton_iterations: int = 0
    cg_iterations: int = 0
    converged: bool = False
    #: "tolerance" (Table 1's optimality test met) or "max_newton_iter".
    stop_reason: str = "max_newton_iter"
    #: when converged and asked for (``keep_state``): the :class:`NewtonState` at the returned w
    state: NewtonState | None = field(default=None, compare=False, repr=False)


def l2svm_mfn(loss, w=None, o=None, tau=1e-6, max_newton_iter=MAX_NEWTON_ITER, previous=None,
              keep_state=False, cg_tol=TOL):
    """Minimize ``loss`` (Eqn 2) by L2-SVM-MFN (Table 1).

    Parameters
    ----------
    loss : SquaredHingeLoss
    w : weights to seed from (``n_features + 1`` with the bias last), or
        ``None`` for the cold start w = 0 (crude first CGLS, Table 1).
    o : outputs of the seed on the loss's distinct rows (computed if omitted).
    tau : optimality tolerance on the margins (Table 1: 1e-6, Table 7: 1e-8).
    previous : NewtonState or None
        ``info.state`` of the call that returned this ``w`` and ``o``, on a
        loss with the same rows, lambda and linear term (labels and costs
        may differ): its first Newton system then starts from a known
        residual.
    keep_state : bool
        Set ``info.state`` on convergence (for a following call's
        ``previous``); off by default, so callers that do not pass it on do
        not hold the last system's arrays.
    cg_tol : float
        CGLS's epsilon once a guess exists (Table 1: 1e-6, :data:`TOL`).
        DA's w-steps between two belief updates may pass a looser one
        (``inner_cg_tol`` of :func:`ssl_repro.solvers.annealing.deterministic_annealing`).

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
        tol, max_cg = cg_tol, MAX_CG_ITER
    info = MFNInfo()
    if previous is None:
        system, residual = loss.active_system(o), None
    else:
        system, residual = _next_system(loss, previous.system, previous.cg, 1.0, o)
    while info.newton_iterations < max_newton_iter:
        info.newton_iterations += 1
        w_bar, o_bar, cg = _newton_point(loss, system, w, o, tol, max_cg, residual)
        info.cg_iterations += cg.iterations
        max_cg = MAX_CG_ITER
        if cg.converged and loss.optimal(o_bar, system.active, tau):
            if tol == cg_tol:
                w, o = w_bar, o_bar
                info.converged, info.stop_reason = True, "tolerance"
                if keep_state:
                    info.state = NewtonState(_residual_inputs(system), cg)
                break
            delta, w, o = 1.0, w_bar, o_bar
            tol = cg_tol
        else:
            delta = line_search(loss, w, w_bar, o, o_bar)
            w = w + delta * (w_bar - w)
            o = _step_outputs(o, o_bar, delta)
        del o_bar
        system = _residual_inputs(system)        # the old rows and mask freed before the new ones exist
        system, residual = _next_system(loss, system, cg, delta, o)
    return w, o, info


def _step_outputs(o, o_bar, delta):
    """o + delta (o_bar - o), computed in ``o_bar`` (a fresh array, not needed after): the same
    operations as the expression, so the same bits, without its two temporaries of one float per
    row (they made DA's peak memory at full-ccat size)."""
    np.subtract(o_bar, o, out=o_bar)
    o_bar *= delta
    o_bar += o
    return o_bar


def _newton_point(loss, system, w, o, tol, max_cg, residual):
    """w_bar solving the Newton system ``system`` on the active set j(w) by CGLS (Eqn 4, Table 2).

    ``residual`` is the system's residual at w if known (else CGLS forms
    it).  Returns (w_bar, its outputs on every distinct row of ``loss``,
    CGLSInfo).
    """
    pos = system.positions
    w_bar, o_bar_act, cg = cgls(system.op, system.rows, system.target, system.cost, system.lam, w, o[pos],
                                tol, max_cg, system.linear, residual, overwrite_o=True)
    return w_bar, loss.outputs_beside(w_bar, pos, o_bar_act), cg


def _next_system(loss, system, cg, delta, o):
    """The Newton system at the new point w + delta (w_bar - w) (outputs ``o``) and its residual.

    ``system`` is the old system as :func:`_residual_inputs` leaves it.

    Table 2's residual r(beta) = X^T C (Y - X beta) - lambda beta - v is
    affine in beta for a fixed system, so at the new point it is
    (1 - delta) r(w) + delta r(w_bar), both known from CGLS; the new active
    system differs from the old one only in the rows whose cost or target
    changed, whose part :meth:`.loss.SquaredHingeLoss.residual_change` adds.
    This replaces a pass over every active row by one over the changed
    rows.  ``None`` (CGLS forms the residual) when CGLS ended on its cap.
    """
    seed, solution = cg.seed_residual, cg.residual
    new = loss.active_system(o)
    if solution is None:
        return new, None
    residual = (1.0 - delta) * seed + delta * solution
    residual += loss.residual_change(system, new, o)
    return new, residual


def _residual_inputs(system):
    """The system without what :meth:`.loss.SquaredHingeLoss.residual_change` does not read
    (its row indices and pseudo-row mask), so that those can be freed."""
    return system._replace(rows=None, active=None)
