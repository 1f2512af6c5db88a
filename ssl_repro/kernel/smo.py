"""SMO for the SVM-type duals of CCCP-TSVM (002, Eqn 27), the package's own.

The problem, in 002's variables alpha~ (here ``a``):

    min_a  f(a) = 1/2 a' Q a - zeta' a   s.t.  sum_i a_i = 0,  lo_i <= a_i <= hi_i,

Q_ij = K(x_owner(i), x_owner(j)): several variables may share a training row
(002's two copies of each unlabeled row), and one optional free variable
(``special``, bounds -inf/+inf) stands for 002's extra example x_0 whose
kernel row is the mean of the unlabeled rows' (Eqn 10); its multiplier
enforces the balancing constraint.  002's dual objective is -f.

Method: sequential minimal optimization (Platt 1999) with the second-order
working-set selection of Fan, Chen & Lin (JMLR 2005, WSS 2): i is the
variable that may grow with the smallest gradient, j among those that may
shrink the one maximizing (G_j - G_i)^2 / eta_ij, eta_ij = Q_ii + Q_jj -
2 Q_ij (a tiny TAU where eta <= 0: two copies of one row, whose pair step
goes to a bound); the pair moves by the clipped Newton step.  The solver
stops when the maximal violation max{G_j : a_j > lo_j} - min{G_i : a_i <
hi_i} is at most ``tol`` (libsvm's rule, default 1e-3) or after
``max_iter`` steps.  The gradient is kept per training row (g = sum_d c_d
K(x_d, .) + a_0 K(x_0, .), c_d the sum of the a of row d's variables), so
a step touches two kernel rows, through the cache of
:mod:`ssl_repro.kernel.rows`.  No shrinking: a step costs two passes over
the L + 2U variables and one over the n rows, the same order as a cached
kernel row, so removing bounded variables from the passes saves little
next to computing rows; it is not done.
"""
from dataclasses import dataclass

import numba
import numpy as np

from ssl_repro.kernel.rows import kernel_row

#: eta used where Q_ii + Q_jj - 2 Q_ij <= 0 (libsvm's TAU).
TAU = 1e-12


@dataclass
class Dual:
    """One dual of the form of the module doc; ``special`` is the position of the free variable
    of x_0 (-1: none), ``k0`` its kernel row over the training rows, ``k00`` = K(x_0, x_0)."""

    owner: np.ndarray
    zeta: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    special: int = -1
    k0: np.ndarray = None
    k00: float = 0.0

    def gradient(self, g, g0):
        """G_i = (Q a)_i - zeta_i from the per-row part ``g`` and x_0's ``g0``."""
        G = g[self.owner] - self.zeta
        if self.special >= 0:
            G[self.special] = g0 - self.zeta[self.special]
        return G

    def row_sums(self, a, n_rows):
        """c_d = sum of the a of row d's variables (x_0's variable excluded)."""
        regular = np.ones(a.size, dtype=bool)
        if self.special >= 0:
            regular[self.special] = False
        return np.bincount(self.owner[regular], weights=a[regular], minlength=n_rows)


@numba.njit(cache=True, nogil=True)
def _smo_loop(owner, special, k0, k00, zeta, lo, hi, a, g, g0, diag, tol, max_iter,
              indptr, indices, data, sq, kernel, gamma, rows, slot_of, row_in, used, work, counts):
    n_var = a.shape[0]
    for it in range(max_iter):
        g_min, g_max, i = np.inf, -np.inf, -1
        for t in range(n_var):
            G = (g0[0] if t == special else g[owner[t]]) - zeta[t]
            if a[t] < hi[t] and G < g_min:
                g_min, i = G, t
            if a[t] > lo[t] and G > g_max:
                g_max = G
        if g_max - g_min <= tol:
            return it, True
        if i == special:
            row_i, q_ii = k0, k00
        else:
            row_i, q_ii = kernel_row(owner[i], indptr, indices, data, sq, kernel, gamma, rows, slot_of, row_in,
                                     used, work, counts), diag[owner[i]]
        j, best, eta_j = -1, -1.0, 1.0
        for t in range(n_var):
            if a[t] > lo[t]:
                G = (g0[0] if t == special else g[owner[t]]) - zeta[t]
                gap = G - g_min
                if gap > 0.0:
                    if t == special:
                        eta = q_ii + k00 - 2.0 * (k00 if i == special else k0[owner[i]])
                    else:
                        eta = q_ii + diag[owner[t]] - 2.0 * row_i[owner[t]]
                    if eta <= 0.0:
                        eta = TAU
                    if gap * gap / eta > best:
                        j, best, eta_j = t, gap * gap / eta, eta
        G_j = (g0[0] if j == special else g[owner[j]]) - zeta[j]
        step = min((G_j - g_min) / eta_j, hi[i] - a[i], a[j] - lo[j])
        a[i] += step
        a[j] -= step
        if i != special and j != special and owner[i] == owner[j]:
            continue   # two copies of one row: Q a unchanged
        # rows of i and j: row_i is the most recently used slot, so fetching row_j keeps it
        if j == special:
            row_j, r0_j = k0, k00
        else:
            row_j, r0_j = kernel_row(owner[j], indptr, indices, data, sq, kernel, gamma, rows, slot_of, row_in,
                                     used, work, counts), k0[owner[j]] if special >= 0 else 0.0
        r0_i = k00 if i == special else (k0[owner[i]] if special >= 0 else 0.0)
        for e in range(g.shape[0]):
            g[e] += step * (row_i[e] - row_j[e])
        g0[0] += step * (r0_i - r0_j)
    return max_iter, False


def smo(dual, cache, a, g, g0, tol=1e-3, max_iter=10_000_000):
    """Minimize the dual from the feasible ``a`` whose gradient parts are ``g``, ``g0`` (all three
    updated in place); returns (SMO steps, converged)."""
    k0 = dual.k0 if dual.k0 is not None else np.zeros(1)
    g0_box = np.array([g0], dtype=np.float64)
    steps, converged = _smo_loop(dual.owner, dual.special, k0, float(dual.k00), dual.zeta, dual.lo, dual.hi,
                                 a, g, g0_box, cache.diagonal(), float(tol), int(max_iter), *cache.arrays())
    return int(steps), bool(converged), float(g0_box[0])


def bias(dual, a, G):
    """b of f = sum_i a_i K(x_i, .) + b: -G of x_0's free variable when there is one (which makes
    the mean unlabeled output meet the balance exactly), else -G averaged over the free variables,
    else minus the middle of the interval the KKT conditions leave (libsvm's rule)."""
    if dual.special >= 0:
        return -float(G[dual.special])
    free = (a > dual.lo) & (a < dual.hi)
    if free.any():
        return -float(G[free].mean())
    up, down = G[a < dual.hi], G[a > dual.lo]
    return -0.5 * (float(up.min() if up.size else down.max()) + float(down.max() if down.size else up.min()))


def dual_objective(dual, a, g, g0):
    """002's dual objective zeta' a - 1/2 a' Q a (Eqn 27) from the gradient parts."""
    quad = float(dual.row_sums(a, g.size) @ g) + (float(a[dual.special]) * g0 if dual.special >= 0 else 0.0)
    return float(dual.zeta @ a) - 0.5 * quad
