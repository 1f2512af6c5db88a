"""scikit-learn's plain ``check_estimator`` on every exported estimator, as a scikit-learn user runs it: no
wrapper, so a fully labeled y reaches each semi-supervised method, which fits the supervised problem and says
so (:class:`~ssl_repro.estimators.NoUnlabeledRowsWarning`, asserted in tests/estimators/test_fully_labeled.py).
The wrapper's checks (tests/estimators/test_estimators.py) reach the semi-supervised paths."""
import inspect

import pytest
from sklearn.base import BaseEstimator
from sklearn.utils.estimator_checks import check_estimator

import ssl_repro.estimators
from estimator_checks import PLAIN_EXPECTED_FAILURES, plain_estimators

CASES = plain_estimators()


def test_the_plain_checks_cover_every_exported_estimator():
    exported = {cls for cls in (getattr(ssl_repro.estimators, name) for name in ssl_repro.estimators.__all__)
                if inspect.isclass(cls) and issubclass(cls, BaseEstimator)}
    assert {type(estimator) for estimator in CASES.values()} == exported
    assert len(PLAIN_EXPECTED_FAILURES) <= 2


@pytest.mark.slow   # scikit-learn's whole suite per estimator (dozens of fits each)
# Warnings the checks provoke on purpose, each true of their data: every fit on their fully labeled y says it
# fits the supervised problem; the tuned baselines' cross-validation ties on the checks' small blobs.
@pytest.mark.filterwarnings("ignore:\\w+. y marks no row unlabeled:ssl_repro.estimators.NoUnlabeledRowsWarning")
@pytest.mark.filterwarnings("ignore:\\w+. cross-validation on \\d+ labeled rows cannot tell the lambda grid apart"
                            ":ssl_repro.solvers.SuspectSolutionWarning")
@pytest.mark.parametrize("name", sorted(CASES))
def test_plain_check_estimator(name):
    results = check_estimator(CASES[name], expected_failed_checks=PLAIN_EXPECTED_FAILURES)
    failed = [r["check_name"] for r in results if r["status"] == "failed"]
    assert not failed
    assert {r["check_name"] for r in results if r["status"] == "xfail"} <= set(PLAIN_EXPECTED_FAILURES)
