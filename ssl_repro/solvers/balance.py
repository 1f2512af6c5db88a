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

p and 1 - p are both returned, each computed from the logit as
``scipy.special.expit`` does, so neither overflows nor loses precision
near 0 or 1 for any T, r or output scale.
"""
from dataclasses import dataclass

import numba
import numpy as np
from scipy.special import entr

#: Tolerance on |B(nu)| and on the bracket width, and iteration cap (Table 6).
TOL, MAX_ITER = 1e-10, 500
#: Outputs are clipped to this magnitude before squaring so g stays finite.
OUTPUT_CLIP = 1e150
#: The smallest positive double, standing in for a belief that underflowed to 0.
TINY = np.finfo(np.float64).tiny


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


#: Rows per block of the compiled sums; block sums are added in block order,
#: so a sum is the same bit for bit whatever the number of threads.
BLOCK = 1024


@numba.njit(parallel=True, cache=True, nogil=True)
def _belief_sums(g, nu, T):
    """sum_j p_j and sum_j p_j (1 - p_j) for p_j = expit((nu - g_j) / T), in one compiled pass.

    p and 1 - p come from :func:`_expit_pair`; sums are taken per block of
    :data:`BLOCK` rows (the blocks in parallel) then over the blocks in
    order, so the rounding error stays near numpy's pairwise sums.
    """
    n = g.shape[0]
    n_blocks = (n + BLOCK - 1) // BLOCK
    block_p = np.empty(n_blocks)
    block_pq = np.empty(n_blocks)
    for b in numba.prange(n_blocks):
        sum_p = 0.0
        sum_pq = 0.0
        for j in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            p, q = _expit_pair((nu - g[j]) / T)
            sum_p += p
            sum_pq += p * q
        block_p[b] = sum_p
        block_pq[b] = sum_pq
    total_p = 0.0
    total_pq = 0.0
    for b in range(n_blocks):
        total_p += block_p[b]
        total_pq += block_pq[b]
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
            with np.errstate(over="ignore"):    # a denormal dB: an infinite Newton step, outside the bracket
                candidate = nu - B / dB         # (so bisection takes it), not a warning
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
    p, q = _beliefs(g, nu, T)
    return Beliefs(p, q, float(nu), it, converged)


@numba.njit(parallel=True, cache=True, nogil=True)
def _beliefs(g, nu, T):
    """p = expit((nu - g) / T) and q = 1 - p = expit((g - nu) / T), from one exp per row."""
    n = g.shape[0]
    p = np.empty(n)
    q = np.empty(n)
    for j in numba.prange(n):
        p[j], q[j] = _expit_pair((nu - g[j]) / T)
    return p, q


@numba.njit(cache=True, inline="always")
def _expit_pair(t):
    """(expit(t), expit(-t)) from e = exp(-|t|): the larger is 1 / (1 + e), the
    smaller e / (1 + e) (scipy's ``expit`` formulas; never overflows)."""
    e = np.exp(-abs(t))
    big, small = 1.0 / (1.0 + e), e / (1.0 + e)
    return (big, small) if t >= 0 else (small, big)


def kl_divergence(new, old):
    """Eqn 16: sum_j p log(p/q) + (1-p) log((1-p)/(1-q)) between two :class:`Beliefs`.

    Finite even where an old p (or 1 - p) underflowed to 0 at a small T: a
    zero there counts as the smallest positive double (its log is -708), so
    the term is p (log p + 708) instead of +inf.
    """
    return float(_kl_sum(new.p, new.q, old.p, old.q))


@numba.njit(parallel=True, cache=True, nogil=True)
def _kl_sum(p, q, p_old, q_old):
    """Eqn 16 in one compiled pass (DA calls it once per OPTIMIZE-P, on u rows).

    Each term is scipy's ``rel_entr(a, b) = a log(a / b)`` (0 for a = 0),
    with b = 0 read as the smallest positive double; summed per block of
    :data:`BLOCK` rows, then over the blocks in order, as in :func:`_belief_sums`.
    """
    n = p.shape[0]
    n_blocks = (n + BLOCK - 1) // BLOCK
    blocks = np.empty(n_blocks)
    for b in numba.prange(n_blocks):
        block = 0.0
        for j in range(b * BLOCK, min(n, (b + 1) * BLOCK)):
            block += _relative_entropy(p[j], p_old[j]) + _relative_entropy(q[j], q_old[j])
        blocks[b] = block
    total = 0.0
    for b in range(n_blocks):
        total += blocks[b]
    return total


@numba.njit(cache=True, inline="always")
def _relative_entropy(a, b):
    """a log(a / b), 0 for a = 0, with b = 0 read as the smallest positive double."""
    if a == 0.0:
        return 0.0
    if b > 0.0:
        return a * np.log(a / b)
    return a * (np.log(a) - np.log(TINY))


def entropy(beliefs):
    """Eqn 17: H(p) = -sum_j p log p + (1-p) log(1-p)."""
    return float(entr(beliefs.p).sum() + entr(beliefs.q).sum())


def unsettled_entropy(g, T, r):
    """The entropy (Eqn 17) DA's stopping rule compares with u*eps, for beliefs from loss gaps g at T.

    The papers stop when H(p) <= u*eps: every belief (nearly) 0 or 1.  With
    the balance constraint sum p = r u (Eqn 9) that is reachable only for an
    integer r u; otherwise one unit of mass is always split between the rows
    nearest the boundary, and H(p) stays above h(f), f the fractional part of
    r u.  So the test is taken at the nearest integer masses instead: p is
    recomputed from the same g and T with the root nu moved so that
    sum p = m, for m = floor(r u) and ceil(r u), and the smaller of the two
    entropies is returned.  For an integer r u both are H(p) itself (the
    papers' rule unchanged); for any r it is small exactly when the beliefs
    are 0/1 but for the rows that share the fractional unit, so it reaches
    u*eps as T falls whenever the gaps of those rows differ.  The masses are
    kept within [1, u - 1] (for r u < 1 the mass 1, for r u > u - 1 the mass
    u - 1): at mass 0 or u every belief would be 0 or 1 whatever g is, and
    the test would call the initial p = r settled.  With u = 1 no mass is
    left and 0 is returned: one row's belief is r at every temperature.
    """
    n = g.shape[0]
    mass = r * n
    if n < 2:
        return 0.0
    masses = {min(max(m, 1.0), n - 1.0) for m in (np.floor(mass), np.ceil(mass))}
    return min(entropy(beliefs_for_gaps(g, T, m / n)) for m in masses)


def unsettled_at_start(eps, r, h, u):
    """The message of DA's refusal when the initial beliefs p = r already pass the stopping test
    (entropy ``h`` from :func:`unsettled_entropy` not above ``u * eps``): the loop would not run."""
    if u < 2:
        return f"deterministic annealing needs at least 2 unlabeled rows to settle beliefs on, got {u}"
    room = h / u
    return (f"eps={eps!r} is not below the entropy per unlabeled row of the initial beliefs p = r = {r!r} "
            f"at the nearest integer mass ({room:.3g}), so the annealing loop would not run: lower eps below "
            f"{room:.3g}")
