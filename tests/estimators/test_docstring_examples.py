"""Every public estimator has numpydoc sections (as scikit-learn's semi_supervised module) and runnable Examples."""
import doctest

import pytest

import ssl_repro.estimators.comparison
import ssl_repro.estimators.kernel
import ssl_repro.estimators.linear
from ssl_repro.harness.methods import METHODS

SECTIONS = ("Parameters\n    ----------", "Attributes\n    ----------", "References\n    ----------",
            "Examples\n    --------")


@pytest.mark.parametrize("name", sorted(METHODS))
def test_every_estimator_of_the_method_table_has_the_numpydoc_sections(name):
    doc = METHODS[name].estimator_class.__doc__
    positions = [doc.find(section) for section in SECTIONS]
    assert -1 not in positions and positions == sorted(positions), name


@pytest.mark.parametrize("module", [ssl_repro.estimators.linear, ssl_repro.estimators.comparison, ssl_repro.estimators.kernel])
def test_the_examples_run_and_print_what_they_show(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted >= 9 * len(
        [m for m in METHODS.values() if m.estimator_class.__module__ == module.__name__])
