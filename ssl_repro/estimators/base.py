"""What every estimator of the package shares: the label convention, r, K classes, transduction and predict.

Labels follow :mod:`sklearn.semi_supervised`: rows labelled ``-1``
(:data:`UNLABELED`) are unlabeled; the labeled rows carry two or more other
class values (which therefore cannot include -1); labels -1, 0, +1 with 0 on
most rows, the reference software's convention, are read this way with a
warning (:func:`ssl_repro.labels.svmlin_convention_suspected`).  String classes go in an
object array whose unlabeled rows hold the number -1, as for
:class:`sklearn.semi_supervised.SelfTrainingClassifier`.

**Two classes** are the papers' problem: ``classes_[1]`` plays the role of the
paper's +1 class, ``decision_function`` gives one signed output per row
(positive means ``classes_[1]``) and ``r`` is the fraction of unlabeled rows in
``classes_[1]``.  Subclasses implement ``_fit_binary`` (reading the data and
labels with :meth:`Classifier._read_data`) and ``_decision_binary``; this path
is the one every estimator had before K classes (bit for bit).

**K >= 3 classes** are fitted one-vs-rest, as 002 does for uspst and MNIST
(Sec. 6.2: "we used the one-against-the-rest scheme ... the balancing constraint
of each binary problem set to the fraction of its class"): for each class k a
clone of the estimator is fitted by ``_fit_binary`` on the binary labels
class k (1) against the others (0), unlabeled rows staying unlabeled, with
``r`` = the fraction of class k (:meth:`Classifier._class_fractions`: the
``r`` given per class, or the labeled rows' shares).  The K fits share the
checked and converted data (``validate_data`` and the conversion to the
solver's format run once); each is otherwise a full binary fit
(:meth:`Classifier._fit_classes`), except where an estimator solves the K
problems together: LinearSVM's K L2-SVMs share each product over X
(:meth:`ssl_repro.estimators.linear_fit._LinearModel._fit_classes`);
``benchmarks/one_vs_rest_cost.py`` measures the cost against K separate fits.  After ``fit``: ``estimators_`` (the K
binary estimators, in the order of ``classes_``), ``decision_function`` of
shape (n, K) (column k: class k's binary output), ``predict`` the class of
the largest output, ``transduction_`` the largest output's class on each
unlabeled row, ``diagnostics_`` the list of the K binary records and
``n_iter_`` an array of K counts; the attributes a subclass names in
``_stacked_attributes`` (e.g. ``coef_``) are the K binary ones stacked row by row.

**A fully labeled y** (no row marked -1) given to an estimator that reads the unlabeled rows
(``_reads_unlabeled``: the semi-supervised methods, self-training, label spreading) fits the supervised
problem, the method's objective with no unlabeled term (each estimator's ``_supervised_problem`` names it:
for the linear methods L2-SVM-MFN at ``lam``, Eqn 18 with u = 0), as scikit-learn's semi-supervised
estimators accept such a y; ``transduction_`` is then the given labels, ``diagnostics_`` the supervised
solve's record and ``n_iter_`` the method's count of that solve (TSVM: one MFN solve; CCCP: one step; DA:
no temperature, 0).  It says so once per ``fit`` (for K classes too), by a :class:`NoUnlabeledRowsWarning`.
Decision: a warning, not only an attribute, because a y without -1 given to a transductive method is more
often a mistake (labels not masked) than a wish for the supervised model, and a warning is what
scikit-learn's ``SelfTrainingClassifier`` gives in that case.

**A refit is a fresh fit**: ``fit`` first removes every fitted attribute of an earlier fit (the names
ending in ``_``), so that a two-class fit after a K-class one (or a supervised after a transductive one)
keeps nothing of it (``estimators_``, a kernel machine's ``support_vectors_``, ...).

**score** is scikit-learn's accuracy over every row given (a row marked -1 counts as an error, as for
:mod:`sklearn.semi_supervised`'s estimators); model selection on partially labeled y reads only the labeled
rows through :mod:`ssl_repro.estimators.model_selection` (the scorer
:data:`~ssl_repro.estimators.model_selection.labeled_accuracy`, the splitter
:class:`~ssl_repro.estimators.model_selection.LabeledKFold`).
"""
import warnings
from collections.abc import Mapping
from numbers import Integral, Real

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ssl_repro.labels import UNLABELED, LabelConventionWarning, svmlin_convention_suspected
from ssl_repro.solvers.engine.data_checks import DATA_DTYPES, warn_wide

#: scikit-learn parameter constraints shared by the estimators.
POSITIVE = Interval(Real, 0, None, closed="neither")
COUNT = Interval(Integral, 1, None, closed="left")
ABOVE_ONE = Interval(Real, 1, None, closed="neither")
OPEN_UNIT = Interval(Real, 0, 1, closed="neither")
#: r: a fraction (two classes), one per class (an array in the order of ``classes_``, or a mapping
#: class -> fraction), or None (the labeled rows' shares).
SEMI_SUPERVISED = {"lam": [POSITIVE], "lam_u": [POSITIVE], "r": [OPEN_UNIT, "array-like", Mapping, None]}
#: How far from 1 the fractions of a per-class r may sum.
R_SUM_TOLERANCE = 1e-6


class NoUnlabeledRowsWarning(UserWarning):
    """An estimator that reads the unlabeled rows was given none (no -1 in ``y``): it fitted the supervised
    problem on the labeled rows (module doc, "A fully labeled y")."""


def unlabeled_mask(y):
    """The rows of ``y`` marked unlabeled: the number ``-1`` (in an object array, the entries that
    are that number); none in an array of strings."""
    y = np.asarray(y)
    if np.issubdtype(y.dtype, np.number):
        return y == UNLABELED
    if y.dtype == object:
        return np.array([isinstance(v, Real) and v == UNLABELED for v in y], dtype=bool)
    return np.zeros(y.shape[0], dtype=bool)


class Classifier(ClassifierMixin, BaseEstimator):
    """Label handling, ``fit`` (two classes, or K one-vs-rest), ``decision_function``, ``predict``,
    ``n_iter_`` and tags shared by every estimator of the package (module doc)."""

    #: The :class:`~ssl_repro.solvers.SolverInfo` field that ``n_iter_`` reports (a count, or a
    #: list whose length is the count); each estimator's docstring says what it counts.
    _iteration_field = None
    #: The dtypes ``fit`` and ``decision_function`` take without a copy.
    _dtype = DATA_DTYPES
    #: Fitted attributes that, for K classes, are the K binary ones stacked (first axis).
    _stacked_attributes = ()
    #: Fitted attributes equal in the K binary fits (set from the first).
    _shared_attributes = ()
    #: Whether ``fit`` reads the unlabeled rows (a y without -1 then fits :attr:`_supervised_problem`).
    _reads_unlabeled = False
    #: What a fit on a y without unlabeled rows solves, in words (:class:`NoUnlabeledRowsWarning`).
    _supervised_problem = None

    def _set_n_iter(self):
        """Set ``n_iter_`` from ``diagnostics_`` (scikit-learn's name for the iterations run)."""
        value = getattr(self.diagnostics_, self._iteration_field)
        self.n_iter_ = len(value) if isinstance(value, list) else int(value)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.classifier_tags.multi_class = True
        return tags

    def fit(self, X, y):
        """Fit on ``X`` with labels ``y`` (``-1`` marks an unlabeled row); K >= 3 classes one-vs-rest."""
        self._validate_params()
        for name in [name for name in vars(self) if name.endswith("_") and not name.startswith("_")]:
            delattr(self, name)                  # a refit is a fresh fit (module doc)
        X, y = validate_data(self, X, y, accept_sparse=["csr", "csc"], dtype=self._dtype, ensure_all_finite=True)
        unlabeled = unlabeled_mask(y)
        if self._reads_unlabeled and not unlabeled.any():
            warnings.warn(f"{type(self).__name__}: y marks no row unlabeled (-1), so it fits the supervised problem "
                          f"on the labeled rows ({self._supervised_problem}); to use unlabeled rows, mark them -1",
                          NoUnlabeledRowsWarning, stacklevel=2)
        if len(set(y[~unlabeled].tolist())) <= 2:
            return self._fit_binary(X, y)
        return self._fit_one_vs_rest(X, y)

    def _fit_one_vs_rest(self, X, y):
        """K binary fits, class k (1) against the rest (0), each with r = class k's fraction (module doc)."""
        warn_wide(X, type(self).__name__)
        unlabeled, labels, classes = self._labeled_classes(y)
        self.classes_ = classes
        codes = np.searchsorted(classes, labels)
        fractions = self._class_fractions(codes) if "r" in self.get_params() else None
        X = X.tocsr() if sp.issparse(X) else X
        binaries, targets = [], []
        for k in range(classes.size):
            y_k = np.full(y.shape[0], UNLABELED, dtype=np.int64)
            y_k[~unlabeled] = codes == k
            binary = clone(self)
            if fractions is not None:
                binary.set_params(r=float(fractions[k]))
            binaries.append(binary)
            targets.append(y_k)
        with warnings.catch_warnings():          # 0/1 with -1: scikit-learn's convention by construction
            warnings.simplefilter("ignore", LabelConventionWarning)
            self.estimators_ = self._fit_classes(X, binaries, targets)
        for name in self._stacked_attributes:
            if all(hasattr(e, name) for e in self.estimators_):
                setattr(self, name, np.concatenate([np.atleast_1d(getattr(e, name)) for e in self.estimators_]))
        for name in self._shared_attributes:
            if hasattr(self.estimators_[0], name):
                setattr(self, name, getattr(self.estimators_[0], name))
        self.diagnostics_ = [e.diagnostics_ for e in self.estimators_]
        self.n_iter_ = np.array([e.n_iter_ for e in self.estimators_])
        if hasattr(self.estimators_[0], "transduction_"):
            self.transduction_ = y.copy()
            if unlabeled.any():
                outputs = self._stacked_decision(X[np.flatnonzero(unlabeled)])
                self.transduction_[unlabeled] = classes[np.argmax(outputs, axis=1)]
            self.transduction_ = self.transduction_.astype(classes.dtype)
        return self

    def _fit_classes(self, X, binaries, targets):
        """The K binary estimators ``binaries`` fitted, each on ``X`` and its labels of ``targets`` (class k as 1,
        the rest 0, unlabeled rows -1): here one ``_fit_binary`` each; an estimator whose K problems can share
        their work overrides it (:class:`~ssl_repro.estimators.LinearSVM`)."""
        return [binary._fit_binary(X, y_k) for binary, y_k in zip(binaries, targets)]

    def _stacked_decision(self, X):
        """(n, K) outputs of the K binary estimators on checked ``X`` (CSR or dense)."""
        return np.column_stack([e._decision_binary(X) for e in self.estimators_])

    def decision_function(self, X):
        """Outputs of shape (n,) for two classes (positive means ``classes_[1]``), or (n, K) for K classes
        (column k: class k against the rest; the largest is predicted)."""
        check_is_fitted(self)
        if getattr(self, "estimators_", None) is None:
            return self._decision_binary(X)
        X = validate_data(self, X, accept_sparse=["csr", "csc"], dtype=self._dtype, reset=False)
        return self._stacked_decision(X.tocsr() if sp.issparse(X) else X)

    def predict(self, X):
        """Class labels: for two classes ``classes_[1]`` where the output is positive; for K the class
        of the largest output."""
        outputs = self.decision_function(X)      # first: it raises NotFittedError before fit
        if outputs.ndim == 2:
            return self.classes_[np.argmax(outputs, axis=1)]
        return self.classes_[(outputs > 0).astype(int)]

    def _read_data(self, X, y):
        """:meth:`_read_labels` of ``y``, after a warning on a sparse ``X`` far wider than its non-zeros
        (:func:`~ssl_repro.solvers.engine.data_checks.warn_wide`)."""
        warn_wide(X, type(self).__name__)
        return self._read_labels(y)

    def _read_labels(self, y):
        """Set ``classes_`` from the labeled rows (two classes); return (unlabeled mask, their +1/-1 labels)."""
        unlabeled, labels, classes = self._labeled_classes(y)
        self.classes_ = classes
        return unlabeled, np.where(labels == classes[1], 1.0, -1.0)

    def _labeled_classes(self, y):
        """(unlabeled mask, the labeled rows' labels, their sorted classes), after the label checks."""
        svmlin_convention_suspected(y, type(self).__name__)
        unlabeled = unlabeled_mask(y)
        labels = y[~unlabeled]
        kinds = {type(v).__name__ for v in labels} if labels.dtype == object else set()
        if kinds and kinds <= {"bool", "bool_"}:
            raise ValueError(f"{type(self).__name__}: the labeled rows hold the boolean classes True/False in an "
                             f"object array (beside the number -1 of the unlabeled rows), which scikit-learn does not "
                             f"take as classes: give them as 1/0, e.g. y = np.where(y == -1, -1, y == True)"
                             f".astype(int), or as two strings")
        if len(kinds - {"int", "float"}) and len(kinds) > 1:
            raise ValueError(f"{type(self).__name__}: the labeled rows mix label types ({', '.join(sorted(kinds))}): "
                             f"give classes of one type (e.g. two strings), with the number -1 only on "
                             f"unlabeled rows")
        check_classification_targets(labels if labels.size else y)
        classes = np.unique(labels)
        if unlabeled.any() and classes.size == 1 and classes[0] == 1:
            raise ValueError(
                f"{type(self).__name__} needs two classes among the labeled rows; got one class (1): every "
                f"labeled row is 1 and the rows labelled -1 are unlabeled (sklearn.semi_supervised's convention). "
                f"Label rows of both classes; if -1 was meant as the negative class of +1/-1 labels, use "
                f"ssl_repro.estimators.mask_labels(y, labeled) (labeled: a mask or the indices of the labeled "
                f"rows), which maps them to classes 0/1 and marks the rest -1")
        if classes.size < 2:
            found = "no labeled rows" if classes.size == 0 else f"one class ({classes[0]!r})"
            raise ValueError(f"{type(self).__name__} needs two classes among the labeled rows; got {found}")
        return unlabeled, labels, classes

    def _class_fractions(self, codes):
        """r per class, in the order of ``classes_``: ``r`` given as an array or a mapping class ->
        fraction (each in (0, 1), summing to 1), or (``r=None``) the labeled rows' shares of the
        classes, which 000 says r "may also be estimated from" and 002 uses per class."""
        K = self.classes_.size
        if self.r is None:
            return np.bincount(codes, minlength=K) / codes.size
        if isinstance(self.r, Real):
            raise ValueError(f"{type(self).__name__}: r={self.r} is one fraction, but the labeled rows hold {K} "
                             f"classes {self.classes_.tolist()[:10]}: give one fraction per class (an array in the "
                             f"order of classes_, or a mapping class -> fraction), or r=None to take the labeled "
                             f"rows' shares")
        if isinstance(self.r, Mapping):
            missing = [c for c in self.classes_.tolist() if c not in self.r]
            if missing or len(self.r) != K:
                raise ValueError(f"{type(self).__name__}: r maps the classes {sorted(self.r, key=str)[:10]} but the "
                                 f"labeled rows hold {self.classes_.tolist()[:10]}: give a fraction for each class "
                                 f"and no other key")
            fractions = np.array([self.r[c] for c in self.classes_.tolist()], dtype=float)
        else:
            fractions = np.asarray(self.r, dtype=float).ravel()
        if fractions.size != K or not np.all((fractions > 0) & (fractions < 1)) or \
                abs(fractions.sum() - 1.0) > R_SUM_TOLERANCE:
            raise ValueError(f"{type(self).__name__}: r={np.round(fractions, 6).tolist()} is not one fraction in "
                             f"(0, 1) per class of {self.classes_.tolist()[:10]} summing to 1 (sum "
                             f"{fractions.sum():.6g}): give {K} fractions in the order of classes_, or r=None")
        return fractions

    def _fraction(self, y_pm1):
        """r of ``classes_[1]``: the parameter (a fraction, or that class's entry of a per-class r), or
        (``r=None``) the positive fraction of the labeled rows, which the paper says r "may also be
        estimated from"."""
        if self.r is None:
            return float(np.mean(y_pm1 > 0))
        if isinstance(self.r, Real):
            return self.r
        return float(self._class_fractions((y_pm1 > 0).astype(np.int64))[1])

    def _transduction(self, y, unlabeled, outputs_unlabeled):
        """A label for every training row: the given one, or the prediction for unlabeled rows."""
        transduction = np.empty(y.shape[0], dtype=self.classes_.dtype)
        transduction[~unlabeled] = y[~unlabeled]
        transduction[unlabeled] = self.classes_[(outputs_unlabeled > 0).astype(int)]
        return transduction
