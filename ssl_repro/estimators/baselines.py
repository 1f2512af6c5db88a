"""Baselines a reader would pick today, beside the papers' methods under the same protocol.

The papers judge "the benefit of unlabeled data" against an SVM at their
fixed lambda (000 Sec. 4).  The standard objection (Oliver et al.,
*Realistic Evaluation of Deep Semi-Supervised Learning Algorithms*, NeurIPS
2018) is that a supervised model tuned with the same labels may close much
of the gap, and that current semi-supervised methods should stand beside.
Four estimators answer it, each a harness method (:data:`ssl_repro.harness.methods.METHODS`):

- :class:`TunedLinearSVM`: L2-SVM-MFN (the papers' supervised solver,
  :class:`~ssl_repro.estimators.LinearSVM`) with lambda chosen by
  cross-validation on the labeled rows only;
- :class:`TunedLogisticRegression`: scikit-learn's ``LogisticRegression``
  tuned the same way (C = 1 / (lambda l), so that lambda/2 ||w||^2 +
  1/l sum loss is the objective, as Eqn 18's; the intercept is not
  regularized, scikit-learn's convention);
- :class:`SelfTraining`: scikit-learn's ``SelfTrainingClassifier`` on the
  tuned logistic regression (it needs ``predict_proba``): lambda is chosen
  on the labeled rows before any pseudo-label exists, then held;
- :class:`LabelSpreadingKNN`: scikit-learn's ``LabelSpreading`` on the
  k-nearest-neighbour graph of the same features (Euclidean on the
  unit-norm TF-IDF rows, i.e. cosine); a row it leaves without label mass
  gets the labeled rows' majority class and is counted
  (:mod:`ssl_repro.estimators.label_reach`).

**The tuning budget** of the two tuned models and self-training's logistic regression (the grid, the folds,
the tie-break, the flag when the folds cannot tell the grid apart) is :mod:`ssl_repro.estimators.cross_validation`'s.

**Label spreading's memory**: the graph holds n k entries (k =
``n_neighbors``) and scikit-learn's brute-force neighbour search works in
blocks of its ``working_memory`` (1 GB), so memory stays far below this
machine's at every size the harness runs (kdd99-10, 494,021 rows: 3.5
million graph entries); its time grows as n^2 d (the neighbour search),
which is why its records stop where the learning curves do.  The searches
depend on the rows only, so a worker process keeps the last few
(:mod:`ssl_repro.estimators.knn_cache`): the label counts of one split search once,
with the same results as searching every time.
"""
import warnings

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.semi_supervised import SelfTrainingClassifier
from sklearn.utils.validation import check_is_fitted, validate_data

from ssl_repro.estimators.base import COUNT, OPEN_UNIT, POSITIVE, Classifier
from ssl_repro.estimators.cross_validation import K_FOLDS, LAM_GRID, cross_validated_lambda, cv_folds
from ssl_repro.estimators.linear import LinearSVM
from ssl_repro.estimators.label_reach import ReachSpreading, positive_share, unreached, warn_unreached
from ssl_repro.solvers import SolverInfo
from ssl_repro.solvers.engine.data_checks import DATA_DTYPES

#: Iterations of logistic regression's L-BFGS (scikit-learn's default is 100).
LOGISTIC_MAX_ITER = 1000


def _svm(X, y_pm1, lam):
    """L2-SVM-MFN on +1/-1 labels: (w, b, converged)."""
    model = LinearSVM(lam=lam).fit(X, (y_pm1 > 0).astype(int))
    return model.coef_[0], float(model.intercept_[0]), bool(model.diagnostics_.converged)


def _logistic(lam, n):
    """scikit-learn's logistic regression with C = 1 / (lambda n) (module doc)."""
    return LogisticRegression(C=1.0 / (lam * n), max_iter=LOGISTIC_MAX_ITER)


def _logistic_fit(X, y_pm1, lam):
    model = _logistic(lam, len(y_pm1)).fit(X, y_pm1)
    return model.coef_[0], float(model.intercept_[0]), bool(model.n_iter_[0] < LOGISTIC_MAX_ITER)


def _predict_with(fit):
    def fit_predict(X, y, lam, X_held):
        w, b, _ = fit(X, y, lam)
        return np.where(X_held @ w + b > 0, 1, -1)
    return fit_predict


class _Baseline(Classifier):
    """Input checks and labels shared by the baselines (``-1`` marks an unlabeled row)."""

    _semi_supervised = False      # they take neither lam_u nor r (the papers' Eqn 18 parameters)

    def _labels(self, X, y):
        X, y = validate_data(self, X, y, accept_sparse=["csr", "csc"], dtype=DATA_DTYPES, ensure_all_finite=True)
        X = X.tocsr() if hasattr(X, "tocsr") else X
        unlabeled, y_pm1 = self._read_data(X, y)
        return X, y, unlabeled, y_pm1

    def _set_info(self, converged, stop_reason="tolerance", **fields):
        self.diagnostics_ = SolverInfo(method=type(self).__name__, converged=bool(converged),
                                       stop_reason="tolerance" if converged else stop_reason, **fields)


def _untold_advice(y_pm1):
    """The way out of a cross-validation whose every lambda ties: more labels where a class has fewer rows than
    :data:`K_FOLDS` (leave-one-out's folds; one row per class makes every held-out error 1.0); else the labeled
    rows are enough and every lambda of the grid fits them alike (separable rows: every error 0), so the grid,
    or the tie-break's ``lam``, is the user's to choose."""
    if min(np.sum(y_pm1 > 0), np.sum(y_pm1 < 0)) < K_FOLDS:
        return f"label more rows (at least {K_FOLDS} of each class for {K_FOLDS}-fold cross-validation)"
    return ("every value fits these rows alike: give lams a wider grid, or set lam (the tie-break) to the value "
            "you want")


class _TunedLinear(_Baseline):
    """A supervised linear model with lambda chosen by :func:`cross_validated_lambda` on the labeled rows."""

    _parameter_constraints = {"lam": [POSITIVE], "lams": ["array-like"]}
    _fit = None       # (X, y_pm1, lam) -> (w, b, converged)

    def __init__(self, lam=1e-3, lams=LAM_GRID):
        self.lam = lam
        self.lams = lams

    _stacked_attributes = ("coef_", "intercept_", "lam_")

    def _fit_binary(self, X, y):
        """Tune lambda on the labeled rows of ``X`` (``y == -1``: unlabeled, ignored), then fit there."""
        X, y, unlabeled, y_pm1 = self._labels(X, y)
        X_l = X[~unlabeled]
        fit = type(self)._fit
        self.lam_, errors = cross_validated_lambda(_predict_with(fit), X_l, y_pm1, tuple(self.lams), self.lam)
        w, b, converged = fit(X_l, y_pm1, self.lam_)
        self.coef_, self.intercept_ = w[None, :].copy(), np.array([b])
        self._set_info(converged, "max_iter", selected_lam=self.lam_, cv_errors=errors)
        if len(errors) > 1 and len(set(errors)) == 1:
            self.diagnostics_.flag("cv_untold", (
                f"cross-validation on {len(y_pm1)} labeled rows cannot tell the lambda grid apart (every value's "
                f"held-out error is {errors[0]:.2f}), so lambda={self.lam_:g} is the tie-break, the papers' lambda, "
                f"not a tuned value; {_untold_advice(y_pm1)}"))
        self.n_iter_ = len(errors) * len(cv_folds(y_pm1)) + 1
        return self

    def _decision_binary(self, X):
        """Signed outputs w.x + b; positive means ``classes_[1]``."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse=["csr", "csc"], dtype=DATA_DTYPES, reset=False)
        return np.asarray(X @ self.coef_[0]).ravel() + self.intercept_[0]


class TunedLinearSVM(_TunedLinear):
    """L2-SVM-MFN with lambda chosen by cross-validation on the labeled rows (module doc: the budget).

    Parameters
    ----------
    lam : float, default=1e-3
        The papers' lambda: where cross-validation ties, the grid value nearest it.
    lams : sequence of float, default=LAM_GRID
        The lambda grid.

    Attributes
    ----------
    lam_ : float
        The lambda chosen (also ``diagnostics_.selected_lam``, with ``cv_errors``).
    coef_, intercept_, classes_, diagnostics_ : as :class:`~ssl_repro.estimators.LinearSVM`'s.
    n_iter_ : int
        L2-SVM-MFN fits run: one per grid value and fold, and the final one.

    References
    ----------
    A. Oliver, A. Odena, C. Raffel, E. D. Cubuk and I. J. Goodfellow, "Realistic Evaluation of Deep
    Semi-Supervised Learning Algorithms", NeurIPS 2018 (tune the supervised baseline with the same labels).

    Examples
    --------
    >>> import numpy as np
    >>> from ssl_repro.estimators.baselines import TunedLinearSVM
    >>> rng = np.random.RandomState(0)
    >>> X = np.r_[rng.randn(30, 2) + 2, rng.randn(30, 2) - 2]
    >>> y = np.r_[np.ones(30, dtype=int), np.zeros(30, dtype=int)]
    >>> y_train = np.full(60, -1)              # -1: unlabeled
    >>> y_train[[0, 1, 2, 30, 31, 32]] = y[[0, 1, 2, 30, 31, 32]]
    >>> clf = TunedLinearSVM().fit(X, y_train)
    >>> bool(np.mean(clf.predict(X) == y) > 0.9)
    True
    """

    _fit = staticmethod(_svm)


class TunedLogisticRegression(_TunedLinear):
    """scikit-learn's logistic regression, C = 1 / (lambda l), lambda chosen by cross-validation on the
    labeled rows (module doc: the budget).

    Parameters
    ----------
    lam, lams : as :class:`TunedLinearSVM`'s (the tie-break lambda, the grid).

    Attributes
    ----------
    lam_, coef_, intercept_, classes_ : as :class:`TunedLinearSVM`'s.
    diagnostics_ : ``converged`` says whether L-BFGS ended before its :data:`LOGISTIC_MAX_ITER` iterations.
    n_iter_ : int
        Logistic regressions fitted: one per grid value and fold, and the final one.

    References
    ----------
    A. Oliver, A. Odena, C. Raffel, E. D. Cubuk and I. J. Goodfellow, "Realistic Evaluation of Deep
    Semi-Supervised Learning Algorithms", NeurIPS 2018 (tune the supervised baseline with the same labels).

    Examples
    --------
    >>> import numpy as np
    >>> from ssl_repro.estimators.baselines import TunedLogisticRegression
    >>> rng = np.random.RandomState(0)
    >>> X = np.r_[rng.randn(30, 2) + 2, rng.randn(30, 2) - 2]
    >>> y = np.r_[np.ones(30, dtype=int), np.zeros(30, dtype=int)]
    >>> y_train = np.full(60, -1)              # -1: unlabeled
    >>> y_train[[0, 1, 2, 30, 31, 32]] = y[[0, 1, 2, 30, 31, 32]]
    >>> clf = TunedLogisticRegression().fit(X, y_train)
    >>> bool(np.mean(clf.predict(X) == y) > 0.9)
    True
    """

    _fit = staticmethod(_logistic_fit)


class SelfTraining(_Baseline):
    """scikit-learn's ``SelfTrainingClassifier`` on :class:`TunedLogisticRegression`: lambda is chosen on the
    labeled rows only, then self-training adds the unlabeled rows predicted with probability of at least
    ``threshold``, up to ``max_iter`` rounds.

    Parameters
    ----------
    lam : float, default=1e-3
        The papers' lambda (the tuning's tie-break).
    threshold : float, default=0.75
        scikit-learn's default confidence for a pseudo-label.
    max_iter : int, default=10
        scikit-learn's default cap on rounds.

    Attributes
    ----------
    lam_ : float
        The lambda chosen on the labeled rows.
    coef_, intercept_ : the final logistic regression's weights and bias.
    transduction_ : a label for every training row.
    diagnostics_ : ``converged`` False when self-training stopped on ``max_iter`` with rows left.
    n_iter_ : int
        Self-training rounds run (at least 1: the fit on the labeled rows alone, when no row is unlabeled).
    n_pseudo_labeled_ : int
        Unlabeled rows that self-training gave a label (scikit-learn's ``labeled_iter_ > 0``); 0 when every
        row was labeled, or no prediction reached ``threshold``.  K classes: one count per class's problem.

    References
    ----------
    D. Yarowsky, "Unsupervised Word Sense Disambiguation Rivaling Supervised Methods", ACL 1995
    (self-training); scikit-learn's ``SelfTrainingClassifier``.

    Examples
    --------
    >>> import numpy as np
    >>> from ssl_repro.estimators.baselines import SelfTraining
    >>> rng = np.random.RandomState(0)
    >>> X = np.r_[rng.randn(30, 2) + 2, rng.randn(30, 2) - 2]
    >>> y = np.r_[np.ones(30, dtype=int), np.zeros(30, dtype=int)]
    >>> y_train = np.full(60, -1)              # -1: unlabeled
    >>> y_train[[0, 1, 2, 30, 31, 32]] = y[[0, 1, 2, 30, 31, 32]]
    >>> clf = SelfTraining().fit(X, y_train)
    >>> bool(np.mean(clf.predict(X) == y) > 0.9)
    True
    """

    _parameter_constraints = {"lam": [POSITIVE], "threshold": [OPEN_UNIT], "max_iter": [COUNT]}
    _reads_unlabeled = True
    _supervised_problem = "the tuned logistic regression, no self-training round"

    def __init__(self, lam=1e-3, threshold=0.75, max_iter=10):
        self.lam = lam
        self.threshold = threshold
        self.max_iter = max_iter

    _stacked_attributes = ("coef_", "intercept_", "lam_", "n_pseudo_labeled_")

    def _fit_binary(self, X, y):
        X, y, unlabeled, y_pm1 = self._labels(X, y)
        codes = np.full(y.shape[0], -1)          # sklearn.semi_supervised's: 0/1, -1 unlabeled
        codes[~unlabeled] = (y_pm1 > 0).astype(int)
        tuned = TunedLogisticRegression(lam=self.lam).fit(X[~unlabeled], codes[~unlabeled])
        self.lam_ = tuned.lam_
        with warnings.catch_warnings():     # no unlabeled row: fit() said so (NoUnlabeledRowsWarning)
            warnings.filterwarnings("ignore", "y contains no unlabeled samples", UserWarning)
            model = SelfTrainingClassifier(_logistic(self.lam_, int(np.sum(~unlabeled))), threshold=self.threshold,
                                           max_iter=self.max_iter).fit(X, codes)
        self.coef_, self.intercept_ = model.estimator_.coef_.copy(), model.estimator_.intercept_.copy()
        self.n_iter_ = max(1, int(model.n_iter_))      # the fit on the labeled rows counts as one
        self.n_pseudo_labeled_ = int(np.sum(model.labeled_iter_ > 0))
        self._set_info(model.termination_condition_ != "max_iter", "max_iter", selected_lam=self.lam_)
        self.diagnostics_.suspect = list(tuned.diagnostics_.suspect)     # an untold lambda (warned by the tuning)
        outputs = self.decision_function(X[unlabeled]) if unlabeled.any() else np.zeros(0)   # every row labeled
        self.transduction_ = self._transduction(y, unlabeled, outputs)
        return self

    _decision_binary = _TunedLinear._decision_binary


class LabelSpreadingKNN(_Baseline):
    """scikit-learn's ``LabelSpreading`` on the kNN graph of the rows (module doc: memory).  Predictions
    for new rows (the test rows) come from their neighbours among the training rows.  A row the spreading
    gives no label mass (no path to a labeled row in the graph, or one longer than the iterations run;
    scikit-learn would silently give it ``classes_[0]``) gets the labeled rows' majority class, with an
    :class:`~ssl_repro.estimators.label_reach.UnreachedRowsWarning` counting the rows (:mod:`ssl_repro.estimators.label_reach`:
    what scikit-learn does, and the decision).

    Parameters
    ----------
    n_neighbors : int, default=7
        scikit-learn's default k.
    alpha : float, default=0.2
        scikit-learn's default clamping factor.
    max_iter : int, default=30
        scikit-learn's default cap on iterations.

    Attributes
    ----------
    model_ : the fitted ``LabelSpreading`` (:class:`~ssl_repro.estimators.label_reach.ReachSpreading`: with ``hops_``,
        each training row's fewest graph edges to a labeled row, ``inf`` where none).
    transduction_ : a label for every training row.
    unreached_ : bool array, one per training row
        True where the spreading left the row without label mass (its ``transduction_`` is ``fallback_class_``).
    prior_ : float
        The labeled rows' share of ``classes_[1]``: P(``classes_[1]``) where a row has no evidence.
    fallback_class_ : the labeled rows' majority class (``classes_[0]`` on an even split).
    diagnostics_ : ``converged`` False when it stopped on ``max_iter``.
    n_iter_ : int
        Spreading iterations run.

    References
    ----------
    D. Zhou, O. Bousquet, T. N. Lal, J. Weston and B. Schoelkopf, "Learning with Local and Global
    Consistency", NIPS 2004; scikit-learn's ``LabelSpreading``.

    Examples
    --------
    >>> import numpy as np
    >>> from ssl_repro.estimators.baselines import LabelSpreadingKNN
    >>> rng = np.random.RandomState(0)
    >>> X = np.r_[rng.randn(30, 2) + 2, rng.randn(30, 2) - 2]
    >>> y = np.r_[np.ones(30, dtype=int), np.zeros(30, dtype=int)]
    >>> y_train = np.full(60, -1)              # -1: unlabeled
    >>> y_train[[0, 1, 2, 30, 31, 32]] = y[[0, 1, 2, 30, 31, 32]]
    >>> clf = LabelSpreadingKNN().fit(X, y_train)
    >>> bool(np.mean(clf.predict(X) == y) > 0.9)
    True
    """

    _parameter_constraints = {"n_neighbors": [COUNT], "alpha": [OPEN_UNIT], "max_iter": [COUNT]}
    _reads_unlabeled = True
    _supervised_problem = "the spreading over the labeled rows' graph: every training row keeps its label"

    def __init__(self, n_neighbors=7, alpha=0.2, max_iter=30):
        self.n_neighbors = n_neighbors
        self.alpha = alpha
        self.max_iter = max_iter

    def _fit_binary(self, X, y):
        X, y, unlabeled, y_pm1 = self._labels(X, y)
        codes = np.full(y.shape[0], -1)
        codes[~unlabeled] = (y_pm1 > 0).astype(int)
        self.model_ = ReachSpreading(kernel="knn", n_neighbors=min(self.n_neighbors, X.shape[0] - 1),
                                     alpha=self.alpha, max_iter=self.max_iter).fit(X, codes)
        self.n_iter_ = int(self.model_.n_iter_)
        self._set_info(self.n_iter_ < self.max_iter, "max_iter")
        self.prior_ = float(np.mean(y_pm1 > 0))
        self.fallback_class_ = self.classes_[int(self.prior_ > 0.5)]
        self.unreached_ = unreached(self.model_)
        self.transduction_ = np.where(self.unreached_, self.fallback_class_, self.classes_[self.model_.transduction_])
        warn_unreached(self, int(self.unreached_.sum()), int(unlabeled.sum()), "unlabeled",
                       self.model_.hops_[self.unreached_])
        return self

    def spread_outputs(self, X):
        """(P(``classes_[1]``) - 1/2 for each row of ``X``, reached): from the neighbours' spread labels;
        where none of the row's neighbours got label mass (``reached`` False), the labeled rows' share."""
        check_is_fitted(self)
        X = validate_data(self, X, accept_sparse=["csr", "csc"], dtype=DATA_DTYPES, reset=False)
        share, reached = positive_share(self.model_, X, self.prior_)
        return share - 0.5, reached

    def _decision_binary(self, X):
        """P(``classes_[1]``) - 1/2 from the neighbours' spread labels; positive means ``classes_[1]``
        (:meth:`spread_outputs`; the rows without evidence are counted by an ``UnreachedRowsWarning``)."""
        outputs, reached = self.spread_outputs(X)
        warn_unreached(self, int(np.sum(~reached)), reached.size, "given")
        return outputs
