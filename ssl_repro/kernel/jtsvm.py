"""The kernel TSVM baseline of 001 (JTSVM: Joachims' label switching) with the l1 or l2 loss.

As in Table 4 of 000 (the linear version), and by the same loop
(:func:`ssl_repro.solvers.tsvm.switch_labels`): train on the labeled points,
label the unlabeled ones by thresholding so that a fraction r is positive,
then raise lambda' from 1e-5 by 1.5 per level up to lambda' and, at each
level, switch pairs that lower the objective (one pair at a time, as
Joachims, unless ``switches`` says more) and retrain until none qualifies.
The switching rule (a positive and a negative inside the margin with
f_pos < f_neg) is the same for the hinge and the quadratic hinge: at fixed
f it lowers the objective strictly.

Joachims' argument that switching ends needs each retraining to lower the
objective.  libsvm stops at its tolerance, so the hinge's retrainings can be
worse, and label switching then cycles (measured: 2CIRCLES, lambda = 0.01,
default width, labeled points 134 and 161, over 1.4 million switches at one
lambda' level).  Decision: as in the linear TSVM, a switch whose retraining
does not lower the objective below its value before the switch is undone and
ends the level; the objective then falls strictly at every accepted switch,
no labeling recurs, and the loop ends.
"""
import numpy as np

from ssl_repro.solvers.engine._threads import solver_threads
from ssl_repro.solvers.info import SolverInfo, larger
from ssl_repro.solvers.tsvm import MAX_SWITCH_ROUNDS, initial_labels, lam_u_levels, max_pairs_of, switch_labels
from ssl_repro.solvers.validation import check_count, check_fraction, check_positive
from ssl_repro.kernel.annealing import eqn1_objective
from ssl_repro.kernel.fstep import FStep


class KernelRetraining:
    """The retraining of :func:`~ssl_repro.solvers.tsvm.switch_labels` for the kernel JTSVM (the
    interface of :class:`~ssl_repro.solvers.tsvm.MFNRetraining`): the f-step on the labeled points and
    the unlabeled ones with their current labels, warm-started from the last accepted (alpha, bias).
    ``info.mfn_calls`` counts the f-step solves."""

    def __init__(self, fstep, labeled, y, unlabeled, r, info):
        self.fstep, self.info = fstep, info
        self.l, self.u = labeled.size, unlabeled.size
        self.K_u = fstep.K[unlabeled]     # the unlabeled rows of K, copied once (not at every retraining)
        self.alpha, self.bias = self._solve(labeled, y, np.full(self.l, 1.0 / self.l), None)
        self.f_u = self.K_u @ self.alpha + self.bias
        self.targets = np.concatenate([y, initial_labels(self.f_u, r)])
        self.labels_u = self.targets[self.l:]
        self.points = np.concatenate([labeled, unlabeled])
        self.costs = self.candidate = None

    def _solve(self, points, targets, costs, alpha):
        self.info.mfn_calls += 1
        return self.fstep.solve(points, targets, costs, alpha)

    def _value(self, alpha, bias):
        return self.fstep.objective(alpha, self.points, self.targets, self.costs, bias)

    def train_level(self, level):
        self.costs = np.concatenate([np.full(self.l, 1.0 / self.l), np.full(self.u, level / self.u)])
        self.candidate = self._solve(self.points, self.targets, self.costs, self.alpha)
        self.accept()
        return self._value(self.alpha, self.bias)

    def outputs_u(self):
        return self.f_u

    def retrain(self):
        self.candidate = self._solve(self.points, self.targets, self.costs, self.alpha)
        return self._value(*self.candidate)

    def accept(self):
        (self.alpha, self.bias), self.candidate = self.candidate, None
        self.f_u = self.K_u @ self.alpha + self.bias

    def reject(self):
        self.candidate = None


@solver_threads
def kernel_jtsvm(K, labeled, y, unlabeled, lam, lam_u=1.0, r=0.5, loss="l2", switches=1,
                 max_switch_rounds=MAX_SWITCH_ROUNDS):
    """JTSVM on the Gram matrix ``K``; returns (alpha, bias, :class:`~ssl_repro.solvers.SolverInfo`:
    ``own_objective`` J_0 (Eqn 1 of 001), ``switches``, ``mfn_calls`` (the f-step solves: the
    supervised start, one per lambda' level, one per switch), ``lam_u_levels`` and ``objective_path``
    (level, objective at the level's labels)); a ConvergenceWarning when ``max_switch_rounds`` ended a level."""
    lam, lam_u, r = check_positive(lam, "lambda"), check_positive(lam_u, "lambda'"), check_fraction(r)
    max_pairs = max_pairs_of(switches, unlabeled.size)
    max_switch_rounds = check_count(max_switch_rounds, "max_switch_rounds")
    fstep = FStep(K, lam, loss)
    info = SolverInfo(f"kernel_jtsvm_{loss}")
    retraining = KernelRetraining(fstep, labeled, y, unlabeled, r, info)
    switch_labels(retraining, lam_u_levels(lam_u), max_pairs, max_switch_rounds, info)
    info.warn_if_capped({"max_switch_rounds": larger("max_switch_rounds", max_switch_rounds)})
    alpha, bias = retraining.alpha, retraining.bias
    info.own_objective = eqn1_objective(fstep, alpha, bias, labeled, y, unlabeled, lam_u)
    return alpha, bias, info
