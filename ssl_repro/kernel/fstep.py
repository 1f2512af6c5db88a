"""The f-step of 001: minimize over alpha, for fixed per-point label weights,

    lambda/2 alpha' K alpha + sum_k c_k V(y_k f_k),   f = K alpha,

where a point appears once per label it carries (labeled points once,
unlabeled points with +1 (weight lambda' p_j / u) and -1 (weight
lambda' (1 - p_j) / u), or once with a hard label in the TSVM baseline).

- ``"sqr"``: V = (1 - t)^2 / 2.  The two labels of a point merge into one
  target (weighted mean label) with the summed weight, and the minimizer is
  alpha = (K + lambda W^-1)^-1 target (Eqn 7 of 001, C = W^-1), solved as
  :class:`WeightedSystem`.  With
  fixed weights (the DA case: 1/l and lambda'/u) the factorization is
  computed once and each step is a pair of triangular solves.  The cached
  factor is reused while the merged weights agree with those it was built
  for to a relative 1e-12 (WEIGHT_RTOL): DA's lambda' p/u + lambda' (1-p)/u
  equals lambda'/u only up to rounding, while a real change (JTSVM's next
  lambda' level, a point labeled or not) refactors.
- ``"l2"``: V = max(0, 1 - t)^2 / 2, by the finite Newton method of 001
  Sec. 3.1: solve the squared-loss system on the active pseudo-points
  (lambda I + W_A K) alpha = W_A t (:class:`WeightedSystem`), then the exact line search of the
  linear core (Table 3 of 000) in the metric of K (through its Cholesky
  factor R: ||R alpha||^2 = alpha' K alpha).  The factor of the last
  system is reused when the active weights are exactly the same (so the
  result is the same as refactoring): JTSVM switches two labels inside the
  margin, where both labels are active, so its retraining usually starts
  on the weights of the previous solve.
- ``"l1"``: V = max(0, 1 - t), a weighted kernel SVM: scikit-learn's SVC on
  the precomputed Gram of the pseudo-points with C = 1 and sample weights
  c_k / lambda (:func:`~.svc.weighted_svc`: SVC's libsvm call without its
  input checks; libsvm's default tolerance 1e-3: at lambda = 1e-4 a
  tolerance of 1e-6 made one DA run take 29 s instead of 4.5 s).  SVC adds an unregularized bias, a small departure from
  Eqn 6 that 001's SVM-based l1 implementation shares.
"""
from functools import cached_property

import numba
import numpy as np
from scipy.linalg import cho_factor, cho_solve

from ssl_repro.solvers.engine.line_search import line_search
from ssl_repro.solvers.mfn import MAX_NEWTON_ITER
from ssl_repro.solvers.engine.loss import SquaredHingeLoss
from ssl_repro.kernel.svc import weighted_svc

JITTER = 1e-10
#: libsvm's stopping tolerance in the l1 f-step (its default; see the module doc).
SVM_TOL = 1e-3
#: Merged squared-loss weights within this relative difference of the cached
#: factor's weights reuse it.  The weights differ by rounding only (a few ulps:
#: p/u + (1-p)/u vs 1/u); a relative 1e-12 perturbation of W is of the order of
#: the backward error of the factorization itself, so reusing the factor
#: costs no accuracy.  Exactly zero weights (unlabeled points carrying no
#: label) must stay exactly zero: atol = 0.
WEIGHT_RTOL = 1e-12


def loss_value(loss, t):
    """V(t) for the three losses."""
    if loss == "l1":
        return np.maximum(0.0, 1.0 - t)
    if loss == "l2":
        return 0.5 * np.maximum(0.0, 1.0 - t) ** 2
    return 0.5 * (1.0 - t) ** 2


class WeightedSystem:
    """The squared-loss system of both f-steps, (lambda I + W K) alpha = W t for weights W >= 0
    (Eqn 7 of 001 as (W K + lambda I) alpha = W t, which allows zero weights; 001 Sec. 3.1's Newton
    system on the active pseudo-points).

    Where w_i = 0 the system reads lambda alpha_i = 0, so alpha lives on the support
    S = {w > 0}; there, with D = W_S^(1/2) and alpha_S = D z, it becomes the symmetric positive
    definite (lambda I + D K_SS D) z = D^-1 (W t)_S (eigenvalues >= lambda): one Cholesky
    factorization of |S| rows, instead of an LU of all n (half the flops at S = all rows; a
    JTSVM retraining's S is the labeled points and the unlabeled ones inside the margin).
    """

    def __init__(self, K, lam, weight):
        self.weight, self.n = weight, K.shape[0]
        self.support = np.flatnonzero(weight > 0)
        self.scale = np.sqrt(weight[self.support])
        # the C-order lower triangle is the upper one of the Fortran-order transpose LAPACK reads
        system = _scaled_lower_block(K, self.support, self.scale, float(lam))
        self.factor = cho_factor(system.T, lower=False, overwrite_a=True, check_finite=False)

    def solve(self, rhs):
        """alpha for the right-hand side ``rhs`` = W t (zero off the support)."""
        alpha = np.zeros(self.n)
        alpha[self.support] = self.scale * cho_solve(self.factor, rhs[self.support] / self.scale,
                                                     check_finite=False)
        return alpha


def warm_up():
    """Compile (or load from numba's cache) :func:`_scaled_lower_block` on a tiny system, so that it
    happens before a timed fit (:func:`ssl_repro.harness.compilation.compile_kernel_method`)."""
    WeightedSystem(np.eye(2), 1.0, np.ones(2))


@numba.njit(cache=True, nogil=True)
def _scaled_lower_block(K, support, scale, lam):
    """The lower triangle (C order) of lambda I + D K_SS D, D = diag(``scale``), S = ``support``,
    in one pass; the strict upper triangle is left unset (the factorization does not read it)."""
    m = support.size
    out = np.empty((m, m))
    for a in range(m):
        row = K[support[a]]
        for b in range(a + 1):
            out[a, b] = row[support[b]] * scale[a] * scale[b]
        out[a, a] += lam
    return out


class FStep:
    """Solves the f-step on a fixed Gram matrix ``K`` (n x n) for one loss and lambda."""

    def __init__(self, K, lam, loss):
        if loss not in ("l1", "l2", "sqr"):
            raise ValueError(f"loss must be 'l1', 'l2' or 'sqr', got {loss!r}")
        self.K, self.lam, self.loss = K, lam, loss
        self.n = K.shape[0]
        self._system = None

    @cached_property
    def _R(self):
        """The Cholesky factor R of K (R' R = K + JITTER I): the l2 line search's metric."""
        return np.linalg.cholesky(self.K + JITTER * np.eye(self.n)).T

    def solve(self, points, y, c, alpha=None):
        """alpha minimizing the f-step objective; ``points`` index K's rows, one per pseudo-point."""
        if self.loss == "sqr":
            return self._solve_squared(points, y, c)
        if self.loss == "l2":
            return self._solve_newton(points, y, c, np.zeros(self.n) if alpha is None else alpha)
        return self._solve_svm(points, y, c)

    def objective(self, alpha, points, y, c, bias=0.0):
        f = self.K @ alpha + bias
        return 0.5 * self.lam * alpha @ self.K @ alpha + c @ loss_value(self.loss, y * f[points])

    def _merge(self, points, y, c):
        weight = np.bincount(points, weights=c, minlength=self.n)
        target = np.bincount(points, weights=c * y, minlength=self.n)
        return weight, np.divide(target, weight, out=np.zeros(self.n), where=weight > 0)

    def _solve_squared(self, points, y, c):
        weight, target = self._merge(points, y, c)
        return self._system_for(weight, WEIGHT_RTOL).solve(weight * target), 0.0

    def _system_for(self, weight, rtol):
        """The factored :class:`WeightedSystem` of ``weight``: the last one while its weights agree
        with ``weight`` to a relative ``rtol`` (exactly at rtol = 0), else a new factorization."""
        last = self._system
        if last is None or not (np.array_equal(weight, last.weight)
                                or rtol > 0 and np.allclose(weight, last.weight, rtol=rtol, atol=0.0)):
            self._system = WeightedSystem(self.K, self.lam, weight)
        return self._system

    def _solve_newton(self, points, y, c, alpha):
        K, lam, R = self.K, self.lam, self._R
        f = K @ alpha
        for _ in range(MAX_NEWTON_ITER):
            active = y * f[points] < 1.0
            weight, target = self._merge(points[active], y[active], c[active])
            alpha_bar = self._system_for(weight, 0.0).solve(weight * target)
            f_bar = K @ alpha_bar
            if np.array_equal(y * f_bar[points] < 1.0, active):
                return alpha_bar, 0.0
            # line search on 1/2 sum c (y - f)^2 over the active set: V = max(0,1-t)^2/2 with cost c
            # (in w = R alpha, lambda/2 ||w||^2 is the f-step's lambda/2 alpha' K alpha)
            delta = line_search(SquaredHingeLoss(None, None, y, c, lam), R @ alpha, R @ alpha_bar,
                                f[points], f_bar[points])
            alpha = alpha + delta * (alpha_bar - alpha)
            f = K @ alpha
        return alpha, 0.0

    def _solve_svm(self, points, y, c):
        keep = c > 0
        pts = points[keep]
        gram = self.K.take(pts, axis=0).take(pts, axis=1)     # C order, as libsvm needs
        support, dual_coef, intercept = weighted_svc(gram, y[keep], c[keep] / self.lam, SVM_TOL)
        return np.bincount(pts[support], weights=dual_coef, minlength=self.n), intercept
