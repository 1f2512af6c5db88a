"""The kernel TSVM baseline of 001 (JTSVM: Joachims' label switching) with the l1 or l2 loss.

As in Table 4 of 000 (the linear version): train on the labeled points,
label the unlabeled ones by thresholding so that a fraction r is positive,
then raise lambda' from 1e-5 by 1.5 per level up to lambda' and, at each
level, switch pairs that lower the objective (one pair at a time, as
Joachims) and retrain until none qualifies.  The switching rule (a positive
and a negative inside the margin with f_pos < f_neg) is the same for the
hinge and the quadratic hinge: at fixed f it lowers the objective strictly.

Joachims' argument that switching ends needs each retraining to be no
worse than the previous solution under the new labels.  libsvm stops at
its tolerance, so the hinge's retrainings can be worse, and label switching
then cycles (measured: 2CIRCLES, lambda = 0.01, default width, labeled
points 134 and 161, over 1.4 million switches at one lambda' level).  So a
retrained solution is kept only if it does not raise the objective under
the new labels; otherwise the previous (alpha, bias) stays and switching
continues from it.  The objective then falls strictly at every switch; the
hinge's SVC solution depends only on the labels, so finitely many
(labels, solution) states exist and the loop ends.
"""
import numpy as np

from ..solvers.engine._threads import solver_threads
from ..solvers.tsvm import initial_labels, lam_u_levels, switch_pairs
from ..solvers.validation import check_fraction, check_positive
from .annealing import eqn1_objective
from .fstep import FStep


@solver_threads
def kernel_jtsvm(K, labeled, y, unlabeled, lam, lam_u=1.0, r=0.5, loss="l2", switches=1):
    """JTSVM on the Gram matrix ``K``; returns (alpha, bias, info dict: ``objective``, ``switches``
    and ``solves``, the f-step solves: the supervised start, one per lambda' level, one per switch)."""
    lam, lam_u, r = check_positive(lam, "lambda"), check_positive(lam_u, "lambda'"), check_fraction(r)
    fstep = FStep(K, lam, loss)
    l, u = labeled.size, unlabeled.size
    alpha, bias = fstep.solve(labeled, y, np.full(l, 1.0 / l))
    f_u = K[unlabeled] @ alpha + bias
    labels_u = initial_labels(f_u, r)
    points = np.concatenate([labeled, unlabeled])
    n_switches, solves = 0, 1
    for level in lam_u_levels(lam_u):
        costs = np.concatenate([np.full(l, 1.0 / l), np.full(u, level / u)])
        targets = np.concatenate([y, labels_u])
        alpha, bias = fstep.solve(points, targets, costs, alpha)
        solves += 1
        while True:
            f_u = K[unlabeled] @ alpha + bias
            pos, neg = switch_pairs(labels_u, f_u, switches)
            if pos.size == 0:
                break
            labels_u[pos], labels_u[neg] = -1.0, 1.0
            n_switches += pos.size
            targets = np.concatenate([y, labels_u])
            retrained = fstep.solve(points, targets, costs, alpha)
            solves += 1
            if fstep.objective(retrained[0], points, targets, costs, retrained[1]) <= \
                    fstep.objective(alpha, points, targets, costs, bias):
                alpha, bias = retrained
    value = eqn1_objective(fstep, alpha, bias, labeled, y, unlabeled, lam_u)
    return alpha, bias, {"objective": value, "switches": n_switches, "solves": solves}
