"""The scikit-learn estimators: API conformance, input formats, and clear errors."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.utils.estimator_checks import parametrize_with_checks

from estimator_checks import READS_UNLABELED, checked_estimator
from solver_problems import fit_quietly, random_problem
from ssl_repro.estimators.comparison import LinearCCCPTSVM, LinearNablaTSVM
from ssl_repro.estimators import LinearDA, LinearRLS, LinearSVM, LinearTSVM, NoUnlabeledRowsWarning, mask_labels
from ssl_repro.harness.methods import METHODS


#: Every linear method of the table (the kernel machines take a precomputed Gram matrix; tests/kernel/test_kernel_methods.py).
LINEAR_METHODS = [name for name, entry in METHODS.items() if not entry.kernel]


@pytest.mark.slow   # scikit-learn's full check_estimator suite for every linear method of the table
# Warnings these checks provoke on purpose, each true of the checks' data: the tuned baselines' cross-validation
# ties on the checks' small blobs (every lambda's held-out error alike; asserted where a test provokes it alone:
# tests/harness/test_careless_estimators.py, tests/estimators/test_baselines.py), and the checks whose labels
# the wrapper leaves whole (text labels, fewer than 6 rows: tests/estimator_checks.py) fit on fully labeled rows, so
# the estimators that read unlabeled rows say they fit the supervised problem.
@pytest.mark.filterwarnings("ignore:\\w+. cross-validation on \\d+ labeled rows cannot tell the lambda grid apart"
                            ":ssl_repro.solvers.SuspectSolutionWarning")
@pytest.mark.filterwarnings("ignore:\\w+. y marks no row unlabeled:ssl_repro.estimators.NoUnlabeledRowsWarning")
@parametrize_with_checks(
    [checked_estimator(name) for name in LINEAR_METHODS],
    # -1 marks unlabeled rows (sklearn.semi_supervised convention), so a
    # training set whose labels include -1 is read as partly unlabeled.
    expected_failed_checks=lambda est: {
        "check_classifiers_classes": "labels -1/+1 read as unlabeled/+1 (sklearn.semi_supervised convention)"},
)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)



@pytest.mark.slow   # every linear method fitted twice; the tuned baselines tune lambda over the grid each time
@pytest.mark.filterwarnings("ignore::UserWarning")      # the small problem's convergence and tie warnings
@pytest.mark.parametrize("name", LINEAR_METHODS)
def test_the_checks_hide_labels_from_exactly_the_estimators_that_read_the_unlabeled_rows(name):
    """``READS_UNLABELED`` (whose checks get a partly unlabeled y) is what the fits show: other unlabeled rows
    change the model of exactly those methods; the others fit the labeled rows alone."""
    X_l, y_l, X_u, y_u = random_problem(0, l=30, u=60, sep=0.3)     # close classes: a held-out row's neighbours
    y = mask_labels(np.r_[y_l, y_u], np.arange(30))                  # (label spreading) do not all agree
    held_out = random_problem(1, l=30, u=60, sep=0.3)[2]
    fits = [METHODS[name].estimator_class().fit(sp.vstack([X_l, unlabeled]).tocsr(), y).decision_function(held_out)
            for unlabeled in (X_u, X_u[::-1] * 3.0)]
    assert (not np.allclose(*fits)) == (name in READS_UNLABELED)


@pytest.mark.slow   # a self-training fit, its lambda tuned over the grid first
def test_the_checks_run_self_trainings_rounds():
    """On the data of scikit-learn's ``check_classifiers_train`` (blobs, scaled) the checked self-training adds
    pseudo-labeled rows: the checks reach its loop."""
    from sklearn.datasets import make_blobs
    from sklearn.preprocessing import StandardScaler
    X, y = make_blobs(n_samples=300, random_state=0, centers=2)
    model = checked_estimator("self_training").fit(StandardScaler().fit_transform(X), y)
    assert model.n_pseudo_labeled_ > 0 and set(model.transduction_) == {0, 1}

@pytest.mark.parametrize("name", sorted(METHODS))
def test_the_methods_table_says_what_each_estimator_does(name):
    """The table's kind (which the runner uses to pass lam_u and r, the figures to group) is the estimator's:
    a semi-supervised method takes lam_u and r, a linear one has coef_, a kernel one dual_coef_, a graph one
    (label spreading) neither."""
    entry = METHODS[name]
    estimator = entry.estimator_class()
    params = estimator.get_params()
    assert entry.semi_supervised == ("lam_u" in params) == ("r" in params)
    assert entry.semi_supervised == getattr(estimator, "_semi_supervised", entry.kernel)
    X, _, y = semi_supervised_data(4)
    if "lam" in params:
        estimator.set_params(lam=1e-2)
    fitted = estimator.fit(X.toarray() if entry.kernel else X, y)
    assert hasattr(fitted, "dual_coef_") == entry.kernel
    assert hasattr(fitted, "coef_") == (not entry.kernel and not entry.graph)


def semi_supervised_data(seed=0):
    Xl, yl, Xu, yu = random_problem(seed, l=10, u=80, d=20, sep=0.5)
    X = sp.vstack([Xl, Xu], format="csr")
    y_true = np.r_[yl, yu]
    return X, y_true, mask_labels(y_true, np.arange(10))


@pytest.mark.parametrize("Estimator", [LinearSVM, LinearRLS, LinearTSVM, LinearDA])
def test_csr_csc_and_dense_inputs_give_the_same_model(Estimator):
    X, _, y = semi_supervised_data()
    coefs = [Estimator(lam=1e-2).fit(A, y).coef_ for A in (X, X.tocsc(), X.toarray())]
    np.testing.assert_array_equal(coefs[0], coefs[1])
    np.testing.assert_allclose(coefs[0], coefs[2], rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("Estimator", [LinearSVM, LinearRLS, LinearTSVM, LinearDA, LinearNablaTSVM,
                                       LinearCCCPTSVM])
def test_float32_input_is_read_in_place_and_gives_the_model_of_its_values_in_float64(Estimator, monkeypatch):
    """float32 values are widened, never rounded again: the model equals, bit for bit, the one of
    float64 data holding the same values; the solver reads the caller's float32 array (no copy)."""
    import ssl_repro.estimators.linear_fit as estimators   # the fit plumbing that builds the problem
    X, _, y = semi_supervised_data()
    X32 = (X * 0.37).astype(np.float32)       # values not exactly representable at float64's precision
    X64 = X32.astype(np.float64)
    assert not np.array_equal(X64.data, (X * 0.37).data)
    seen = []

    def recording(X, *args):
        seen.append(X)
        return problem_from_mask(X, *args)

    problem_from_mask = estimators.problem_from_mask
    monkeypatch.setattr(estimators, "problem_from_mask", recording)
    a, b = Estimator(lam=1e-2).fit(X32, y), Estimator(lam=1e-2).fit(X64, y)
    assert seen[0].dtype == np.float32 and np.shares_memory(seen[0].data, X32.data)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    np.testing.assert_array_equal(a.intercept_, b.intercept_)
    assert a.diagnostics_.objective == b.diagnostics_.objective
    np.testing.assert_array_equal(a.decision_function(X32), b.decision_function(X64))
    np.testing.assert_array_equal(a.decision_function(X32.toarray()), b.decision_function(X64.toarray()))
    assert a.decision_function(X32).dtype == np.float64


def test_float32_data_keeps_its_type_in_the_solvers_other_types_become_float64():
    from ssl_repro.solvers import BiasedRows, from_blocks
    X, _, _ = semi_supervised_data()
    X32 = X.astype(np.float32)
    op = BiasedRows(X32)
    assert op.X.data is X32.data
    assert from_blocks(X32[:10], np.where(np.arange(10) % 2, 1.0, -1.0), X32[10:]).op.X.dtype == np.float32
    for other in (np.int32, np.int64, np.longdouble):
        assert BiasedRows(sp.csr_matrix(X.toarray().astype(other))).X.dtype == np.float64
    # the products of float32 data are those of the same values in float64
    w, z = np.linspace(-1, 1, op.n_weights), np.linspace(2, -1, X.shape[0])
    rows = np.arange(X.shape[0], dtype=np.int64)
    op64 = BiasedRows(X32.astype(np.float64))
    np.testing.assert_array_equal(op.matvec(w, rows), op64.matvec(w, rows))
    np.testing.assert_array_equal(op.rmatvec(z, rows), op64.rmatvec(z, rows))


def test_semi_supervised_estimator_matches_the_solver_function_and_labels_transduction():
    from ssl_repro.solvers import train_tsvm
    X, y_true, y = semi_supervised_data(1)
    est = LinearTSVM(lam=1e-2, r=0.4, switches="max").fit(X, y)
    w, info = train_tsvm(X[:10], y_true[:10], X[10:], lam=1e-2, lam_u=1.0, r=0.4, switches="max")
    np.testing.assert_allclose(np.r_[est.coef_[0], est.intercept_], w, rtol=1e-12, atol=1e-14)
    assert est.diagnostics_.objective == pytest.approx(info.objective, rel=1e-12)
    np.testing.assert_array_equal(est.transduction_[:10], y[:10])
    np.testing.assert_array_equal(est.transduction_[10:], est.predict(X[10:]))


def test_string_class_labels_map_to_the_positive_class_in_sorted_order():
    X, y_true, _ = semi_supervised_data(2)
    names = np.where(y_true > 0, "spam", "ham")
    est = LinearSVM(lam=1e-2).fit(X, names)
    assert list(est.classes_) == ["ham", "spam"]
    assert np.mean(est.predict(X) == names) > 0.7


@pytest.mark.parametrize("Estimator", [LinearSVM, LinearTSVM, LinearDA])
def test_bad_inputs_fail_with_a_clear_message(Estimator):
    X, _, y = semi_supervised_data(3)
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        Estimator().fit(X, y[:-1])
    Xnan = X.toarray()
    Xnan[3, 4] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        Estimator().fit(Xnan, y)
    Xinf = X.copy()
    Xinf.data[0] = np.inf
    with pytest.raises(ValueError, match="infinity"):
        Estimator().fit(Xinf, y)
    one_class = np.where(y == 0, 1, y)
    with pytest.raises(ValueError, match="one class"):
        Estimator().fit(X, one_class)
    three = y.copy()
    three[0] = 7                   # a third class: fitted one-vs-rest (tests/estimators/test_multiclass.py)
    assert fit_quietly(Estimator(), X, three).classes_.tolist() == [0, 1, 7]
    with pytest.raises(ValueError, match=r"'lam' parameter of .* must be a float in the range \(0.0, inf\)"):
        Estimator(lam=-1.0).fit(X, y)
    est = Estimator().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        est.predict(X[:, :5])


@pytest.mark.parametrize("Estimator", [LinearTSVM, LinearDA])
def test_semi_supervised_specific_errors(Estimator):
    X, _, y = semi_supervised_data(3)
    with pytest.warns(NoUnlabeledRowsWarning, match="fits the supervised problem"):   # tests/estimators/test_fresh_fits.py
        Estimator().fit(X[:10], y[:10])
    for r in (0.0, 1.0, 1.2):
        with pytest.raises(ValueError, match=r"'r' parameter .* in the range \(0.0, 1.0\), an array-like, .*Mapping.* or None"):
            Estimator(r=r).fit(X, y)
    with pytest.raises(ValueError, match=r"'lam_u' parameter .* in the range \(0.0, inf\)"):
        Estimator(lam_u=-1.0).fit(X, y)
