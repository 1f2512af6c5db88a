"""A careless user's fits: what would run silently wrong, or for hours, is said at once.  One row per case."""
import re
import time
import warnings

import numpy as np
import pytest

from ssl_repro.estimators import KernelCCCPTSVM, KernelDA, SelfTraining, TunedLinearSVM, TunedLogisticRegression
from ssl_repro.solvers import SuspectSolutionWarning


def two_labels(n=60, seed=0):
    """Two Gaussian classes, one labeled row of each: every fold of a leave-one-out trains on one class."""
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(size=(n // 2, 3)) + 2, rng.normal(size=(n // 2, 3)) - 2]
    y = np.full(n, -1)
    y[0], y[n // 2] = 1, 0
    return X, y


@pytest.mark.parametrize("estimator", [TunedLinearSVM(), TunedLogisticRegression(), SelfTraining()])
def test_a_cross_validation_that_cannot_tell_lambda_apart_is_warned_and_recorded(estimator, shown):
    X, y = two_labels()
    with pytest.warns(SuspectSolutionWarning, match=r"cross-validation on 2 labeled rows cannot tell the lambda grid "
                                                     r"apart \(every value's held-out error is 1\.00\), so "
                                                     r"lambda=0\.001 is the tie-break.*at least 5 of each class") as caught:
        estimator.fit(X, y)
    shown(f"{estimator!r}.fit(X, y)   (60 rows, one labeled of each class)",
          "\n".join(str(w.message) for w in caught if issubclass(w.category, SuspectSolutionWarning)))
    assert estimator.diagnostics_.suspect == ["cv_untold"] and estimator.lam_ == 1e-3


def test_a_tie_on_enough_labels_is_flagged_without_asking_for_more_labels(shown):
    """Ten labeled rows of each class, far apart: every lambda's held-out error is 0, a tie that more labels would
    not break; the warning names the grid and the tie-break instead."""
    X, y = two_labels()
    y[[1, 2, 3, 4, 5, 6, 7, 8, 9, 31, 32, 33, 34, 35, 36, 37, 38, 39]] = [1] * 9 + [0] * 9
    X = X + np.where(np.arange(60) < 30, 8.0, -8.0)[:, None]       # separable by a wide margin
    with pytest.warns(SuspectSolutionWarning) as caught:
        model = TunedLinearSVM().fit(X, y)
    [message] = [str(w.message) for w in caught if issubclass(w.category, SuspectSolutionWarning)]
    shown("TunedLinearSVM().fit(X, y)   (ten labeled rows of each class, far apart)", message)
    assert re.search(r"cross-validation on 20 labeled rows cannot tell the lambda grid apart \(every value's "
                     r"held-out error is 0\.00\).*every value fits these rows alike: give lams a wider grid, or set "
                     r"lam \(the tie-break\)", message), message
    assert "label more rows" not in message and model.diagnostics_.suspect == ["cv_untold"]


def test_a_cross_validation_that_tells_lambda_apart_is_not_flagged():
    X, y = two_labels()
    y[[1, 2, 3, 4, 5, 31, 32, 33, 34, 35]] = [1] * 5 + [0] * 5
    y[5], y[35] = 0, 1                  # a mislabeled row of each class: some lambda values err more
    with warnings.catch_warnings():
        warnings.simplefilter("error", SuspectSolutionWarning)
        model = TunedLinearSVM().fit(X, y)
    assert len(set(model.diagnostics_.cv_errors)) > 1 and model.diagnostics_.suspect == []


@pytest.mark.parametrize("estimator, message", [
    (KernelCCCPTSVM(lam=1e-2), r"KernelCCCPTSVM: 100000 training rows exceed the kernel methods' limit of "
                               r"max_rows=20000: its SMO evaluates of the order of n\^2 = 1\.0e\+10 kernel entries"),
    (KernelDA(), r"KernelDA: 100000 training rows exceed the kernel methods' limit of max_rows=10000: they build"),
])
def test_a_kernel_fit_above_its_row_limit_is_refused_at_once(estimator, message, shown):
    X = np.random.default_rng(0).random((100_000, 10))
    y = np.full(100_000, -1)
    y[:2] = [0, 1]
    started = time.perf_counter()
    with pytest.raises(ValueError, match=message) as caught:
        estimator.fit(X, y)
    assert time.perf_counter() - started < 5
    shown(f"{estimator!r}.fit(X, y)   (100,000 x 10 dense)", caught.value)
