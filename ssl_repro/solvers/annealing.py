"""Deterministic annealing (the tech report's mean field annealing, MFA/DA).

Tables 5-7 of the spec paper.  For a decreasing temperature T, alternate
OPTIMIZE-P (:func:`.balance.optimize_p`) and OPTIMIZE-W (L2-SVM-MFN on the
labeled rows plus every unlabeled row ONCE, with the effective label and
cost of Eqn 14) until the KL divergence between successive p falls below
u*eps (Eqn 16); lower T until the beliefs have settled (Eqn 17, read as
below).  The transductive objective J(w) (Eqn 18) is tracked along the
path and the weights with its lowest value are returned.  A fixed-temperature mode (no
annealing) serves the paper's ablation (Figs 12-13 of the tech report).
Temperatures (T0, fixed_temperature) are in units of lambda' (see
:func:`deterministic_annealing`).

Stopping rule (Eqn 17), a decision: DA stops when the beliefs of the
last OPTIMIZE-P, moved to the nearest integer mass sum p = floor(r*u) or
ceil(r*u), kept within [1, u - 1] (same outputs, same T, another root nu), have entropy at most
u*eps (:func:`.balance.unsettled_entropy`).  The papers stop on
H(p) <= u*eps, meaning "until p is (nearly) 0/1"; when r*u is not an
integer no p with sum p = r*u is 0/1 (one unit of mass stays split, so
H(p) >= h(f), f the fractional part of r*u, up to log 2 = 0.69) and the
papers' threshold (0.02 for u = 19,900) is never met: DA would always run
its 30 temperatures and end on its cap.  The rule above is the papers'
rule for an integer r*u and, for any r, asks that the rows sharing the
fractional unit be the only ones unsettled, however many of them share
it.  Rows with identical outputs get identical beliefs, so identical
unlabeled rows that straddle the balance boundary never settle (for an
integer r*u too); DA then ends on max_outer.
"""
import time

import numpy as np

from .engine._threads import solver_threads
from .balance import (Beliefs, beliefs_for_gaps, kl_divergence, unlabeled_loss_gap, unsettled_at_start,
                      unsettled_entropy)
from .info import NEWTON_CAP, SolverInfo, fixed_cap, larger
from .engine.loss import SquaredHingeLoss
from .mfn import l2svm_mfn
from .objective import transductive_objective
from .engine.problem import pseudo_rows
from .validation import check_above_one, check_count, check_fraction, check_has_unlabeled, check_lambda, check_open_unit, check_positive

#: Starting temperature, in units of lambda' (Table 5: T = 10).
START_TEMPERATURE = 10.0
#: T is divided by this factor at each outer step (Table 5).
ANNEAL_RATE = 1.5
#: Stopping threshold per unlabeled example for KL and entropy (Eqns 16-17).
EPS = 1e-6
#: Iteration caps of the outer (temperature) and inner (p, w) loops (Table 5).
MAX_OUTER, MAX_INNER = 30, 100
#: Margin tolerance of OPTIMIZE-W's optimality test (Table 7).
TAU = 1e-8


def optimize_w_loss(problem, lam, lam_u, beliefs):
    """The squared-hinge loss minimized by OPTIMIZE-W (Eqn 11, Table 7).

    Every unlabeled row is a pseudo-row twice (label +1 with cost
    lambda' p_j / u, label -1 with cost lambda' (1 - p_j) / u) over a single
    copy of the row: :meth:`SquaredHingeLoss.active_system` merges the two
    into the single CGLS row of Eqn 14.  :func:`set_beliefs` updates the
    costs in place for a new p.
    """
    l, u = problem.n_labeled, problem.n_unlabeled
    rows = np.concatenate([problem.labeled, problem.unlabeled])
    owner, y = pseudo_rows(problem.y, u)
    c = np.empty(l + 2 * u)
    c[:l] = 1.0 / l
    loss = SquaredHingeLoss(problem.op, rows, y, c, lam, owner)
    set_beliefs(loss, problem, lam_u, beliefs)
    return loss


def set_beliefs(loss, problem, lam_u, beliefs):
    """Costs of the unlabeled pseudo-rows for beliefs p (Eqn 11)."""
    l, u = problem.n_labeled, problem.n_unlabeled
    np.multiply(lam_u / u, beliefs.p, out=loss.c[l:l + u])
    np.multiply(lam_u / u, beliefs.q, out=loss.c[l + u:])


@solver_threads
def deterministic_annealing(problem, lam, lam_u, r, T0=None, anneal_rate=ANNEAL_RATE,
                            fixed_temperature=None, eps=EPS, max_outer=MAX_OUTER,
                            max_inner=MAX_INNER):
    """Table 5, returning the weights of lowest J(w) (Eqn 18) on the path.

    Temperatures are in units of lambda' (T = value x lambda'): g in Eqn 15
    scales with lambda' and p depends on g / T only, so a temperature
    relative to lambda' is the same point of the schedule for every
    lambda'.  (The tech report's Table 5 starts at T = 10 for lambda' = 1;
    the reference software at 10 lambda'.)

    Parameters
    ----------
    problem : Problem
    lam, lam_u, r : lambda, lambda' and the positive fraction in (0, 1)
    T0 : starting temperature in units of lambda' (> 0); ``None`` means 10,
        i.e. T = 10 lambda'.
    anneal_rate : T is divided by this (> 1) after each outer iteration.
    fixed_temperature : if given (> 0, in units of lambda'), T is held at
        fixed_temperature x lambda' for a single outer iteration (no
        annealing; the paper's ablation).
    eps : KL and entropy thresholds per unlabeled row (Eqns 16-17), in
        (0, 1); DA stops when the entropy of the beliefs at the nearest
        integer mass is at most u eps (module docstring).  The initial
        beliefs p = r must be above that (else the annealing loop would not
        run).
    max_outer, max_inner : caps (>= 1) of the temperature loop and of the
        (p, w) loop at one temperature (Table 5).

    Returns
    -------
    w, SolverInfo  (``temperatures`` lists the temperatures visited, absolute;
    ``objective_path`` the (T, J(w)) pairs after each OPTIMIZE-W;
    ``converged`` False and a ConvergenceWarning when a cap ended a loop:
    ``stop_reason`` "max_outer" if the beliefs had not settled (module
    docstring) after max_outer temperatures, ``capped`` counts "max_inner" (a temperature
    left before KL fell below u eps), "optimize_p_max_iter" and MFN's
    "max_newton_iter")
    """
    start = time.perf_counter()
    lam = check_lambda(problem, lam)
    lam_u = check_positive(lam_u, "lambda'")
    r = check_fraction(r)
    check_has_unlabeled(problem, "deterministic annealing")
    eps = check_open_unit(eps, "eps")
    max_outer = check_count(max_outer, "max_outer")
    max_inner = check_count(max_inner, "max_inner")
    if fixed_temperature is None:
        T = lam_u * check_positive(START_TEMPERATURE if T0 is None else T0, "T0")
        check_above_one(anneal_rate, "anneal_rate")
    else:
        T = lam_u * check_positive(fixed_temperature, "fixed_temperature")
        max_outer = 1
    info = SolverInfo("da")
    l, u = problem.n_labeled, problem.n_unlabeled
    threshold = u * eps

    beliefs = Beliefs(np.full(u, r), np.full(u, 1.0 - r), 0.0, 0)
    h = unsettled_entropy(np.zeros(u), T, r)
    if not h > threshold:
        raise ValueError(unsettled_at_start(eps, r, h, u))
    w, o = None, np.zeros(l + u)
    best_value, best_w = np.inf, None
    loss = optimize_w_loss(problem, lam, lam_u, beliefs)
    outer = 0
    while outer < max_outer and h > threshold:
        outer += 1
        info.temperatures.append(T)
        inner, kl = 0, np.inf
        while inner < max_inner and kl > threshold:
            inner += 1
            cold = w is None
            gaps = unlabeled_loss_gap(o[l:], lam_u)
            new_beliefs = beliefs_for_gaps(gaps, T, r)
            if not new_beliefs.converged:
                info.inner_cap("optimize_p_max_iter")
            # The first p comes from w = 0 (all outputs 0, so p = r = the
            # initial p): no change yet says nothing about convergence.
            # (KL is taken before OPTIMIZE-W so the old p is freed meanwhile.)
            kl = np.inf if cold else kl_divergence(new_beliefs, beliefs)
            beliefs = new_beliefs
            set_beliefs(loss, problem, lam_u, beliefs)
            w, o, mfn = l2svm_mfn(loss, w, None if cold else o, tau=TAU)
            info.add_mfn(mfn)
            value = transductive_objective(w, o[:l], problem.y, o[l:], lam, lam_u)
            info.objective_path.append((T, value))
            info.positive_path.append(float(np.mean(o[l:] > 0)))
            if value < best_value or best_w is None:
                best_value, best_w, best_positive = value, w, info.positive_path[-1]
        if kl > threshold:
            info.inner_cap("max_inner")
        h = unsettled_entropy(gaps, T, r)
        if fixed_temperature is None:
            T /= anneal_rate
    if fixed_temperature is None and h > threshold:
        info.stop("max_outer")
    # equal unlabeled outputs (e.g. all-zero rows) keep every belief at r at any temperature
    hardens = np.ptp(o[l:]) > 0
    info.warn_if_capped({"max_outer": larger("max_outer", max_outer) if hardens else
                         "no setting helps: the unlabeled rows' outputs are all equal, so their beliefs stay at r",
                         "max_inner": larger("max_inner", max_inner),
                         "optimize_p_max_iter": fixed_cap("500 iterations of OPTIMIZE-P, Table 6"),
                         "max_newton_iter": NEWTON_CAP})
    info.positive_fraction = best_positive
    info.objective = info.own_objective = float(best_value)
    info.seconds = time.perf_counter() - start
    return best_w, info
