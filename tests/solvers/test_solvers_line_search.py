"""The exact line search (Table 3) against brute-force 1-D minimization.

The losses are built on given outputs (no data matrix): the line search
reads them through :meth:`SquaredHingeLoss.line_pieces` only.
"""
import numpy as np
import pytest
from scipy.optimize import minimize_scalar

from ssl_repro.solvers import SquaredHingeLoss, line_search


def phi(delta, w, w_bar, o, o_bar, y, c, lam):
    wd = w + delta * (w_bar - w)
    od = o + delta * (o_bar - o)
    h = np.maximum(0.0, 1.0 - y * od)
    return 0.5 * lam * wd @ wd + 0.5 * c @ (h * h)


@pytest.mark.parametrize("seed", range(8))
def test_line_search_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    n, d = 200, 15
    A = rng.normal(size=(n, d))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    c = rng.uniform(0.01, 1.0, size=n)
    lam = 10.0 ** rng.uniform(-3, 0)
    w = rng.normal(size=d) * 0.3
    w_bar = rng.normal(size=d) * 2.0
    o, o_bar = A @ w, A @ w_bar
    delta = line_search(SquaredHingeLoss(None, None, y, c, lam), w, w_bar, o, o_bar)
    args = (w, w_bar, o, o_bar, y, c, lam)
    grid = np.linspace(0, 5, 20001)
    best = grid[np.argmin([phi(t, *args) for t in grid])]
    ref = minimize_scalar(phi, bounds=(max(0, best - 1e-3), best + 1e-3), args=args,
                          method="bounded", options={"xatol": 1e-12}).x
    assert delta == pytest.approx(ref, abs=1e-6)
    assert phi(delta, *args) <= phi(ref, *args) + 1e-12


def test_line_search_with_duplicated_rows_of_opposite_labels():
    """DA's pseudo-rows: the same output appears with labels +1 and -1 (Eqn 11)."""
    rng = np.random.default_rng(3)
    o_rows = rng.normal(size=50)
    ob_rows = rng.normal(size=50) * 3
    o = np.r_[o_rows, o_rows]
    o_bar = np.r_[ob_rows, ob_rows]
    y = np.r_[np.ones(50), -np.ones(50)]
    p = rng.random(50)
    c = np.r_[p, 1 - p] / 50
    w, w_bar = rng.normal(size=4), rng.normal(size=4)
    delta = line_search(SquaredHingeLoss(None, None, y, c, 0.01), w, w_bar, o, o_bar)
    args = (w, w_bar, o, o_bar, y, c, 0.01)
    ref = minimize_scalar(phi, bounds=(0, 10), args=args, method="bounded",
                          options={"xatol": 1e-12}).x
    assert delta == pytest.approx(ref, abs=1e-6)


def test_line_search_reads_shared_outputs_through_owner():
    """Outputs given per distinct row plus ``owner`` give the step of the expanded pseudo-rows."""
    rng = np.random.default_rng(7)
    o_rows, ob_rows = rng.normal(size=60), rng.normal(size=60) * 2
    owner = np.r_[np.arange(60), np.arange(20, 60)]
    y = np.r_[np.where(rng.random(60) < 0.5, 1.0, -1.0), -np.ones(40)]
    c = rng.uniform(0.01, 1.0, size=100)
    w, w_bar = rng.normal(size=5), rng.normal(size=5)
    expanded = line_search(SquaredHingeLoss(None, None, y, c, 0.05), w, w_bar, o_rows[owner], ob_rows[owner])
    shared = SquaredHingeLoss(None, None, y, c, 0.05, owner=owner)
    assert line_search(shared, w, w_bar, o_rows, ob_rows) == expanded
    args = (w, w_bar, o_rows[owner], ob_rows[owner], y, c, 0.05)
    ref = minimize_scalar(phi, bounds=(0, 10), args=args, method="bounded", options={"xatol": 1e-12}).x
    assert expanded == pytest.approx(ref, abs=1e-6)


def sorted_walk(L, R, breaks, dL, dR):
    """Table 3 as written: every break point in increasing order (the reference for the partitioning walk)."""
    if L >= 0.0:
        return 0.0
    for k in np.argsort(breaks, kind="stable"):
        if L + breaks[k] * (R - L) >= 0.0:
            break
        L, R = L + dL[k], R + dR[k]
    return 1.0 if R - L <= 0.0 else -L / (R - L)


@pytest.mark.parametrize("seed", range(6))
def test_partitioning_walk_equals_the_sorted_walk_with_many_and_tied_break_points(seed):
    """Thousands of break points (many tied, as for rows with equal outputs) on the pieces of a real
    line: the partitioning walk stops on the same piece as Table 3's sorted walk."""
    from ssl_repro.solvers.engine.line_search import _walk_break_points
    rng = np.random.default_rng(seed)
    n = 5000
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    o = np.round(rng.normal(size=n), 1 + seed % 2)          # rounded: many equal break points
    o_bar = o + np.round((y - o) * rng.uniform(0.0, 3.0, n) + rng.normal(size=n), 1)   # towards the labels
    loss = SquaredHingeLoss(None, None, y, rng.uniform(0.01, 1.0, n), 10.0 ** -(1 + seed % 3))
    w, w_bar = rng.normal(size=10) * 0.1, rng.normal(size=10) * 0.1
    L, R, breaks, dL, dR = loss.line_pieces(w, w_bar, o, o_bar)
    assert breaks.size > 1000 and np.unique(breaks).size < breaks.size
    expected = sorted_walk(L, R, breaks.copy(), dL.copy(), dR.copy())
    assert _walk_break_points(L, R, breaks, dL, dR) == pytest.approx(expected, rel=1e-12, abs=1e-14)
