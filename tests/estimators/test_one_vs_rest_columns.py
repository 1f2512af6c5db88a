"""K >= 3 classes: each binary problem of the K-class fit against its separate fit (J within 1e-9 relative, the
same predictions), for LinearSVM (one column solve sharing the products), LinearTSVM and LinearDA (K binary fits),
and a transductive estimator given no unlabeled row (its supervised solves as one column solve)."""
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from ssl_repro.estimators import LinearDA, LinearSVM, LinearTSVM
from ssl_repro.estimators.base import NoUnlabeledRowsWarning
from ssl_repro.solvers import columns


def four_classes(seed=0, n=160, labeled=40):
    """Four Gaussian classes in 6 dimensions; y with ``labeled`` rows labeled (classes 10, 20, 30, 40)."""
    rng = np.random.default_rng(seed)
    classes = rng.integers(0, 4, n)
    X = rng.normal(size=(n, 6))
    X[np.arange(n), classes] += 2.5
    y = np.full(n, -1)
    chosen = rng.choice(n, labeled, replace=False)
    y[chosen] = 10 * (classes[chosen] + 1)
    return X, y


def separate(Estimator, X, y, **params):
    """The K binary fits a user runs by hand: class c (1) against the rest (0), r = its labeled share."""
    classes = np.unique(y[y != -1])
    share = {c: float(np.mean(y[y != -1] == c)) for c in classes}
    semi = "r" in Estimator().get_params()
    return [Estimator(**params, **({"r": share[c]} if semi else {})).fit(X, np.where(y == -1, -1, (y == c) * 1))
            for c in classes]


@pytest.mark.parametrize("Estimator, params", [(LinearSVM, {"lam": 1e-2}), (LinearTSVM, {"lam": 1e-2}),
                                               (LinearDA, {"lam": 1e-2, "max_outer": 5})])
def test_each_class_is_its_separate_fit(Estimator, params):
    X, y = four_classes()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        joint = Estimator(**params).fit(X, y)
        alone = separate(Estimator, X, y, **params)
    for k, (a, b) in enumerate(zip(joint.estimators_, alone)):
        assert a.diagnostics_.objective == pytest.approx(b.diagnostics_.objective, rel=1e-9, abs=0)
        np.testing.assert_array_equal(a.predict(X), b.predict(X))
        assert a.diagnostics_.converged == b.diagnostics_.converged
        assert sorted(vars(a)) == sorted(vars(b))
        np.testing.assert_allclose(joint.decision_function(X)[:, k], b.decision_function(X), rtol=1e-6, atol=1e-8)
    np.testing.assert_array_equal(joint.predict(X), np.unique(y[y != -1])[np.argmax(
        np.column_stack([b.decision_function(X) for b in alone]), axis=1)])


svm_columns = columns.svm_columns


@pytest.mark.parametrize("Estimator, shares", [(LinearSVM, True), (LinearTSVM, False), (LinearDA, False)])
def test_the_column_solve_runs_where_every_binary_solve_is_the_svm(Estimator, shares, monkeypatch):
    """LinearSVM's K classes run one column solve; TSVM's and DA's K binary fits do not, unless y has no
    unlabeled row (their supervised solve is the SVM's): then one column solve, J that of each separate fit."""
    from ssl_repro.estimators import linear_fit
    X, y = four_classes()
    calls = []
    monkeypatch.setattr(linear_fit, "svm_columns", lambda *a, **k: calls.append(a[1].shape) or svm_columns(*a, **k))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        Estimator(lam=1e-2).fit(X, y)
    assert calls == ([(40, 4)] if shares else [])
    labeled = y != -1
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        joint = Estimator(lam=1e-2).fit(X[labeled], y[labeled])
    assert [w.category for w in caught] == ([] if shares else [NoUnlabeledRowsWarning])
    assert calls[-1] == (40, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoUnlabeledRowsWarning)
        alone = separate(Estimator, X[labeled], y[labeled], lam=1e-2)
    for a, b in zip(joint.estimators_, alone):
        assert a.diagnostics_.objective == pytest.approx(b.diagnostics_.objective, rel=1e-9, abs=0)
        assert abs(a.n_iter_ - b.n_iter_) <= 1 and a.diagnostics_.method == b.diagnostics_.method == "svm"
        np.testing.assert_array_equal(a.transduction_ if hasattr(a, "transduction_") else a.predict(X[labeled]),
                                      b.transduction_ if hasattr(b, "transduction_") else b.predict(X[labeled]))


def test_a_class_on_its_cap_says_so_in_the_k_class_fit(monkeypatch):
    """Each class's record and warning, as its separate fit gives them (the Newton cap forced to 1)."""
    from ssl_repro.estimators import linear_fit
    X, y = four_classes()
    monkeypatch.setattr(linear_fit, "svm_columns", lambda *a, **k: svm_columns(*a, max_newton_iter=1))
    with pytest.warns(ConvergenceWarning) as caught:
        joint = LinearSVM(lam=1e-2).fit(X, y)
    assert sum(issubclass(w.category, ConvergenceWarning) for w in caught) == 4
    assert [d.converged for d in joint.diagnostics_] == [False] * 4
    assert [d.stop_reason for d in joint.diagnostics_] == ["max_newton_iter"] * 4
    assert joint.n_iter_.tolist() == [1] * 4
