"""Model selection on partially labeled y (:mod:`ssl_repro.estimators.model_selection`): the scorer reads only
the labeled held-out rows, the splitter keeps every unlabeled row in every training fold, and GridSearchCV
chooses lambda by labeled accuracy, not by where the labels fell."""
import warnings

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV, PredefinedSplit, StratifiedKFold, cross_val_score

from ssl_repro.estimators import LabeledKFold, LinearDA, LinearSVM, labeled_accuracy, labeled_accuracy_score

GRID = [1e-3, 1e-1, 3.0]


def noisy(seed, n):
    """Two classes, 3 informative features of 20, 10% of the labels flipped: lambda matters, and not alike on
    every fold."""
    return make_classification(n_samples=n, n_features=20, n_informative=3, n_redundant=0, flip_y=0.1,
                               class_sep=0.8, random_state=seed)


def test_the_scorer_reads_only_the_labeled_rows():
    y_true = np.array([0, 1, -1, -1, -1, -1, -1, -1, -1, -1])
    y_pred = np.array([0, 1, 0, 1, 0, 1, 0, 1, 0, 1])
    assert labeled_accuracy_score(y_true, y_pred) == 1.0          # "accuracy" would say 0.2
    strings = np.array(["a", "b", -1, "b"], dtype=object)
    assert labeled_accuracy_score(strings, np.array(["a", "a", "a", "b"], dtype=object)) == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="held-out rows are all marked -1.*LabeledKFold"):
        labeled_accuracy_score(np.full(4, -1), np.zeros(4))


def test_the_splitter_holds_out_labeled_rows_by_class_and_trains_on_every_unlabeled_row():
    y = np.r_[np.zeros(9, int), np.ones(6, int), np.full(30, -1)]
    folds = list(LabeledKFold(3, shuffle=True, random_state=0).split(np.zeros((45, 1)), y))
    unlabeled = np.flatnonzero(y == -1)
    assert len(folds) == LabeledKFold(3).get_n_splits() == 3
    held_out = np.concatenate([test for _, test in folds])
    assert np.array_equal(np.sort(held_out), np.arange(15))                          # each labeled row once
    for train, test in folds:
        assert np.isin(unlabeled, train).all() and not np.isin(test, train).any()
        assert np.array_equal(np.union1d(train, test), np.arange(45))
        assert np.bincount(y[test]).tolist() == [3, 2]                                # stratified
    with pytest.raises(ValueError, match="2 labeled rows cannot make 3 held-out folds"):
        list(LabeledKFold(3).split(np.zeros((5, 1)), np.array([0, 1, -1, -1, -1])))


def test_grid_search_chooses_by_labeled_accuracy_not_by_the_share_of_labels():
    """Two held-out folds of 40 labeled rows; lambda* has the best mean accuracy over them, another lambda wins
    on the first fold only.  360 unlabeled rows added to the second fold's rows (LinearSVM ignores them, so no
    fit changes) leave it 10% labeled: plain accuracy then weighs it a tenth and chooses the other lambda;
    labeled_accuracy chooses lambda* with or without them."""
    X, y = noisy(2, 80)
    fold = np.r_[np.zeros(40, int), np.ones(40, int)]
    svm = LinearSVM()
    plain = GridSearchCV(svm, {"lam": GRID}, scoring="accuracy", cv=PredefinedSplit(fold)).fit(X, y)
    scores = np.array([plain.cv_results_[f"split{f}_test_score"] for f in (0, 1)])    # fold x lambda
    best, rival = int(np.argmax(scores.mean(axis=0))), int(np.argmax(scores[0]))
    assert best != rival and np.sort(scores.mean(axis=0))[-2] < scores.mean(axis=0)[best]   # the construction
    X_pad = np.r_[X, np.random.default_rng(0).normal(size=(360, 20))]
    y_pad, fold_pad = np.r_[y, np.full(360, -1)], np.r_[fold, np.ones(360, int)]
    chosen = {}
    for scoring in ("accuracy", labeled_accuracy):
        for name, (X_s, y_s, f_s) in {"labeled": (X, y, fold), "padded": (X_pad, y_pad, fold_pad)}.items():
            search = GridSearchCV(svm, {"lam": GRID}, scoring=scoring, cv=PredefinedSplit(f_s)).fit(X_s, y_s)
            chosen[scoring if isinstance(scoring, str) else "labeled_accuracy", name] = search.best_params_["lam"]
    assert chosen["labeled_accuracy", "labeled"] == chosen["labeled_accuracy", "padded"] == GRID[best]
    assert chosen["accuracy", "labeled"] == GRID[best] and chosen["accuracy", "padded"] == GRID[rival]


def manual_labeled_cv(X, y, grid, n_splits):
    """Mean held-out accuracy per lambda, by hand: stratified folds of the labeled rows, each fit on the other
    labeled rows and every unlabeled row, scored on its held-out labeled rows."""
    labeled = np.flatnonzero(y != -1)
    means = []
    for lam in grid:
        accuracies = []
        for _, held in StratifiedKFold(n_splits).split(labeled, y[labeled]):
            test = labeled[held]
            train = np.setdiff1d(np.arange(y.size), test)
            model = LinearDA(lam=lam, max_outer=10).fit(X[train], y[train])
            accuracies.append(np.mean(model.predict(X[test]) == y[test]))
        means.append(np.mean(accuracies))
    return np.array(means)


@pytest.mark.slow   # two grid searches of DA and their reference by hand (~40 DA fits)
def test_grid_search_of_da_follows_labeled_accuracy():
    """On two data sets whose best lambda (by the hand-made cross-validation) differs, GridSearchCV with the
    scorer and the splitter chooses it on each, with the same mean scores; cross_val_score agrees."""
    chosen = []
    for seed in (0, 1):
        X, y = noisy(seed, 150)
        y_fit = np.where(np.arange(150) % 4 == 0, y, -1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")      # DA capped at max_outer=10 on some folds
            reference = manual_labeled_cv(X, y_fit, GRID, 3)
            search = GridSearchCV(LinearDA(max_outer=10), {"lam": GRID}, scoring=labeled_accuracy,
                                  cv=LabeledKFold(3)).fit(X, y_fit)
            once = cross_val_score(LinearDA(lam=GRID[0], max_outer=10), X, y_fit, scoring=labeled_accuracy,
                                   cv=LabeledKFold(3))
        np.testing.assert_allclose(search.cv_results_["mean_test_score"], reference, rtol=1e-12)
        assert once.mean() == pytest.approx(reference[0], rel=1e-12)
        assert np.sort(reference)[-2] < reference.max()          # no tie
        chosen.append(search.best_params_["lam"])
        assert chosen[-1] == GRID[int(np.argmax(reference))]
    assert chosen[0] != chosen[1]
