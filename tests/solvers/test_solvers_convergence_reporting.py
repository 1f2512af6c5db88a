"""Every solver says when it stopped on a cap: ``converged`` and ``stop_reason`` in its diagnostics
and scikit-learn's ConvergenceWarning, and says nothing when it converged."""
import re
import time
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from solver_problems import dense_masked_problem
from ssl_repro.estimators.comparison import LinearCCCPTSVM
from ssl_repro.estimators import LinearDA, LinearTSVM
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


def advised(message, parameter):
    """The value a ConvergenceWarning's advice gives ``parameter`` ("set max_outer=68", "anneal_rate=2.552 to")."""
    return re.search(rf"{parameter}=([0-9.]+)(?: \(now| to)", message).group(1)


def fit_warning(estimator, X, y):
    """(the fitted estimator, the text of its one ConvergenceWarning)."""
    with pytest.warns(ConvergenceWarning) as record:
        model = estimator.fit(X, y)
    return model, str(record[0].message)


def fit_without_warning(estimator, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        return estimator.fit(X, y)


def test_da_cap_advice_is_a_larger_parameter_value_that_changes_the_outcome():
    X, y = dense_masked_problem()
    capped, message = fit_warning(LinearDA(T0=1e8), X, y)
    assert re.search(r"max_outer reached 1 time: the beliefs of the last outputs settle near T=.*: set max_outer=\d+ "
                     r"\(now 30\), or anneal_rate=[0-9.]+ to get there in 30$", message)
    for advice in [dict(max_outer=int(advised(message, "max_outer"))),
                   dict(anneal_rate=float(advised(message, "anneal_rate")))]:
        model = fit_without_warning(LinearDA(T0=1e8, **advice), X, y)
        assert model.diagnostics_.converged and model.diagnostics_.objective < capped.diagnostics_.objective


@pytest.mark.parametrize("anneal_rate", [1.01, 1.001])
def test_da_advice_for_a_rate_near_one_is_the_temperatures_it_needs_not_twice_the_cap(anneal_rate):
    # the advice used to be "set max_outer=60" whatever the rate: 60 temperatures at 1.001 end on the cap again
    X, y = dense_masked_problem()
    _, message = fit_warning(LinearDA(anneal_rate=anneal_rate), X, y)
    more = int(advised(message, "max_outer"))
    assert more > 60
    for advice in [dict(anneal_rate=anneal_rate, max_outer=more), dict(anneal_rate=float(advised(message, "anneal_rate")))]:
        assert fit_without_warning(LinearDA(**advice), X, y).diagnostics_.converged


def test_tsvm_growth_near_one_is_capped_in_levels_and_says_what_would_fit():
    from ssl_repro.solvers.tsvm import MAX_LEVELS
    X, y = dense_masked_problem(n=200)
    start = time.perf_counter()
    model, message = fit_warning(LinearTSVM(lam_u_growth=1 + 1e-7), X, y)      # 1.2e8 levels uncapped
    assert time.perf_counter() - start < 10
    d = model.diagnostics_
    assert d.converged is False and d.stop_reason == "max_levels"
    assert len(d.lam_u_levels) == MAX_LEVELS == model.get_params()["max_levels"] and d.lam_u_levels[-1] == 1.0
    assert re.search(r"max_levels reached 1 time: lam_u_growth=1.0000001 needs 115,129,262 lambda' levels from "
                     r"lam_u_start=1e-05 to lam_u=1; raise lam_u_growth to at least [0-9.]+, or set "
                     r"max_levels=115129263 \(now 100\)", message)
    growth = float(re.search(r"raise lam_u_growth to at least ([0-9.]+)", message).group(1))
    fitted = fit_without_warning(LinearTSVM(lam_u_growth=growth), X, y)
    assert fitted.diagnostics_.converged and len(fitted.diagnostics_.lam_u_levels) <= MAX_LEVELS
    _, few = fit_warning(LinearTSVM(lam_u_growth=1.5, max_levels=5), X, y)
    fit_without_warning(LinearTSVM(lam_u_growth=1.5, max_levels=int(advised(few, "max_levels"))), X, y)


def test_tsvm_lam_u_start_above_lam_u_is_refused_and_the_default_start_follows_a_small_lam_u():
    X, y = dense_masked_problem(n=200)
    with pytest.raises(ValueError, match=r"lam_u_start=0.5 is above lam_u=0.1: TSVM grows lambda' from lam_u_start "
                                         r"up to lam_u \(Table 4\)"):
        LinearTSVM(lam_u=0.1, lam_u_start=0.5).fit(X, y)
    assert fit_without_warning(LinearTSVM(lam_u=1e-6), X, y).diagnostics_.lam_u_levels == [1e-6]
    assert fit_without_warning(LinearTSVM(lam_u=0.1, lam_u_start=0.1), X, y).diagnostics_.lam_u_levels == [0.1]


def test_da_on_all_zero_rows_gives_no_advice_since_none_helps():
    X, y = dense_masked_problem()
    with pytest.warns(ConvergenceWarning) as record:
        LinearDA().fit(np.zeros_like(X), y)
    message = next(str(w.message) for w in record if issubclass(w.category, ConvergenceWarning))
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
