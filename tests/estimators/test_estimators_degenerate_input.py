"""The estimators on degenerate but legal input: finite weights or a clear error; parameters
that would keep a loop from running, and raw +1/-1 labels, are refused with the way out."""
import numpy as np
import pytest

from solver_problems import dense_masked_problem, fit_quietly
from ssl_repro.estimators.comparison import LinearCCCPTSVM, LinearNablaTSVM
from ssl_repro.estimators import LinearDA, LinearSVM, LinearTSVM
from ssl_repro.harness.methods import METHODS

#: The papers' linear methods of the methods table (today's baselines fit through scikit-learn's own solvers).
LINEAR = [entry.estimator_class for entry in METHODS.values() if entry.paper and not entry.kernel]


@pytest.mark.parametrize("estimator", LINEAR)
@pytest.mark.parametrize("case", ["zero_rows", "opposite_duplicates", "tiny_1e-150", "tiny_1e-200"])
def test_degenerate_data_gives_finite_weights(estimator, case):
    X, y = dense_masked_problem()
    if case == "zero_rows":
        X[:] = 0.0
        y[:10] = [1, 0] * 5                       # balanced: zero starting residual in CGLS
    elif case == "opposite_duplicates":
        X[1] = X[0]
        y[:] = -1
        y[:2] = [1, 0]                            # two identical labeled rows, opposite labels
    else:
        X *= float(case.split("_")[1])
    model = fit_quietly(estimator(), X, y)
    assert np.all(np.isfinite(model.coef_)) and np.all(np.isfinite(model.intercept_))
    assert np.isfinite(model.diagnostics_.objective)


@pytest.mark.parametrize("estimator", LINEAR)
@pytest.mark.parametrize("scale", [1e150, 1e200, 1e40])
def test_huge_values_are_refused_with_a_clear_error(estimator, scale):
    X, y = dense_masked_problem(scale)
    with pytest.raises(ValueError, match="rescale"):
        estimator().fit(X, y)


@pytest.mark.parametrize("estimator, params, name", [
    (LinearDA, dict(eps=1.0), "eps"), (LinearDA, dict(eps=0.0), "eps"),
    (LinearDA, dict(max_outer=0), "max_outer"), (LinearDA, dict(max_inner=0), "max_inner"),
    (LinearDA, dict(T0=0.0), "T0"), (LinearDA, dict(anneal_rate=1.0), "anneal_rate"),
    (LinearDA, dict(eps=0.2, r=0.05), "eps"),
    (LinearCCCPTSVM, dict(max_iter=0), "max_iter"), (LinearNablaTSVM, dict(steps=0), "steps"),
    (LinearTSVM, dict(switches=0), "switches"), (LinearTSVM, dict(lam_u_growth=1.0), "lam_u_growth"),
])
def test_parameters_that_stop_a_loop_from_running_are_refused(estimator, params, name):
    X, y = dense_masked_problem()
    with pytest.raises(ValueError, match=name):
        estimator(**params).fit(X, y)


def test_raw_plus_minus_one_labels_are_refused_with_the_way_out():
    X, y = dense_masked_problem()
    raw = np.where(y == 1, 1, -1)                     # every row labeled, +1/-1
    with pytest.raises(ValueError, match="mask_labels"):
        LinearSVM().fit(X, raw)
