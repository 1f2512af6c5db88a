"""Kernel nabla-TSVM: the linear primal nabla-TSVM on the empirical kernel map (001, Tables 2 and 4).

Chapelle & Zien (2005) train nabla-TSVM with a kernel by running the primal
method on the kernel PCA coordinates of the l + u training points.  With
K = V diag(s) V' (eigendecomposition), the features of the training points
are Phi = V diag(sqrt(s)), so Phi Phi' = K, and a point x maps to
phi(x) = K(x, X) V diag(1/sqrt(s)) (which gives Phi back on the training
points).  :func:`ssl_repro.solvers.nabla.nabla_tsvm` then fits
f(x) = w . phi(x) + b on Phi: squared hinge on the labeled rows (001's l2,
the only loss that applies), exp(-3 f^2) on the unlabeled ones, and the
balance constraint mean_j f(x'_j) = 2r - 1.  Since
w . phi(x) = K(x, X) alpha with alpha = V diag(1/sqrt(s)) w, the result is
returned as (alpha, b) like the other kernel solvers, and ||w||^2 =
alpha' K alpha is the RKHS norm of Eqn 18's kernel form.

Decisions (the papers are silent):

- Eigenvalues below :data:`EIGEN_RTOL` x the largest are dropped: K is
  reproduced to that relative accuracy (||K - Phi Phi'||_2 <= EIGEN_RTOL
  x s_max), far below what changes a decision, while eigh's rounding
  (about n x 1e-16 x s_max: 1.4e-13 at 001's n = 1446) stays orders of
  magnitude below the threshold, so no kept direction is rounding noise
  that 1/sqrt(s) would blow up for new points.
  A Gram matrix of rank d (a linear kernel on d features) keeps d columns.
- The row limit is the other kernel methods' ``max_rows`` (checked by the
  estimator): K, V, Phi and Phi's CSR copy (which the linear solver's
  operator holds: 1.5 x Phi) peak at about 5 x K, i.e. 4 GB at 10000 rows,
  and the eigendecomposition costs O(n^3) (about 1.5 s at n = 1446 on one
  core).
"""
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ssl_repro.solvers.engine._threads import solver_threads
from ssl_repro.solvers.info import LBFGS_FAILED, fixed_cap
from ssl_repro.solvers.nabla import START_FRACTION, STEPS, nabla_tsvm
from ssl_repro.solvers.engine.biased_rows import BiasedRows
from ssl_repro.solvers.engine.problem import Problem
from ssl_repro.solvers.validation import check_fraction

#: Eigenvalues of K below this fraction of the largest are dropped from the map (module doc).
EIGEN_RTOL = 1e-10


class EmpiricalKernelMap:
    """The features Phi = V diag(sqrt(s)) of the training points of the Gram matrix ``K``.

    ``s`` holds the eigenvalues of K above ``rtol`` x the largest, ``V``
    their eigenvectors.
    """

    def __init__(self, K, rtol=EIGEN_RTOL):
        K = np.asarray(K, dtype=np.float64)
        if K.ndim != 2 or K.shape[0] != K.shape[1]:
            raise ValueError(f"the Gram matrix must be square, got shape {K.shape}")
        if not np.all(np.isfinite(K)):
            raise ValueError("the Gram matrix holds NaN or infinite entries")
        s, V = np.linalg.eigh(K)
        if s[-1] <= 0:
            raise ValueError("the Gram matrix has no positive eigenvalue (all-zero or not a kernel matrix)")
        keep = s > rtol * s[-1]
        self.s, self.V = s[keep], V[:, keep]
        self.features = self.V * np.sqrt(self.s)

    def dual_coefficients(self, w):
        """alpha = V diag(1/sqrt(s)) w, so that K(x, X) alpha = phi(x) . w for every point x."""
        return self.V @ (w / np.sqrt(self.s))


@solver_threads
def kernel_nabla_tsvm(K, labeled, y, unlabeled, lam, lam_u=1.0, r=0.5, loss="l2", steps=STEPS,
                      start_fraction=START_FRACTION, rtol=EIGEN_RTOL):
    """nabla-TSVM on the Gram matrix ``K`` (see module doc); returns (alpha, bias,
    :class:`~ssl_repro.solvers.SolverInfo` of :func:`ssl_repro.solvers.nabla.nabla_tsvm` on the map's
    features: ``own_objective`` J_nabla at the last lambda', ``objective_path`` (lambda' level, J_nabla)
    per level of the C* schedule, ``lam_u_levels``, ``lbfgs_iterations``, ``capped``), and a
    ConvergenceWarning when L-BFGS-B stopped early.
    """
    if loss != "l2":
        raise ValueError(f"nabla-TSVM has the quadratic hinge (loss='l2') on the labeled rows "
                         f"(001, Table 4: it needs a differentiable loss), got loss={loss!r}")
    kmap = EmpiricalKernelMap(K, rtol)
    problem = Problem(BiasedRows(kmap.features), np.asarray(labeled, dtype=np.int64),
                      np.asarray(y, dtype=np.float64), np.asarray(unlabeled, dtype=np.int64))
    with warnings.catch_warnings():
        # warned below with this function's words: its L-BFGS-B cap is not one of its parameters
        warnings.simplefilter("ignore", ConvergenceWarning)
        wb, info = nabla_tsvm(problem, lam, lam_u, check_fraction(r), steps=steps, start_fraction=start_fraction)
    info.method = f"kernel_nabla_tsvm_{loss}"
    info.warn_if_capped({"lbfgs_max_iter": fixed_cap("the L-BFGS-B iterations of each lambda' step"),
                         "lbfgs_failed": LBFGS_FAILED})
    return kmap.dual_coefficients(wb[:-1]), float(wb[-1]), info
