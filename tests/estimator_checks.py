"""scikit-learn's estimator checks on the methods of the table (``tests/estimators/test_estimators.py``,
``tests/kernel/test_kernel_cccp.py``): an estimator that reads the unlabeled rows hides some labels before
fitting, and a slow method gets quick settings; the plain checks (``tests/estimators/test_plain_checks.py``)
run every estimator as it is, with the quick settings only.  A module of its own on the tests' path (``pyproject.toml``), so
that each test folder runs alone."""
import numpy as np

from ssl_repro.harness.methods import METHODS


class _HidingLabels:
    """Test-only mixin: hides every third training label (y = -1) before fitting.

    scikit-learn's checks fit on fully labeled data, which a semi-supervised
    method rejects by design, and on which self-training and label spreading
    never leave the labeled rows (no round adds a pseudo-label, no label mass
    spreads); hiding labels lets the same checks run the path that reads the
    unlabeled rows, and everything else (cloning, params, pickling, shapes,
    sparse input...) on it.
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


#: The methods whose fit reads the unlabeled rows (the estimators' ``_reads_unlabeled``): the papers' kind
#: (``semi_supervised``) and the two baselines that use them otherwise (:class:`~ssl_repro.estimators.SelfTraining`'s
#: rounds, :class:`~ssl_repro.estimators.LabelSpreadingKNN`'s graph); the supervised ones ignore a row marked -1.
#: ``tests/estimators/test_estimators.py`` checks the split against each estimator's fits.
READS_UNLABELED = frozenset(name for name, entry in METHODS.items() if entry.estimator_class()._reads_unlabeled)

#: Settings that keep scikit-learn's checks quick (the checks fit each estimator dozens of times).
QUICK_SETTINGS = {"tsvm": {"switches": "max"}, "da": {"max_outer": 5}, "nabla_tsvm": {"steps": 2},
                  "cccp_tsvm": {"max_iter": 5}, "kernel_nabla_tsvm": {"steps": 2}, "kernel_cccp_tsvm": {"max_iter": 5}}

#: The checks every estimator fails under plain ``check_estimator``, with the reason (at most two each).
PLAIN_EXPECTED_FAILURES = {
    "check_classifiers_classes": "its last case fits labels -1/+1, and -1 marks an unlabeled row "
                                 "(sklearn.semi_supervised's convention); scikit-learn exempts its own "
                                 "semi-supervised classifiers from that case by their names "
                                 "(_choose_check_classifiers_labels)"}


def plain_estimators():
    """{name: estimator} for scikit-learn's plain checks (no wrapper): every method of the table, with
    :data:`QUICK_SETTINGS`, and DA's Potts option (its own K-class path) as ``da_potts``."""
    cases = {name: entry.estimator_class(**QUICK_SETTINGS.get(name, {})) for name, entry in METHODS.items()}
    cases["da_potts"] = METHODS["da"].estimator_class(multiclass="potts", **QUICK_SETTINGS["da"])
    return cases


def checked_estimator(name):
    """The estimator of method ``name`` of the table, one that reads the unlabeled rows hiding labels before
    fitting."""
    cls = METHODS[name].estimator_class
    if name in READS_UNLABELED:
        checked = f"Checked{cls.__name__}"
        if checked not in globals():     # a module attribute, so that the pickling checks find the class
            globals()[checked] = type(checked, (_HidingLabels, cls), {"__module__": __name__})
        cls = globals()[checked]
    return cls(**QUICK_SETTINGS.get(name, {}))
