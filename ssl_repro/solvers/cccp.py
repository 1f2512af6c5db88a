"""Linear CCCP-TSVM on the MFN core (Collobert, Sinz, Weston & Bottou 2006: 002).

002's objective puts the symmetric ramp loss on each unlabeled row, counted
with both labels, and constrains the mean unlabeled output; the concave-
convex procedure (CCCP) linearizes the concave part, solves the convex
rest, and repeats until the linearization stops changing.  Its Sec. 6.3
notes that a fast linear primal solver makes this fast; here each convex
step is one L2-SVM-MFN solve (Tables 1-3) on sparse data.

Loss pairing (our choice): squared hinge H(t) = max(0, 1 - t)^2 throughout,
so the MFN machinery applies.  The ramp is H clipped at the plateau s < 1,
R_s(t) = min(H(t), H(s)).  With the squared hinge, 002's s = -0.3 would
make R_s(o) + R_s(-o) = 2 + 2 o^2 near o = 0, a convex bowl that pulls
unlabeled outputs to 0; s >= 0 gives the intended peaked loss, and s = 0
gives exactly the TSVM loss of Eqn 7 plus the constant 1,
max(0, 1 - |o|)^2 + 1, so the default is s = 0 (measured on text20k:
s = -0.3 ended at 25.9% transductive error, s = 0 at 9.3%).
In formulas,
R_s(t) = min(H(t), H(s)) = H(t) - V_s(t), V_s(t) = [t < s] ((1 - t)^2 - (1 - s)^2),
both H and V_s convex.  The objective is

    J_ramp(w) = lambda/2 ||w||^2 + 1/(2l) sum_i H(y_i o_i)
                + lambda'/(2u) sum_j [R_s(o'_j) + R_s(-o'_j)]

subject to mean_j o'_j = 2r - 1 (002 uses the labeled rows' mean label,
which r = None gives).  A CCCP step replaces -V_s by its tangent at the
current margins t0: pseudo-rows with t0 < s get the linear term
lambda'/u (1 - t0) t, a vector v added to the MFN objective (f(w) + v.w);
the constraint is met by a Lagrange multiplier mu on the mean unlabeled
row m (f(w) + (v + mu m).w), found by a secant/bisection search on the
constraint residual g(mu) = m.w(mu) - target, which is decreasing in mu.
On a fixed active set w(mu) is affine in mu (the Newton system of Eqn 4
with right-hand side shifted by -mu m), so once two solves with the same
active set bracket the root, their convex combination with residual 0 is
the solution at the root, to the accuracy of the solves and with the
same active set; it meets the constraint to rounding, below BALANCE_TOL,
which a further solve (CGLS tolerance 1e-6, Table 1) need not reach.
The bias stays a regularized weight, as in the rest of the project.

Stopping rule: 002's Algorithm 2 stops when the tangent of the concave
part repeats (beta^{t+1} = beta^t, Eqn 11); with the hinge beta only
takes the values 0 and C*, so this happens after finitely many steps.
With the squared hinge the tangent slope lambda'/u (1 - t0) moves with t0
inside the flat set t0 < s, so a repeated flat set does not mean a
repeated linearization, and CCCP only converges in the limit.  We stop
when the linear term v, recomputed at the new w, has changed by at most
STOP_TOL = 1e-6 relative to its norm, ||v_new - v|| <= STOP_TOL
max(||v_new||, ||v||), or after max_iter steps.  The convex problem
linearized at the returned w differs from the one w minimizes only in
the linear term, by Delta v = v_new - v, so (being lambda-strongly convex)
its minimizer is within ||Delta v|| / lambda of w.  The price: once the
flat set is fixed, ||Delta v|| shrinks by a constant factor per step
(about 4x on text20k, 1.3-2x on pcmac, both with lambda = 0.001), so this rule
runs more steps than the flat-set rule did (text20k 24 instead of about
21, pcmac about 20-40 instead of 3-13); with tiny training sets and
lambda = 0.001 the factor can be close to 1 and max_iter ends the run.

With the project's normalization (cost 1/l per labeled row, lambda'/u per
unlabeled pseudo-row), 002's heuristic UC* = LC is lambda' = 1.

One-sided solutions with few labels (not a bug, the algorithm
under these settings).  CCCP descends from the supervised SVM, and with
the regularized bias and a handful of labels that start puts almost every
unlabeled output on one side: on 20ng-aut-avn-like split 0 (r = 0.668) at
l = 4 all 1,483 outputs lie at 0.40 +- 0.05, at l = 45 93% are positive.
An unlabeled row's loss R_s(o) + R_s(-o) peaks at o = 0 and, with the
squared hinge and s = 0, is the strictly convex bowl (1 - |o|)^2 + 1 on
each side; a descent step never carries a row across the peak, and with
the mean output pinned at 2r - 1 the bowls favour equal outputs, so the
run keeps the start's sign pattern (l = 4: 99.8% positive, all outputs
within 0.5 of 0.335; l = 45: 93% positive).  It is a local minimum: the
TSVM S=max solution, its bias shifted to meet the same constraint, has
the lower J_ramp (l = 4, lambda' = 10: 5.17 against CCCP's 7.17; l = 45,
lambda' = 1: 0.605 against 0.678), and lambda' = 1, s = -0.3 or r = None
keep it one-sided (92.9-99.8% positive).  The iteration cap follows from
the squared hinge (stopping rule above): at lambda = 0.001, lambda' = 10
the linear term shrinks slowly (l = 4: 66 steps; l = 16, 45: 100), while
lambda' = 1 stops in 10-31.  002's hinge ramp has neither property (its
loss is linear on either side of the plateau, beta takes two values):
:func:`ssl_repro.kernel.cccp.kernel_cccp_tsvm` is that form, and with a
linear kernel at the same lambda, lambda' and r (s = -0.3) it is not
one-sided on the same splits: 68-86% positive, error 2.6% (l = 45,
lambda' = 1) and 4.9% (l = 4, lambda' = 1) against 24% and 33% here, in
4-9 CCCP steps (``results/cccp_002/linear_diagnosis.csv``, made by
``python experiments/cccp_002.py linear-diagnosis``).  So the cause is this
module's squared-hinge pairing, not 002's algorithm; use
``KernelCCCPTSVM(kernel="linear")`` for 002's method.
"""
import time
from typing import NamedTuple

import numpy as np

from ssl_repro.solvers.engine._threads import solver_threads
from ssl_repro.solvers.info import NEWTON_CAP, SolverInfo, fixed_cap, larger
from ssl_repro.solvers.engine.loss import SquaredHingeLoss
from ssl_repro.solvers.mfn import l2svm_mfn
from ssl_repro.solvers.objective import transductive_objective
from ssl_repro.solvers.engine.problem import pseudo_rows
from ssl_repro.solvers.supervised import svm
from ssl_repro.solvers.validation import check_count, check_fraction, check_has_unlabeled, check_lambda, check_positive

#: Plateau of the ramp: 0 for the squared hinge (002's -0.3 is for the hinge; see module doc).
RAMP_S = 0.0
#: Cap on CCCP iterations and on constraint solves per iteration.
MAX_CCCP_ITER, MAX_MULTIPLIER_ITER = 100, 60
#: Tolerance on |mean unlabeled output - target|.
BALANCE_TOL = 1e-9
#: CCCP stops when ||v_new - v|| <= STOP_TOL max(||v_new||, ||v||) for the linear term v.
STOP_TOL = 1e-6


def ramp_objective(loss, w, o, l, lam_u, u, s):
    """J_ramp(w) (see module doc) from the outputs ``o`` of the distinct rows."""
    t = loss.y * loss.pseudo_outputs(o)
    hinge = np.maximum(0.0, 1.0 - t) ** 2
    plateau = (1.0 - s) ** 2
    labeled = hinge[:l].sum() / (2 * l)
    unlabeled = lam_u / (2 * u) * np.minimum(hinge[l:], plateau).sum()
    return float(0.5 * loss.lam * (w @ w) + labeled + unlabeled)


class _Solve(NamedTuple):
    """One MFN solve of the multiplier search: mu, its minimizer w, outputs o, residual g."""

    mu: float
    w: np.ndarray
    o: np.ndarray
    g: float


def _balanced_solve(loss, v, mean_row, target, w, o, mu, info):
    """Minimize f(w) + (v + mu m).w with mu such that m.w = target; returns (w, o, mu).

    Secant/bisection search on g(mu) = m.w(mu) - target; it ends when a solve
    meets BALANCE_TOL, or when the nearest solves on either side of the root
    share their active set: then w(mu) is affine between them (module doc)
    and their convex combination with g = 0 is returned.  After
    MAX_MULTIPLIER_ITER further solves, the solve with the smallest |g| is
    returned.
    """
    def solve(mu_value):
        loss.linear = v + mu_value * mean_row
        w_new, o_new, mfn = l2svm_mfn(loss, w, o)
        info.add_mfn(mfn)
        return _Solve(mu_value, w_new, o_new, float(mean_row @ w_new - target))

    now = best = solve(mu)
    lo = hi = None  # nearest solves with g > 0 (mu too small) and with g < 0
    # g(mu) decreases in mu: g > 0 means mu must grow
    scale = max(abs(now.g) * loss.lam / max(mean_row @ mean_row, 1e-300), 1e-12)
    next_mu = mu + scale * np.sign(now.g)
    for _ in range(MAX_MULTIPLIER_ITER):
        if abs(now.g) <= BALANCE_TOL:
            return now.w, now.o, now.mu
        if now.g > 0 and (lo is None or now.mu > lo.mu):
            lo = now
        elif now.g < 0 and (hi is None or now.mu < hi.mu):
            hi = now
        if lo is not None and hi is not None and \
                np.array_equal(loss.active(lo.o), loss.active(hi.o)):
            theta = lo.g / (lo.g - hi.g)
            return lo.w + theta * (hi.w - lo.w), lo.o + theta * (hi.o - lo.o), \
                lo.mu + theta * (hi.mu - lo.mu)
        prev, now = now, solve(next_mu)
        best = min(best, now, key=lambda solved: abs(solved.g))
        secant = now.mu - now.g * (now.mu - prev.mu) / (now.g - prev.g) if now.g != prev.g else None
        if lo is not None and hi is not None:
            next_mu = secant if secant is not None and lo.mu < secant < hi.mu else 0.5 * (lo.mu + hi.mu)
        else:
            next_mu = secant if secant is not None and np.sign(secant - now.mu) == np.sign(now.g) \
                else now.mu + 2.0 * (now.mu - prev.mu)
    info.inner_cap("max_multiplier_iter")
    return best.w, best.o, best.mu


@solver_threads
def cccp_tsvm(problem, lam, lam_u=1.0, r=None, s=RAMP_S, max_iter=MAX_CCCP_ITER):
    """Linear CCCP-TSVM (see module doc); returns (w with bias last, SolverInfo).

    ``info.objective`` is Eqn 18's J of the result; ``info.own_objective``
    is J_ramp; ``info.objective_path`` lists (iteration, J_ramp) after each
    CCCP step (non-increasing by construction).
    """
    start = time.perf_counter()
    lam = check_lambda(problem, lam)
    lam_u = check_positive(lam_u, "lambda'")
    max_iter = check_count(max_iter, "max_iter")
    check_has_unlabeled(problem, "CCCP-TSVM")
    if not s < 1:
        raise ValueError(f"the ramp plateau s must be < 1, got {s!r}")
    target = float(np.mean(problem.y)) if r is None else 2.0 * check_fraction(r) - 1.0
    op, l, u = problem.op, problem.n_labeled, problem.n_unlabeled
    info = SolverInfo("cccp_tsvm")
    rows = np.concatenate([problem.labeled, problem.unlabeled])
    owner, y = pseudo_rows(problem.y, u)
    c = np.concatenate([np.full(l, 1.0 / l), np.full(2 * u, lam_u / u)])
    loss = SquaredHingeLoss(op, rows, y, c, lam, owner)
    mean_row = op.rmatvec(np.full(u, 1.0 / u), problem.unlabeled)

    w, sup = svm(problem, lam)
    info.add_mfn(sup)  # counts the supervised start as one MFN call
    info.mfn_calls, info.cg_iterations = 1, sup.cg_iterations
    o = op.matvec(w, rows)
    mu, previous_v = 0.0, None
    for iteration in range(1, max_iter + 1):
        t = y[l:] * loss.pseudo_outputs(o)[l:]
        slope = np.zeros(l + 2 * u)
        slope[l:] = np.where(t < s, (lam_u / u) * (1.0 - t) * y[l:], 0.0)
        v = op.rmatvec(loss.distinct_sum(slope), rows)
        if previous_v is not None and np.linalg.norm(v - previous_v) <= \
                STOP_TOL * max(np.linalg.norm(v), np.linalg.norm(previous_v)):
            break  # the linearization stopped changing (module doc)
        previous_v = v
        w, o, mu = _balanced_solve(loss, v, mean_row, target, w, o, mu, info)
        info.cccp_iterations = iteration
        info.objective_path.append((iteration, ramp_objective(loss, w, o, l, lam_u, u, s)))
    else:
        info.stop("max_iter")
    info.warn_if_capped({"max_iter": larger("max_iter", max_iter),
                         "max_multiplier_iter": fixed_cap(f"{MAX_MULTIPLIER_ITER} multiplier iterations"),
                         "max_newton_iter": NEWTON_CAP})
    o_l, o_u = o[:l], o[l:]
    info.own_objective = info.objective_path[-1][1]
    info.objective = transductive_objective(w, o_l, problem.y, o_u, lam, lam_u)
    info.positive_fraction = float(np.mean(o_u > 0))
    info.check_one_class(info.positive_fraction)
    info.seconds = time.perf_counter() - start
    return w, info
