"""K classes: every estimator one-vs-rest with 002's per-class balance; the binary path unchanged."""
import numpy as np
import pytest
import scipy.sparse as sp

from solver_problems import fit_quietly, random_problem
from ssl_repro.estimators import LinearDA, LinearSVM, LinearTSVM, mask_labels
from ssl_repro.harness.methods import METHODS
from ssl_repro.solvers import deterministic_annealing, from_mask, svm, tsvm

#: Settings that keep the fits quick.
QUICK = {"da": {"max_outer": 5}, "kernel_da": {"max_outer": 3}, "nabla_tsvm": {"steps": 2},
         "kernel_nabla_tsvm": {"steps": 2}, "cccp_tsvm": {"max_iter": 5}, "kernel_cccp_tsvm": {"max_iter": 5}}


def blobs(K=3, per_class=20, labeled_per_class=3, seed=0):
    """K well separated Gaussian blobs in 4 dimensions; returns X, the true classes (strings), y for fit."""
    rng = np.random.default_rng(seed)
    centers = 4.0 * np.eye(4)[:K]
    X = np.vstack([c + rng.normal(size=(per_class, 4)) for c in centers])
    truth = np.repeat(np.array(["a", "b", "c", "d"][:K], dtype=object), per_class)
    y = np.full(truth.shape[0], -1, dtype=object)
    for k in range(K):
        y[k * per_class:k * per_class + labeled_per_class] = truth[k * per_class]
    return X, truth, y


# svm_cv's cross-validation ties on these separable blobs (3 labeled rows a class: every held-out error 0)
@pytest.mark.filterwarnings("ignore:\\w+. cross-validation on \\d+ labeled rows cannot tell the lambda grid apart"
                            ":ssl_repro.solvers.SuspectSolutionWarning")
@pytest.mark.parametrize("name", sorted(METHODS))
def test_every_estimator_fits_three_classes_one_vs_rest(name):
    """classes_ of all K, decision_function (n, K) with predict its argmax, transduction_ over K, and the
    K binary estimators each fitted on its class against the rest."""
    entry = METHODS[name]
    X, truth, y = blobs()
    estimator = fit_quietly(entry.estimator_class(**QUICK.get(name, {})), X, y)
    assert estimator.classes_.tolist() == ["a", "b", "c"]
    outputs = estimator.decision_function(X)
    assert outputs.shape == (X.shape[0], 3)
    np.testing.assert_array_equal(estimator.predict(X), estimator.classes_[np.argmax(outputs, axis=1)])
    assert np.mean(estimator.predict(X) == truth) > 0.9
    assert len(estimator.estimators_) == 3 and len(estimator.diagnostics_) == 3 and estimator.n_iter_.shape == (3,)
    for k, binary in enumerate(estimator.estimators_):
        np.testing.assert_allclose(binary.decision_function(X), outputs[:, k], rtol=1e-12, atol=1e-12)
    if entry.semi_supervised:
        assert set(estimator.transduction_) <= {"a", "b", "c"}
        labeled = y != -1
        np.testing.assert_array_equal(estimator.transduction_[labeled], y[labeled])
        np.testing.assert_array_equal(estimator.transduction_[~labeled], estimator.predict(X[~labeled]))


def test_each_binary_problem_is_the_solver_on_its_class_with_its_class_fraction():
    """002's one-vs-rest: problem k is class k (+1) against the rest (-1) on the same labeled rows, r_k the
    labeled rows' share of class k (r=None); compared with direct calls of the binary solver."""
    X, _, y = blobs(K=3, per_class=20, labeled_per_class=3)
    y[[3, 4]] = "a"                         # unequal shares: a 5/11, b 3/11, c 3/11
    X = sp.csr_matrix(X)
    estimator = LinearTSVM(lam=1e-2, switches="max").fit(X, y)
    labeled = y != -1
    for k, c in enumerate(["a", "b", "c"]):
        y_pm1 = np.where(y[labeled] == c, 1.0, -1.0)
        r = float(np.mean(y[labeled] == c))
        w, info = tsvm(from_mask(X, y_pm1, labeled), 1e-2, 1.0, r, switches=np.iinfo(np.int64).max)
        np.testing.assert_array_equal(estimator.coef_[k], w[:-1])
        assert estimator.intercept_[k] == w[-1]
        assert estimator.diagnostics_[k].objective == info.objective


def test_r_per_class_as_an_array_or_a_mapping():
    X, _, y = blobs()
    by_array = LinearTSVM(lam=1e-2, r=[0.2, 0.3, 0.5]).fit(X, y)
    by_mapping = LinearTSVM(lam=1e-2, r={"c": 0.5, "a": 0.2, "b": 0.3}).fit(X, y)
    np.testing.assert_array_equal(by_array.coef_, by_mapping.coef_)
    assert [e.r for e in by_array.estimators_] == [0.2, 0.3, 0.5]


@pytest.mark.parametrize("r, message", [(0.3, "one fraction"), ([0.5, 0.5], "not one fraction"),
                                         ([0.2, 0.3, 0.4], "summing to 1"), ({"a": 0.5, "b": 0.5}, "maps the classes")])
def test_a_wrong_r_for_three_classes_is_refused_with_the_fix(r, message):
    X, _, y = blobs()
    with pytest.raises(ValueError, match=message):
        LinearTSVM(r=r).fit(X, y)


def test_a_per_class_r_for_two_classes_is_the_fraction_of_classes_1():
    X, _, y = blobs(K=2)
    by_scalar = LinearTSVM(lam=1e-2, r=0.4).fit(X, y)
    by_mapping = LinearTSVM(lam=1e-2, r={"a": 0.6, "b": 0.4}).fit(X, y)
    np.testing.assert_array_equal(by_scalar.coef_, by_mapping.coef_)


@pytest.mark.parametrize("Estimator, solve", [
    (LinearSVM, lambda p: svm(p, 1e-2)),
    (LinearTSVM, lambda p: tsvm(p, 1e-2, 1.0, 0.45)),
    (LinearDA, lambda p: deterministic_annealing(p, 1e-2, 1.0, 0.45))])
def test_the_binary_fit_is_the_binary_solver_bit_for_bit(Estimator, solve):
    """Two classes take the path they took before K classes: weights and J equal a direct solver call."""
    Xl, yl, Xu, _ = random_problem(3, l=20, u=80, d=15)
    X = sp.vstack([Xl, Xu], format="csr")
    y_pm1 = np.r_[yl, np.zeros(Xu.shape[0])]
    labeled = np.arange(X.shape[0]) < Xl.shape[0]
    params = {"lam": 1e-2} if Estimator is LinearSVM else {"lam": 1e-2, "r": 0.45}
    estimator = Estimator(**params).fit(X, mask_labels(y_pm1, labeled))
    w, info = solve(from_mask(X, yl, labeled))
    np.testing.assert_array_equal(estimator.coef_[0], w[:-1])
    np.testing.assert_array_equal(estimator.intercept_, w[-1:])
    assert estimator.diagnostics_.objective == info.objective
    assert not hasattr(estimator, "estimators_") and estimator.decision_function(X).shape == (X.shape[0],)


def test_refitting_on_two_classes_after_three_drops_the_one_vs_rest_model():
    X, _, y3 = blobs(K=3)
    X2, _, y2 = blobs(K=2)
    estimator = LinearSVM(lam=1e-2).fit(X, y3).fit(X2, y2)
    assert not hasattr(estimator, "estimators_") and estimator.decision_function(X2).ndim == 1
