"""scikit-learn estimators for the paper's methods (Sindhwani & Keerthi, 000).

L2-SVM-MFN (:class:`LinearSVM`), RLS by CGLS (:class:`LinearRLS`), multi-switch
TSVM (:class:`LinearTSVM`) and deterministic annealing (:class:`LinearDA`) of
V. Sindhwani and S. S. Keerthi, "Large Scale Semi-supervised Linear SVMs", SIGIR
2006 / tech report (000), over ``_LinearModel`` (:mod:`ssl_repro.estimators.linear_fit`), the fit plumbing
they share with the comparison methods of 003 Table 2 (:mod:`ssl_repro.estimators.comparison`).

Labels follow :mod:`sklearn.semi_supervised` (see
:mod:`ssl_repro.estimators.base`): rows labelled ``-1`` are unlabeled, and
``classes_[1]`` plays the role of the +1 class of the paper.  Every
estimator accepts CSR, CSC or dense input; CSR float64 or float32 input is
used without a copy (float32 values are read as float32, every product and
sum is taken in float64: the model is the one of float64 data holding the
same values, bit for bit; other types are converted to float64).

After ``fit``: ``coef_`` (1, n_features), ``intercept_`` (1,) (the bias,
regularized like every weight, as in the paper), ``classes_``,
``diagnostics_`` (a :class:`~ssl_repro.solvers.SolverInfo`) and, for the
semi-supervised ones, ``transduction_`` (a label for every training row:
the given label for labeled rows, the prediction for unlabeled ones).
"""
from numbers import Real

import numpy as np
from sklearn.utils._param_validation import Interval, StrOptions

from ssl_repro.estimators.base import ABOVE_ONE, COUNT, OPEN_UNIT, POSITIVE, SEMI_SUPERVISED, unlabeled_mask
from ssl_repro.estimators.linear_fit import _LinearModel
from ssl_repro.distributed.backend import problem_from_mask
from ssl_repro.solvers import deterministic_annealing, rls, svm, tsvm
from ssl_repro.solvers.potts import potts_da
from ssl_repro.solvers.annealing import ANNEAL_RATE, EPS, MAX_INNER, MAX_OUTER
from ssl_repro.solvers.mfn import COLD_TOL
from ssl_repro.solvers.tsvm import LAM_U_GROWTH, MAX_LEVELS
from ssl_repro.solvers.engine.data_checks import warn_wide


class LinearSVM(_LinearModel):
    """Supervised L2-SVM by the modified finite Newton method (L2-SVM-MFN).

    Minimizes lambda/2 ||w||^2 + 1/(2l) sum_i max(0, 1 - y_i w.x_i)^2 over
    the labeled rows (Eqn 18 with lambda' = 0); unlabeled rows (``-1``) are ignored.

    Parameters
    ----------
    lam : float, default=1e-3
        lambda, the regularization of w (bias included).

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
    n_iter_ : int
        Newton iterations of L2-SVM-MFN (Table 1 of 000), ``diagnostics_.newton_iterations``.

    See Also
    --------
    LinearRLS : the least-squares baseline on the same labeled rows.
    LinearTSVM : the transductive SVM that adds the unlabeled rows to this objective.

    References
    ----------
    V. Sindhwani and S. S. Keerthi, "Large Scale Semi-supervised Linear SVMs", SIGIR 2006 / tech report (000):
    Table 1 (L2-SVM-MFN), Table 2 (CGLS), Table 3 (line search); Table 1.1 of 004 for lambda.

    Examples
    --------
    >>> import numpy as np
    >>> from ssl_repro.estimators import LinearSVM
    >>> rng = np.random.RandomState(0)
    >>> X = np.r_[rng.randn(30, 2) + 2, rng.randn(30, 2) - 2]
    >>> y = np.r_[np.ones(30, dtype=int), np.zeros(30, dtype=int)]
    >>> y_train = np.full(60, -1)              # -1: unlabeled
    >>> y_train[[0, 1, 30, 31]] = y[[0, 1, 30, 31]]
    >>> clf = LinearSVM(lam=1e-2).fit(X, y_train)
    >>> bool(np.mean(clf.predict(X) == y) > 0.9)
    True
    """

    _iteration_field = "newton_iterations"
    _parameter_constraints = {"lam": [POSITIVE]}
    _column_svm = True

    def __init__(self, lam=1e-3):
        self.lam = lam

    def _solve(self, problem, r):
        return svm(problem, self.lam)


class LinearRLS(_LinearModel):
    """Regularized least squares by CGLS, a supervised baseline.

    Minimizes lambda/2 ||w||^2 + 1/(2l) sum_i (y_i - w.x_i)^2 over the
    labeled rows; unlabeled rows (``-1``) are ignored.

    Parameters
    ----------
    lam : float, default=1e-3
        lambda, the regularization of w (bias included).

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
    n_iter_ : int
        CGLS iterations (Table 2 of 000), ``diagnostics_.cg_iterations``.

    See Also
    --------
    LinearSVM : the squared-hinge (L2-SVM-MFN) baseline on the same labeled rows.

    References
    ----------
    V. Sindhwani and S. S. Keerthi, "Large Scale Semi-supervised Linear SVMs", SIGIR 2006 / tech report (000):
    Table 2 (CGLS), the RLS baseline of Figs 7-10.

    Examples
    --------
    >>> import numpy as np
    >>> from ssl_repro.estimators import LinearRLS
    >>> rng = np.random.RandomState(0)
    >>> X = np.r_[rng.randn(30, 2) + 2, rng.randn(30, 2) - 2]
    >>> y = np.r_[np.ones(30, dtype=int), np.zeros(30, dtype=int)]
    >>> y_train = np.full(60, -1)              # -1: unlabeled
    >>> y_train[[0, 1, 30, 31]] = y[[0, 1, 30, 31]]
    >>> clf = LinearRLS(lam=1e-2).fit(X, y_train)
    >>> bool(np.mean(clf.predict(X) == y) > 0.9)
    True
    """

    _iteration_field = "cg_iterations"
    _parameter_constraints = {"lam": [POSITIVE]}

    def __init__(self, lam=1e-3):
        self.lam = lam

    def _solve(self, problem, r):
        return rls(problem, self.lam)


class LinearTSVM(_LinearModel):
    """Multi-switch transductive L2-SVM (TSVM).

    Anneals lambda' from ``lam_u_start`` up to ``lam_u``, retraining
    L2-SVM-MFN after switching up to S label pairs of unlabeled rows.

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
    switches : int >= 1 or "max", default=1
        S, the maximum number of label pairs switched per retraining
        (1 = Joachims' TSVM; "max" = every qualifying pair).
    lam_u_start : float or None, default=None
        lambda' of the first annealing level, at most ``lam_u``; ``None``
        means 1e-5 (Table 4), or ``lam_u`` when that is smaller.
    lam_u_growth : float, default=1.5
        Factor between lambda' levels (reference software: 1.5; tech report: 2).
    max_levels : int >= 1, default=100
        Cap on the lambda' levels; a schedule that needs more runs its first
        ``max_levels - 1`` levels and then ``lam_u`` (reported:
        ``diagnostics_.converged`` False, ``stop_reason`` "max_levels" and a
        ConvergenceWarning naming a growth factor or a cap that fits).
    max_switch_rounds : int >= 1, default=10000
        Cap on switch-and-retrain rounds per lambda' level (reaching it is
        reported: ``diagnostics_.converged`` False and a ConvergenceWarning).

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
        L2-SVM-MFN solves (``diagnostics_.mfn_calls``): the supervised start, one
        per lambda' level and one per switch-and-retrain round (Table 4 of 000).

    See Also
    --------
    LinearDA : deterministic annealing on the same objective (Eqn 18).
    ssl_repro.estimators.kernel.KernelJTSVM : label switching with an RBF kernel (001).

    References
    ----------
    V. Sindhwani and S. S. Keerthi, "Large Scale Semi-supervised Linear SVMs", SIGIR 2006 / tech report (000):
    Table 4 (multi-switch TSVM), Sec. 3.1.2; Figs 7-11 and Table 9.

    Examples
    --------
    >>> import numpy as np
    >>> from ssl_repro.estimators import LinearTSVM
    >>> rng = np.random.RandomState(0)
    >>> X = np.r_[rng.randn(30, 2) + 2, rng.randn(30, 2) - 2]
    >>> y = np.r_[np.ones(30, dtype=int), np.zeros(30, dtype=int)]
    >>> y_train = np.full(60, -1)              # -1: unlabeled
    >>> y_train[[0, 1, 30, 31]] = y[[0, 1, 30, 31]]
    >>> clf = LinearTSVM(lam=1e-2).fit(X, y_train)
    >>> bool(np.mean(clf.predict(X) == y) > 0.9)
    True
    """

    _semi_supervised = True
    _iteration_field = "mfn_calls"
    _parameter_constraints = {**SEMI_SUPERVISED, "switches": [COUNT, StrOptions({"max"})],
                              "lam_u_start": [POSITIVE, None], "lam_u_growth": [ABOVE_ONE], "max_switch_rounds": [COUNT],
                              "max_levels": [COUNT]}

    def __init__(self, lam=1e-3, lam_u=1.0, r=None, switches=1, lam_u_start=None, lam_u_growth=LAM_U_GROWTH,
                 max_switch_rounds=10_000, max_levels=MAX_LEVELS):
        self.lam = lam
        self.lam_u = lam_u
        self.r = r
        self.switches = switches
        self.lam_u_start = lam_u_start
        self.lam_u_growth = lam_u_growth
        self.max_switch_rounds = max_switch_rounds
        self.max_levels = max_levels

    def _solve(self, problem, r):
        return tsvm(problem, self.lam, self.lam_u, r, switches=self.switches,
                    lam_u_start=self.lam_u_start, lam_u_growth=self.lam_u_growth,
                    max_switch_rounds=self.max_switch_rounds, max_levels=self.max_levels)


class LinearDA(_LinearModel):
    """Deterministic annealing semi-supervised L2-SVM (DA).

    Alternates OPTIMIZE-W (weighted L2-SVM-MFN) and OPTIMIZE-P (label
    beliefs under the balance constraint) while the temperature T falls.

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
    T0 : float > 0 or None, default=None
        Starting temperature in units of lambda' (T = T0 x lambda'); ``None``
        means 10, i.e. 10 lambda' (reference software).
    anneal_rate : float > 1, default=1.5
        T is divided by this after each outer iteration.
    fixed_temperature : float > 0 or None, default=None
        Hold T at this value (in units of lambda', as T0), without annealing
        (the paper's ablation).
    eps : float in (0, 1), default=1e-6
        KL and entropy thresholds per unlabeled row (Eqns 16-17): the
        annealing stops when the entropy of the beliefs is within u*eps of
        the least the balance constraint allows (the binary entropy of the
        fractional part of r*u; 0 when r*u is an integer, so that DA settles
        for every r); the initial beliefs p = r must be above that.
    max_outer, max_inner : int >= 1, default=30, 100
        Iteration caps of the temperature loop and the (p, w) loop; reaching
        one is reported (``diagnostics_.converged`` False, ``stop_reason``,
        a ConvergenceWarning).
    multiclass : {"ovr", "potts"}, default="ovr"
        K >= 3 classes: ``"ovr"`` runs K binary DAs, class k against the rest
        with r = its fraction (002's one-vs-rest); ``"potts"`` one DA over K
        classes (:mod:`ssl_repro.solvers.potts`: beliefs over the K classes per
        unlabeled row, the entropy of that distribution, K balance constraints,
        the w-step as K weighted L2-SVM-MFN solves), the footnote of 000 and 004.
        Two classes run the binary DA either way.
    inner_cg_tol : float in (0, 1e-2) or None, default=None
        ``None``: every w-step solved as Table 7 says (CGLS epsilon 1e-6).  A
        number: CGLS's epsilon for the w-steps after which the beliefs still move
        at the same temperature (the one ending each temperature keeps 1e-6):
        fewer CG iterations, but DA's path, and the J it returns, can move
        (:mod:`ssl_repro.solvers.annealing` says by how much).

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
        Temperatures visited, the outer iterations of Table 5 of 000 (at most
        ``max_outer``; ``len(diagnostics_.temperatures)``).

    See Also
    --------
    LinearTSVM : multi-switch TSVM on the same objective (Eqn 18).
    ssl_repro.estimators.kernel.KernelDA : the RBF kernel version of deterministic annealing (001).

    References
    ----------
    V. Sindhwani and S. S. Keerthi, "Large Scale Semi-supervised Linear SVMs", SIGIR 2006 / tech report (000):
    Tables 5-7 (DA, OPTIMIZE-W, OPTIMIZE-P), Eqns 10-17; Figs 4-13.

    Examples
    --------
    >>> import numpy as np
    >>> from ssl_repro.estimators import LinearDA
    >>> rng = np.random.RandomState(0)
    >>> X = np.r_[rng.randn(30, 2) + 2, rng.randn(30, 2) - 2]
    >>> y = np.r_[np.ones(30, dtype=int), np.zeros(30, dtype=int)]
    >>> y_train = np.full(60, -1)              # -1: unlabeled
    >>> y_train[[0, 1, 30, 31]] = y[[0, 1, 30, 31]]
    >>> clf = LinearDA(lam=1e-2).fit(X, y_train)
    >>> bool(np.mean(clf.predict(X) == y) > 0.9)
    True
    """

    _semi_supervised = True
    _iteration_field = "temperatures"
    _parameter_constraints = {**SEMI_SUPERVISED, "T0": [POSITIVE, None], "anneal_rate": [ABOVE_ONE],
                              "fixed_temperature": [POSITIVE, None], "eps": [OPEN_UNIT],
                              "max_outer": [COUNT], "max_inner": [COUNT], "multiclass": [StrOptions({"ovr", "potts"})],
                              "inner_cg_tol": [Interval(Real, 0, COLD_TOL, closed="neither"), None]}

    def __init__(self, lam=1e-3, lam_u=1.0, r=None, T0=None, anneal_rate=ANNEAL_RATE,
                 fixed_temperature=None, eps=EPS, max_outer=MAX_OUTER, max_inner=MAX_INNER, multiclass="ovr",
                 inner_cg_tol=None):
        self.lam = lam
        self.lam_u = lam_u
        self.r = r
        self.T0 = T0
        self.anneal_rate = anneal_rate
        self.fixed_temperature = fixed_temperature
        self.eps = eps
        self.max_outer = max_outer
        self.max_inner = max_inner
        self.multiclass = multiclass
        self.inner_cg_tol = inner_cg_tol

    def _fit_one_vs_rest(self, X, y):
        """K classes: one-vs-rest (the base's), or the Potts DA over K classes (``multiclass="potts"``).  With no
        unlabeled row the Potts objective is K one-vs-rest L2-SVMs (its labeled terms separate over the classes),
        so that y fits one-vs-rest (:mod:`~ssl_repro.estimators.base`: a fully labeled y)."""
        unlabeled = unlabeled_mask(y)
        if self.multiclass == "ovr" or not unlabeled.any():
            return super()._fit_one_vs_rest(X, y)
        warn_wide(X, type(self).__name__)
        unlabeled, labels, self.classes_ = self._labeled_classes(y)
        codes = np.searchsorted(self.classes_, labels)
        X = X.tocsr() if hasattr(X, "tocsr") else X
        problems = [problem_from_mask(X, np.where(codes == k, 1.0, -1.0), ~unlabeled)
                    for k in range(self.classes_.size)]
        W, self.diagnostics_ = potts_da(
            problems, self.lam, self.lam_u, self._class_fractions(codes), T0=self.T0, anneal_rate=self.anneal_rate,
            fixed_temperature=self.fixed_temperature, eps=self.eps, max_outer=self.max_outer,
            max_inner=self.max_inner)
        self._set_n_iter()
        self.coef_, self.intercept_ = W[:, :-1].copy(), W[:, -1].copy()
        self.transduction_ = y.copy()
        self.transduction_[unlabeled] = self.classes_[np.argmax(self._decision_binary(X[unlabeled]), axis=1)]
        return self

    def _solve(self, problem, r):
        return deterministic_annealing(
            problem, self.lam, self.lam_u, r, T0=self.T0, anneal_rate=self.anneal_rate,
            fixed_temperature=self.fixed_temperature, eps=self.eps,
            max_outer=self.max_outer, max_inner=self.max_inner, inner_cg_tol=self.inner_cg_tol)
