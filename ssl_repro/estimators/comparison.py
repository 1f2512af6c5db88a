"""scikit-learn estimators for the linear comparison methods of 003 Table 2.

:class:`LinearNablaTSVM` is nabla-TSVM of O. Chapelle and A. Zien,
"Semi-supervised classification by low density separation", AISTATS 2005
(solver: :mod:`ssl_repro.solvers.nabla`); :class:`LinearCCCPTSVM` is
CCCP-TSVM of R. Collobert, F. Sinz, J. Weston and L. Bottou, "Large scale
transductive SVMs", JMLR 2006 (002; solver: :mod:`ssl_repro.solvers.cccp`).
Both are compared with TSVM and DA in Table 2 of 003.

They share the fit plumbing of :mod:`ssl_repro.estimators` (the estimators
of the paper's methods) and its conventions: labels follow
:mod:`sklearn.semi_supervised` (rows labelled ``-1`` are unlabeled,
``classes_[1]`` plays the role of the +1 class of the paper); CSR, CSC or
dense input, CSR float64 or float32 used without a copy; after ``fit``:
``coef_``, ``intercept_``, ``classes_``, ``diagnostics_`` and
``transduction_``.
"""
from numbers import Real

from sklearn.utils._param_validation import Interval

from ssl_repro.estimators.base import COUNT, POSITIVE, SEMI_SUPERVISED
from ssl_repro.estimators.linear_fit import _LinearModel
from ssl_repro.solvers.cccp import cccp_tsvm
from ssl_repro.solvers.nabla import nabla_tsvm


class LinearNablaTSVM(_LinearModel):
    """Linear nabla-TSVM of Chapelle & Zien in the primal (see :mod:`ssl_repro.solvers.nabla`).

    Squared hinge on labeled rows, exp(-3 o^2) on unlabeled rows, mean
    unlabeled output 2r - 1, solved by L-BFGS along a lambda' schedule.

    Parameters
    ----------
    lam : float, default=1e-3
        lambda, the regularization of w (bias included).
    lam_u : float, default=1.0
        lambda', the weight of the unlabeled loss (Eqn 7).
    r : float in (0, 1), array-like or mapping of fractions per class, or None, default=None
        Fraction of unlabeled rows in ``classes_[1]`` (the balance constraint);
        ``None`` estimates it from the labeled rows.
        For K >= 3 classes one fraction per class (in the order of ``classes_``, or
        class -> fraction), each class's binary problem taking its own (002's one-vs-rest).
    steps : int, default=10
        Number of lambda' values of the C* schedule.
    start_fraction : float, default=0.01
        The schedule runs from ``start_fraction * lam_u`` up to ``lam_u``.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features), or (K, n_features) for K >= 3 classes
        The weights w (without the bias); for K classes one row per class, one-vs-rest (:mod:`~ssl_repro.estimators.base`).
    intercept_ : ndarray of shape (1,), or (K,) for K >= 3 classes
        The bias, regularized like every weight (as in the paper).
    classes_ : ndarray of shape (n_classes,)
        The labels of the labeled rows; with two, ``classes_[1]`` is the paper's +1 class.
    diagnostics_ : :class:`~ssl_repro.solvers.SolverInfo`
        The solver's record (``objective``: Eqn 18; ``own_objective``; work counters).
    n_features_in_ : int
        Number of features seen during ``fit``.
    transduction_ : ndarray of shape (n_samples,)
        A label for every training row: the given one, or the prediction for an unlabeled row.
    n_iter_ : int
        L-BFGS iterations over the whole lambda' schedule, ``diagnostics_.lbfgs_iterations``.

    See Also
    --------
    LinearTSVM, LinearDA : the methods of 000 it is compared with (003 Table 2).
    ssl_repro.estimators.kernel.KernelNablaTSVM : the RBF kernel version (001).

    References
    ----------
    O. Chapelle and A. Zien, "Semi-supervised classification by low density separation", AISTATS 2005;
    compared with TSVM and DA in Table 2 of 003.

    Examples
    --------
    >>> import numpy as np
    >>> from ssl_repro.estimators.comparison import LinearNablaTSVM
    >>> rng = np.random.RandomState(0)
    >>> X = np.r_[rng.randn(30, 2) + 2, rng.randn(30, 2) - 2]
    >>> y = np.r_[np.ones(30, dtype=int), np.zeros(30, dtype=int)]
    >>> y_train = np.full(60, -1)              # -1: unlabeled
    >>> y_train[[0, 1, 30, 31]] = y[[0, 1, 30, 31]]
    >>> clf = LinearNablaTSVM(lam=1e-2).fit(X, y_train)
    >>> bool(np.mean(clf.predict(X) == y) > 0.9)
    True
    """

    _semi_supervised = True
    _iteration_field = "lbfgs_iterations"
    _parameter_constraints = {**SEMI_SUPERVISED, "steps": [COUNT], "start_fraction": [POSITIVE]}

    def __init__(self, lam=1e-3, lam_u=1.0, r=None, steps=10, start_fraction=0.01):
        self.lam = lam
        self.lam_u = lam_u
        self.r = r
        self.steps = steps
        self.start_fraction = start_fraction

    def _solve(self, problem, r):
        return nabla_tsvm(problem, self.lam, self.lam_u, r, steps=self.steps,
                          start_fraction=self.start_fraction)


class LinearCCCPTSVM(_LinearModel):
    """Linear CCCP-TSVM of Collobert et al. on the MFN core (see :mod:`ssl_repro.solvers.cccp`).

    A squared-hinge ramp with plateau ``s`` on both labels of each
    unlabeled row, linearized by the concave-convex procedure.

    Parameters
    ----------
    lam : float, default=1e-3
        lambda, the regularization of w (bias included).
    lam_u : float, default=1.0
        lambda', the weight of the unlabeled loss (Eqn 7).
    r : float in (0, 1), array-like or mapping of fractions per class, or None, default=None
        Fraction of unlabeled rows in ``classes_[1]`` (the balance constraint);
        ``None`` estimates it from the labeled rows.
        For K >= 3 classes one fraction per class (in the order of ``classes_``, or
        class -> fraction), each class's binary problem taking its own (002's one-vs-rest).
    s : float < 1, default=0.0
        Plateau of the squared-hinge ramp.
    max_iter : int, default=100
        Cap on CCCP iterations.

    Attributes
    ----------
    coef_ : ndarray of shape (1, n_features), or (K, n_features) for K >= 3 classes
        The weights w (without the bias); for K classes one row per class, one-vs-rest (:mod:`~ssl_repro.estimators.base`).
    intercept_ : ndarray of shape (1,), or (K,) for K >= 3 classes
        The bias, regularized like every weight (as in the paper).
    classes_ : ndarray of shape (n_classes,)
        The labels of the labeled rows; with two, ``classes_[1]`` is the paper's +1 class.
    diagnostics_ : :class:`~ssl_repro.solvers.SolverInfo`
        The solver's record (``objective``: Eqn 18; ``own_objective``; work counters).
    n_features_in_ : int
        Number of features seen during ``fit``.
    transduction_ : ndarray of shape (n_samples,)
        A label for every training row: the given one, or the prediction for an unlabeled row.
    n_iter_ : int
        CCCP iterations, each one convex MFN solve (at most ``max_iter``;
        ``diagnostics_.cccp_iterations``).

    See Also
    --------
    LinearTSVM, LinearDA : the methods of 000 it is compared with (003 Table 2).

    References
    ----------
    R. Collobert, F. Sinz, J. Weston and L. Bottou, "Large scale transductive SVMs", JMLR 2006 (002);
    compared with TSVM and DA in Table 2 of 003.

    Examples
    --------
    >>> import numpy as np
    >>> from ssl_repro.estimators.comparison import LinearCCCPTSVM
    >>> rng = np.random.RandomState(0)
    >>> X = np.r_[rng.randn(30, 2) + 2, rng.randn(30, 2) - 2]
    >>> y = np.r_[np.ones(30, dtype=int), np.zeros(30, dtype=int)]
    >>> y_train = np.full(60, -1)              # -1: unlabeled
    >>> y_train[[0, 1, 30, 31]] = y[[0, 1, 30, 31]]
    >>> clf = LinearCCCPTSVM(lam=1e-2).fit(X, y_train)
    >>> bool(np.mean(clf.predict(X) == y) > 0.9)
    True
    """

    _semi_supervised = True
    _iteration_field = "cccp_iterations"
    _parameter_constraints = {**SEMI_SUPERVISED, "s": [Interval(Real, None, 1, closed="neither")],
                              "max_iter": [COUNT]}

    def __init__(self, lam=1e-3, lam_u=1.0, r=None, s=0.0, max_iter=100):
        self.lam = lam
        self.lam_u = lam_u
        self.r = r
        self.s = s
        self.max_iter = max_iter

    def _solve(self, problem, r):
        return cccp_tsvm(problem, self.lam, self.lam_u, r, s=self.s, max_iter=self.max_iter)

    def _solve_supervised(self, problem):
        """Without unlabeled rows the objective has no concave part: CCCP's first convex step (the L2-SVM) is
        its answer, one iteration (``n_iter_`` 1)."""
        w, info = super()._solve_supervised(problem)
        info.cccp_iterations = 1
        return w, info
