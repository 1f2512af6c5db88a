"""Deterministic annealing for semi-supervised kernel machines (001, Table 1, Eqns 4-8).

Alternates the f-step (:class:`FStep`: the weighted kernel problem for
fixed p) and the p-step (p_j = 1/(1 + exp((g_j - nu)/T)) with
g_j = lambda' [V(f_j) - V(-f_j)] and mean(p) = r, Eqn 8, solved by the
linear core's hybrid Newton/bisection), stops the inner loop on the KL
divergence between successive p and lowers T by R = 1.5 from T = 10 until
the beliefs have settled: Table 1's entropy test, read as the linear DA's
(:mod:`ssl_repro.solvers.annealing`: the entropy of p moved to the nearest
integer mass at most u*eps, so that it can be met when r*u is not an
integer); the (alpha, bias) with
the lowest transductive objective J_0 (Eqn 1 of 001: the loss of the best
label per unlabeled point) along the path is returned.
"""
import numpy as np

from ..solvers.engine._threads import solver_threads
from ..solvers.balance import Beliefs, beliefs_for_gaps, kl_divergence, unsettled_at_start, unsettled_entropy
from ..solvers.engine.problem import pseudo_rows
from ..solvers.annealing import ANNEAL_RATE, EPS, MAX_INNER, MAX_OUTER, START_TEMPERATURE
from ..solvers.validation import check_above_one, check_count, check_fraction, check_open_unit, check_positive
from .fstep import FStep, loss_value



def eqn1_objective(fstep, alpha, bias, labeled, y, unlabeled, lam_u):
    """Eqn 1 of 001 for f = K alpha + b: labels of unlabeled points chosen to minimize the loss."""
    f = fstep.K @ alpha + bias
    l, u = labeled.size, unlabeled.size
    best = np.minimum(loss_value(fstep.loss, f[unlabeled]), loss_value(fstep.loss, -f[unlabeled]))
    return float(0.5 * fstep.lam * alpha @ fstep.K @ alpha
                 + loss_value(fstep.loss, y * f[labeled]).sum() / l + lam_u * best.sum() / u)


@solver_threads
def kernel_da(K, labeled, y, unlabeled, lam, lam_u=1.0, r=0.5, loss="l2", T0=START_TEMPERATURE, rate=ANNEAL_RATE,
              eps=EPS, max_outer=MAX_OUTER, max_inner=MAX_INNER, fixed_temperature=None):
    """DA (001 Table 1) on the Gram matrix ``K`` of all training points.

    ``labeled``/``unlabeled`` index K's rows, ``y`` holds +1/-1 for the
    labeled ones.  ``fixed_temperature`` (001 Table 5, "no annealing"):
    one outer iteration at that T, from p = r, instead of the schedule.
    Returns (alpha, bias, info dict with ``objective`` (min J_0 on the
    path), ``path`` [(T, J_0)], ``temperatures``).
    """
    lam, lam_u, r = check_positive(lam, "lambda"), check_positive(lam_u, "lambda'"), check_fraction(r)
    T0, rate = check_positive(T0, "T0"), check_above_one(rate, "anneal_rate")
    if fixed_temperature is not None:
        T0, max_outer = check_positive(fixed_temperature, "fixed_temperature"), 1
    eps = check_open_unit(eps, "eps")
    max_outer, max_inner = check_count(max_outer, "max_outer"), check_count(max_inner, "max_inner")
    fstep = FStep(K, lam, loss)
    l, u = labeled.size, unlabeled.size
    threshold = u * eps
    unsettled = unsettled_entropy(np.zeros(u), T0, r)
    if not unsettled > threshold:
        raise ValueError(unsettled_at_start(eps, r, unsettled, u))
    owner, labels = pseudo_rows(y, u)
    points = np.concatenate([labeled, unlabeled])[owner]
    beliefs = Beliefs(np.full(u, r), np.full(u, 1.0 - r), 0.0, 0)
    alpha, bias = None, 0.0
    best = (np.inf, None, 0.0)
    path, temperatures = [], []
    T = T0
    stop_reason, capped = "max_outer", {}
    for _ in range(max_outer):
        if unsettled <= threshold:
            stop_reason = "tolerance"
            break
        temperatures.append(T)
        for inner in range(max_inner):
            costs = np.concatenate([np.full(l, 1.0 / l), lam_u * beliefs.p / u, lam_u * beliefs.q / u])
            alpha, bias = fstep.solve(points, labels, costs, alpha)
            f = K @ alpha + bias
            gaps = lam_u * (loss_value(loss, f[unlabeled]) - loss_value(loss, -f[unlabeled]))
            previous, beliefs = beliefs, beliefs_for_gaps(gaps, T, r)
            value = eqn1_objective(fstep, alpha, bias, labeled, y, unlabeled, lam_u)
            path.append((T, value))
            if value < best[0]:
                best = (value, alpha, bias)
            if kl_divergence(beliefs, previous) <= threshold:
                break
        else:
            capped["max_inner"] = capped.get("max_inner", 0) + 1
        unsettled = unsettled_entropy(gaps, T, r)
        T /= rate
    else:
        if unsettled <= threshold or fixed_temperature is not None:
            stop_reason = "tolerance"
    return best[1], best[2], {"objective": best[0], "path": path, "temperatures": temperatures,
                              "stop_reason": stop_reason, "capped": capped}
