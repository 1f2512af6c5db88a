"""Supervised baselines on the labeled rows: the L2-SVM (Eqn 1) and RLS."""
import time

import numpy as np

from ssl_repro.solvers.engine._threads import solver_threads
from ssl_repro.solvers.engine.cgls import cgls
from ssl_repro.solvers.info import NEWTON_CAP, SolverInfo, fixed_cap
from ssl_repro.solvers.engine.loss import SquaredHingeLoss
from ssl_repro.solvers.mfn import MAX_CG_ITER, TOL, l2svm_mfn
from ssl_repro.solvers.objective import transductive_objective
from ssl_repro.solvers.validation import check_lambda

#: The warnings' words for a cap hit (:meth:`.info.SolverInfo.warn_if_capped`).
SVM_CAPS = {"max_newton_iter": NEWTON_CAP}
RLS_CAPS = {"max_cg_iter": fixed_cap(f"{MAX_CG_ITER} CG iterations")}


@solver_threads
def svm(problem, lam, cost=None):
    """L2-SVM-MFN on the labeled rows: J of Eqn 18 with lambda' = 0.

    ``cost`` optionally weights the rows (the c_i of Table 1); the default
    1/l makes the objective the first two terms of Eqn 18.
    """
    start = time.perf_counter()
    lam = check_lambda(problem, lam)
    info = SolverInfo("svm")
    c = _labeled_costs(problem, cost)
    loss = SquaredHingeLoss(problem.op, problem.labeled, problem.y, c, lam)
    w, o, mfn = l2svm_mfn(loss)
    info.add_mfn(mfn, outer=True)
    info.warn_if_capped(SVM_CAPS)
    info.own_objective = float(loss.value(w, o))
    info.objective = transductive_objective(w, o, problem.y, o[:0], lam, 0.0)
    info.seconds = time.perf_counter() - start
    return w, info


@solver_threads
def rls(problem, lam, cost=None):
    """Regularized least squares by CGLS: lambda/2 ||w||^2 + 1/2 sum c_i (y_i - o_i)^2.

    ``info.objective`` is the squared-hinge J (lambda' = 0) of the RLS
    weights, comparable with the SVM's; ``info.own_objective`` is the
    least-squares objective itself.
    """
    start = time.perf_counter()
    lam = check_lambda(problem, lam)
    info = SolverInfo("rls")
    c = _labeled_costs(problem, cost)
    w0 = np.zeros(problem.op.n_weights)
    w, o, cg = cgls(problem.op, problem.labeled, problem.y, c, lam, w0,
                    np.zeros(problem.n_labeled), TOL, MAX_CG_ITER)
    info.cg_iterations = cg.iterations
    info.stop("tolerance" if cg.converged else "max_cg_iter")
    info.warn_if_capped(RLS_CAPS)
    resid = problem.y - o
    info.own_objective = float(0.5 * lam * (w @ w) + 0.5 * (c @ (resid * resid)))
    info.objective = transductive_objective(w, o, problem.y, o[:0], lam, 0.0)
    info.seconds = time.perf_counter() - start
    return w, info


def _labeled_costs(problem, cost):
    if cost is None:
        return np.full(problem.n_labeled, 1.0 / problem.n_labeled)
    cost = np.asarray(cost, dtype=np.float64)
    if cost.shape != (problem.n_labeled,) or not np.all(np.isfinite(cost)) or np.any(cost < 0):
        raise ValueError(f"cost must be {problem.n_labeled} finite non-negative numbers, one per labeled row")
    return cost
