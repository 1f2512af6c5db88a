"""OPTIMIZE-P (Table 6, Eqn 15): the belief probabilities p for fixed w.

For fixed outputs o' on the unlabeled rows, the p minimizing the annealing
objective (Eqn 8) under the balance constraint mean(p) = r (Eqn 9) is
    p_j = 1 / (1 + exp((g_j - nu) / T)),
    g_j = lambda' (max(0, 1 - o'_j)^2 - max(0, 1 + o'_j)^2),
where nu (the "2 nu" of Eqn 15) is the root of the increasing function
B(nu) = mean(p(nu)) - r.  The sign follows from Eqn 15 (large positive
outputs give very negative g and p -> 1); the exponent's sign in the
extracted Table 6 is garbled.  The root is found by the hybrid
Newton/bisection of Table 6 inside the bracket
[min g - T log((1-r)/r), max g - T log((1-r)/r)].

p and 1 - p are both returned, each computed from the logit with
``scipy.special.expit``, so neither overflows nor loses precision near 0
or 1 for any T, r or output scale.
"""
from dataclasses import dataclass

import numba
import numpy as np
from scipy.special import entr, expit, rel_entr, xlogy

#: Tolerance on |B(nu)| and on the bracket width, and iteration cap (Table 6).
TOL, MAX_ITER = 1e-10, 500
#: Outputs are clipped to this magnitude before squaring so g stays finite.
OUTPUT_CLIP = 1e150


@dataclass
class Beliefs:
    """p, 1 - p, the root nu and the iterations spent finding it."""

    p: np.ndarray
    q: np.ndarray
    nu: float
    iterations: int
    #: False when the root search stopped on its iteration cap (MAX_ITER) with |B(nu)| > tol.
    converged: bool = True


def unlabeled_loss_gap(o_unlabeled, lam_u):
    """g_j of Eqn 15: lambda' times (loss as positive - loss as negative)."""
    o = np.clip(o_unlabeled, -OUTPUT_CLIP, OUTPUT_CLIP)
    as_pos = np.maximum(0.0, 1.0 - o)
    as_neg = np.maximum(0.0, 1.0 + o)
    return lam_u * (as_pos * as_pos - as_neg * as_neg)


def balance_function(g, nu, T, r):
    """B(nu) = mean(p) - r and its derivative B'(nu) = mean(p (1 - p)) / T."""
    sum_p, sum_pq = _belief_sums(g, nu, T)
    return sum_p / g.shape[0] - r, sum_pq / g.shape[0] / T


@numba.njit(cache=True, nogil=True)
def _belief_sums(g, nu, T):
    """sum_j p_j and sum_j p_j (1 - p_j) for p_j = expit((nu - g_j) / T), in one compiled pass.

    p and 1 - p come from exp(-|t|) (never overflows; the smaller one is
    exact to rounding); sums are taken per block of 1024 then over the
    blocks, so the rounding error stays near numpy's pairwise sums.
    """
    total_p = 0.0
    total_pq = 0.0
    n = g.shape[0]
    for start in range(0, n, 1024):
        block_p = 0.0
        block_pq = 0.0
        for j in range(start, min(n, start + 1024)):
            t = (nu - g[j]) / T
            e = np.exp(-abs(t))
            big, small = 1.0 / (1.0 + e), e / (1.0 + e)
            p = big if t >= 0 else small
            block_p += p
            block_pq += big * small
        total_p += block_p
        total_pq += block_pq
    return total_p, total_pq


def optimize_p(o_unlabeled, lam_u, T, r, tol=TOL, max_iter=MAX_ITER):
    """Table 6: solve mean(p) = r for nu and return the :class:`Beliefs`."""
    return beliefs_for_gaps(unlabeled_loss_gap(o_unlabeled, lam_u), T, r, tol, max_iter)


def beliefs_for_gaps(g, T, r, tol=TOL, max_iter=MAX_ITER):
    """p_j = 1/(1 + exp((g_j - nu)/T)) with nu the root of mean(p) = r (Table 6's hybrid
    Newton/bisection); any loss gaps g (e.g. the kernel losses of 001's Eqn 8)."""
    shift = T * np.log((1.0 - r) / r)
    lo, hi = g.min() - shift, g.max() - shift
    nu = 0.5 * (lo + hi)
    B, dB = balance_function(g, nu, T, r)
    it = 0
    converged = True
    while abs(B) > tol and it < max_iter:
        it += 1
        step_ok = dB > 0
        if step_ok:
            candidate = nu - B / dB
            step_ok = lo <= candidate <= hi
        nu = candidate if step_ok else 0.5 * (lo + hi)
        B, dB = balance_function(g, nu, T, r)
        if B < 0:
            lo = nu
        else:
            hi = nu
        if hi - lo < tol:
            break
    else:
        converged = abs(B) <= tol
    t = (nu - g) / T
    return Beliefs(expit(t), expit(-t), float(nu), it, converged)


def kl_divergence(new, old):
    """Eqn 16: sum_j p log(p/q) + (1-p) log((1-p)/(1-q)) between two :class:`Beliefs`.

    Finite even where an old p (or 1 - p) underflowed to 0 at a small T: a
    zero there counts as the smallest positive double (its log is -708), so
    the term is p (log p + 708) instead of +inf.
    """
    return float(_relative_entropy(new.p, old.p).sum() + _relative_entropy(new.q, old.q).sum())


def _relative_entropy(a, b):
    """a log(a / b) elementwise, with b = 0 read as the smallest positive double."""
    safe = xlogy(a, a) - a * np.log(np.maximum(b, np.finfo(np.float64).tiny))
    return np.where(b > 0, rel_entr(a, b), safe)


def entropy(beliefs):
    """Eqn 17: H(p) = -sum_j p log p + (1-p) log(1-p)."""
    return float(entr(beliefs.p).sum() + entr(beliefs.q).sum())
