"""Kernel DA / JTSVM / nabla-TSVM run by name, reported like the linear solvers.

:func:`kernel_da`, :func:`kernel_jtsvm` and :func:`kernel_nabla_tsvm` return (alpha, bias,
:class:`~ssl_repro.solvers.SolverInfo`); :func:`train_kernel` runs either and completes the record:

- ``objective``: the kernel form of Eqn 18 (spec paper) for
  f = K alpha + b,
  lambda/2 alpha' K alpha + 1/(2l) sum_i max(0, 1 - y_i f_i)^2
  + lambda'/(2u) sum_j max(0, 1 - |f'_j|)^2,
  i.e. the linear core's J with ||w||^2 replaced by the RKHS norm; the bias
  (the l1 f-step's and nabla-TSVM's) is not regularized, as in 001's Eqn 6 and
  in libsvm.  This is the common yardstick across losses;
- ``own_objective``: the transductive objective J_0 of 001's Eqn 1 in the
  method's own loss V (what DA returns the minimum of along its path;
  for nabla-TSVM its J_nabla, :mod:`ssl_repro.solvers.nabla`);
- ``objective_path`` (T or lambda' level, J_0), ``temperatures``
  (empty for JTSVM), ``switches`` (JTSVM), ``lam_u_levels`` and
  ``lbfgs_iterations`` (nabla-TSVM), ``positive_fraction`` (fraction
  of unlabeled points with f > 0) and ``seconds``.

With no unlabeled point (a fully labeled y given to a kernel estimator) every method's objective, 001's
Eqn 1 with u = 0, is the f-step's on the labeled points at cost 1/l in the method's loss, solved once
(:func:`supervised_kernel`: JTSVM's supervised start); its record counts that solve in ``mfn_calls``.

BLAS is held to one thread inside the three solvers
(as inside the linear solvers), however they are called: the f-steps are
many small dense solves, and OpenBLAS's spinning threads made DA (l2) on
2MOONS 200 times slower (199 s instead of 1.0 s for 10 runs) while another
process used the second core; JTSVM (l2) on 2MOONS (lambda = 1e-4, width 8
x default) took 7.4 s instead of 0.08 s for one draw.
"""
import time

import numpy as np

from ssl_repro.solvers.engine._threads import solver_threads
from ssl_repro.solvers.info import SolverInfo
from ssl_repro.solvers.objective import transductive_objective
from ssl_repro.solvers.validation import check_positive
from ssl_repro.kernel.annealing import kernel_da
from ssl_repro.kernel.fstep import FStep
from ssl_repro.kernel.jtsvm import kernel_jtsvm
from ssl_repro.kernel.nabla import kernel_nabla_tsvm

#: Kernel solver per method name.
KERNEL_SOLVERS = {"da": kernel_da, "jtsvm": kernel_jtsvm, "nabla_tsvm": kernel_nabla_tsvm}


def kernel_eqn18(K, alpha, bias, labeled, y, unlabeled, lam, lam_u):
    """Eqn 18's J for f = K alpha + bias (see module doc)."""
    f_l = K[labeled] @ alpha + bias
    f_u = K[unlabeled] @ alpha + bias
    return transductive_objective(None, f_l, y, f_u, lam, lam_u, norm_sq=float(alpha @ K @ alpha))


def train_kernel(method, K, labeled, y, unlabeled, lam, lam_u=1.0, r=0.5, loss="l2", **options):
    """Run kernel ``method`` ("da", "jtsvm" or "nabla_tsvm") on the Gram matrix ``K``; returns
    (alpha, bias, SolverInfo): the solver's record (its own objective, path and caps; it warns on a
    cap itself) with ``objective`` (Eqn 18 in the RKHS), ``positive_fraction`` and ``seconds`` set here.

    ``labeled``/``unlabeled`` index K's rows, ``y`` holds +1/-1 for the
    labeled ones; ``options`` go to :func:`kernel_da` (T0, rate, eps,
    max_outer, max_inner), :func:`kernel_jtsvm` (switches) or
    :func:`kernel_nabla_tsvm` (steps, start_fraction; loss l2 only).
    """
    if method not in KERNEL_SOLVERS:
        raise ValueError(f"kernel method must be one of {sorted(KERNEL_SOLVERS)}, got {method!r}")
    labeled, unlabeled = np.asarray(labeled, dtype=np.int64), np.asarray(unlabeled, dtype=np.int64)
    y = np.asarray(y, dtype=np.float64)
    start = time.perf_counter()
    if unlabeled.size == 0:
        alpha, bias, info = supervised_kernel(K, labeled, y, lam, loss)
    else:
        alpha, bias, info = KERNEL_SOLVERS[method](K, labeled, y, unlabeled, lam, lam_u, r, loss=loss, **options)
    info.seconds = time.perf_counter() - start
    info.objective = kernel_eqn18(K, alpha, bias, labeled, y, unlabeled, lam, lam_u)
    if unlabeled.size:
        info.positive_fraction = float(np.mean(K[unlabeled] @ alpha + bias > 0))
        if method != "da":       # DA's annealing checked its own answer
            info.check_one_class(info.positive_fraction)
    return alpha, float(bias), info


@solver_threads
def supervised_kernel(K, labeled, y, lam, loss="l2"):
    """001's Eqn 1 with no unlabeled point (module doc): the f-step on the labeled points of ``K`` at cost 1/l
    in ``loss``; (alpha, bias, SolverInfo with ``own_objective`` and ``mfn_calls`` 1)."""
    fstep = FStep(K, check_positive(lam, "lambda"), loss)
    costs = np.full(labeled.size, 1.0 / labeled.size)
    alpha, bias = fstep.solve(labeled, y, costs)
    info = SolverInfo(f"kernel_supervised_{loss}", mfn_calls=1)
    info.own_objective = float(fstep.objective(alpha, labeled, y, costs, bias))
    return alpha, bias, info
