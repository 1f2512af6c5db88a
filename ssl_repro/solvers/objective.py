"""The transductive objective J(w) of Eqn 18 (spec paper), used by every method.

J(w) = lambda/2 ||w||^2 + 1/(2l) sum_i max(0, 1 - y_i o_i)^2
       + lambda'/(2u) sum_j max(0, 1 - |o'_j|)^2
with o = X w (labeled outputs) and o' = X' w (unlabeled outputs); the bias
is the last entry of w and is regularized.  With lambda' = 0 (or no
unlabeled rows) it is the supervised L2-SVM objective.  For a kernel
machine f = K alpha + b (001) the regularizer is the RKHS norm alpha' K alpha
(``norm_sq``) and the bias is not regularized (001's Eqn 6, libsvm).

This is the only implementation of Eqn 18: the solvers record its value in
``SolverInfo.objective`` and the harness stores that record.
"""
import numpy as np


def transductive_objective(w, o_labeled, y, o_unlabeled, lam, lam_u, norm_sq=None):
    """J(w) of Eqn 18 from the outputs on labeled and unlabeled rows.

    ``norm_sq`` replaces ||w||^2 (``w`` is then ignored): alpha' K alpha for a kernel machine.
    """
    hinge = np.maximum(0.0, 1.0 - y * o_labeled)
    value = 0.5 * lam * (w @ w if norm_sq is None else norm_sq) + 0.5 * (hinge @ hinge) / y.shape[0]
    if lam_u > 0 and o_unlabeled.shape[0]:
        hinge_u = np.maximum(0.0, 1.0 - np.abs(o_unlabeled))
        value += 0.5 * lam_u * (hinge_u @ hinge_u) / o_unlabeled.shape[0]
    return float(value)


def objective_of_weights(problem, w, lam, lam_u):
    """J(w) of Eqn 18 for weights ``w`` on a :class:`~.problem.Problem`."""
    o_l = problem.op.matvec(w, problem.labeled)
    o_u = problem.op.matvec(w, problem.unlabeled)
    return transductive_objective(w, o_l, problem.y, o_u, lam, lam_u)
