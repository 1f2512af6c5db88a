"""Datasets of the papers, loaded for real, and split as the papers did.

``load_dataset(name)`` returns a :class:`Dataset` (CSR float64 rows without
a bias column, +1/-1 labels); ``make_split(dataset, seed, n_labeled)`` the
labeled/unlabeled/test rows of split ``seed``.  Metadata (lambda', r, label
grids, split sizes) is in :data:`DATASETS`.  Files live under
:func:`data_root` (argument, ``$SSL_REPRO_DATA``, or scikit-learn's data
home); each loader downloads what is missing when allowed, and otherwise
raises :class:`DatasetNotAvailable` naming the file, the folder and the URL.

Sources: aut-avn and real-sim from the SRAA tarball ``sraa/sraa.tar.gz``
(real-sim also from LIBSVM's ``sraa/real-sim.bz2``); ccat, gcat, full-ccat,
full-gcat from scikit-learn's RCV1 cache ``RCV1/``; pcmac from 20 Newsgroups
``20newsgroups/20news-bydate_py3.pkz``; kdd99 and kdd99-10 from
``kddcup99/kddcup.data.gz`` and ``kddcup99/kddcup.data_10_percent.gz``;
33-vs-36 from ``33-vs-36/33-vs-36.svmlight`` (user-supplied); ``synthetic-<name>``
(aut-avn, real-sim, ccat, gcat, 33-vs-36, full-ccat, full-gcat) are generated
text-like stand-ins of those datasets' shapes, SYNTHETIC, for the experiments
that cannot use the real data here (cached like the loaded sets); ``svmlight``
from ``path=`` (a user's svmlight/LIBSVM file); ``svmlin`` from
``examples=`` and ``labels=`` (the reference software's two files; rows
labelled 0 are the unlabeled rows); text-like, g50c, 2moons, 2circles are
generated.
"""
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..labels import mask_labels
from .embedded import GENERATORS, standin_parameters, synthetic_like
from .files import load_33_vs_36, load_libsvm_real_sim, load_svmlin_pair, read_svmlight, read_svmlin_pair
from .kdd99 import load_kdd99
from .rcv1 import TOPIC, load_rcv1
from .registry import DATASETS, DatasetInfo, dataset_info
from .splits import Split, make_split
from .store import DatasetNotAvailable, cached, data_root, parameters_key
from .text import load_pcmac, load_sraa


@dataclass(frozen=True)
class Dataset:
    """Rows ``X`` (CSR float64, sorted indices, no bias column), the truth ``y`` (int8 +1/-1;
    0 marks rows of unknown label: the unlabeled rows of an ``svmlin`` pair or of an svmlight
    file with 0 labels), where it came from, and its metadata.

    ``y`` is the truth the splits and the scores use, not labels for ``fit``:
    :meth:`fit_labels` gives those in the estimators' convention."""

    name: str
    X: sp.csr_matrix
    y: np.ndarray
    source: str
    info: DatasetInfo

    def fit_labels(self, labeled=None):
        """Labels for an estimator's ``fit``: class 1 for +1, 0 for -1, -1 (unlabeled) for the rows
        of unknown label and for every row outside ``labeled`` (a mask or indices; default: all known)."""
        known = self.y != 0
        if labeled is not None:
            keep = np.zeros_like(known)
            keep[labeled] = True
            known &= keep
        return mask_labels(self.y, known)


def _embedded(generate):
    """(X as sorted CSR float64, y, "embedded") of a generator of :mod:`.embedded`."""
    X, y = generate()
    X = sp.csr_matrix(X, dtype=np.float64)
    X.sort_indices()
    return X, y, "embedded"


def generator_key(name):
    """For a ``synthetic-`` stand-in, a short hash of its generator's parameters (its cache file's
    and its jobs' result folders' key: other parameters, other data); None for any other dataset."""
    if not name.startswith("synthetic-"):
        return None
    return parameters_key(standin_parameters(name[len("synthetic-"):]))


def _load_real_sim(root, download):
    """real-sim from the SRAA tarball if present (or if nothing is and downloads are allowed),
    else from LIBSVM's real-sim.bz2 (whose error, if it is missing too, names both)."""
    tarball, libsvm = root / "sraa" / "sraa.tar.gz", root / "sraa" / "real-sim.bz2"
    if tarball.exists() or (download and not libsvm.exists()):
        return load_sraa("real-sim", root, download)
    return load_libsvm_real_sim(root, download)


def load_dataset(name, root=None, download=True, **paths):
    """Load dataset ``name`` (see :data:`DATASETS`).

    ``paths``: ``path=`` for ``svmlight`` and (optionally) ``33-vs-36``;
    ``examples=`` and ``labels=`` for ``svmlin``.
    """
    info = dataset_info(name)
    unknown = set(paths) - {"path", "examples", "labels"}
    if unknown:
        raise TypeError(f"load_dataset got unknown argument(s) {', '.join(sorted(unknown))}; "
                        f"files are given as path= (svmlight, 33-vs-36) or examples= and labels= (svmlin)")
    root = data_root(root)
    if name in GENERATORS:
        X, y, source = _embedded(GENERATORS[name])
    elif name.startswith("synthetic-"):     # generated once per data root (full-ccat size: a minute)
        X, y, source = cached(root, f"{name}-{generator_key(name)}",
                              lambda: _embedded(synthetic_like(name[len("synthetic-"):])))
    elif name == "pcmac":
        X, y, source = load_pcmac(root, download)
    elif name in ("kdd99", "kdd99-10"):
        X, y, source = load_kdd99(name, root, download)
    elif name in TOPIC:
        X, y, source = load_rcv1(name, root, download)
    elif name == "aut-avn":
        X, y, source = load_sraa(name, root, download)
    elif name == "real-sim":
        X, y, source = _load_real_sim(root, download)
    elif name == "33-vs-36":
        X, y, source = load_33_vs_36(root, paths.get("path"))
    elif name == "svmlight":
        if "path" not in paths:
            raise ValueError("dataset 'svmlight' needs path= (an svmlight/LIBSVM file)")
        X, y = read_svmlight(paths["path"], name)
        source = str(paths["path"])
    else:  # svmlin
        if "examples" not in paths or "labels" not in paths:
            raise ValueError("dataset 'svmlin' needs examples= and labels= (the reference software's files)")
        X, y = read_svmlin_pair(paths["examples"], paths["labels"])
        source = f"{paths['examples']} + {paths['labels']}"
    return Dataset(name, X, np.asarray(y, dtype=np.int8), source, info)


__all__ = ["DATASETS", "Dataset", "DatasetInfo", "DatasetNotAvailable", "Split", "data_root",
           "dataset_info", "generator_key", "load_dataset", "load_svmlin_pair", "make_split"]
