"""Today's baselines (ssl_repro/estimators/baselines.py): the tuning picks what a brute-force loop picks, uses the
labeled rows only, and each baseline makes the record the harness needs."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_predict
from sklearn.semi_supervised import LabelSpreading

from solver_problems import random_problem
from ssl_repro.estimators.baselines import LabelSpreadingKNN, SelfTraining, TunedLinearSVM, TunedLogisticRegression
from ssl_repro.estimators.cross_validation import K_FOLDS, LAM_GRID, cv_folds
from ssl_repro.solvers import SuspectSolutionWarning
from ssl_repro.estimators import LinearSVM, NoUnlabeledRowsWarning, mask_labels
from ssl_repro.harness import runner


def problem(l=40, u=120, seed=0, sep=0.6):
    X_l, y_l, X_u, y_u = random_problem(seed, l=l, u=u, d=15, sep=sep)
    X = sp.vstack([X_l, X_u]).tocsr()
    return X, mask_labels(np.r_[y_l, y_u], np.arange(l)), np.r_[y_l, y_u], l


def brute_force_lambda(make, X, y01):
    """Every grid value by hand: scikit-learn's cross_val_predict on the same stratified folds; fewest
    errors, ties to the value nearest 1e-3."""
    folds = StratifiedKFold(K_FOLDS, shuffle=True, random_state=0)
    errors = [np.mean(cross_val_predict(make(lam), X, y01, cv=folds) != y01) for lam in LAM_GRID]
    best = min(errors)
    return min((lam for lam, e in zip(LAM_GRID, errors) if e == best), key=lambda lam: abs(np.log10(lam) + 3)), errors


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow), pytest.param(2, marks=pytest.mark.slow)])
def test_cross_validation_picks_the_lambda_a_brute_force_loop_picks(seed):
    X, y, _, l = problem(seed=seed)
    y01 = y[:l]
    expected, errors = brute_force_lambda(lambda lam: LinearSVM(lam=lam), X[:l], y01)
    with warnings.catch_warnings(record=True) as caught:          # seed 1: every lambda's error 0, a tie
        warnings.simplefilter("always", SuspectSolutionWarning)
        tuned = TunedLinearSVM().fit(X, y)
    untold = [w for w in caught if issubclass(w.category, SuspectSolutionWarning)]
    assert len(untold) == (len(set(errors)) == 1) and tuned.diagnostics_.suspect == ["cv_untold"] * len(untold)
    assert tuned.lam_ == expected and np.allclose(tuned.diagnostics_.cv_errors, errors)
    # the final model is L2-SVM-MFN at that lambda on the labeled rows alone
    np.testing.assert_allclose(tuned.coef_, LinearSVM(lam=expected).fit(X[:l], y01).coef_, rtol=1e-10, atol=1e-12)
    logistic = TunedLogisticRegression().fit(X, y)
    n_train = l * (K_FOLDS - 1) / K_FOLDS
    expected, _ = brute_force_lambda(lambda lam: LogisticRegression(C=1 / (lam * n_train), max_iter=1000), X[:l], y01)
    assert logistic.lam_ == expected


def test_leave_one_out_below_k_labeled_rows_per_class():
    y = np.array([1, 1, 1, -1, -1, -1, -1])
    folds = cv_folds(y)
    assert len(folds) == 7 and all(held.size == 1 for _, held in folds)
    assert len(cv_folds(np.r_[np.ones(5), -np.ones(7)])) == K_FOLDS
    # two labeled rows: each fold trains on one class, every lambda ties, the papers' lambda stays
    X, y, _, l = problem(l=2)
    for lam in (1e-3, 1.0):
        with pytest.warns(SuspectSolutionWarning, match="cannot tell the lambda grid apart"):
            assert TunedLinearSVM(lam=lam).fit(X, y).lam_ == lam


def test_self_training_tunes_on_the_labeled_rows_only():
    X, y, _, l = problem()
    model = SelfTraining().fit(X, y)
    assert model.lam_ == TunedLogisticRegression().fit(X[:l], y[:l]).lam_
    # other unlabeled rows (noise) change the self-trained model, never the lambda tuned before it
    noisy = sp.vstack([X[:l], sp.random(X.shape[0] - l, X.shape[1], density=0.5, random_state=1)]).tocsr()
    other = SelfTraining().fit(noisy, y)
    assert other.lam_ == model.lam_ and not np.allclose(other.coef_, model.coef_)
    assert model.transduction_.shape == y.shape and np.array_equal(model.transduction_[:l], y[:l])


@pytest.mark.slow   # two self-training fits, each tuning lambda over the grid and folds first (~8 s)
def test_self_training_runs_its_rounds_on_unlabeled_rows_and_is_the_tuned_fit_without_them():
    """With unlabeled rows the loop runs: its first round pseudo-labels every unlabeled row the labeled-only
    logistic regression (at the lambda tuned there) predicts with probability >= threshold, so at least those
    rows end labeled, and the final model and some predictions are not that supervised fit's.  With every row
    labeled no round adds a row, and the model is the supervised fit's."""
    X, y, _, l = problem(l=12, u=200)         # few labels: the rounds move the boundary across some rows
    model = SelfTraining().fit(X, y)
    supervised = _logistic_on(X[:l], y[:l], model.lam_)
    first_round = supervised.predict_proba(X[l:]).max(axis=1) >= model.threshold
    assert first_round.sum() > 0 and model.n_pseudo_labeled_ >= first_round.sum()
    assert not np.allclose(model.coef_, supervised.coef_)
    assert np.any(model.predict(X[l:]) != supervised.predict(X[l:]))
    everything = np.where(y == -1, (X[:, 0].toarray().ravel() > 0.3).astype(int), y)   # every row labeled
    with pytest.warns(NoUnlabeledRowsWarning, match="fits the supervised problem"):    # ours, not scikit-learn's
        full = SelfTraining().fit(X, everything)
    assert full.n_pseudo_labeled_ == 0
    np.testing.assert_allclose(full.coef_[0], _logistic_on(X, everything, full.lam_).coef_[0])


def _logistic_on(X, y01, lam):
    """scikit-learn's logistic regression as self-training's first round fits it (C = 1 / (lambda l))."""
    return LogisticRegression(C=1.0 / (lam * len(y01)), max_iter=1000).fit(X, y01)


def test_label_spreading_is_scikit_learns_on_the_knn_graph():
    X, y, truth, l = problem()
    model = LabelSpreadingKNN().fit(X, y)
    reference = LabelSpreading(kernel="knn", n_neighbors=7).fit(X, y)
    reached = ~model.unreached_          # the rest: tests/estimators/test_label_reach.py
    np.testing.assert_array_equal(model.transduction_[reached], reference.transduction_[reached])
    X_new = X[l:l + 30]
    np.testing.assert_array_equal(model.predict(X_new), reference.predict(X_new))


@pytest.mark.parametrize("name", ["svm_cv", "logreg_cv", "self_training", "label_spreading"])
def test_each_baseline_makes_a_harness_record(name):
    job = {"dataset": {"name": "text-like"}, "method": {"name": name, "variant": name}, "split": 1,
           "n_labeled": 16, "n_unlabeled": 300}
    record = runner.run_job(job)
    assert record["method"] == name and record["n_labeled"] == 16
    for key in ("test_error", "transductive_error", "unlabeled_positive_fraction"):
        assert 0 <= record[key] <= 1
    assert np.isnan(record["objective_eqn18"]) and np.isnan(record["objective_own"])
    assert isinstance(record["converged"], bool) and record["lam_u"] == 0.0
    tuned = record["diagnostics"]["selected_lam"]
    assert (tuned in LAM_GRID) == (name != "label_spreading")
