""""Converged" on a much worse answer is said: DA whose beliefs settle at its first
temperature, and a semi-supervised answer with every unlabeled row in one class, are flagged in the
diagnostics (``suspect``) and warned about (:class:`ssl_repro.solvers.SuspectSolutionWarning`)."""
import warnings

import numpy as np
import pytest

from ssl_repro.data import load_dataset, make_split
from ssl_repro.estimators import LinearDA, LinearTSVM, mask_labels
from ssl_repro.solvers import SuspectSolutionWarning


@pytest.fixture(scope="module")
def split9():
    """text-like's split 9, 64 labeled rows, 500 unlabeled: (X for fit, labels for fit, r)."""
    ds = load_dataset("text-like")
    s = make_split(ds, 9, 64, n_unlabeled=500)
    rows = np.r_[s.labeled, s.unlabeled]
    return ds.X[rows], mask_labels(ds.y[rows], np.arange(s.labeled.size)), s.r


def fit(estimator, X, y):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        estimator.fit(X, y)
    return estimator.diagnostics_, [w for w in caught if issubclass(w.category, SuspectSolutionWarning)]


def test_da_that_runs_one_temperature_is_flagged_and_is_worse_than_annealing(split9):
    X, y, r = split9
    annealed, quiet = fit(LinearDA(r=r), X, y)
    cold, said = fit(LinearDA(r=r, T0=1e-8), X, y)
    assert annealed.suspect == [] and not quiet and len(annealed.temperatures) > 1
    assert cold.converged and cold.stop_reason == "tolerance" and len(cold.temperatures) == 1
    assert cold.suspect == ["one_temperature"] and len(said) == 1 and "no annealing took place" in str(said[0].message)
    # the flag is deserved: Eqn 18's J of the one-temperature answer is well above the annealed one's
    assert cold.objective > 1.3 * annealed.objective


@pytest.mark.parametrize("estimator", [LinearDA, LinearTSVM])
def test_an_answer_with_every_unlabeled_row_in_one_class_is_flagged(split9, estimator):
    X, y, r = split9
    info, said = fit(estimator(r=r), X * 1e-150, y)       # w.x is below rounding: the bias alone decides
    assert info.suspect == ["one_class"] and len(said) == 1
    assert "every unlabeled row is predicted" in str(said[0].message)


def test_da_with_a_huge_lambda_is_not_blamed_on_identical_rows(split9):
    X, y, r = split9
    with pytest.warns(Warning) as caught:
        LinearDA(r=r, lam=1e300).fit(X, y)
    text = " ".join(str(w.message) for w in caught)
    assert "identical unlabeled rows" not in text and "w is nearly 0" in text and "lower lam" in text
