"""Transductive L2-SVM-MFN with multiple switching (Table 4, Sec. 3.1.2).

Train on the labeled rows, label the unlabeled rows by thresholding their
outputs so that a fraction r is positive, then raise lambda' level by level
and, at each level, switch up to S label pairs that lower the objective and
retrain (seeded) until no pair qualifies.
"""
import time

import numpy as np

from .engine._threads import solver_threads
from .info import NEWTON_CAP, SolverInfo, larger
from .engine.loss import SquaredHingeLoss
from .mfn import l2svm_mfn
from .objective import transductive_objective
from .validation import check_above_one, check_count, check_fraction, check_has_unlabeled, check_lambda, check_positive

#: lambda' of the first level (Table 4).
LAM_U_START = 1e-5
#: Growth factor of lambda' between levels: the reference software's 1.5
#: (the tech report's Table 4 says 2; both are available as a parameter).
LAM_U_GROWTH = 1.5
#: Cap on the switch-and-retrain rounds at one lambda' level (not in Table 4,
#: whose loop ends by Joachims' descent argument; the cap makes the end certain).
MAX_SWITCH_ROUNDS = 10_000
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
def tsvm(problem, lam, lam_u, r, switches=1, lam_u_start=LAM_U_START, lam_u_growth=LAM_U_GROWTH,
         max_switch_rounds=MAX_SWITCH_ROUNDS):
    """Multi-switch transductive L2-SVM-MFN (Table 4).

    Parameters
    ----------
    problem : Problem
    lam, lam_u : lambda and the final lambda'
    r : positive fraction of the unlabeled rows, in (0, 1)
    switches : S, the maximum number of label pairs switched at once
        (1 = Joachims' single switch; ``"max"`` = every qualifying pair)
    lam_u_start, lam_u_growth : the lambda' schedule (:func:`lam_u_levels`)
    max_switch_rounds : cap on the switch-and-retrain rounds per lambda'
        level; reaching it ends the level, sets ``info.converged = False``
        (``stop_reason = "max_switch_rounds"``) and warns.

    Returns
    -------
    w, SolverInfo

    Notes
    -----
    A level ends when no pair qualifies (Table 4), or when a retraining does
    not lower the objective below its value before the switch: switching
    lowers the objective at fixed w and the seeded MFN never raises it, so
    this happens only by rounding; the switch is then undone and the level
    ends there (Joachims' finite-termination argument needs strict descent).
    """
    start = time.perf_counter()
    lam = check_lambda(problem, lam)
    lam_u = check_positive(lam_u, "lambda'")
    r = check_fraction(r)
    check_has_unlabeled(problem, "TSVM")
    max_pairs = _max_pairs(switches, problem.n_unlabeled)
    check_positive(lam_u_start, "lam_u_start")
    lam_u_growth = check_above_one(lam_u_growth, "lam_u_growth")
    max_switch_rounds = check_count(max_switch_rounds, "max_switch_rounds")
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
        info.lam_u_levels.append(level)
        costs = np.concatenate([np.full(l, 1.0 / l), np.full(u, level / u)])
        loss = SquaredHingeLoss(op, rows, labels, costs, lam)     # loss.y is ``labels``: switched in place
        w, o, mfn = l2svm_mfn(loss, w, o, keep_state=True)
        info.add_mfn(mfn)
        state = mfn.state              # the Newton system at w: retraining after a switch starts from it
        value = float(loss.value(w, o))
        info.objective_path.append((level, value))
        for _ in range(max_switch_rounds):
            pos, neg = switch_pairs(labels[l:], o[l:], max_pairs)
            if pos.size == 0:
                break
            labels[l + pos] = -1.0
            labels[l + neg] = 1.0
            w_new, o_new, mfn = l2svm_mfn(loss, w, o, previous=state, keep_state=True)
            info.add_mfn(mfn)
            new_value = float(loss.value(w_new, o_new))
            if not new_value < value:      # no descent (rounding): undo the switch, end the level
                labels[l + pos] = 1.0
                labels[l + neg] = -1.0
                break
            w, o, value, state = w_new, o_new, new_value, mfn.state
            info.switches += pos.size
            info.objective_path.append((level, value))
        else:
            if switch_pairs(labels[l:], o[l:], max_pairs)[0].size:
                info.stop("max_switch_rounds")
    info.warn_if_capped({"max_switch_rounds": larger("max_switch_rounds", max_switch_rounds),
                         "max_newton_iter": NEWTON_CAP})
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
