"""Label spreading's rows without a label (ssl_repro/estimators/label_reach.py): on small graphs built so that some
rows cannot be reached, the rows are the ones scikit-learn's own LabelSpreading leaves at zero, they get
the labeled rows' majority class (not scikit-learn's silent classes_[0]) and they are counted."""
import warnings

import numpy as np
import pytest
from sklearn.semi_supervised import LabelSpreading

from ssl_repro.estimators.baselines import LabelSpreadingKNN
from ssl_repro.harness import runner
from ssl_repro.estimators.label_reach import UnreachedRowsWarning


def two_clusters(far=8):
    """20 rows around the origin, 4 of them labeled (three of class 1, one of class 0), and ``far`` rows
    around (50, 50) without a label: with 7 neighbours (the row itself among them) those rows' neighbours
    are all far rows, so no path leads from them to a labeled row."""
    rng = np.random.RandomState(0)
    X = np.r_[rng.randn(20, 2) * 0.3, rng.randn(far, 2) * 0.3 + 50]
    y = np.full(X.shape[0], -1)
    y[[0, 1, 2, 3]] = [1, 1, 1, 0]
    return X, y


def test_a_component_without_labels_gets_the_majority_class_and_is_counted():
    X, y = two_clusters()
    with pytest.warns(UnreachedRowsWarning, match=r"8 of 24 unlabeled rows got no label .*\(8 with no path to a "
                                                  r"labeled row in the 7-NN graph, 0 farther .*majority class 1"):
        model = LabelSpreadingKNN().fit(X, y)
    reference = LabelSpreading(kernel="knn", n_neighbors=7).fit(X, y)
    silent = reference.label_distributions_.sum(axis=1) == 0
    # scikit-learn's own spreading leaves exactly the far rows at zero and calls them classes_[0]
    np.testing.assert_array_equal(silent, np.r_[np.zeros(20, bool), np.ones(8, bool)])
    assert set(reference.transduction_[silent]) == {0}
    np.testing.assert_array_equal(model.unreached_, silent)
    assert np.isinf(model.model_.hops_[silent]).all() and np.isfinite(model.model_.hops_[~silent]).all()
    assert model.fallback_class_ == 1
    np.testing.assert_array_equal(model.transduction_, np.where(silent, 1, reference.transduction_))


def test_a_new_row_near_the_unlabeled_component_gets_the_prior_without_a_nan():
    X, y = two_clusters()
    with pytest.warns(UnreachedRowsWarning):
        model = LabelSpreadingKNN().fit(X, y)
    reference = LabelSpreading(kernel="knn", n_neighbors=7).fit(X, y)
    new = np.array([[50.1, 49.9], [0.1, -0.1]])
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)        # scikit-learn's 0/0 would raise here
        with pytest.warns(UnreachedRowsWarning, match="1 of 2 given rows"):
            outputs = model.decision_function(new)
        with pytest.warns(UnreachedRowsWarning):
            predicted = model.predict(new)
    # the far row: the labeled rows' share of class 1 (3 of 4) less 1/2; the near one: scikit-learn's
    np.testing.assert_allclose(outputs, [0.75 - 0.5, reference.predict_proba(new[1:])[0, 1] - 0.5])
    assert predicted[0] == 1 and predicted[1] == reference.predict(new[1:])[0]


def test_rows_farther_than_the_iterations_run_are_counted_apart():
    # a chain: each row's neighbours (3, itself included) are the rows beside it, so the label mass moves one
    # row per iteration; scikit-learn stops (change below tol) before it reaches the chain's far end
    X = np.c_[np.arange(40.0), np.zeros(40)]
    y = np.full(40, -1)
    y[[0, 1, 2]] = [1, 0, 1]
    with pytest.warns(UnreachedRowsWarning, match=r"\(0 with no path"):
        model = LabelSpreadingKNN(n_neighbors=3).fit(X, y)
    hops = model.model_.hops_
    np.testing.assert_array_equal(hops, np.r_[0, 0, 0, np.arange(1, 37), 36])   # the end row's neighbours: 38, 37
    assert 0 < model.n_iter_ < 30 and model.unreached_.any()
    # the rule of the module doc: a row holds label mass iff a labeled row is at most n_iter_ edges away
    np.testing.assert_array_equal(model.unreached_, hops > model.n_iter_)
    reference = LabelSpreading(kernel="knn", n_neighbors=3).fit(X, y)
    np.testing.assert_array_equal(model.unreached_, reference.label_distributions_.sum(axis=1) == 0)
    assert (model.transduction_[model.unreached_] == 1).all()


def test_an_even_split_of_labels_gives_the_first_class():
    X, y = two_clusters()
    y[[0, 1, 2, 3]] = [1, 1, 0, 0]
    with pytest.warns(UnreachedRowsWarning, match="majority class 0"):
        model = LabelSpreadingKNN().fit(X, y)
    with pytest.warns(UnreachedRowsWarning, match="1 of 1 given rows"):
        assert model.fallback_class_ == 0 and (model.predict(np.array([[50.0, 50.0]])) == 0).all()


def test_the_harness_record_counts_the_rows_and_scores_them_as_given(caplog):
    # text-like with 4 labels and 2 neighbours (itself and one other): a directed graph with many components
    job = {"dataset": {"name": "text-like"}, "method": {"name": "label_spreading", "variant": "label_spreading",
                                                        "n_neighbors": 2}, "split": 1, "n_labeled": 4, "n_unlabeled": 300}
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        record = runner.run_job(job)
    settings = runner.resolve_job(job)
    dataset = runner.load_data(settings)
    split = runner.split_rows(job, settings, dataset)
    X_fit, y_fit, _ = runner.training_rows(dataset, split)
    reference = LabelSpreading(kernel="knn", n_neighbors=2).fit(X_fit, y_fit)      # scikit-learn's, directly
    silent = (reference.label_distributions_.sum(axis=1) == 0)[split.labeled.size:]
    given = 1 if np.mean(y_fit[y_fit != -1] == 1) > 0.5 else -1
    with np.errstate(invalid="ignore"):
        test_silent = np.isnan(reference.predict_proba(dataset.X[split.test])).any(axis=1)
    counts = record["unreached_rows"]
    assert counts["unlabeled"] == silent.sum() > 0 and counts["test"] == test_silent.sum() > 0
    assert counts["given"] == given and 0 <= counts["no_path"] <= counts["unlabeled"]
    # the errors score those rows as the class given, the others as scikit-learn labels them
    spread = np.where(reference.transduction_[split.labeled.size:] == 1, 1, -1)
    predicted = np.where(silent, given, spread)
    assert record["transductive_error"] == pytest.approx(np.mean(predicted != dataset.y[split.unlabeled]))
    assert f"{counts['unlabeled']} of 300 unlabeled rows" in caplog.text
