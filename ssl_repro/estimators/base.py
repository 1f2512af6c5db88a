"""What every estimator of the package shares: the label convention, r, transduction and predict.

Labels follow :mod:`sklearn.semi_supervised`: rows labelled ``-1``
(:data:`UNLABELED`) are unlabeled; the labeled rows carry exactly two other
class values (which therefore cannot include -1); labels -1, 0, +1 with 0 on
most rows, the reference software's convention, are read this way with a
warning (:func:`ssl_repro.labels.svmlin_convention_suspected`).  String classes go in an
object array whose unlabeled rows hold the number -1, as for
:class:`sklearn.semi_supervised.SelfTrainingClassifier`.  ``classes_[1]`` plays
the role of the paper's +1 class.  Subclasses implement ``fit`` (reading
the data and labels with :meth:`BinaryClassifier._read_data`) and
``decision_function`` (positive means ``classes_[1]``).
"""
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils._param_validation import Interval
from sklearn.utils.multiclass import check_classification_targets

from ssl_repro.labels import UNLABELED, svmlin_convention_suspected
from ssl_repro.solvers.engine.data_checks import warn_wide

#: scikit-learn parameter constraints shared by the estimators.
POSITIVE = Interval(Real, 0, None, closed="neither")
COUNT = Interval(Integral, 1, None, closed="left")
ABOVE_ONE = Interval(Real, 1, None, closed="neither")
OPEN_UNIT = Interval(Real, 0, 1, closed="neither")
SEMI_SUPERVISED = {"lam": [POSITIVE], "lam_u": [POSITIVE], "r": [OPEN_UNIT, None]}


def unlabeled_mask(y):
    """The rows of ``y`` marked unlabeled: the number ``-1`` (in an object array, the entries that
    are that number); none in an array of strings."""
    y = np.asarray(y)
    if np.issubdtype(y.dtype, np.number):
        return y == UNLABELED
    if y.dtype == object:
        return np.array([isinstance(v, Real) and v == UNLABELED for v in y], dtype=bool)
    return np.zeros(y.shape[0], dtype=bool)


class BinaryClassifier(ClassifierMixin, BaseEstimator):
    """Label handling, ``predict``, ``n_iter_`` and tags shared by the linear and the kernel estimators."""

    #: The :class:`~ssl_repro.solvers.SolverInfo` field that ``n_iter_`` reports (a count, or a
    #: list whose length is the count); each estimator's docstring says what it counts.
    _iteration_field = None

    def _set_n_iter(self):
        """Set ``n_iter_`` from ``diagnostics_`` (scikit-learn's name for the iterations run)."""
        value = getattr(self.diagnostics_, self._iteration_field)
        self.n_iter_ = len(value) if isinstance(value, list) else int(value)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.classifier_tags.multi_class = False
        return tags

    def _read_data(self, X, y):
        """:meth:`_read_labels` of ``y``, after a warning on a sparse ``X`` far wider than its non-zeros
        (:func:`~ssl_repro.solvers.engine.data_checks.warn_wide`)."""
        warn_wide(X, type(self).__name__)
        return self._read_labels(y)

    def _read_labels(self, y):
        """Set ``classes_`` from the labeled rows; return (unlabeled mask, their +1/-1 labels)."""
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
        if classes.size > 2:
            raise ValueError(f"Only binary classification is supported: the labeled rows of "
                             f"{type(self).__name__} hold {classes.size} classes "
                             f"{classes.tolist()[:10]} (use -1 only for unlabeled rows)")
        self.classes_ = classes
        return unlabeled, np.where(y[~unlabeled] == classes[1], 1.0, -1.0)

    def _fraction(self, y_pm1):
        """r: the parameter, or (``r=None``) the positive fraction of the labeled rows, which the
        paper says r "may also be estimated from"."""
        return float(np.mean(y_pm1 > 0)) if self.r is None else self.r

    def _transduction(self, y, unlabeled, outputs_unlabeled):
        """A label for every training row: the given one, or the prediction for unlabeled rows."""
        transduction = np.empty(y.shape[0], dtype=self.classes_.dtype)
        transduction[~unlabeled] = y[~unlabeled]
        transduction[unlabeled] = self.classes_[(outputs_unlabeled > 0).astype(int)]
        return transduction

    def predict(self, X):
        """Class labels: ``classes_[1]`` where the output is positive."""
        positive = self.decision_function(X) > 0      # first: it raises NotFittedError before fit
        return self.classes_[positive.astype(int)]
