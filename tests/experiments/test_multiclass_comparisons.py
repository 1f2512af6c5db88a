"""The K-class comparisons' scripts: ``experiments/potts_vs_ovr.py`` (Potts DA beside one-vs-rest DA) and
``experiments/sklearn_examples.py`` (ours beside scikit-learn's semi-supervised examples), on small inputs."""
import json

import numpy as np
import pytest

from ssl_repro.data.multiclass import load_digits_k


def squared_hinge(t):
    return np.maximum(0.0, 1.0 - t) ** 2


def j_over_k(W, X, y_fit, classes, lam, lam_u):
    """J over K classes from its definition (000 Eqn 18 per class, an unlabeled row charged its cheapest class:
    class c's loss on its own output and every other class's loss as the rest), in dense numpy."""
    O = np.asarray(X.toarray()) @ W[:, :-1].T + W[:, -1]
    labeled = y_fit != -1
    Y = np.where(y_fit[labeled, None] == classes[None, :], 1.0, -1.0)
    as_rest = squared_hinge(-O[~labeled])
    row = squared_hinge(O[~labeled]) - as_rest + as_rest.sum(axis=1, keepdims=True)
    return (0.5 * lam * np.sum(W * W) + 0.5 * squared_hinge(Y * O[labeled]).sum() / labeled.sum()
            + lam_u * row.min(axis=1).sum() / (2 * (~labeled).sum()))


def test_a_split_has_every_class_labeled_and_disjoint_parts(experiment_script):
    potts = experiment_script("potts_vs_ovr")
    y = np.repeat(np.arange(5), 40)
    for seed in range(5):
        l, u, t = potts.split(y, 10, 100, 50, seed)
        assert (l.size, u.size, t.size) == (10, 100, 50)
        assert np.unique(y[l]).size == 5
        assert len(set(l) | set(u) | set(t)) == 160


@pytest.mark.slow
def test_the_record_holds_both_methods_with_j_over_k_of_their_weights(experiment_script, tmp_path, monkeypatch):
    """Two splits of digits at 30 labeled, 120 unlabeled and 60 test rows: a row per split and method, errors
    in [0, 1], and the J the record gives one-vs-rest DA equal to J over K computed here from its weights."""
    potts = experiment_script("potts_vs_ovr")
    monkeypatch.setitem(potts.SIZES, "digits", (30, 120, 60))
    potts.main(["--datasets", "digits", "--splits", "2", "--out", str(tmp_path)])
    record = json.loads((tmp_path / "digits.json").read_text())
    rows = record["rows"]
    assert [(r["split"], r["method"]) for r in rows] == [(s, m) for s in (0, 1) for m in ("ovr", "potts", "svm")]
    assert all(0 <= r[e] <= 1 for r in rows for e in ("transductive_error", "test_error"))
    assert record["settings"]["n_labeled"] == 30 and record["settings"]["n_test"] == 60
    X, y = load_digits_k()
    rows_l, rows_u, _ = potts.split(y, 30, 120, 60, 0)
    fit_rows = np.r_[rows_l, rows_u]
    y_fit = np.r_[y[rows_l], np.full(rows_u.size, -1)]
    from ssl_repro.estimators import LinearDA
    model = LinearDA(lam=potts.LAM, lam_u=potts.LAM_U).fit(X[fit_rows], y_fit)
    W = np.hstack([model.coef_, model.intercept_[:, None]])
    assert rows[0]["objective_k"] == pytest.approx(j_over_k(W, X[fit_rows], y_fit, model.classes_, potts.LAM,
                                                            potts.LAM_U), rel=1e-9)
    # the supervised reference: scikit-learn's squared-hinge LinearSVC on the labeled rows alone, at the same
    # lambda (C = 1 / (2 lambda l), the intercept penalized as our bias), errs on nearly the same unlabeled rows
    from sklearn.svm import LinearSVC
    reference = LinearSVC(C=1 / (2 * potts.LAM * rows_l.size), loss="squared_hinge", intercept_scaling=1, tol=1e-8,
                          max_iter=100000).fit(X[rows_l], y[rows_l])
    theirs = np.mean(reference.predict(X[rows_u]) != y[rows_u])
    assert abs(rows[2]["transductive_error"] - theirs) <= 2 / rows_u.size


@pytest.mark.slow
def test_the_digits_example_scores_every_method_on_the_300_unlabeled_rows(experiment_script, monkeypatch):
    """One draw of the digits example (on fewer rows): every method of both sides gets a row, and
    micro-F1 with one label per row is the accuracy on the unlabeled rows (1 - error)."""
    examples = experiment_script("sklearn_examples")
    monkeypatch.setattr(examples, "DIGITS_ROWS", 120)
    X, y = load_digits_k()
    rows = examples.digits_draw(X, y, 0)
    assert [r["method"] for r in rows] == [*examples.SKLEARN, *examples.OURS]
    assert all(r["error"] == pytest.approx(1 - r["micro_f1"]) and 0 <= r["micro_f1"] <= 1 for r in rows)
    assert max(r["micro_f1"] for r in rows) > 0.5          # digits are easy: far above chance (0.1)
