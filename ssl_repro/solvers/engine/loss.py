"""Weighted squared-hinge loss over "pseudo-rows" (liblinear-style loss object).

Eqn 2 of the spec paper:  f(w) = lambda/2 ||w||^2 + 1/2 sum_i c_i max(0, 1 - y_i o_i)^2
with o_i = x_i . w.  A *pseudo-row* is a triple (row of X, label, cost); the
same row of X may appear in several pseudo-rows (deterministic annealing,
Eqn 11, puts every unlabeled row in twice, with labels +1 and -1).  As in
liblinear, where the trust-region Newton solver sees the loss only through
its function, gradient and Hessian-vector methods, the Newton solver
(:mod:`ssl_repro.solvers.mfn`) and the line search (:mod:`.line_search`) see this object
only through its methods: the origin and outputs of a point, the value,
the Newton system on the active set, Table 1's optimality test and the
pieces of the derivative along a line.

The Newton system is handed out as the weighted least-squares problem
CGLS solves (Eqns 4-5, Table 2) rather than as a Hessian-vector product:
CGLS runs its iterations in one compiled, fused pass over the active rows
(:mod:`.cgls`), which a per-product call back into Python would break.

Outputs are kept per *distinct* row (``rows``), and each pseudo-row points
at its row through ``owner`` (``None`` when every row appears once).
"""
from dataclasses import dataclass
from typing import NamedTuple

import numba
import numpy as np

from ssl_repro.solvers.engine._row_products import N_CHUNKS


class ActiveSystem(NamedTuple):
    """The Newton system of Eqn 4 on the active set j(w), as CGLS takes it (Eqn 5, Table 2).

    [lambda I + X^T C X] beta = X^T C Y - v with X = ``op``'s rows ``rows``,
    C = ``cost``, Y = ``target``, v = ``linear``; ``positions`` are the
    active rows' positions among the loss's distinct rows, ``active`` the
    active pseudo-row mask.
    """

    op: object
    rows: np.ndarray
    target: np.ndarray
    cost: np.ndarray
    lam: float
    linear: np.ndarray | None
    positions: np.ndarray
    active: np.ndarray


@dataclass
class SquaredHingeLoss:
    """f(w) of Eqn 2 on pseudo-rows.

    Attributes
    ----------
    op : BiasedRows or None
        The data matrix (with its virtual bias column); ``None`` when the
        loss is only evaluated on outputs computed elsewhere (the kernel
        f-step's line search, :mod:`ssl_repro.kernel.fstep`).
    rows : int64 array (n_distinct,) or None
        Rows of ``op`` in play (``None`` with ``op``).
    y : float array (n_pseudo,)
        Labels (+1/-1) of the pseudo-rows.
    c : float array (n_pseudo,)
        Costs (>= 0) of the pseudo-rows.
    lam : float
        Regularization lambda > 0 (bias included, as in the paper).
    owner : int array (n_pseudo,) or None
        ``owner[k]`` is the position in ``rows`` of pseudo-row k; ``None``
        means pseudo-row k is ``rows[k]``.
    linear : float array (n_weights,) or None
        Optional linear term: the objective becomes f(w) + linear . w
        (CCCP's linearized concave part and balance multiplier use it).
    """

    op: object
    rows: np.ndarray | None
    y: np.ndarray
    c: np.ndarray
    lam: float
    owner: np.ndarray | None = None
    linear: np.ndarray | None = None

    def origin(self):
        """w = 0 and its outputs (all 0, no product needed): Table 1's cold start."""
        return np.zeros(self.op.n_weights), np.zeros(self.rows.shape[0])

    def outputs(self, w):
        """X[rows] w, the outputs of the distinct rows."""
        return self.op.matvec(w, self.rows)

    def outputs_beside(self, w, known, values):
        """X[rows] w where the outputs at the ascending positions ``known`` are ``values`` already."""
        return self.op.matvec_beside(w, self.rows, known, values)

    def pseudo_outputs(self, o):
        """Outputs of the pseudo-rows from outputs ``o`` of the distinct rows."""
        return o if self.owner is None else o[self.owner]

    def active(self, o):
        """Boolean mask of the pseudo-rows with y o < 1 (the index set j(w))."""
        return self.y * self.pseudo_outputs(o) < 1.0

    def value(self, w, o):
        """f(w), given the outputs ``o`` = X[rows] w of the distinct rows."""
        margin = np.maximum(0.0, 1.0 - self.y * self.pseudo_outputs(o))
        value = 0.5 * self.lam * (w @ w) + 0.5 * (self.c @ (margin * margin))
        return value if self.linear is None else value + self.linear @ w

    def gradient(self, w, o):
        """lambda w + sum_{i in j(w)} c_i (o_i - y_i) x_i (Sec. 2)."""
        po = self.pseudo_outputs(o)
        act = self.y * po < 1.0
        coef = np.where(act, self.c * (po - self.y), 0.0)
        grad = self.lam * w + self.op.rmatvec(self.distinct_sum(coef), self.rows)
        return grad if self.linear is None else grad + self.linear

    def distinct_sum(self, values):
        """Sum per distinct row of a per-pseudo-row quantity."""
        if self.owner is None:
            return values
        return np.bincount(self.owner, weights=values, minlength=self.rows.shape[0])

    def active_system(self, o):
        """The Newton system on j(w) for the outputs ``o`` of w (Eqns 4, 13-14): an :class:`ActiveSystem`.

        Pseudo-rows of the same distinct row are merged: costs add up and the
        target is the cost-weighted mean label, so each row of X appears once
        in CGLS (Eqn 14 of the spec paper: "CGLS needs to only operate on
        data matrices with one instance of each unlabeled example").
        """
        if self.owner is None:
            act = self.active(o)
            pos = np.flatnonzero(act)
            target, cost = self.y[pos], self.c[pos]
        else:
            pos, target, cost, act = _merged_active_system(self.y, self.c, o, self.owner)
        return ActiveSystem(self.op, self.rows[pos], target, cost, self.lam, self.linear, pos, act)

    def residual_change(self, before, after, o):
        """X^T (z_after - z_before), z = C (Y - o): how Table 2's residual at outputs ``o`` changes
        from the :class:`ActiveSystem` ``before`` to ``after`` (same point, other active set).

        Only the distinct rows whose cost or target differ between the two
        systems are read (the others give exactly 0); finding them is one
        compiled merge of the two systems' (sorted) positions.
        """
        changed, dz = _changed_rows(before.positions, before.cost, before.target,
                                    after.positions, after.cost, after.target, o)
        return self.op.rmatvec(dz, self.rows[changed])

    def optimal(self, o, active, tau):
        """Table 1's test at outputs ``o``: the pseudo-rows of ``active`` have y o <= 1 + tau,
        the others y o >= 1 - tau."""
        return _optimal(self.y, o, active, tau, *self._owner_args())

    def line_pieces(self, w, w_bar, o, o_bar):
        """The derivative of phi(delta) = f(w + delta (w_bar - w)) as Table 3 walks it.

        phi' is piecewise linear; returns (L, R, breaks, dL, dR): phi'(0) and
        the value at delta = 1 of the linear piece that holds at delta = 0, the
        break points delta > 0 where a pseudo-row enters or leaves j (unsorted),
        and the change each makes to L and R when crossed.  ``o``, ``o_bar``
        are the outputs of the distinct rows at ``w`` and ``w_bar``.  When
        L >= 0 (no descent) the break points are not collected (empty arrays).
        """
        dw = w_bar - w
        L0 = self.lam * (w @ dw)
        R0 = self.lam * (w_bar @ dw)
        if self.linear is not None:
            L0 += self.linear @ dw
            R0 += self.linear @ dw
        return _line_pieces(o, o_bar, self.y, self.c, L0, R0, *self._owner_args())

    def _owner_args(self):
        """(owner, has_owner) for the compiled helpers (an empty array when rows are their own, of
        :func:`.problem.pseudo_rows`' int32, so TSVM and DA call one compiled signature)."""
        return (np.empty(0, np.int32), False) if self.owner is None else (self.owner, True)


@numba.njit(cache=True, nogil=True)
def _merged_active_system(y, c, o, owner):
    """The merged arrays of :meth:`SquaredHingeLoss.active_system` for shared rows, in one compiled pass.

    Costs and cost-weighted labels of the active pseudo-rows are added per
    distinct row in pseudo-row order (as ``np.bincount`` does), without
    per-pseudo-row temporaries.
    """
    act = np.empty(y.shape[0], np.bool_)
    cost = np.zeros(o.shape[0])
    target = np.zeros(o.shape[0])
    for k in range(y.shape[0]):
        i = owner[k]
        act[k] = y[k] * o[i] < 1.0
        if act[k]:
            cost[i] += c[k]
            target[i] += c[k] * y[k]
    pos = np.flatnonzero(cost > 0.0)
    for n in range(pos.shape[0]):
        target[n] = target[pos[n]] / cost[pos[n]]
        cost[n] = cost[pos[n]]
    return pos, target[:pos.shape[0]], cost[:pos.shape[0]], act


@numba.njit(cache=True, nogil=True)
def _changed_rows(pos_a, cost_a, target_a, pos_b, cost_b, target_b, o):
    """Positions whose z = c (t - o) differs between two active systems, and z_b - z_a there.

    Walks the two ascending position lists together, twice (to count, then
    to fill arrays of the exact size); a row in one system only has z = 0
    in the other.
    """
    changed = np.empty(0, np.int64)
    dz = np.empty(0)
    for fill in (False, True):
        i = j = n = 0
        while i < pos_a.shape[0] or j < pos_b.shape[0]:
            p, z_a, z_b, i, j = _merge_step(pos_a, cost_a, target_a, pos_b, cost_b, target_b, o, i, j)
            if z_b != z_a:
                if fill:
                    changed[n] = p
                    dz[n] = z_b - z_a
                n += 1
        if not fill:
            changed = np.empty(n, np.int64)
            dz = np.empty(n)
    return changed, dz


@numba.njit(cache=True, nogil=True, inline="always")
def _merge_step(pos_a, cost_a, target_a, pos_b, cost_b, target_b, o, i, j):
    """The next position of the merged lists: (position, z_a, z_b, next i, next j)."""
    if j == pos_b.shape[0] or (i < pos_a.shape[0] and pos_a[i] < pos_b[j]):
        return pos_a[i], cost_a[i] * (target_a[i] - o[pos_a[i]]), 0.0, i + 1, j
    if i == pos_a.shape[0] or pos_b[j] < pos_a[i]:
        return pos_b[j], 0.0, cost_b[j] * (target_b[j] - o[pos_b[j]]), i, j + 1
    p = pos_a[i]
    return p, cost_a[i] * (target_a[i] - o[p]), cost_b[j] * (target_b[j] - o[p]), i + 1, j + 1


@numba.njit(cache=True, nogil=True)
def _optimal(y, o_rows, active, tau, owner, has_owner):
    """:meth:`SquaredHingeLoss.optimal`; pseudo-row k reads ``o_rows[owner[k]]``
    (no per-pseudo-row copy: DA has 2u + l pseudo-rows)."""
    for k in range(y.shape[0]):
        margin = y[k] * o_rows[owner[k] if has_owner else k]
        if active[k]:
            if not margin <= 1.0 + tau:
                return False
        elif not margin >= 1.0 - tau:
            return False
    return True


@numba.njit(parallel=True, cache=True, nogil=True, error_model="numpy")
def _line_pieces(o_rows, o_bar_rows, y, c, L, R, owner, has_owner):
    """:meth:`SquaredHingeLoss.line_pieces`, given the weight parts L, R of phi'(0) and phi'(1).

    The pseudo-rows are split into N_CHUNKS fixed blocks, processed in
    parallel.  A first pass adds each block's active pseudo-rows' parts to
    its share of L and R and counts its break points (rows whose active
    state changes at delta = (y - o)/(o_bar - o) > 0); the shares are added
    in block order (the same bits for any number of threads); a second pass
    writes each block's break points at its offset, with the change of L
    and R at each (leaving j, Delta_1 of Table 3, removes the row's part of
    phi', entering, Delta_2, adds it).  No temporaries the size of the
    pseudo-rows.
    """
    n = y.shape[0]
    part = np.empty((N_CHUNKS, 3))
    for b in numba.prange(N_CHUNKS):
        # local sums: the blocks' rows of ``part`` share a cache line, which two threads
        # adding into it on every row would pass back and forth
        L_b = 0.0
        R_b = 0.0
        crossing = 0
        for i in range(b * n // N_CHUNKS, (b + 1) * n // N_CHUNKS):
            o, o_bar, active, crosses = _piece(o_rows, o_bar_rows, y, owner, has_owner, i)
            if active:
                L_b += c[i] * (o - y[i]) * (o_bar - o)
                R_b += c[i] * (o_bar - y[i]) * (o_bar - o)
            if crosses:
                crossing += 1
        part[b, 0] = L_b
        part[b, 1] = R_b
        part[b, 2] = crossing
    offsets = np.zeros(N_CHUNKS + 1, np.int64)
    for b in range(N_CHUNKS):
        L += part[b, 0]
        R += part[b, 1]
        offsets[b + 1] = offsets[b] + np.int64(part[b, 2])
    n_breaks = offsets[N_CHUNKS] if L < 0.0 else 0
    breaks, dL, dR = np.empty(n_breaks), np.empty(n_breaks), np.empty(n_breaks)
    for b in numba.prange(N_CHUNKS if n_breaks else 0):
        k = offsets[b]
        end = offsets[b + 1]
        for i in range(b * n // N_CHUNKS, (b + 1) * n // N_CHUNKS):
            o, o_bar, active, crosses = _piece(o_rows, o_bar_rows, y, owner, has_owner, i)
            # every row writes at k, which only a crossing row moves on: a compaction without
            # a branch on ``crosses`` (unpredictable); past the block's last break point nothing is
            # written.  A row that does not cross may divide by zero (numpy's error model: an inf
            # or nan that the next crossing row overwrites).
            if k < end:
                sign = -1.0 if active else 1.0
                breaks[k] = (y[i] - o) / (o_bar - o)
                dL[k] = sign * c[i] * (o_bar - o) * (o - y[i])
                dR[k] = sign * c[i] * (o_bar - o) * (o_bar - y[i])
            k += 1 if crosses else 0
    return L, R, breaks, dL, dR


@numba.njit(cache=True, nogil=True, inline="always")
def _piece(o_rows, o_bar_rows, y, owner, has_owner, i):
    """Pseudo-row i's outputs at w and w_bar, whether it is active at w, whether it crosses the margin
    at some delta > 0."""
    j = owner[i] if has_owner else i
    o, o_bar = o_rows[j], o_bar_rows[j]
    active = y[i] * o < 1.0
    do = o_bar - o
    return o, o_bar, active, (y[i] * do > 0.0) if active else (y[i] * do < 0.0)
