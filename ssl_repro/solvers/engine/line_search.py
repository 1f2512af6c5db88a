"""Exact line search for the piecewise-quadratic MFN objective (Table 3).

phi(delta) = f(w + delta (wbar - w)) is convex and piecewise quadratic; its
derivative is piecewise linear with break points where a pseudo-row enters
or leaves the active set.  The loss hands out those pieces
(:meth:`.loss.SquaredHingeLoss.line_pieces`: the values L = phi'_k(0) and
R = phi'_k(1) of the first linear piece, the break points and the change
each makes to L and R); Table 3's walk over the break points runs here,
in compiled code, in expected linear time (:func:`_walk_break_points`).
"""
import numba
import numpy as np


def line_search(loss, w, w_bar, o, o_bar):
    """Return delta* = argmin_{delta >= 0} f(w + delta (w_bar - w)) (Table 3).

    Parameters
    ----------
    loss : SquaredHingeLoss
        f, used through :meth:`~.loss.SquaredHingeLoss.line_pieces` only.
    w, w_bar : weight vectors (current point and Newton point)
    o, o_bar : outputs of the loss's distinct rows at ``w`` and ``w_bar``
    """
    return _walk_break_points(*loss.line_pieces(w, w_bar, o, o_bar))


#: Below this many break points the walk sorts them; above, it narrows them down by partitioning.
SORTED_WALK = 32


@numba.njit(cache=True, nogil=True)
def _walk_break_points(L, R, breaks, dL, dR):
    """Table 3 from the first linear piece (L, R) and the break points with their changes.

    Table 3 walks the break points in increasing order and stops at the
    first linear piece whose root lies before its break point.  phi' is
    continuous and non-decreasing, so whether the walk gets past a value t
    is decided by the sign of phi'(t), and phi'(t) needs only the sums of
    the changes of the break points below t, in any order.  So instead of
    sorting all break points (DA has up to 2u + l of them), the walk
    partitions them around a pivot t (quickselect): if phi'(t) < 0 every
    break point up to t is crossed and the search goes on above t, else
    below t; a few dozen left are walked in sorted order.  Expected linear
    time; the same step as the sorted walk up to the order of the
    floating-point additions.  The arrays are reordered in place.
    """
    if L >= 0.0:
        # phi'(0) >= 0: no descent along wbar - w (never the case for a Newton
        # point), so the minimizer over delta >= 0 is 0.
        return 0.0
    lo, hi = 0, breaks.shape[0]
    while hi - lo > SORTED_WALK:
        t = _median_of_three(breaks[lo], breaks[(lo + hi) // 2], breaks[hi - 1])
        below, above, sum_dL, sum_dR, tie_dL, tie_dR = _partition(breaks, dL, dR, lo, hi, t)
        L_t, R_t = L + sum_dL, R + sum_dR        # the piece that holds t
        if L_t + t * (R_t - L_t) < 0.0:          # phi'(t) < 0: the walk crosses everything up to t
            L, R = L_t + tie_dL, R_t + tie_dR
            lo = above
        else:
            hi = below
    for k in lo + np.argsort(breaks[lo:hi]):
        if L + breaks[k] * (R - L) >= 0.0:
            break
        L += dL[k]
        R += dR[k]
    if R - L <= 0.0:
        # phi is flat along dw (dw = 0): any step is optimal.
        return 1.0
    return -L / (R - L)


@numba.njit(cache=True, nogil=True, inline="always")
def _median_of_three(a, b, c):
    return max(min(a, b), min(max(a, b), c))


@numba.njit(cache=True, nogil=True)
def _partition(breaks, dL, dR, lo, hi, t):
    """Three-way partition of [lo, hi) around t: break points < t, == t, > t (in that order).

    Returns (start of the == t part, start of the > t part, the sums of dL
    and dR over the < t part, and over the == t part).
    """
    below, k, above = lo, lo, hi
    sum_dL = sum_dR = tie_dL = tie_dR = 0.0
    while k < above:
        b = breaks[k]
        if b < t:
            sum_dL += dL[k]
            sum_dR += dR[k]
            _swap(breaks, dL, dR, k, below)
            below += 1
            k += 1
        elif b > t:
            above -= 1
            _swap(breaks, dL, dR, k, above)
        else:
            tie_dL += dL[k]
            tie_dR += dR[k]
            k += 1
    return below, above, sum_dL, sum_dR, tie_dL, tie_dR


@numba.njit(cache=True, nogil=True, inline="always")
def _swap(breaks, dL, dR, i, j):
    breaks[i], breaks[j] = breaks[j], breaks[i]
    dL[i], dL[j] = dL[j], dL[i]
    dR[i], dR[j] = dR[j], dR[i]
