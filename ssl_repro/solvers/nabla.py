"""Linear nabla-TSVM in the primal (Chapelle & Zien 2005, as described in 001 and 002).

Minimizes, by L-BFGS on the sparse data,

    J_nabla(w) = lambda/2 ||w||^2 + 1/(2l) sum_i max(0, 1 - y_i o_i)^2
                 + lambda'/(2u) sum_j exp(-3 o'_j^2)

(squared hinge on labeled rows; the smooth exp(-3 t^2) stand-in for the
TSVM loss on unlabeled rows; the 1/2 factors mirror Eqn 18) subject to the
balance constraint mean_j o'_j = 2r - 1 (the mean label the positive ratio
r implies; Chapelle & Zien use the labeled rows' mean label, which is what
r = None gives).  The constraint is enforced exactly by eliminating the
bias: b = (2r - 1) - mean_j x'_j . w, so the bias is not regularized here
(as in Chapelle & Zien).  The unlabeled weight follows their C* schedule:
10 values growing geometrically from 0.01 lambda' to lambda', each solve
warm-started from the previous one; the first starts from the supervised
L2-SVM's weights.
"""
import time

import numpy as np
from scipy.optimize import minimize

from ssl_repro.solvers.engine._threads import solver_threads
from ssl_repro.solvers.info import LBFGS_FAILED, SolverInfo, larger
from ssl_repro.solvers.objective import transductive_objective
from ssl_repro.solvers.supervised import svm
from ssl_repro.solvers.validation import check_count, check_fraction, check_has_unlabeled, check_lambda, check_positive

#: exp(-SHARPNESS t^2) is the unlabeled loss (Chapelle & Zien's choice, 3).
SHARPNESS = 3.0
#: The C* schedule: STEPS values from START_FRACTION lambda' up to lambda'.
STEPS, START_FRACTION = 10, 0.01


class BalancedObjective:
    """J_nabla and its gradient as functions of w (bias eliminated by the balance constraint)."""

    def __init__(self, problem, lam, lam_u, target_mean):
        self.problem, self.lam, self.lam_u, self.target = problem, lam, lam_u, target_mean
        u = problem.n_unlabeled
        self.mean_unlabeled = problem.op.rmatvec(np.full(u, 1.0 / u), problem.unlabeled)[:-1]

    def full_weights(self, w):
        """[w, b] with the bias that makes the mean unlabeled output equal the target."""
        return np.r_[w, self.target - self.mean_unlabeled @ w]

    def value_and_gradient(self, w):
        p, lam, lam_u = self.problem, self.lam, self.lam_u
        wb = self.full_weights(w)
        o_l, o_u = p.op.matvec(wb, p.labeled), p.op.matvec(wb, p.unlabeled)
        l, u = p.n_labeled, p.n_unlabeled
        hinge = np.maximum(0.0, 1.0 - p.y * o_l)
        bump = np.exp(-SHARPNESS * o_u * o_u)
        value = 0.5 * lam * (w @ w) + 0.5 * (hinge @ hinge) / l + 0.5 * lam_u * bump.sum() / u
        g_l = -p.y * hinge / l
        g_u = -SHARPNESS * lam_u * o_u * bump / u
        grad_full = p.op.rmatvec(g_l, p.labeled) + p.op.rmatvec(g_u, p.unlabeled)
        # d b / d w = -mean_unlabeled, so the bias gradient folds into w's
        grad = lam * w + grad_full[:-1] - grad_full[-1] * self.mean_unlabeled
        return value, grad


@solver_threads
def nabla_tsvm(problem, lam, lam_u, r=None, steps=STEPS, start_fraction=START_FRACTION,
               gtol=1e-8, max_iter=2000):
    """Linear nabla-TSVM (see module doc); returns (w with bias last, SolverInfo).

    ``r=None`` uses the labeled rows' mean label as the target mean output.
    ``info.objective`` is Eqn 18's J of the result with ``lam_u``;
    ``info.own_objective`` is J_nabla at the last lambda'.
    """
    start = time.perf_counter()
    lam = check_lambda(problem, lam)
    lam_u = check_positive(lam_u, "lambda'")
    steps = check_count(steps, "steps")
    max_iter = check_count(max_iter, "max_iter")
    check_positive(start_fraction, "start_fraction")
    check_has_unlabeled(problem, "nabla-TSVM")
    target = float(np.mean(problem.y)) if r is None else 2.0 * check_fraction(r) - 1.0
    info = SolverInfo("nabla_tsvm")
    w_svm, svm_info = svm(problem, lam)
    info.mfn_calls, info.cg_iterations = svm_info.mfn_calls, svm_info.cg_iterations
    w = w_svm[:-1]
    for level in lam_u * np.geomspace(start_fraction, 1.0, steps):
        objective = BalancedObjective(problem, lam, float(level), target)
        result = minimize(objective.value_and_gradient, w, jac=True, method="L-BFGS-B",
                          options={"gtol": gtol, "maxiter": max_iter})
        w = result.x
        info.lam_u_levels.append(float(level))
        info.objective_path.append((float(level), float(result.fun)))
        info.lbfgs_iterations += int(result.nit)
        if not result.success:
            info.inner_cap("lbfgs_max_iter" if result.nit >= max_iter else "lbfgs_failed")
    info.warn_if_capped({"lbfgs_max_iter": larger("max_iter", max_iter) + " of ssl_repro.solvers.nabla.nabla_tsvm",
                         "lbfgs_failed": LBFGS_FAILED})
    wb = objective.full_weights(w)
    o_l, o_u = problem.op.matvec(wb, problem.labeled), problem.op.matvec(wb, problem.unlabeled)
    info.own_objective = info.objective_path[-1][1]
    info.objective = transductive_objective(wb, o_l, problem.y, o_u, lam, lam_u)
    info.positive_fraction = float(np.mean(o_u > 0))
    info.check_one_class(info.positive_fraction)
    info.seconds = time.perf_counter() - start
    return wb, info
