"""Labels {-1, 0, +1}: scikit-learn's reading (-1 = unlabeled) is kept, and labels in the reference
software's convention (0 = unlabeled, on most rows) are named with the conversion."""
import warnings

import numpy as np
import pytest

from ssl_repro.estimators.comparison import LinearCCCPTSVM, LinearNablaTSVM
from ssl_repro.estimators import LinearDA, LinearRLS, LinearSVM, LinearTSVM, mask_labels
from ssl_repro.estimators.kernel import KernelDA, KernelJTSVM, KernelNablaTSVM
from ssl_repro.labels import LabelConventionWarning

ESTIMATORS = [LinearSVM, LinearRLS, LinearTSVM, LinearDA, LinearNablaTSVM, LinearCCCPTSVM,
              KernelDA, KernelJTSVM, KernelNablaTSVM]


def svmlin_labelled(n=80, n_labeled=12, seed=0):
    """Two Gaussian classes; labels in the reference software's convention: +1/-1 on the first
    ``n_labeled`` rows, 0 (unlabeled) on the others."""
    rng = np.random.default_rng(seed)
    truth = np.where(np.arange(n) % 2 == 0, 1, -1)
    X = rng.normal(size=(n, 3)) + 1.5 * truth[:, None]
    y = np.zeros(n, dtype=np.int64)
    y[:n_labeled] = truth[:n_labeled]
    return X, y


@pytest.mark.parametrize("estimator", ESTIMATORS)
def test_reference_software_labels_are_named_with_the_conversion(estimator):
    X, y = svmlin_labelled()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.warns(LabelConventionWarning, match=r"0 on 68 of 80 rows.*y = mask_labels\(y, y != 0\)"):
            estimator().fit(X, y)


@pytest.mark.parametrize("estimator", ESTIMATORS)
def test_the_converted_labels_and_scikit_learns_encoding_fit_without_that_warning(estimator):
    X, y = svmlin_labelled()
    converted = mask_labels(y, y != 0)
    assert sorted(np.unique(converted).tolist()) == [-1, 0, 1]        # the same three values, other reading
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.simplefilter("error", LabelConventionWarning)
        estimator().fit(X, converted)


def test_the_warning_names_both_readings_and_how_to_silence_it():
    X, y = svmlin_labelled()
    with pytest.warns(LabelConventionWarning) as record:
        LinearSVM().fit(X, y)
    message = str(record[0].message)
    assert "-1 marks the 6 unlabeled rows" in message and "0 marks the unlabeled rows" in message
    assert "LabelConventionWarning" in message


def test_float_labels_read_from_a_file_are_named_too():
    X, y = svmlin_labelled()
    with pytest.warns(LabelConventionWarning):
        LinearSVM().fit(X, y.astype(np.float64))
