"""Transductive L2-SVM-MFN with multiple switching (Table 4, Sec. 3.1.2).

Train on the labeled rows, label the unlabeled rows by thresholding their
outputs so that a fraction r is positive, then raise lambda' level by level
and, at each level, switch up to S label pairs that lower the objective and
retrain (seeded) until no pair qualifies.
"""
import time

import numpy as np

from ._threads import solver_threads
from .info import SolverInfo
from .loss import SquaredHingeLoss
from .mfn import l2svm_mfn
from .objective import transductive_objective
from .validation import check_fraction, check_has_unlabeled, check_positive

#: lambda' of the first level (Table 4).
LAM_U_START = 1e-5
#: Growth factor of lambda' between levels: the reference software's 1.5
#: (the tech report's Table 4 says 2; both are available as a parameter).
LAM_U_GROWTH = 1.5
#: Entries of each candidate list sorted in the first round of :func:`switch_pairs`.
SORT_HEAD = 64


def lam_u_levels(lam_u, start=LAM_U_START, growth=LAM_U_GROWTH):
    """lambda' levels: start, start*growth, ... while below lam_u, then lam_u itself.

    The last round runs exactly at the user's lambda' (reference software
    behaviour), so the returned weights optimize the requested objective.
    """
    levels = []
    level = start
    while level < lam_u:
        levels.append(level)
        level *= growth
    levels.append(lam_u)
    return levels


def initial_labels(o_unlabeled, r):
    """+1 for the round(r u) largest outputs, -1 for the others (ties by row order)."""
    u = o_unlabeled.shape[0]
    n_pos = int(round(r * u))
    order = np.argsort(-o_unlabeled, kind="stable")
    labels = -np.ones(u)
    labels[order[:n_pos]] = 1.0
    return labels


def switch_pairs(labels, o, max_pairs):
    """The four-step multiple-switching rule of Sec. 3.1.2.

    Positives inside the margin (o < 1) sorted by ascending output are
    paired with negatives inside the margin (o > -1) sorted by descending
    output; pairs are taken from the top while the positive's output is
    below the negative's, up to ``max_pairs``.  Returns the two index arrays.

    Only the head of each sorted list can matter, so the lists are sorted
    SORT_HEAD entries at a time (4x more each round) until a pair fails to
    qualify or ``max_pairs`` is reached: the same pairs as sorting both
    lists whole, at a fraction of the cost when few pairs switch.
    """
    pos = np.flatnonzero((labels > 0) & (o < 1.0))
    neg = np.flatnonzero((labels < 0) & (o > -1.0))
    k = min(pos.size, neg.size, max_pairs)
    if k == 0:
        return pos[:0], neg[:0]
    o_pos, o_neg = o[pos], -o[neg]
    m = min(k, SORT_HEAD)
    while True:
        head_pos = pos[_smallest(o_pos, m)]
        head_neg = neg[_smallest(o_neg, m)]
        qualifies = o[head_pos] < o[head_neg]
        if not qualifies.all():
            n = int(np.argmin(qualifies))
            return head_pos[:n], head_neg[:n]
        if m == k:
            return head_pos, head_neg
        m = min(k, 4 * m)


def _smallest(values, k):
    """Indices of the k smallest values, in ascending order, ties by index: the first k of
    a stable argsort (ties at the k-th value are resolved by index, not by argpartition)."""
    if k < values.size:
        kth = np.partition(values, k - 1)[k - 1]
        below = np.flatnonzero(values < kth)
        part = np.concatenate([below, np.flatnonzero(values == kth)[:k - below.size]])
        return part[np.argsort(values[part], kind="stable")]
    return np.argsort(values, kind="stable")


@solver_threads
def tsvm(problem, lam, lam_u, r, switches=1, lam_u_start=LAM_U_START, lam_u_growth=LAM_U_GROWTH):
    """Multi-switch transductive L2-SVM-MFN (Table 4).

    Parameters
    ----------
    problem : Problem
    lam, lam_u : lambda and the final lambda'
    r : positive fraction of the unlabeled rows, in (0, 1)
    switches : S, the maximum number of label pairs switched at once
        (1 = Joachims' single switch; ``"max"`` = every qualifying pair)
    lam_u_start, lam_u_growth : the lambda' schedule (:func:`lam_u_levels`)

    Returns
    -------
    w, SolverInfo
    """
    start = time.perf_counter()
    lam = check_positive(lam, "lambda")
    lam_u = check_positive(lam_u, "lambda'")
    r = check_fraction(r)
    check_has_unlabeled(problem, "TSVM")
    max_pairs = _max_pairs(switches, problem.n_unlabeled)
    check_positive(lam_u_start, "lam_u_start")
    if not lam_u_growth > 1:
        raise ValueError(f"lam_u_growth must be > 1, got {lam_u_growth!r}")
    info = SolverInfo("tsvm")
    op, l, u = problem.op, problem.n_labeled, problem.n_unlabeled

    supervised = SquaredHingeLoss(op, problem.labeled, problem.y, np.full(l, 1.0 / l), lam)
    w, o_l, mfn = l2svm_mfn(supervised)
    info.add_mfn(mfn)
    o_u = op.matvec(w, problem.unlabeled)
    labels = np.concatenate([problem.y, initial_labels(o_u, r)])
    o = np.concatenate([o_l, o_u])
    rows = np.concatenate([problem.labeled, problem.unlabeled])
    for level in lam_u_levels(lam_u, lam_u_start, lam_u_growth):
        info.levels.append(level)
        costs = np.concatenate([np.full(l, 1.0 / l), np.full(u, level / u)])
        loss = SquaredHingeLoss(op, rows, labels, costs, lam)
        while True:
            w, o, mfn = l2svm_mfn(loss, w, o)
            info.add_mfn(mfn)
            info.objective_path.append((level, float(loss.value(w, o))))
            pos, neg = switch_pairs(labels[l:], o[l:], max_pairs)
            if pos.size == 0:
                break
            labels[l + pos] = -1.0
            labels[l + neg] = 1.0
            info.switches += pos.size
    info.positive_fraction = float(np.mean(labels[l:] > 0))
    info.objective = transductive_objective(w, o[:l], problem.y, o[l:], lam, lam_u)
    info.own_objective = info.objective
    info.seconds = time.perf_counter() - start
    return w, info


def _max_pairs(switches, u):
    if switches == "max":
        return max(u // 2, 1)
    if isinstance(switches, (int, np.integer)) and not isinstance(switches, bool) and switches >= 1:
        return int(switches)
    raise ValueError(f"switches (S) must be a positive integer or 'max', got {switches!r}")
