"""Kernel CCCP-TSVM: 002's Algorithm 2 over the SMO of :mod:`ssl_repro.kernel.smo`.

002 (Collobert, Sinz, Weston & Bottou, JMLR 2006) minimizes Eqn 3,

    J^s(theta) = 1/2 ||w||^2 + C sum_{i<=L} H_1(y_i f(x_i)) + C* sum_{i=L+1}^{L+2U} R_s(y_i f(x_i)),

the hinge H_1(t) = max(0, 1 - t) on the labeled rows and the ramp
R_s(t) = min(1 - s, H_1(t)) on each unlabeled row counted with both labels
(the symmetric ramp, plateau s < 0 below the hinge's peak; s = 0 is the
symmetric hinge), subject to the balancing constraint (Eqn 4, as in
Appendix A) mean_j f(x_j) = zeta_0 over the unlabeled rows, zeta_0 the
labeled rows' mean label in 002 (here 2r - 1 when ``r`` is given).
R_s = H_1 - H_s, so J^s is convex + concave (Eqn 9); each CCCP step
replaces the concave part by its tangent, beta_i = C* where y_i f(x_i) < s
(Eqn 11), and solves the convex rest in the dual on L + 2U + 1 variables
(Eqn 27): bounds 0 <= y_i a_i <= C (labeled), -beta_i <= y_i a_i <= C* -
beta_i (unlabeled copies), a free variable for the extra example x_0 (Eqn
10) whose multiplier enforces the balance, and sum_i a_i = 0.  Algorithm
2: start from the SVM on the labeled rows (the same SMO on L variables),
repeat until beta repeats.  beta takes finitely many values and J^s drops
at each step, so the loop ends (002 Sec. 3); ``max_iter`` caps it anyway.
With no unlabeled row J^s is the SVM's (convex, no balance to meet), so
Algorithm 2's start is the answer: one CCCP step, C* unused.

Decisions (002 is silent):

- The bias is b = -G_0 (the gradient of x_0's free variable), which meets
  the balance exactly; J^s is evaluated at the returned (a, b).
- Between steps the variables are projected into the new bounds and x_0's
  variable takes up the change of sum_i a_i (it is free), so each SMO starts
  feasible from the previous solution (warm start).
- ``tol`` is SMO's stopping rule (maximal KKT violation, libsvm's 1e-3 by
  default); the CCCP objective is non-increasing up to what that leaves.

Returns the coefficients of f(x) = sum_d coef_d K(x_d, x) + b over the n
training rows (x_0's variable spread over the unlabeled rows), b, the
outputs f on the training rows and a :class:`~ssl_repro.solvers.SolverInfo`
(``objective_path``: (step, J^s); ``own_objective`` J^s; work counters
``smo_iterations``, ``kernel_evaluations``).
"""
import time

import numpy as np

from ssl_repro.solvers.info import SolverInfo, fixed_cap, larger
from ssl_repro.kernel.rows import CACHE_BYTES, RowCache, cache_rows_for
from ssl_repro.kernel.smo import Dual, bias, smo

#: Cap on CCCP steps (002: "around five iteration steps are usually sufficient").
MAX_CCCP_ITER = 50
#: Cap on the SMO steps of one convex problem.
MAX_SMO_ITER = 10_000_000


def ramp_objective(norm_sq, f, labeled, y, unlabeled, C, C_star, s):
    """J^s of Eqn 3 from ||w||^2 and the outputs ``f`` on the training rows."""
    hinge = np.maximum(0.0, 1.0 - y * f[labeled]).sum()
    f_u = f[unlabeled]
    ramp = np.minimum(1.0 - s, np.maximum(0.0, 1.0 - f_u)) + np.minimum(1.0 - s, np.maximum(0.0, 1.0 + f_u))
    return float(0.5 * norm_sq + C * hinge + C_star * ramp.sum())


def _apply(cache, dual, a, new_a, g, g0):
    """Move ``a`` to ``new_a`` and update the gradient parts (g, g0); returns g0."""
    delta = dual.row_sums(new_a - a, g.size)
    d0 = float(new_a[dual.special] - a[dual.special])
    for d in np.flatnonzero(delta):
        g += delta[d] * cache.row(d)
    g += d0 * dual.k0
    a[:] = new_a
    return g0 + float(delta @ dual.k0) + d0 * dual.k00


def _supervised(cache, labeled, y, C, tol, info):
    """SVM on the labeled rows (Algorithm 2's start): (a, per-row gradient g, b)."""
    dual = Dual(labeled, y.copy(), np.where(y > 0, 0.0, -C), np.where(y > 0, C, 0.0))
    a, g = np.zeros(labeled.size), np.zeros(cache.sq.size)
    steps, converged, _ = smo(dual, cache, a, g, 0.0, tol, MAX_SMO_ITER)
    info.smo_iterations += steps
    if not converged:
        info.inner_cap("max_smo_iter")
    return a, g, bias(dual, a, dual.gradient(g, 0.0))


def kernel_cccp_tsvm(X, labeled, y, unlabeled, C, C_star, s=-0.3, r=None, kernel="rbf", gamma=1.0, tol=1e-3,
                     max_iter=MAX_CCCP_ITER, cache_bytes=CACHE_BYTES, on_step=None):
    """Algorithm 2 of 002 on the CSR rows ``X`` (see module doc); returns (coef, b, f, SolverInfo).

    ``labeled``/``unlabeled`` index X's rows, ``y`` holds +1/-1 for the labeled ones; ``on_step(step,
    coef, b)`` is called after each CCCP step (002 Fig 4's test error along the iterations).
    """
    start = time.perf_counter()
    if not s < 1:
        raise ValueError(f"the ramp plateau s must be < 1, got {s!r}")
    labeled, unlabeled = np.asarray(labeled, dtype=np.int64), np.asarray(unlabeled, dtype=np.int64)
    y = np.asarray(y, dtype=np.float64)
    L, U, n = labeled.size, unlabeled.size, X.shape[0]
    cache = RowCache(X, kernel, gamma, cache_rows_for(n, cache_bytes, "kernel CCCP-TSVM"))
    info = SolverInfo("kernel_cccp_tsvm")
    a_sup, g, b = _supervised(cache, labeled, y, C, tol, info)
    f = g + b
    if U == 0:                      # the SVM is the answer (module doc)
        coef = np.zeros(n)
        coef[labeled] = a_sup
        info.cccp_iterations = 1
        info.objective_path.append((1, ramp_objective(float(coef @ g), f, labeled, y, unlabeled, C, 0.0, s)))
        return coef, b, f, _finish(info, cache, f, unlabeled, start, max_iter)
    k0 = cache.mean_row(unlabeled)
    dual = Dual(np.r_[0, labeled, unlabeled, unlabeled],
                np.r_[float(np.mean(y)) if r is None else 2.0 * r - 1.0, y, np.ones(U), -np.ones(U)],
                None, None, special=0, k0=k0, k00=float(k0[unlabeled].mean()))
    sign = np.r_[np.ones(U), -np.ones(U)]
    a = np.r_[0.0, a_sup, np.zeros(2 * U)]
    g0 = float(k0[labeled] @ a_sup)
    beta = None
    for step in range(1, max_iter + 2):
        new_beta = np.where(sign * f[dual.owner[L + 1:]] < s, C_star, 0.0)
        if beta is not None and np.array_equal(new_beta, beta):
            break   # Algorithm 2: beta repeats
        if step > max_iter:
            info.stop("max_iter")
            break
        beta = new_beta
        lo_u, hi_u = np.where(sign > 0, -beta, beta - C_star), np.where(sign > 0, C_star - beta, beta)
        dual.lo = np.r_[-np.inf, np.where(y > 0, 0.0, -C), lo_u]
        dual.hi = np.r_[np.inf, np.where(y > 0, C, 0.0), hi_u]
        new_a = np.clip(a, dual.lo, dual.hi)
        new_a[0] -= new_a.sum()
        g0 = _apply(cache, dual, a, new_a, g, g0)
        steps, converged, g0 = smo(dual, cache, a, g, g0, tol, MAX_SMO_ITER)
        info.smo_iterations += steps
        if not converged:
            info.inner_cap("max_smo_iter")
        G = dual.gradient(g, g0)
        b = bias(dual, a, G)
        f = g + b
        norm_sq = float(dual.row_sums(a, n) @ g) + float(a[0]) * g0
        info.cccp_iterations = step
        info.objective_path.append((step, ramp_objective(norm_sq, f, labeled, y, unlabeled, C, C_star, s)))
        if on_step is not None:
            on_step(step, _coef(dual, a, unlabeled, n), b)
    return _coef(dual, a, unlabeled, n), b, f, _finish(info, cache, f, unlabeled, start, max_iter)


def _finish(info, cache, f, unlabeled, start, max_iter):
    """``info`` completed: the caps warned, J^s, the positive fraction (unlabeled rows), the work, the time."""
    info.warn_if_capped({"max_iter": larger("max_iter", max_iter),
                         "max_smo_iter": fixed_cap(f"{MAX_SMO_ITER} SMO steps per convex problem")})
    info.own_objective = info.objective_path[-1][1]
    if unlabeled.size:
        info.positive_fraction = float(np.mean(f[unlabeled] > 0))
    info.kernel_evaluations = int(cache.counts[1])
    info.seconds = time.perf_counter() - start
    return info


def _coef(dual, a, unlabeled, n):
    """coef_d = c_d, plus a_0 / U on the unlabeled rows (x_0 is their mean)."""
    coef = dual.row_sums(a, n)
    coef[unlabeled] += a[0] / unlabeled.size
    return coef
