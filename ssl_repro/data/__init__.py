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
generated.  ``availability(name)`` says, without loading, whether a dataset's
files are here, may be downloaded, or which file to put where.
"""
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ssl_repro.labels import mask_classes, mask_labels
from ssl_repro.data.files import load_svmlin_pair
from ssl_repro.data.registry import DATASETS, DatasetInfo, dataset_info, generator_key
from ssl_repro.data.splits import Split, make_split
from ssl_repro.data.cache import DatasetNotAvailable, data_root
from ssl_repro.data.sources import Availability, availability


@dataclass(frozen=True)
class Dataset:
    """Rows ``X`` (CSR float64, sorted indices, no bias column), the truth ``y`` (int8 +1/-1;
    0 marks rows of unknown label: the unlabeled rows of an ``svmlin`` pair or of an svmlight
    file with 0 labels; a K-class set's, ``info.n_classes`` > 2, the class numbers 0..K-1), where it
    came from, and its metadata.

    ``y`` is the truth the splits and the scores use, not labels for ``fit``:
    :meth:`fit_labels` gives those in the ``fit`` convention of :mod:`ssl_repro.labels`."""

    name: str
    X: sp.csr_matrix
    y: np.ndarray
    source: str
    info: DatasetInfo

    def fit_labels(self, labeled=None):
        """Labels for an estimator's ``fit``: class 1 for +1, 0 for -1, -1 (unlabeled) for the rows
        of unknown label and for every row outside ``labeled`` (a mask or indices; default: all known);
        a K-class set's class numbers as they are (:func:`~ssl_repro.labels.mask_classes`)."""
        if self.info.n_classes > 2:
            return mask_classes(self.y, np.arange(self.y.size) if labeled is None else labeled)
        known = self.y != 0
        if labeled is not None:
            keep = np.zeros_like(known)
            keep[labeled] = True
            known &= keep
        return mask_labels(self.y, known)


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
    X, y, source = info.loader(name, data_root(root), download, paths)
    return Dataset(name, X, np.asarray(y, dtype=np.int8), source, info)


__all__ = ["DATASETS", "Availability", "Dataset", "DatasetInfo", "DatasetNotAvailable", "Split", "data_root",
           "availability", "dataset_info", "generator_key", "load_dataset", "load_svmlin_pair", "make_split"]
