"""``n_iter_`` on every estimator: set by ``fit``, and counting what its docstring says."""
import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import NotFittedError

from ssl_repro.estimators.comparison import LinearCCCPTSVM, LinearNablaTSVM
from ssl_repro.estimators import LinearDA, LinearRLS, LinearSVM, LinearTSVM, mask_labels
from ssl_repro.estimators.kernel import KernelDA, KernelJTSVM, KernelNablaTSVM
from ssl_repro.harness.methods import METHODS
from ssl_repro.solvers.tsvm import lam_u_levels

from solver_problems import fit_quietly, random_problem

#: Every estimator of the methods table (a new row is checked without editing this file).
ALL = [entry.estimator_class for entry in METHODS.values()]


@pytest.fixture(scope="module")
def data():
    """Sparse two-class rows, 30 labeled (estimator labels: -1 = unlabeled)."""
    X_l, y_l, X_u, y_u = random_problem(3, l=30, u=60, d=12)
    X = sp.vstack([X_l, X_u]).tocsr()
    return X, mask_labels(np.r_[y_l, y_u], np.arange(30))


# the tuned baselines' cross-validation cannot tell lambda apart on these separable rows (every held-out error 0)
@pytest.mark.filterwarnings("ignore:\\w+. cross-validation on \\d+ labeled rows cannot tell the lambda grid apart"
                            ":ssl_repro.solvers.SuspectSolutionWarning")
@pytest.mark.parametrize("cls", ALL, ids=lambda c: c.__name__)
def test_n_iter_is_set_by_fit_and_documented(cls, data):
    assert "n_iter_ : int" in cls.__doc__
    estimator = cls(**({"lam": 1e-2} if "lam" in cls().get_params() else {}))     # label spreading takes none
    with pytest.raises(NotFittedError):
        estimator.predict(data[0])
    assert not hasattr(estimator, "n_iter_")
    fit_quietly(estimator, *data)
    assert isinstance(estimator.n_iter_, int) and estimator.n_iter_ >= 1


def test_svm_counts_newton_iterations(data):
    est = LinearSVM(lam=1e-2).fit(*data)
    assert est.n_iter_ == est.diagnostics_.newton_iterations
    assert est.diagnostics_.mfn_calls == 1


def test_rls_counts_cg_iterations_of_the_order_of_the_dimension(data):
    est = LinearRLS(lam=1e-2).fit(*data)
    assert est.n_iter_ == est.diagnostics_.cg_iterations
    # CG on d + 1 unknowns (weights and bias) ends within d + 1 steps in exact arithmetic;
    # rounding adds a few, never another d
    assert data[0].shape[1] // 2 <= est.n_iter_ <= 2 * (data[0].shape[1] + 1)


def test_tsvm_counts_mfn_solves_and_multi_switch_needs_fewer(data):
    one = LinearTSVM(lam=1e-2, switches=1).fit(*data)
    many = LinearTSVM(lam=1e-2, switches="max").fit(*data)
    for est in (one, many):
        info = est.diagnostics_
        assert est.n_iter_ == info.mfn_calls
        # the supervised start, then each lambda' level's solve and each kept retraining (the path)
        assert est.n_iter_ >= 1 + len(info.objective_path)
    assert one.diagnostics_.switches >= one.n_iter_ - 1 - len(one.diagnostics_.lam_u_levels)
    assert many.n_iter_ <= one.n_iter_      # Table 4: S = max switches many pairs per retraining


def test_da_counts_temperatures(data):
    est = LinearDA(lam=1e-2).fit(*data)
    temperatures = [T for T, _ in est.diagnostics_.objective_path]
    assert est.n_iter_ == len(est.diagnostics_.temperatures) == len(set(temperatures))
    capped = fit_quietly(LinearDA(lam=1e-2, max_outer=2), *data)
    assert capped.n_iter_ == 2 and capped.diagnostics_.stop_reason == "max_outer"
    assert LinearDA(lam=1e-2, fixed_temperature=0.1).fit(*data).n_iter_ == 1


def test_nabla_counts_lbfgs_iterations(data):
    est = fit_quietly(LinearNablaTSVM(lam=1e-2, steps=3), *data)
    assert est.n_iter_ == est.diagnostics_.lbfgs_iterations
    assert est.n_iter_ >= 3                 # at least one L-BFGS step per lambda' of the schedule


def test_cccp_counts_cccp_iterations(data):
    est = LinearCCCPTSVM(lam=1e-2).fit(*data)
    assert est.n_iter_ == est.diagnostics_.cccp_iterations == len(est.diagnostics_.objective_path)
    assert fit_quietly(LinearCCCPTSVM(lam=1e-2, max_iter=1), *data).n_iter_ == 1


def test_kernel_da_counts_temperatures(data):
    est = KernelDA(lam=1e-2).fit(*data)
    assert est.n_iter_ == len(est.diagnostics_.temperatures)
    assert fit_quietly(KernelDA(lam=1e-2, max_outer=2), *data).n_iter_ == 2


def test_kernel_jtsvm_counts_fstep_solves(data):
    est = KernelJTSVM(lam=1e-2, switches=1).fit(*data)
    # one pair per switch: the supervised start, one solve per lambda' level, one per switch
    assert est.n_iter_ == 1 + len(list(lam_u_levels(1.0))) + est.diagnostics_.switches


def test_kernel_nabla_counts_lbfgs_iterations(data):
    est = fit_quietly(KernelNablaTSVM(lam=1e-2, steps=3), *data)
    assert est.n_iter_ == est.diagnostics_.lbfgs_iterations >= 3
