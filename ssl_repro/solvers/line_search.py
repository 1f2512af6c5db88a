"""Exact line search for the piecewise-quadratic MFN objective (Table 3).

phi(delta) = f(w + delta (wbar - w)) is convex and piecewise quadratic; its
derivative is piecewise linear with break points where a pseudo-row enters
or leaves the active set.  Table 3 walks the sorted break points keeping the
values L = phi'_k(0) and R = phi'_k(1) of the current linear piece; here
the walk is vectorized with cumulative sums, which gives the same result.
"""
import numpy as np


def line_search(w, w_bar, o, o_bar, y, c, lam, linear=None):
    """Return delta* = argmin_{delta >= 0} f(w + delta (w_bar - w)) (Table 3).

    Parameters
    ----------
    w, w_bar : weight vectors (current point and Newton point)
    o, o_bar : outputs of the pseudo-rows at ``w`` and ``w_bar``
    y, c : labels (+1/-1) and costs of the pseudo-rows
    lam : regularization lambda
    linear : optional linear term v of f (adds v . (w_bar - w) to phi')
    """
    dw = w_bar - w
    do = o_bar - o
    active = y * o < 1.0
    ca = np.where(active, c, 0.0)
    L = lam * (w @ dw) + ca @ ((o - y) * do)
    R = lam * (w_bar @ dw) + ca @ ((o_bar - y) * do)
    if linear is not None:
        L += linear @ dw
        R += linear @ dw
    if L >= 0.0:
        # phi'(0) >= 0: no descent along wbar - w (never the case for a Newton
        # point), so the minimizer over delta >= 0 is 0.
        return 0.0
    slope_dir = y * do
    leaving = active & (slope_dir > 0.0)     # Delta_1: leaves j when crossed
    entering = ~active & (slope_dir < 0.0)   # Delta_2: enters j when crossed
    idx = np.flatnonzero(leaving | entering)
    if idx.size:
        breaks = (y[idx] - o[idx]) / do[idx]
        order = np.argsort(breaks, kind="stable")
        idx, breaks = idx[order], breaks[order]
        sign = np.where(leaving[idx], -1.0, 1.0) * c[idx] * do[idx]
        inc_L = sign * (o[idx] - y[idx])
        inc_R = sign * (o_bar[idx] - y[idx])
        # L, R of the linear piece just before each break point, and after the last
        L_piece = L + np.concatenate(([0.0], np.cumsum(inc_L)))
        R_piece = R + np.concatenate(([0.0], np.cumsum(inc_R)))
        crossed = L_piece[:-1] + breaks * (R_piece[:-1] - L_piece[:-1]) >= 0.0
        k = int(np.argmax(crossed)) if crossed.any() else idx.size
        L, R = L_piece[k], R_piece[k]
    if R - L <= 0.0:
        # phi is flat along dw (dw = 0): any step is optimal.
        return 1.0
    return -L / (R - L)
