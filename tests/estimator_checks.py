"""scikit-learn's estimator checks on the methods of the table (``tests/estimators/test_estimators.py``,
``tests/kernel/test_kernel_cccp.py``): a semi-supervised estimator hides some labels before fitting, and a slow
method gets quick settings.  A module of its own on the tests' path (``pyproject.toml``), so that each test folder
runs alone."""
import numpy as np

from ssl_repro.harness.methods import METHODS


class _HidingLabels:
    """Test-only mixin: hides every third training label (y = -1) before fitting.

    scikit-learn's checks fit on fully labeled data, which a semi-supervised
    method rejects by design; hiding labels lets the same checks exercise
    everything else (cloning, params, pickling, shapes, sparse input...).
    """

    def fit(self, X, y):
        y = np.asarray(y)
        if np.issubdtype(y.dtype, np.number) and not np.any(y == -1) and y.shape[0] >= 6:
            y = y.copy()
            hidden = np.arange(y.shape[0]) % 3 == 2
            _, first = np.unique(y, return_index=True)
            hidden[first] = False               # every class keeps a labeled row (K classes too)
            y[hidden] = -1
        return super().fit(X, y)


#: Settings that keep scikit-learn's checks quick (the checks fit each estimator dozens of times).
QUICK_SETTINGS = {"tsvm": {"switches": "max"}, "da": {"max_outer": 5}, "nabla_tsvm": {"steps": 2},
                  "cccp_tsvm": {"max_iter": 5}}


def checked_estimator(name):
    """The estimator of method ``name`` of the table, a semi-supervised one hiding labels before fitting."""
    entry = METHODS[name]
    cls = entry.estimator_class
    if entry.semi_supervised:
        checked = f"Checked{cls.__name__}"
        if checked not in globals():     # a module attribute, so that the pickling checks find the class
            globals()[checked] = type(checked, (_HidingLabels, cls), {"__module__": __name__})
        cls = globals()[checked]
    return cls(**QUICK_SETTINGS.get(name, {}))
