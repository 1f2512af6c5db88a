"""Exact line search for the piecewise-quadratic MFN objective (Table 3).

phi(delta) = f(w + delta (wbar - w)) is convex and piecewise quadratic; its
derivative is piecewise linear with break points where a pseudo-row enters
or leaves the active set.  Table 3 walks the sorted break points keeping the
values L = phi'_k(0) and R = phi'_k(1) of the current linear piece; here
the walk runs in compiled code over the sorted break points only (no
temporary arrays the size of the pseudo-rows: DA has 2u + l of them).
"""
import numba
import numpy as np


def line_search(w, w_bar, o, o_bar, y, c, lam, linear=None, owner=None):
    """Return delta* = argmin_{delta >= 0} f(w + delta (w_bar - w)) (Table 3).

    Parameters
    ----------
    w, w_bar : weight vectors (current point and Newton point)
    o, o_bar : outputs of the pseudo-rows at ``w`` and ``w_bar`` (or of the
        distinct rows, with ``owner``)
    y, c : labels (+1/-1) and costs of the pseudo-rows
    lam : regularization lambda
    linear : optional linear term v of f (adds v . (w_bar - w) to phi')
    owner : optional int array: pseudo-row k has the outputs ``o[owner[k]]``
        (see :class:`.loss.SquaredHingeLoss`), so they need not be copied out
    """
    dw = w_bar - w
    L0 = lam * (w @ dw)
    R0 = lam * (w_bar @ dw)
    if linear is not None:
        L0 += linear @ dw
        R0 += linear @ dw
    if owner is None:
        return _walk_break_points(o, o_bar, y, c, L0, R0, np.arange(0), False)
    return _walk_break_points(o, o_bar, y, c, L0, R0, owner, True)


@numba.njit(cache=True, nogil=True)
def _walk_break_points(o_rows, o_bar_rows, y, c, L, R, owner, has_owner):
    """Table 3 on the pseudo-rows, given the weight parts L0, R0 of phi'(0) and phi'(1).

    One pass adds the active rows' parts to L and R and collects the break
    points (rows whose active state changes at delta = (y - o)/(o_bar - o)
    > 0); a sort orders them; the walk stops at the first linear piece
    whose root lies before its break point.
    """
    n = y.shape[0]
    n_breaks = 0
    for i in range(n):
        j = owner[i] if has_owner else i
        o, do = o_rows[j], o_bar_rows[j] - o_rows[j]
        if y[i] * o < 1.0:
            L += c[i] * (o - y[i]) * do
            R += c[i] * (o_bar_rows[j] - y[i]) * do
            if y[i] * do > 0.0:
                n_breaks += 1
        elif y[i] * do < 0.0:
            n_breaks += 1
    if L >= 0.0:
        # phi'(0) >= 0: no descent along wbar - w (never the case for a Newton
        # point), so the minimizer over delta >= 0 is 0.
        return 0.0
    idx = np.empty(n_breaks, np.int64)
    breaks = np.empty(n_breaks)
    k = 0
    for i in range(n):
        j = owner[i] if has_owner else i
        o, do = o_rows[j], o_bar_rows[j] - o_rows[j]
        active = y[i] * o < 1.0
        if (active and y[i] * do > 0.0) or (not active and y[i] * do < 0.0):
            idx[k] = i
            breaks[k] = (y[i] - o) / do
            k += 1
    # ties in delta: their order changes L, R only by rounding, so the
    # in-place quicksort (no merge buffer) is enough
    for k in np.argsort(breaks):
        if L + breaks[k] * (R - L) >= 0.0:
            break
        i = idx[k]
        j = owner[i] if has_owner else i
        o, do = o_rows[j], o_bar_rows[j] - o_rows[j]
        # leaving j (Delta_1) removes the row's part of phi', entering (Delta_2) adds it
        sign = -1.0 if y[i] * o < 1.0 else 1.0
        L += sign * c[i] * do * (o - y[i])
        R += sign * c[i] * do * (o_bar_rows[j] - y[i])
    if R - L <= 0.0:
        # phi is flat along dw (dw = 0): any step is optimal.
        return 1.0
    return -L / (R - L)
