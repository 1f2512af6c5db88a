"""Deterministic annealing over K classes: the Potts glass extension that 000 and 004 name in a footnote.

000 (Sec. 3.2, footnote) and 004: "a multiclass extension would use the Potts glass model ... append
the entropy of the distribution over multiple classes".  Built here on the binary DA's pieces
(:mod:`.annealing`, :mod:`.balance`), for K >= 3 classes with one weight vector w_k per class.

**The objective.**  Row j of the unlabeled set, given class c, costs what one-vs-rest training
charges for it: L_jc = l(o_jc) + sum_{k != c} l(-o_jk), with o_jk = w_k . x_j and l(t) = max(0, 1 - t)^2
(Eqn 2).  With beliefs p_j (a distribution over the K classes) the annealing objective at
temperature T, generalising Eqn 8 of 000, is

    F_T(W, P) = sum_k [lam/2 ||w_k||^2 + 1/(2l) sum_i l(y_ik o_ik)]
                + 1/(2u) sum_j [lam' sum_c p_jc L_jc - T H(p_j)],   H(p_j) = -sum_c p_jc log p_jc,

(y_ik = +1 if labeled row i is of class k, else -1) under K balance constraints
1/u sum_j p_jc = r_c (Eqn 9, once per class; their sum is 1 = sum_c r_c, so one is implied).

**The w-step** (OPTIMIZE-W, Table 7).  Since sum_c p_jc = 1,
sum_c p_jc L_jc = sum_k [p_jk l(o_jk) + (1 - p_jk) l(-o_jk)]: F_T splits over k into K binary DA
w-steps, w_k trained on class k against the rest with the unlabeled costs of Eqn 11 for the beliefs
p_.k.  Each is L2-SVM-MFN on its own :class:`~.engine.problem.Problem` (the same X, the class's
+1/-1 labels), :class:`.annealing.OptimizeW`.

**The p-step** (OPTIMIZE-P, Table 6, Eqn 15).  For fixed W, stationarity of the Lagrangian in
p_jc (multipliers nu_c for the balance constraints, mu_j for sum_c p_jc = 1) gives
lam' L_jc + T (log p_jc + 1) - nu_c - mu_j = 0, i.e. the softmax

    p_jc = exp((nu_c - g_jc) / T) / sum_k exp((nu_k - g_jk) / T),  g_jc = lam' (l(o_jc) - l(-o_jc)),

(L_jc - g_jc / lam' = sum_k l(-o_jk) does not depend on c and cancels), Eqn 15's logistic with
one loss gap per class.  The multipliers nu minimize the convex dual
D(nu) = T sum_j log sum_c exp((nu_c - g_jc) / T) - u sum_c r_c nu_c, whose gradient is
sum_j p_jc - u r_c (the balance residuals) and whose Hessian is 1/T sum_j (diag(p_j) - p_j p_j');
:func:`potts_beliefs` finds them as Table 6 finds the binary nu, by Newton's method safeguarded
(here by backtracking on D, the K-dimensional stand-in for the bisection bracket, taking a step
that lowers the residuals where D's change is below its rounding), with nu_0 = 0
fixing the free shift.

**Two classes.**  For K = 2 with w_0 = -w_1 (which the w-step keeps: class 0's problem is class 1's
with the labels flipped), g_j0 = -g_j1 and p_j1 = 1 / (1 + exp((2 g_j1 - (nu_1 - nu_0)) / T)):
the binary DA's p-step at temperature T/2, and F_T is twice the binary objective at T/2.  So the
Potts DA with K = 2 at T has the binary DA's fixed point at T/2 (tested); the estimators run the
binary DA for two classes.

**Stopping** (Eqn 17, a decision).  The binary DA moves the mass to the nearest integers before it
measures the entropy (:func:`.balance.unsettled_entropy`); with K masses that move has no single
analogue, so here the beliefs have settled when sum_j H(p_j) <= u eps + sum_c h(f_c), f_c the
fractional part of r_c u and h the binary entropy: the entropy that the split units of mass keep
when each class's fractional unit is shared by the rows at its boundary.  The weights of lowest J
on the path are returned (as the binary DA), J the multi-class form of Eqn 18:
sum_k [lam/2 ||w_k||^2 + 1/(2l) sum_i l(y_ik o_ik)] + lam'/(2u) sum_j min_c L_jc.
"""
import time

import numpy as np
from scipy.special import entr, logsumexp

from ssl_repro.solvers.annealing import ANNEAL_RATE, EPS, MAX_INNER, MAX_OUTER, START_TEMPERATURE, OptimizeW
from ssl_repro.solvers.balance import MAX_ITER, TOL, Beliefs
from ssl_repro.solvers.engine._threads import solver_threads
from ssl_repro.solvers.info import NEWTON_CAP, SolverInfo, fixed_cap, larger
from ssl_repro.solvers.validation import check_above_one, check_count, check_open_unit, check_positive

#: Backtracking's sufficient decrease (Armijo) and step factor in :func:`potts_beliefs`.
ARMIJO, BACKTRACK = 1e-4, 0.5


def _softmax(G, nu, T):
    """(P, log-normalisers) for logits (nu_c - g_jc) / T, row by row, without overflow."""
    Z = (nu[None, :] - G) / T
    log_norm = logsumexp(Z, axis=1)
    return np.exp(Z - log_norm[:, None]), log_norm


def potts_beliefs(G, T, r, nu=None, tol=TOL, max_iter=MAX_ITER):
    """OPTIMIZE-P over K classes (module doc): (P of shape (u, K), nu, Newton steps, converged).

    ``G`` holds the loss gaps g_jc, ``r`` the K class fractions (summing to 1), ``nu`` a warm start;
    stops when every balance residual ``|mean_j p_jc - r_c|`` is at most ``tol``.
    """
    u, K = G.shape
    target = u * np.asarray(r, dtype=float)
    nu = T * np.log(r) if nu is None else nu.copy()       # g = 0 gives p_j = r exactly
    nu -= nu[0]

    def dual(nu):
        P, log_norm = _softmax(G, nu, T)
        return T * log_norm.sum() - target @ nu, P

    value, P = dual(nu)
    for iteration in range(max_iter + 1):
        grad = P.sum(axis=0) - target
        if np.max(np.abs(grad)) <= tol * u or iteration == max_iter:
            break
        H = (np.diag(P.sum(axis=0)) - P.T @ P) / T
        free = slice(1, K)
        H_free = H[free, free] + 1e-12 * np.trace(H) * np.eye(K - 1)
        step = np.zeros(K)
        step[free] = -np.linalg.solve(H_free, grad[free])
        t = 1.0
        while True:
            candidate, P_candidate = dual(nu + t * step)
            # sufficient decrease of D, or (where D's change is below its rounding) a smaller residual
            if candidate <= value + ARMIJO * t * (grad @ step) or t < 1e-12 or \
                    np.max(np.abs(P_candidate.sum(axis=0) - target)) < np.max(np.abs(grad)):
                break
            t *= BACKTRACK
        nu, value, P = nu + t * step, candidate, P_candidate
    return P, nu, iteration, bool(np.max(np.abs(P.sum(axis=0) - target)) <= tol * u)


def _squared_hinge(t):
    h = np.maximum(0.0, 1.0 - t)
    return h * h


def _row_losses(outputs):
    """L_jc = l(o_jc) + sum_{k != c} l(-o_jk) for the unlabeled outputs (u, K)."""
    as_rest = _squared_hinge(-outputs)
    return _squared_hinge(outputs) - as_rest + as_rest.sum(axis=1, keepdims=True)


def objective(W, labeled_outputs, labels, unlabeled_outputs, lam, lam_u, P=None, T=0.0):
    """J over K classes (module doc; Eqn 18 with an unlabeled row charged its cheapest class), or with
    beliefs ``P`` at ``T`` the annealing objective F_T (000's Eqn 8 over K classes).  ``W`` (K, d + 1);
    ``labeled_outputs`` and ``labels`` (l, K), the +1/-1 labels of class k against the rest;
    ``unlabeled_outputs`` (u, K)."""
    l, u = labels.shape[0], unlabeled_outputs.shape[0]
    value = 0.5 * lam * float(np.sum(W * W)) + 0.5 * float(_squared_hinge(labels * labeled_outputs).sum()) / l
    losses = _row_losses(unlabeled_outputs)
    if P is None:
        return value + lam_u * float(losses.min(axis=1).sum()) / (2 * u)
    return value + float(lam_u * (P * losses).sum() - T * entr(P).sum()) / (2 * u)


def objective_of_weights(problems, W, lam, lam_u):
    """J over K classes for weights ``W`` (one row per class) on the K problems of :func:`potts_da`
    (e.g. to compare one-vs-rest DA's K binary weights with the Potts DA's on the same scale)."""
    def outputs(rows):
        return np.column_stack([p.op.matvec(w, getattr(p, rows)) for p, w in zip(problems, W)])
    labels = np.column_stack([p.y for p in problems])
    return objective(W, outputs("labeled"), labels, outputs("unlabeled"), lam, lam_u)


def _step_objective(w_steps, lam, lam_u, P=None, T=0.0):
    """:func:`objective` at the w-steps' weights and outputs (no pass over X)."""
    l = w_steps[0].problem.n_labeled
    W = np.vstack([step.w for step in w_steps])
    O = np.column_stack([step.o for step in w_steps])
    labels = np.column_stack([step.problem.y for step in w_steps])
    return objective(W, O[:l], labels, O[l:], lam, lam_u, P, T)


def settled_floor(r, u):
    """sum_c h(f_c), f_c the fractional part of r_c u: the entropy the split units of mass keep."""
    f = np.asarray(r) * u % 1.0
    return float((entr(f) + entr(1.0 - f)).sum())


def _beliefs_of_class(P, k):
    """Class k's column as the binary w-step's :class:`~.balance.Beliefs` (q = the other columns' sum)."""
    return Beliefs(P[:, k].copy(), np.delete(P, k, axis=1).sum(axis=1), 0.0, 0)


@solver_threads
def potts_da(problems, lam, lam_u, r, T0=None, anneal_rate=ANNEAL_RATE, fixed_temperature=None, eps=EPS,
             max_outer=MAX_OUTER, max_inner=MAX_INNER):
    """Potts-glass DA (module doc) on K problems (class k against the rest, the same rows in the same order).

    Temperatures in units of lambda' as :func:`.annealing.deterministic_annealing`; ``r`` the K class
    fractions.  Returns (W of shape (K, n_features + 1), the bias last, with the lowest J on the path;
    SolverInfo: ``objective`` that J, ``own_objective`` F_T at the returned weights' temperature,
    ``objective_path`` (T, J) and ``annealing_path`` (T, F_T) after every w-step, ``temperatures``).
    """
    start = time.perf_counter()
    r = np.asarray(r, dtype=float)
    u = problems[0].n_unlabeled
    if u < 2:
        raise ValueError(f"Potts deterministic annealing needs at least 2 unlabeled rows, got {u}")
    eps = check_open_unit(eps, "eps")
    max_outer, max_inner = check_count(max_outer, "max_outer"), check_count(max_inner, "max_inner")
    if fixed_temperature is None:
        T = lam_u * check_positive(START_TEMPERATURE if T0 is None else T0, "T0")
        check_above_one(anneal_rate, "anneal_rate")
    else:
        T, max_outer = lam_u * check_positive(fixed_temperature, "fixed_temperature"), 1
    info = SolverInfo("potts_da")
    info.annealing_path = []
    P = np.tile(r, (u, 1))
    w_steps = [OptimizeW(problem, lam, lam_u, _beliefs_of_class(P, k), info) for k, problem in enumerate(problems)]
    threshold = u * eps + settled_floor(r, u)
    best_value, best_W, nu, h, outer = np.inf, None, None, np.inf, 0
    while outer < max_outer and h > threshold:
        outer += 1
        info.temperatures.append(T)
        inner, kl = 0, np.inf
        while inner < max_inner and kl > u * eps:
            inner += 1
            G = np.column_stack([step.gaps() for step in w_steps])
            new_P, nu, _, converged = potts_beliefs(G, T, r, nu)
            if not converged:
                info.inner_cap("optimize_p_max_iter")
            kl = float(np.sum(new_P * (np.log(np.maximum(new_P, 1e-300)) - np.log(np.maximum(P, 1e-300)))))
            kl = kl if best_W is not None else np.inf       # the first p says nothing about convergence
            P = new_P
            for k, step in enumerate(w_steps):
                step.fit(_beliefs_of_class(P, k))
            value = _step_objective(w_steps, lam, lam_u)
            info.objective_path.append((T, value))
            info.annealing_path.append((T, _step_objective(w_steps, lam, lam_u, P, T)))
            if value < best_value or best_W is None:
                best_value, best_W = value, np.vstack([step.w for step in w_steps])
                info.own_objective = info.annealing_path[-1][1]
        if kl > u * eps:
            info.inner_cap("max_inner")
        h = float(entr(P).sum())
        if fixed_temperature is None:
            T /= anneal_rate
    if fixed_temperature is None and h > threshold:
        info.stop("max_outer")
    info.warn_if_capped({"max_outer": larger("max_outer", max_outer), "max_inner": larger("max_inner", max_inner),
                         "optimize_p_max_iter": fixed_cap("500 Newton steps of the K-class OPTIMIZE-P"),
                         "max_newton_iter": NEWTON_CAP})
    info.objective = best_value
    info.positive_fraction = float("nan")
    info.seconds = time.perf_counter() - start
    return best_W, info
