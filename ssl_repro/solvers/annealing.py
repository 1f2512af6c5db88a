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

Inexact w-steps while the beliefs move (``inner_cg_tol``, off by default), a decision: Table 7 solves
every OPTIMIZE-W with CGLS to epsilon = 1e-6, and so does DA by default.  Given ``inner_cg_tol``, a
w-step whose beliefs are still moving (the KL of Eqn 16 between the last two p above u*eps, so another
OPTIMIZE-P follows at this temperature) is solved to that epsilon instead; the w-step that ends each
temperature keeps 1e-6.  It saves CG iterations, but it is not the default because the path it
takes is not Table 7's: where the beliefs split (few labels), a small change in one w-step can send
DA to another point of the path, and the J returned moves by more than 1e-6 relative on some of the
benchmark pairs (``benchmarks/da_inner_tol.py``; its record
``results/benchmarks/da_inner_tol.json`` holds the CG iterations saved and every pair's change in J).
"""
import math
import time

import numpy as np

from ssl_repro.solvers.engine._threads import solver_threads
from ssl_repro.solvers.balance import (Beliefs, beliefs_for_gaps, kl_divergence, unlabeled_loss_gap, unsettled_at_start,
                      unsettled_entropy)
from ssl_repro.solvers.info import NEWTON_CAP, SolverInfo, fixed_cap, larger
from ssl_repro.solvers.engine.loss import SquaredHingeLoss
from ssl_repro.solvers.mfn import COLD_TOL, TOL as CG_TOL, l2svm_mfn
from ssl_repro.solvers.objective import transductive_objective
from ssl_repro.solvers.engine.problem import pseudo_rows
from ssl_repro.solvers.validation import check_above_one, check_count, check_fraction, check_has_unlabeled, check_lambda, check_open_unit, check_positive

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
#: How far below the last temperature :func:`outer_advice` looks for one at which the beliefs settle.
SETTLE_SEARCH_RANGE = 1e12
#: Loss gaps (Eqn 15) whose spread is below this fraction of their size are equal to within rounding:
#: no temperature within :data:`SETTLE_SEARCH_RANGE` tells them apart.
EQUAL_GAPS = 1e-9


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


def check_inner_cg_tol(value):
    """``inner_cg_tol`` in (0, 1e-2): below the cold start's crude epsilon (Table 1), which it must follow."""
    if not (isinstance(value, (int, float)) and 0 < value < COLD_TOL):
        raise ValueError(f"inner_cg_tol={value!r}: expected a number in (0, {COLD_TOL:g}) (CGLS's epsilon for the "
                         "w-steps while the beliefs move), or None for Table 7's 1e-6 throughout")
    return float(value)


def initial_beliefs(u, r):
    """p = r for every unlabeled row (Table 5's start)."""
    return Beliefs(np.full(u, r), np.full(u, 1.0 - r), 0.0, 0)


class OptimizeW:
    """OPTIMIZE-W (Table 7) as :func:`anneal`'s w-step: L2-SVM-MFN on the labeled rows and each
    unlabeled row once, with the costs of Eqn 11 for the beliefs it is given, warm-started from its
    previous weights and outputs.

    A w-step (this class; the kernel machines' f-step, :class:`ssl_repro.kernel.annealing.KernelFStep`)
    holds the current model and answers :meth:`gaps` (g_j of Eqn 15 at its unlabeled outputs; before the
    first :meth:`fit`, at outputs 0), :meth:`objective`, :meth:`positive_fraction`, :meth:`model` and
    :meth:`outputs_vary`.
    """

    def __init__(self, problem, lam, lam_u, beliefs, info, inner_cg_tol=None):
        self.problem, self.lam, self.lam_u, self.info = problem, lam, lam_u, info
        self.inner_cg_tol = CG_TOL if inner_cg_tol is None else inner_cg_tol
        self.loss = optimize_w_loss(problem, lam, lam_u, beliefs)
        self.w, self.o = None, np.zeros(problem.n_labeled + problem.n_unlabeled)

    def fit(self, beliefs, moving=False):
        """OPTIMIZE-W for ``beliefs``; ``moving``: another OPTIMIZE-P follows at this temperature, so
        CGLS stops at ``inner_cg_tol`` (module docstring), else at Table 7's 1e-6."""
        set_beliefs(self.loss, self.problem, self.lam_u, beliefs)
        cold = self.w is None
        self.w, self.o, mfn = l2svm_mfn(self.loss, self.w, None if cold else self.o, tau=TAU,
                                        cg_tol=self.inner_cg_tol if moving else CG_TOL)
        self.info.add_mfn(mfn)

    def gaps(self):
        return unlabeled_loss_gap(self.o[self.problem.n_labeled:], self.lam_u)

    def objective(self):
        l = self.problem.n_labeled
        return transductive_objective(self.w, self.o[:l], self.problem.y, self.o[l:], self.lam, self.lam_u)

    def positive_fraction(self):
        return float(np.mean(self.o[self.problem.n_labeled:] > 0))

    def model(self):
        return self.w

    def outputs_vary(self):
        return np.ptp(self.o[self.problem.n_labeled:]) > 0


def anneal(w_step, u, r, T, anneal_rate, fixed_temperature, eps, max_outer, max_inner, info):
    """The annealing loop of Table 5 around a w-step (:class:`OptimizeW`, or the kernel f-step of 001
    Table 1); returns (the model of lowest objective on the path, its objective, its fraction of
    positive unlabeled outputs).

    At each temperature T (absolute; divided by ``anneal_rate`` after each
    one, or held for a single one when ``fixed_temperature``), alternate
    OPTIMIZE-P (:func:`.balance.beliefs_for_gaps` on the w-step's gaps) and
    the w-step until the KL divergence between successive p is at most
    u eps (Eqn 16); stop when the beliefs have settled (Eqn 17, read as in
    the module docstring).  Records temperatures, the (T, objective) path,
    the positive fractions, the caps and the stop reason in ``info``, and flags a run whose beliefs
    settled at its first temperature or whose answer is one-class (:mod:`.info`).
    """
    threshold = u * eps
    h = unsettled_entropy(np.zeros(u), T, r)
    if not h > threshold:
        raise ValueError(unsettled_at_start(eps, r, h, u))
    beliefs = initial_beliefs(u, r)
    best_value, best_model, best_positive, fitted = np.inf, None, float("nan"), False
    outer = 0
    while outer < max_outer and h > threshold:
        outer += 1
        info.temperatures.append(T)
        inner, kl = 0, np.inf
        while inner < max_inner and kl > threshold:
            inner += 1
            gaps = w_step.gaps()
            new_beliefs = beliefs_for_gaps(gaps, T, r)
            if not new_beliefs.converged:
                info.inner_cap("optimize_p_max_iter")
            # The first p comes from outputs 0, so p = r = the initial p: no change yet says nothing
            # about convergence.  (KL is taken before the w-step so the old p is freed meanwhile.)
            kl = kl_divergence(new_beliefs, beliefs) if fitted else np.inf
            beliefs = new_beliefs
            w_step.fit(beliefs, moving=kl > threshold)
            fitted = True
            value = w_step.objective()
            info.objective_path.append((T, value))
            info.positive_path.append(w_step.positive_fraction())
            if value < best_value or best_model is None:
                best_value, best_model, best_positive = value, w_step.model(), info.positive_path[-1]
        if kl > threshold:
            info.inner_cap("max_inner")
        h = unsettled_entropy(gaps, T, r)
        if fixed_temperature is None:
            T /= anneal_rate
    if fixed_temperature is None and h > threshold:
        info.stop("max_outer")
    if fixed_temperature is None and outer == 1 and h <= threshold:
        info.flag("one_temperature", f"the beliefs settled at the first temperature T={info.temperatures[0]:.3g}, "
                                     "so no annealing took place: the answer is that of one fixed low temperature, "
                                     "not of DA's path; start hotter (T0=10 lambda', the default)")
    info.check_one_class(best_positive)
    return best_model, float(best_value), best_positive


def annealing_cap_hints(w_step, info, r, eps, anneal_rate, max_outer, max_inner):
    """The ConvergenceWarning's advice for the caps of :func:`anneal` (after it ran on ``w_step``;
    the advice for ``max_outer`` is worked out only when that cap ended the run)."""
    ended_on_outer = info.stop_reason == "max_outer"
    return {"max_outer": outer_advice(w_step, info, r, eps, anneal_rate, max_outer) if ended_on_outer else None,
            "max_inner": larger("max_inner", max_inner),
            "optimize_p_max_iter": fixed_cap("500 iterations of OPTIMIZE-P, Table 6")}


def outer_advice(w_step, info, r, eps, anneal_rate, max_outer):
    """Advice for DA ending on ``max_outer``: what would let the beliefs settle (Eqn 17).

    With the unlabeled outputs of the last OPTIMIZE-W held fixed, the
    temperature T* at which their beliefs would settle is the first one of the
    schedule below the last temperature visited where
    :func:`.balance.unsettled_entropy` falls to u*eps (the entropy falls with
    T: found by bisection on the number of steps).  The advice is the
    ``max_outer`` that reaches T* at this ``anneal_rate``, and the rate that
    reaches it within today's ``max_outer``; an estimate, since the outputs
    move as T falls.  Where no temperature down to :data:`SETTLE_SEARCH_RANGE`
    below the last one settles them (equal outputs, or identical rows astride
    the balance boundary), it says that no setting helps.
    """
    if not w_step.outputs_vary():
        return "no setting helps: the unlabeled rows' outputs are all equal, so their beliefs stay at r"
    gaps, T_last = w_step.gaps(), info.temperatures[-1]
    threshold = gaps.shape[0] * eps
    if np.ptp(gaps) <= EQUAL_GAPS * np.max(np.abs(gaps)):
        return (f"no setting helps: the unlabeled rows' outputs are equal to within rounding (their loss gaps, "
                f"Eqn 15, differ by {np.ptp(gaps):.2g}), so their beliefs stay near r: w is nearly 0 (lam too large, "
                "or features near 0); lower lam or rescale X")

    def settled(steps):
        return unsettled_entropy(gaps, T_last / anneal_rate ** steps, r) <= threshold

    low, high = 0, math.ceil(math.log(SETTLE_SEARCH_RANGE) / math.log(anneal_rate))
    if not settled(high):
        return (f"no setting helps: the beliefs of the last outputs do not settle at any temperature down to "
                f"{T_last / SETTLE_SEARCH_RANGE:.3g} (identical unlabeled rows astride the balance boundary?)")
    while high - low > 1:                       # settled(high), not settled(low): T_last itself did not settle
        middle = (low + high) // 2
        low, high = (low, middle) if settled(middle) else (middle, high)
    T_settle, T_first = T_last / anneal_rate ** high, info.temperatures[0]
    rate = math.exp(math.log(T_first / T_settle) / max(max_outer - 1, 1))
    return (f"the beliefs of the last outputs settle near T={T_settle:.3g} (first T={T_first:.3g}, last "
            f"{T_last:.3g}), {high} more temperatures at anneal_rate={anneal_rate:g}: set max_outer="
            f"{max_outer + high} (now {max_outer}), or anneal_rate={math.ceil(rate * 1000) / 1000:g} to get there "
            f"in {max_outer}")


@solver_threads
def deterministic_annealing(problem, lam, lam_u, r, T0=None, anneal_rate=ANNEAL_RATE,
                            fixed_temperature=None, eps=EPS, max_outer=MAX_OUTER,
                            max_inner=MAX_INNER, inner_cg_tol=None):
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
    inner_cg_tol : ``None`` (Table 7's CGLS epsilon 1e-6 for every w-step), or
        CGLS's epsilon, in (0, 1e-2), for the w-steps after which the beliefs
        still move (module docstring: fewer CG iterations, another path).

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
    u = problem.n_unlabeled
    if inner_cg_tol is not None:
        inner_cg_tol = check_inner_cg_tol(inner_cg_tol)
    w_step = OptimizeW(problem, lam, lam_u, initial_beliefs(u, r), info, inner_cg_tol)
    best_w, best_value, info.positive_fraction = anneal(w_step, u, r, T, anneal_rate, fixed_temperature, eps,
                                                        max_outer, max_inner, info)
    info.warn_if_capped({**annealing_cap_hints(w_step, info, r, eps, anneal_rate, max_outer, max_inner),
                         "max_newton_iter": NEWTON_CAP})
    info.objective = info.own_objective = best_value
    info.seconds = time.perf_counter() - start
    return best_w, info
