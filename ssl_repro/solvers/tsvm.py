"""Transductive L2-SVM-MFN with multiple switching (Table 4, Sec. 3.1.2).

Train on the labeled rows, label the unlabeled rows by thresholding their
outputs so that a fraction r is positive, then raise lambda' level by level
and, at each level, switch up to S label pairs that lower the objective and
retrain (seeded) until no pair qualifies.
"""
import math
import time

import numpy as np

from ssl_repro.solvers.engine._threads import solver_threads
from ssl_repro.solvers.info import NEWTON_CAP, TOLERANCE, SolverInfo, larger
from ssl_repro.solvers.engine.loss import SquaredHingeLoss
from ssl_repro.solvers.mfn import l2svm_mfn
from ssl_repro.solvers.objective import transductive_objective
from ssl_repro.solvers.validation import check_above_one, check_count, check_fraction, check_has_unlabeled, check_lambda, check_positive

#: lambda' of the first level (Table 4); when lambda' itself is smaller, the schedule is lambda' alone.
LAM_U_START = 1e-5
#: Growth factor of lambda' between levels: the reference software's 1.5
#: (the tech report's Table 4 says 2; both are available as a parameter).
LAM_U_GROWTH = 1.5
#: Cap on the lambda' levels of one run (not in Table 4, whose schedule is
#: finite for any factor > 1 but not bounded: 1 + 1e-7 asks for 1.2e8 levels).
#: The reference software's factor 1.5 goes from 1e-5 to 10, the papers'
#: largest lambda', in 35 levels, the tech report's 2 in 21; 100 leaves room
#: for factors down to 1.15 over that span.
MAX_LEVELS = 100
#: Cap on the switch-and-retrain rounds at one lambda' level (not in Table 4,
#: whose loop ends by Joachims' descent argument; the cap makes the end certain).
MAX_SWITCH_ROUNDS = 10_000
#: Entries of each candidate list sorted in the first round of :func:`switch_pairs`.
SORT_HEAD = 64


def lam_u_levels(lam_u, start=LAM_U_START, growth=LAM_U_GROWTH, max_levels=MAX_LEVELS):
    """lambda' levels: start, start*growth, ... while below lam_u, then lam_u itself; at most
    ``max_levels`` of them (a longer schedule keeps its first ``max_levels - 1`` levels, then lam_u).

    The last round runs exactly at the user's lambda' (reference software
    behaviour), so the returned weights optimize the requested objective.
    """
    return _schedule(lam_u, start, growth, max_levels)[0]


def _schedule(lam_u, start, growth, max_levels):
    """(the levels of :func:`lam_u_levels`, whether ``max_levels`` cut them short)."""
    levels = []
    level = start
    while level < lam_u and len(levels) < max_levels - 1:
        levels.append(level)
        level *= growth
    levels.append(lam_u)
    return levels, level < lam_u


def levels_needed(lam_u, start, growth):
    """How many levels :func:`lam_u_levels` has without a cap (lam_u included), from the logarithms
    (within one of the product's rounding); no list is built."""
    if not start < lam_u:
        return 1
    return math.ceil(math.log(lam_u / start) / math.log1p(growth - 1.0)) + 1


def levels_advice(lam_u, start, growth, max_levels):
    """The ConvergenceWarning's advice when the levels cap cut the schedule: the growth factor that
    reaches lam_u within ``max_levels`` levels (rounded up, 3 digits), or the cap the schedule needs."""
    fits = math.exp(math.log(lam_u / start) / max(max_levels - 1, 1))
    digits = 10.0 ** (math.floor(math.log10(fits - 1.0)) - 2)
    growth_ok = 1.0 + math.ceil((fits - 1.0) / digits) * digits
    needed = levels_needed(lam_u, start, growth)
    return (f"lam_u_growth={growth:.12g} needs {needed:,} lambda' levels from lam_u_start={start:g} to "
            f"lam_u={lam_u:g}; raise lam_u_growth to at least {growth_ok:.12g}, or set max_levels={needed + 1} "
            f"(now {max_levels})")


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


class MFNRetraining:
    """The retraining of :func:`switch_labels` for the linear TSVM: L2-SVM-MFN on the labeled rows
    and the unlabeled rows with their current labels (Table 4), each retraining after a switch seeded
    with the Newton system of the last accepted weights.

    A retraining (this class; the kernel f-step's, :class:`ssl_repro.kernel.jtsvm.KernelRetraining`)
    starts from the supervised model and the labels of :func:`initial_labels`, and answers
    ``labels_u`` (the unlabeled rows' labels, switched in place by the driver), :meth:`train_level`,
    :meth:`outputs_u`, :meth:`retrain` (a tentative model for the switched labels), :meth:`accept`
    and :meth:`reject`.
    """

    def __init__(self, problem, lam, r, info):
        self.problem, self.lam, self.info = problem, lam, info
        op, l = problem.op, problem.n_labeled
        supervised = SquaredHingeLoss(op, problem.labeled, problem.y, np.full(l, 1.0 / l), lam)
        w, o_l, mfn = l2svm_mfn(supervised)
        info.add_mfn(mfn)
        o_u = op.matvec(w, problem.unlabeled)
        self.labels = np.concatenate([problem.y, initial_labels(o_u, r)])
        self.labels_u = self.labels[l:]
        self.w, self.o = w, np.concatenate([o_l, o_u])
        self.rows = np.concatenate([problem.labeled, problem.unlabeled])
        self.loss = self.state = self.candidate = None

    def train_level(self, level):
        """Retrain at lambda' = ``level`` (the unlabeled costs level / u); the objective reached."""
        l, u = self.problem.n_labeled, self.problem.n_unlabeled
        costs = np.concatenate([np.full(l, 1.0 / l), np.full(u, level / u)])
        self.loss = SquaredHingeLoss(self.problem.op, self.rows, self.labels, costs, self.lam)  # y: ``labels``
        self.w, self.o, mfn = l2svm_mfn(self.loss, self.w, self.o, keep_state=True)
        self.info.add_mfn(mfn)
        self.state = mfn.state              # the Newton system at w: retraining after a switch starts from it
        return float(self.loss.value(self.w, self.o))

    def outputs_u(self):
        return self.o[self.problem.n_labeled:]

    def retrain(self):
        self.candidate = l2svm_mfn(self.loss, self.w, self.o, previous=self.state, keep_state=True)
        self.info.add_mfn(self.candidate[2])
        return float(self.loss.value(self.candidate[0], self.candidate[1]))

    def accept(self):
        self.w, self.o, mfn = self.candidate
        self.state, self.candidate = mfn.state, None

    def reject(self):
        self.candidate = None


def switch_labels(retraining, levels, max_pairs, max_switch_rounds, info):
    """Table 4's loop: for each lambda' level, retrain, then switch up to ``max_pairs`` label pairs
    (:func:`switch_pairs`) and retrain, until no pair qualifies.

    A level also ends when a retraining does not lower the objective below
    its value before the switch: switching lowers the objective at fixed w
    and an exact retraining never raises it, so this happens only by
    rounding (MFN) or by a solver's tolerance (the hinge's SVC in the
    kernel JTSVM); the switch is then undone and the level ends there.
    Joachims' finite-termination argument needs that strict descent: the
    objective falls at every accepted switch, so no labeling recurs.
    ``max_switch_rounds`` caps the rounds per level (``stop_reason``
    "max_switch_rounds" when pairs still qualified).  Records the levels,
    the (level, objective) path and the switches in ``info``.
    """
    for level in levels:
        info.lam_u_levels.append(level)
        value = retraining.train_level(level)
        info.objective_path.append((level, value))
        labels_u = retraining.labels_u
        for _ in range(max_switch_rounds):
            pos, neg = switch_pairs(labels_u, retraining.outputs_u(), max_pairs)
            if pos.size == 0:
                break
            labels_u[pos] = -1.0
            labels_u[neg] = 1.0
            new_value = retraining.retrain()
            if not new_value < value:      # no descent: undo the switch, end the level
                labels_u[pos] = 1.0
                labels_u[neg] = -1.0
                retraining.reject()
                break
            retraining.accept()
            value = new_value
            info.switches += pos.size
            info.objective_path.append((level, value))
        else:
            if switch_pairs(labels_u, retraining.outputs_u(), max_pairs)[0].size:
                info.stop("max_switch_rounds")


@solver_threads
def tsvm(problem, lam, lam_u, r, switches=1, lam_u_start=None, lam_u_growth=LAM_U_GROWTH,
         max_switch_rounds=MAX_SWITCH_ROUNDS, max_levels=MAX_LEVELS):
    """Multi-switch transductive L2-SVM-MFN (Table 4).

    Parameters
    ----------
    problem : Problem
    lam, lam_u : lambda and the final lambda'
    r : positive fraction of the unlabeled rows, in (0, 1)
    switches : S, the maximum number of label pairs switched at once
        (1 = Joachims' single switch; ``"max"`` = every qualifying pair)
    lam_u_start, lam_u_growth : the lambda' schedule (:func:`lam_u_levels`); ``lam_u_start=None`` is
        :data:`LAM_U_START`, or lam_u when that is smaller (one level); a given
        ``lam_u_start`` above lam_u is refused (Table 4 grows lambda' up to lam_u).
    max_levels : cap on the lambda' levels (:data:`MAX_LEVELS`); a schedule
        that needs more runs its first ``max_levels - 1`` levels and then lam_u,
        sets ``info.converged = False`` (``stop_reason = "max_levels"``) and
        warns with a growth factor or a cap that would fit.
    max_switch_rounds : cap on the switch-and-retrain rounds per lambda'
        level; reaching it ends the level, sets ``info.converged = False``
        (``stop_reason = "max_switch_rounds"``) and warns.

    Returns
    -------
    w, SolverInfo

    Notes
    -----
    The switching loop is :func:`switch_labels` around :class:`MFNRetraining`.
    """
    start = time.perf_counter()
    lam = check_lambda(problem, lam)
    lam_u = check_positive(lam_u, "lambda'")
    r = check_fraction(r)
    check_has_unlabeled(problem, "TSVM")
    max_pairs = max_pairs_of(switches, problem.n_unlabeled)
    lam_u_start = check_lam_u_start(lam_u_start, lam_u)
    lam_u_growth = check_above_one(lam_u_growth, "lam_u_growth")
    max_switch_rounds = check_count(max_switch_rounds, "max_switch_rounds")
    max_levels = check_count(max_levels, "max_levels")
    info = SolverInfo("tsvm")
    retraining = MFNRetraining(problem, lam, r, info)
    levels, cut = _schedule(lam_u, lam_u_start, lam_u_growth, max_levels)
    switch_labels(retraining, levels, max_pairs, max_switch_rounds, info)
    if cut and info.stop_reason == TOLERANCE:
        info.stop("max_levels")
    elif cut:
        info.inner_cap("max_levels")
    info.warn_if_capped({"max_switch_rounds": larger("max_switch_rounds", max_switch_rounds),
                         "max_levels": levels_advice(lam_u, lam_u_start, lam_u_growth, max_levels) if cut else None,
                         "max_newton_iter": NEWTON_CAP})
    l, w, o = problem.n_labeled, retraining.w, retraining.o
    info.positive_fraction = float(np.mean(retraining.labels_u > 0))
    info.check_one_class(float(np.mean(o[l:] > 0)))    # the outputs, not the balanced switch labels
    info.objective = transductive_objective(w, o[:l], problem.y, o[l:], lam, lam_u)
    info.own_objective = info.objective
    info.seconds = time.perf_counter() - start
    return w, info


def max_pairs_of(switches, u):
    """S as a number of pairs: ``"max"`` is every pair there can be (u // 2), else a positive integer."""
    if switches == "max":
        return max(u // 2, 1)
    if isinstance(switches, (int, np.integer)) and not isinstance(switches, bool) and switches >= 1:
        return int(switches)
    raise ValueError(f"switches (S) must be a positive integer or 'max', got {switches!r}")


def check_lam_u_start(lam_u_start, lam_u):
    """lambda' of the first level: ``None`` is :data:`LAM_U_START` (lam_u if smaller); a given value
    must be > 0 and at most lam_u, since Table 4 grows lambda' from a small start up to lam_u."""
    if lam_u_start is None:
        return min(LAM_U_START, lam_u)
    lam_u_start = check_positive(lam_u_start, "lam_u_start")
    if lam_u_start > lam_u:
        raise ValueError(f"lam_u_start={lam_u_start:g} is above lam_u={lam_u:g}: TSVM grows lambda' from "
                         f"lam_u_start up to lam_u (Table 4), so a start above it would be ignored; set "
                         f"lam_u_start below lam_u (default {LAM_U_START:g}), or equal to it for a single level")
    return lam_u_start
