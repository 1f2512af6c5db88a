"""Model selection on partially labeled y: a scorer and a splitter that read only the labeled rows.

scikit-learn's ``score`` and ``"accuracy"`` count a row marked -1 (unlabeled) as an error, since no
prediction equals -1: on a held-out fold holding 10% labels with every labeled row right, accuracy is
0.10.  Averaged over folds that hold different shares of labels, it then weighs each fold by its share
of labels, so ``GridSearchCV`` or ``cross_val_score`` on partially labeled y can choose lambda by where
the labels fell rather than by how well they are predicted.  And a fold's unlabeled rows belong in its
training rows, where a semi-supervised method reads them (they are its transductive part), not in its
held-out rows, where there is nothing to score.

- :data:`labeled_accuracy`: a scorer (``scoring=labeled_accuracy``) giving the accuracy over the held-out
  rows whose label is known, the rows marked -1 left out (:func:`labeled_accuracy_score` on labels).
- :class:`LabeledKFold`: ``cv=LabeledKFold(5)`` splits the labeled rows only, stratified by class, and
  puts every unlabeled row in every training fold; each held-out fold is labeled rows only.

Decision: the estimators' ``score`` stays scikit-learn's accuracy over every row given (as for the
estimators of :mod:`sklearn.semi_supervised`, whose ``score`` is the mixin's), so that a test set scored
with ``score`` means what it means everywhere; the two objects here are what model selection on
partially labeled y takes::

    GridSearchCV(LinearDA(), {"lam": [1e-4, 1e-3, 1e-2]}, scoring=labeled_accuracy, cv=LabeledKFold(5))

The held-out labeled rows are left out of their fold's training rows altogether (a splitter gives row
indices, it cannot hide labels): each fold scores the model on labeled rows it did not see, the
inductive error, as the papers' test error is.
"""
import numpy as np
from sklearn.metrics import accuracy_score, make_scorer
from sklearn.model_selection import BaseCrossValidator, StratifiedKFold

from ssl_repro.estimators.base import unlabeled_mask


def labeled_accuracy_score(y_true, y_pred):
    """The accuracy of ``y_pred`` over the rows of ``y_true`` not marked -1 (unlabeled).

    Raises a ValueError when every row is marked -1: there is nothing to score (split with
    :class:`LabeledKFold`, whose held-out folds hold labeled rows only)."""
    known = ~unlabeled_mask(y_true)
    if not known.any():
        raise ValueError(f"labeled_accuracy: the {len(known)} held-out rows are all marked -1 (unlabeled), so "
                         f"there is no label to score; split with ssl_repro.estimators.LabeledKFold, whose held-out "
                         f"folds hold labeled rows only")
    return float(accuracy_score(np.asarray(y_true)[known], np.asarray(y_pred)[known]))


#: Scorer for ``GridSearchCV(scoring=...)`` and ``cross_val_score``: :func:`labeled_accuracy_score` of the
#: estimator's ``predict`` (module doc).
labeled_accuracy = make_scorer(labeled_accuracy_score)


class LabeledKFold(BaseCrossValidator):
    """K folds of the labeled rows, stratified by class; every unlabeled row in every training fold.

    Each held-out fold is a 1/K share of the labeled rows (scikit-learn's ``StratifiedKFold`` over them,
    by their class); its training rows are the other labeled rows and every row marked -1 (module doc).

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds, at least 2; a class needs at least ``n_splits`` labeled rows to be in every
        held-out fold (``StratifiedKFold`` warns when one has fewer).
    shuffle : bool, default=False
        Shuffle each class's labeled rows before splitting them.
    random_state : int, RandomState instance or None, default=None
        The shuffle's seed (with ``shuffle=True``).

    Examples
    --------
    >>> import numpy as np
    >>> from ssl_repro.estimators import LabeledKFold
    >>> y = np.array([0, 1, -1, 0, 1, -1, 0, 1, -1, -1])
    >>> for train, held_out in LabeledKFold(3).split(np.zeros((10, 1)), y):
    ...     print(held_out, bool(np.all(np.isin([2, 5, 8, 9], train))))
    [0 1] True
    [3 4] True
    [6 7] True
    """

    def __init__(self, n_splits=5, *, shuffle=False, random_state=None):
        self.n_splits = n_splits
        self.shuffle = shuffle
        self.random_state = random_state

    def get_n_splits(self, X=None, y=None, groups=None):
        """The number of folds, ``n_splits``."""
        return self.n_splits

    def _iter_test_indices(self, X, y, groups=None):
        if y is None:
            raise ValueError("LabeledKFold needs y (its -1 rows are the unlabeled ones): pass y to split()")
        labeled = np.flatnonzero(~unlabeled_mask(y))
        if labeled.size < self.n_splits:
            raise ValueError(f"LabeledKFold: {labeled.size} labeled rows cannot make {self.n_splits} held-out folds; "
                             f"label more rows or lower n_splits")
        folds = StratifiedKFold(self.n_splits, shuffle=self.shuffle, random_state=self.random_state)
        labels = np.asarray(y)[labeled]
        for _, held_out in folds.split(np.zeros((labeled.size, 1)), labels.astype(str) if labels.dtype == object
                                       else labels):
            yield labeled[held_out]

    def split(self, X, y, groups=None):
        """(training rows, held-out rows) per fold: the held-out rows are labeled, every -1 row trains
        (``groups`` is ignored)."""
        return super().split(X, y, groups)
