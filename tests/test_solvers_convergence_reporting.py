"""Every solver says when it stopped on a cap: ``converged`` and ``stop_reason`` in its diagnostics
and scikit-learn's ConvergenceWarning (issue 10), and says nothing when it converged."""
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from solver_problems import dense_masked_problem
from ssl_repro.estimators import LinearCCCPTSVM, LinearDA
from ssl_repro.solvers import SolverInfo, from_blocks
from ssl_repro.solvers.info import NEWTON_CAP, fixed_cap
from ssl_repro.solvers.nabla import nabla_tsvm
from ssl_repro.solvers.tsvm import tsvm


def test_da_with_a_hot_start_on_the_outer_cap_says_so():
    X, y = dense_masked_problem()
    with pytest.warns(ConvergenceWarning, match="max_outer"):
        model = LinearDA(T0=1e8).fit(X, y)
    d = model.diagnostics_.as_dict()
    assert d["converged"] is False and d["stop_reason"] == "max_outer"
    assert model.coef_ is not None and np.all(np.isfinite(model.coef_))


def test_da_cap_advice_is_a_larger_parameter_value_that_changes_the_outcome():
    X, y = dense_masked_problem()
    with pytest.warns(ConvergenceWarning, match=r"max_outer reached 1 time: set max_outer=60 \(now 30\)$"):
        capped = LinearDA(T0=1e8).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        advised = LinearDA(T0=1e8, max_outer=60).fit(X, y)
    assert advised.diagnostics_.converged and advised.diagnostics_.objective < capped.diagnostics_.objective


def test_da_on_all_zero_rows_gives_no_advice_since_none_helps():
    X, y = dense_masked_problem()
    with pytest.warns(ConvergenceWarning) as record:
        LinearDA().fit(np.zeros_like(X), y)
    message = str(record[0].message)
    assert "no setting helps: the unlabeled rows' outputs are all equal" in message and "set " not in message


@pytest.mark.parametrize("hints", [
    {"max_newton_iter": NEWTON_CAP}, {"optimize_p_max_iter": fixed_cap("500 iterations of OPTIMIZE-P, Table 6")}])
def test_caps_no_parameter_sets_are_named_without_pointing_at_a_module_constant(hints):
    info = SolverInfo("da")
    info.inner_cap(next(iter(hints)))
    with pytest.warns(ConvergenceWarning) as record:
        info.warn_if_capped(hints)
    message = str(record[0].message)
    assert "not a parameter" in message and "ssl_repro." not in message and "raise" not in message


def test_da_that_converges_says_so_without_a_warning():
    X, y = dense_masked_problem()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = LinearDA().fit(X, y)
    assert model.diagnostics_.as_dict()["converged"] is True
    assert model.diagnostics_.stop_reason == "tolerance"


def test_cccp_on_its_iteration_cap_says_so():
    X, y = dense_masked_problem()
    with pytest.warns(ConvergenceWarning, match=r"max_iter reached 1 time: set max_iter=2 \(now 1\)"):
        model = LinearCCCPTSVM(max_iter=1).fit(X, y)
    assert model.diagnostics_.converged is False and model.diagnostics_.stop_reason == "max_iter"


def test_nabla_lbfgs_cap_says_so():
    X, y = dense_masked_problem()
    prob = from_blocks(X[:10], np.where(y[:10] == 1, 1.0, -1.0), X[10:])
    with pytest.warns(ConvergenceWarning, match="lbfgs_max_iter"):
        _, info = nabla_tsvm(prob, 1e-3, 1.0, 0.5, steps=2, max_iter=1)
    assert info.converged is False and info.capped["lbfgs_max_iter"] >= 1


def test_tsvm_switch_rounds_are_capped_and_reported():
    X, y = dense_masked_problem(n=200)
    prob = from_blocks(X[:10], np.where(y[:10] == 1, 1.0, -1.0), X[10:])
    _, free = tsvm(prob, 1e-3, 1.0, 0.5, lam_u_start=1.0)
    assert free.converged and free.switches > 1            # several rounds needed at lambda' = 1
    with pytest.warns(ConvergenceWarning, match=r"max_switch_rounds reached 1 time: set max_switch_rounds=2 \(now 1\)"):
        _, capped = tsvm(prob, 1e-3, 1.0, 0.5, lam_u_start=1.0, max_switch_rounds=1)
    assert capped.converged is False and capped.stop_reason == "max_switch_rounds"
    assert capped.switches == 1
