"""Exact line search for the piecewise-quadratic MFN objective (Table 3).

phi(delta) = f(w + delta (wbar - w)) is convex and piecewise quadratic; its
derivative is piecewise linear with break points where a pseudo-row enters
or leaves the active set.  The loss hands out those pieces
(:meth:`.loss.SquaredHingeLoss.line_pieces`: the values L = phi'_k(0) and
R = phi'_k(1) of the first linear piece, the break points and the change
each makes to L and R); Table 3's walk over the sorted break points runs
here, in compiled code.
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


@numba.njit(cache=True, nogil=True)
def _walk_break_points(L, R, breaks, dL, dR):
    """Table 3 from the first linear piece (L, R) and the break points with their changes.

    A sort orders the break points; the walk stops at the first linear
    piece whose root lies before its break point.
    """
    if L >= 0.0:
        # phi'(0) >= 0: no descent along wbar - w (never the case for a Newton
        # point), so the minimizer over delta >= 0 is 0.
        return 0.0
    # ties in delta: their order changes L, R only by rounding, so the
    # in-place quicksort (no merge buffer) is enough
    for k in np.argsort(breaks):
        if L + breaks[k] * (R - L) >= 0.0:
            break
        L += dL[k]
        R += dR[k]
    if R - L <= 0.0:
        # phi is flat along dw (dw = 0): any step is optimal.
        return 1.0
    return -L / (R - L)
