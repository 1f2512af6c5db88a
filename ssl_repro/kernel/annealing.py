"""Deterministic annealing for semi-supervised kernel machines (001, Table 1, Eqns 4-8).

The annealing loop is the linear DA's (:func:`ssl_repro.solvers.annealing.anneal`):
at each temperature T (from T = 10, divided by R = 1.5) it alternates the
p-step (p_j = 1/(1 + exp((g_j - nu)/T)) with g_j = lambda' [V(f_j) - V(-f_j)]
and mean(p) = r, Eqn 8, the linear core's hybrid Newton/bisection) and the
f-step (:class:`KernelFStep`: the weighted kernel problem for fixed p,
:class:`~.fstep.FStep`) until the KL divergence between successive p is
small, and stops when the beliefs have settled (Table 1's entropy test, read
as the linear DA's: the entropy of p moved to the nearest integer mass at
most u*eps, so that it can be met when r*u is not an integer).  The
(alpha, bias) with the lowest transductive objective J_0 (Eqn 1 of 001: the
loss of the best label per unlabeled point) along the path is returned.

Decision: one loop for both machines, in the order of Table 5 of 000 (p
from the current outputs at the current T, then the f-step), so at a new
temperature the first f-step uses beliefs taken at that temperature, and
every temperature ends on an f-step for the beliefs whose KL test passed.
"""
import numpy as np

from ssl_repro.solvers.annealing import (ANNEAL_RATE, EPS, MAX_INNER, MAX_OUTER, START_TEMPERATURE, anneal,
                                 annealing_cap_hints)
from ssl_repro.solvers.engine._threads import solver_threads
from ssl_repro.solvers.engine.problem import pseudo_rows
from ssl_repro.solvers.info import SolverInfo
from ssl_repro.solvers.validation import check_above_one, check_count, check_fraction, check_open_unit, check_positive
from ssl_repro.kernel.fstep import FStep, loss_value


def eqn1_objective(fstep, alpha, bias, labeled, y, unlabeled, lam_u):
    """Eqn 1 of 001 for f = K alpha + b: labels of unlabeled points chosen to minimize the loss."""
    f = fstep.K @ alpha + bias
    l, u = labeled.size, unlabeled.size
    best = np.minimum(loss_value(fstep.loss, f[unlabeled]), loss_value(fstep.loss, -f[unlabeled]))
    return float(0.5 * fstep.lam * alpha @ fstep.K @ alpha
                 + loss_value(fstep.loss, y * f[labeled]).sum() / l + lam_u * best.sum() / u)


class KernelFStep:
    """The f-step of 001 Table 1 as :func:`~ssl_repro.solvers.annealing.anneal`'s w-step (the
    interface of :class:`~ssl_repro.solvers.annealing.OptimizeW`): the kernel machine for fixed
    beliefs, each unlabeled point twice (label +1 with cost lambda' p_j / u, -1 with lambda' (1 - p_j) / u),
    warm-started from the previous (alpha, bias)."""

    def __init__(self, fstep, labeled, y, unlabeled, lam_u, info):
        self.fstep, self.labeled, self.y, self.unlabeled, self.lam_u, self.info = \
            fstep, labeled, y, unlabeled, lam_u, info
        owner, self.labels = pseudo_rows(y, unlabeled.size)
        self.points = np.concatenate([labeled, unlabeled])[owner]
        self.alpha, self.bias = None, 0.0
        self.f_u = np.zeros(unlabeled.size)
        self.K_u = fstep.K[unlabeled]     # the unlabeled rows of K, copied once (not at every f-step)

    def fit(self, beliefs, moving=False):
        """The f-step for ``beliefs``, solved fully whether or not the beliefs still move (``moving``:
        the linear w-step's ``inner_cg_tol`` has no kernel counterpart)."""
        l, u = self.labeled.size, self.unlabeled.size
        costs = np.concatenate([np.full(l, 1.0 / l), self.lam_u * beliefs.p / u, self.lam_u * beliefs.q / u])
        self.alpha, self.bias = self.fstep.solve(self.points, self.labels, costs, self.alpha)
        self.info.mfn_calls += 1
        self.f_u = self.K_u @ self.alpha + self.bias

    def gaps(self):
        loss = self.fstep.loss
        return self.lam_u * (loss_value(loss, self.f_u) - loss_value(loss, -self.f_u))

    def objective(self):
        return eqn1_objective(self.fstep, self.alpha, self.bias, self.labeled, self.y, self.unlabeled, self.lam_u)

    def positive_fraction(self):
        return float(np.mean(self.f_u > 0))

    def model(self):
        return self.alpha, self.bias

    def outputs_vary(self):
        return np.ptp(self.f_u) > 0


@solver_threads
def kernel_da(K, labeled, y, unlabeled, lam, lam_u=1.0, r=0.5, loss="l2", T0=START_TEMPERATURE, rate=ANNEAL_RATE,
              eps=EPS, max_outer=MAX_OUTER, max_inner=MAX_INNER, fixed_temperature=None):
    """DA (001 Table 1) on the Gram matrix ``K`` of all training points.

    ``labeled``/``unlabeled`` index K's rows, ``y`` holds +1/-1 for the
    labeled ones.  ``fixed_temperature`` (001 Table 5, "no annealing"):
    one outer iteration at that T, from p = r, instead of the schedule.
    Returns (alpha, bias, :class:`~ssl_repro.solvers.SolverInfo`): ``own_objective`` is the
    minimum J_0 on the path, ``objective_path`` the (T, J_0) pairs,
    ``temperatures``, ``mfn_calls`` the f-step solves; a ConvergenceWarning when a cap ended a loop.
    """
    lam, lam_u, r = check_positive(lam, "lambda"), check_positive(lam_u, "lambda'"), check_fraction(r)
    T0, rate = check_positive(T0, "T0"), check_above_one(rate, "anneal_rate")
    if fixed_temperature is not None:
        T0, max_outer = check_positive(fixed_temperature, "fixed_temperature"), 1
    eps = check_open_unit(eps, "eps")
    max_outer, max_inner = check_count(max_outer, "max_outer"), check_count(max_inner, "max_inner")
    info = SolverInfo(f"kernel_da_{loss}")
    f_step = KernelFStep(FStep(K, lam, loss), labeled, y, unlabeled, lam_u, info)
    (alpha, bias), info.own_objective, info.positive_fraction = anneal(
        f_step, unlabeled.size, r, T0, rate, fixed_temperature, eps, max_outer, max_inner, info)
    info.warn_if_capped(annealing_cap_hints(f_step, info, r, eps, rate, max_outer, max_inner))
    return alpha, bias, info
