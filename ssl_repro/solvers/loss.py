"""Weighted squared-hinge loss over "pseudo-rows" (liblinear-style loss object).

Eqn 2 of the spec paper:  f(w) = lambda/2 ||w||^2 + 1/2 sum_i c_i max(0, 1 - y_i o_i)^2
with o_i = x_i . w.  A *pseudo-row* is a triple (row of X, label, cost); the
same row of X may appear in several pseudo-rows (deterministic annealing,
Eqn 11, puts every unlabeled row in twice, with labels +1 and -1).  The
loss object knows its pseudo-rows and answers value, gradient, active set
and Hessian-vector products; the Newton solver (:mod:`.mfn`) and the line
search (:mod:`.line_search`) that use it are kept apart.

Outputs are kept per *distinct* row (``rows``), and each pseudo-row points
at its row through ``owner`` (``None`` when every row appears once).
"""
from dataclasses import dataclass

import numba
import numpy as np


@dataclass
class SquaredHingeLoss:
    """f(w) of Eqn 2 on pseudo-rows.

    Attributes
    ----------
    op : BiasedRows
        The data matrix (with its virtual bias column).
    rows : int64 array (n_distinct,)
        Rows of ``op`` in play.
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
    rows: np.ndarray
    y: np.ndarray
    c: np.ndarray
    lam: float
    owner: np.ndarray | None = None
    linear: np.ndarray | None = None

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

    def hessian_vector(self, v, active_pseudo):
        """(lambda I + X_j^T C_j X_j) v on the active set (generalized Hessian)."""
        c_act = np.where(active_pseudo, self.c, 0.0)
        xv = self.op.matvec(v, self.rows)
        return self.lam * v + self.op.rmatvec(self.distinct_sum(c_act) * xv, self.rows)

    def distinct_sum(self, values):
        """Sum per distinct row of a per-pseudo-row quantity."""
        if self.owner is None:
            return values
        return np.bincount(self.owner, weights=values, minlength=self.rows.shape[0])

    def active_system(self, o):
        """The weighted least-squares system of the Newton step on j(w) (Eqns 4, 13-14).

        Pseudo-rows of the same distinct row are merged: costs add up and the
        target is the cost-weighted mean label, so each row of X appears once
        in CGLS (Eqn 14 of the spec paper: "CGLS needs to only operate on
        data matrices with one instance of each unlabeled example").

        Returns (positions in ``rows`` of the active distinct rows, their
        targets, their costs, the active pseudo-row mask).
        """
        if self.owner is None:
            act = self.active(o)
            pos = np.flatnonzero(act)
            return pos, self.y[pos], self.c[pos], act
        return _merged_active_system(self.y, self.c, o, self.owner)


@numba.njit(cache=True, nogil=True)
def _merged_active_system(y, c, o, owner):
    """:meth:`SquaredHingeLoss.active_system` for shared rows, in one compiled pass.

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
    return pos, target[:pos.shape[0]].copy(), cost[:pos.shape[0]].copy(), act
