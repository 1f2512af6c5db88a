"""scikit-learn estimator of 002's kernel CCCP-TSVM (beside :mod:`ssl_repro.estimators.kernel`).

Same label convention as the other estimators (``-1`` marks an unlabeled
row, ``classes_[1]`` is the paper's +1 class).  Unlike 001's kernel methods
it builds no n x n Gram matrix: its SMO reads kernel rows through a cache
of ``cache_bytes`` (:mod:`ssl_repro.kernel.rows`), so sparse data stays
sparse and 13,500 rows train in 256 MiB; a cache that does not fit in
the memory available is refused before it is allocated.

002's C and C* in the project's normalization: J^s / (C L) is
lambda/2 ||w||^2 + 1/L sum H_1 + lambda'/U sum R_s, so C = 1 / (lambda L)
and C* = lambda' / (lambda U); ``lam_u=1`` is 002's heuristic UC* = LC
(the default) and ``lam_u="C*=C"`` its heuristic C* = C.
"""
import numpy as np
import scipy.sparse as sp
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data
from numbers import Integral, Real

from ssl_repro.estimators.base import COUNT, POSITIVE, SEMI_SUPERVISED, Classifier
from ssl_repro.kernel.cccp import MAX_CCCP_ITER, kernel_cccp_tsvm
from ssl_repro.kernel.gram import default_sigma
from ssl_repro.kernel.rows import CACHE_BYTES
from ssl_repro.estimators.kernel import BLOCK_ROWS, check_kernel_rows
from ssl_repro.solvers.engine.data_checks import check_scale
from ssl_repro.solvers.objective import transductive_objective

#: Rows whose pairwise distances give the default RBF width (all rows up to this many).
SIGMA_ROWS = 1000
#: The default ``max_rows``: above 002's largest run here (1,000 labeled + 10,892 unlabeled rows,
#: ``experiments/cccp_002_large.py``).  Decision: the SMO's time, not its memory, bounds the size: each CCCP
#: step evaluates of the order of n^2 kernel entries through the cache, so 100,000 rows would run for hours
#: without a word; a larger set is refused at once, as the dense-Gram estimators refuse theirs.
MAX_ROWS = 20_000


def sampled_sigma(X):
    """001's default width (median pairwise distance, :func:`~ssl_repro.kernel.gram.default_sigma`)
    over at most :data:`SIGMA_ROWS` evenly spaced rows, so that it costs no n x n matrix."""
    rows = X[::-(-X.shape[0] // SIGMA_ROWS)]
    return default_sigma(rows.toarray())


class KernelCCCPTSVM(Classifier):
    """CCCP-TSVM of Collobert, Sinz, Weston & Bottou (002, Algorithm 2) with a linear or RBF kernel.

    Hinge on the labeled rows, symmetric ramp with plateau ``s`` on both
    labels of each unlabeled row, mean unlabeled output 2r - 1 (Eqns 3-4);
    each CCCP step an SVM dual on L + 2U + 1 variables solved by the
    package's SMO (see :mod:`ssl_repro.kernel.cccp`).

    Parameters
    ----------
    lam : float, default=1e-3
        lambda; C = 1 / (lam L) (module doc).
    lam_u : float or "C*=C", default=1.0
        lambda'; C* = lam_u / (lam U): 1 is 002's UC* = LC, "C*=C" its other heuristic.
    r : float in (0, 1), array-like or mapping of fractions per class, or None, default=None
        Fraction of unlabeled rows in ``classes_[1]``: the balance is mean f = 2r - 1;
        ``None`` uses the labeled rows' (002's zeta_0, their mean label).
        For K >= 3 classes one fraction per class (in the order of ``classes_``, or
        class -> fraction), each class's binary problem taking its own (002's one-vs-rest).
    s : float < 1, default=-0.3
        Plateau of the symmetric ramp (002 Fig 1); 0 is the symmetric hinge.
    kernel : {"rbf", "linear"}, default="rbf"
    sigma : float or None, default=None
        RBF width, K = exp(-||x - z||^2 / (2 sigma^2)) (002's gamma = 1 / (2 sigma^2));
        ``None``: ``sigma_factor`` times the median pairwise distance (:func:`sampled_sigma`).
    sigma_factor : float, default=1.0
    tol : float, default=1e-3
        SMO's stopping rule, the maximal KKT violation.
    max_iter : int, default=50
        Cap on CCCP steps.
    cache_bytes : int, default=256 MiB
        Kernel-row cache.
    max_rows : int or None, default=MAX_ROWS (20000)
        More training rows are refused at once (:data:`MAX_ROWS`: the time, not the memory); None: no limit.

    Attributes
    ----------
    dual_coef_ : ndarray of shape (1, n_support)
        Coefficients of f(x) = sum_d coef_d K(x_d, x) + b over the support rows.
    support_vectors_ : ndarray or CSR matrix of shape (n_support, n_features)
    intercept_ : ndarray of shape (1,), or (K,) for K >= 3 classes
    C_, C_star_, sigma_ : float
        002's C and C* (0 when no row is unlabeled), and the RBF width (None for the linear kernel).
    classes_, transduction_, n_features_in_ : as for :class:`~ssl_repro.estimators.kernel.KernelDA`.
    diagnostics_ : :class:`~ssl_repro.solvers.SolverInfo`
        ``own_objective``: J^s (Eqn 3); ``objective``: Eqn 18's J in the RKHS at lam and lam_u;
        ``objective_path``; ``smo_iterations``, ``kernel_evaluations``.
    n_iter_ : int
        CCCP steps (convex problems solved).

    See Also
    --------
    ssl_repro.estimators.comparison.LinearCCCPTSVM : the linear primal form with the squared hinge (a different objective).
    ssl_repro.estimators.kernel.KernelNablaTSVM : the method 002's Table 2 compares it with.

    References
    ----------
    R. Collobert, F. Sinz, J. Weston and L. Bottou, "Large scale transductive SVMs", JMLR 7, 2006 (002):
    Eqns 1-4 (objective, balancing constraint), 9-11 (CCCP decomposition), Algorithm 2, Appendix A (Eqn 27).

    Examples
    --------
    >>> import numpy as np
    >>> from ssl_repro.estimators.kernel_cccp import KernelCCCPTSVM
    >>> rng = np.random.RandomState(0)
    >>> X = np.r_[rng.randn(30, 2) + 2, rng.randn(30, 2) - 2]
    >>> y_train = np.full(60, -1)              # -1: unlabeled
    >>> y_train[[0, 1]], y_train[[30, 31]] = 1, 0
    >>> clf = KernelCCCPTSVM(lam=1e-2, sigma_factor=2).fit(X, y_train)
    >>> bool(abs(clf.decision_function(X[y_train == -1]).mean()) < 1e-9)   # balance: mean output 0
    True
    >>> bool(np.all(clf.transduction_[:30] == 1) and np.all(clf.transduction_[30:] == 0))
    True
    """

    _iteration_field = "cccp_iterations"
    _dtype = np.float64
    _reads_unlabeled = True
    _supervised_problem = "the hinge SVM at C = 1 / (lam L), Algorithm 2's start: 002's Eqn 3 with no unlabeled term"
    _stacked_attributes = ("intercept_",)
    _shared_attributes = ("sigma_", "C_", "C_star_")
    _parameter_constraints = {**SEMI_SUPERVISED, "lam_u": [POSITIVE, StrOptions({"C*=C"})],
                              "s": [Interval(Real, None, 1, closed="neither")],
                              "kernel": [StrOptions({"rbf", "linear"})], "sigma": [POSITIVE, None],
                              "sigma_factor": [POSITIVE], "tol": [POSITIVE], "max_iter": [COUNT],
                              "cache_bytes": [Interval(Integral, 16, None, closed="left")], "max_rows": [COUNT, None]}

    @classmethod
    def warm_up(cls):
        """Fit tiny problems with each kernel, so that compiling (or loading from numba's cache) the SMO's
        kernels happens here and not inside a timed fit (:func:`ssl_repro.harness.compilation.compile_solvers`)."""
        dense = np.random.default_rng(0).normal(size=(20, 3))
        wide = sp.csr_matrix(dense)
        wide.indices, wide.indptr = wide.indices.astype(np.int64), wide.indptr.astype(np.int64)
        for X in (dense, sp.csr_matrix(dense), wide):            # dense rows, CSR with int32 and int64 indices
            for kernel in ("linear", "rbf"):
                cls(lam=0.1, kernel=kernel).fit(X, np.r_[0, 1, np.full(18, -1)])

    def __init__(self, lam=1e-3, lam_u=1.0, r=None, s=-0.3, kernel="rbf", sigma=None, sigma_factor=1.0,
                 tol=1e-3, max_iter=MAX_CCCP_ITER, cache_bytes=CACHE_BYTES, max_rows=MAX_ROWS):
        self.lam = lam
        self.lam_u = lam_u
        self.r = r
        self.s = s
        self.kernel = kernel
        self.sigma = sigma
        self.sigma_factor = sigma_factor
        self.tol = tol
        self.max_iter = max_iter
        self.cache_bytes = cache_bytes
        self.max_rows = max_rows

    @staticmethod
    def rows_cost(n_rows):
        """Why ``n_rows`` training rows are too many, in words (:func:`~ssl_repro.estimators.kernel.check_kernel_rows`)."""
        return (f"its SMO evaluates of the order of n^2 = {n_rows ** 2:.1e} kernel entries per CCCP step (hours at "
                "this size); use fewer rows (e.g. n_unlabeled), or raise max_rows knowing the time")

    def _fit_binary(self, X, y):
        """Fit on ``X`` with labels ``y`` of two classes (``-1`` marks an unlabeled row)."""
        X, y = validate_data(self, X, y, accept_sparse=["csr", "csc"], dtype=np.float64, ensure_all_finite=True)
        check_kernel_rows(X.shape[0], self.max_rows, type(self).__name__, self.rows_cost(X.shape[0]))
        X = sp.csr_matrix(X)
        check_scale(X.data, "X")
        unlabeled_mask, y_pm1 = self._read_data(X, y)
        labeled, unlabeled = np.flatnonzero(~unlabeled_mask), np.flatnonzero(unlabeled_mask)
        L, U = labeled.size, unlabeled.size
        self.C_ = 1.0 / (self.lam * L)
        self.C_star_ = 0.0 if U == 0 else self.C_ if self.lam_u == "C*=C" else self.lam_u / (self.lam * U)
        self.sigma_ = None if self.kernel == "linear" else (
            self.sigma if self.sigma is not None else self.sigma_factor * sampled_sigma(X))
        coef, b, f, info = kernel_cccp_tsvm(
            X, labeled, y_pm1, unlabeled, self.C_, self.C_star_, self.s, self._fraction(y_pm1),
            self.kernel, self._gamma(), self.tol, self.max_iter, self.cache_bytes)
        lam_u = self.C_star_ * self.lam * U
        info.objective = transductive_objective(None, f[labeled], y_pm1, f[unlabeled], self.lam, lam_u,
                                                norm_sq=float(coef @ (f - b)))
        support = np.flatnonzero(coef)
        self.dual_coef_ = coef[support][None, :]
        self.support_vectors_ = X[support]
        self.intercept_ = np.array([b])
        self.diagnostics_ = info
        self.transduction_ = self._transduction(y, unlabeled_mask, f[unlabeled])
        self._set_n_iter()
        return self

    def _gamma(self):
        return 0.0 if self.sigma_ is None else 1.0 / (2.0 * self.sigma_ ** 2)

    def _decision_binary(self, X):
        """f(x) = sum_d coef_d K(x_d, x) + b, per block of rows; positive means ``classes_[1]``."""
        check_is_fitted(self)
        X = sp.csr_matrix(validate_data(self, X, accept_sparse=["csr", "csc"], dtype=np.float64, reset=False))
        return expansion(X, self.support_vectors_, self.dual_coef_[0], None if self.sigma_ is None else self._gamma()) \
            + self.intercept_[0]


def expansion(X, S, coef, gamma=None):
    """sum_d coef_d K(s_d, x) for each row x of the CSR matrix ``X``, over the CSR rows ``S``, per block of
    rows (no n x n matrix): the RBF kernel exp(-gamma ||x - s||^2), or the linear x.s when ``gamma`` is None."""
    s_sq = np.asarray(S.multiply(S).sum(axis=1)).ravel()
    out = np.empty(X.shape[0])
    for start in range(0, X.shape[0], BLOCK_ROWS):
        block = X[start:start + BLOCK_ROWS]
        K = np.asarray((block @ S.T).todense())
        if gamma is not None:
            b_sq = np.asarray(block.multiply(block).sum(axis=1)).ravel()
            K = np.exp(-gamma * np.maximum(b_sq[:, None] + s_sq[None, :] - 2.0 * K, 0.0))
        out[start:start + BLOCK_ROWS] = K @ coef
    return out
