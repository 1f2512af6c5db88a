"""Keys computed from the data a record was made from: a digest of the arrays themselves, not of settings.

A job's record carries two keys (:func:`dataset_key`, :func:`split_key`): a digest of the matrix ``X`` and the
truth ``y`` its dataset loaded as, and a digest of its split's labeled, unlabeled and test row numbers.  Any
setting that changes what was trained or tested on changes one of them, whatever the setting is: the groups
of a 20 Newsgroups task, the parts removed, the vectorizer's settings (``min_df`` included), the sizes l + u
and t, a generator's parameters, a split's seed.  A script's record carries the dataset keys of the data it
names (``data_keys``: name -> key).  A record made from no dataset (a drawing, a machine benchmark) carries
:data:`NOT_FROM_DATA` in the same field.

:class:`TodaysKeys` recomputes the keys from the data as this checkout loads them today, for
``paper_artifacts.py report --check``: a record whose keys differ was made from other data.
"""
import hashlib

import numpy as np
import scipy.sparse as sp

from ssl_repro.data.splits import make_split

#: The mark of a record not made from a dataset (a drawing, a machine benchmark), in the key's own field.
NOT_FROM_DATA = "not from a dataset"

#: The fields a JSON record keys itself with (``keyed_at``: the commit that keyed a record made before jobs
#: stamped keys); a reader that walks a record's entries leaves them out (:func:`without_keys`).
KEY_FIELDS = ("data_keys", "keyed_at")


def without_keys(record):
    """A JSON record (a mapping of entries) less its :data:`KEY_FIELDS`."""
    return {k: v for k, v in record.items() if k not in KEY_FIELDS}


def array_digest(*arrays):
    """A 16-hex-digit BLAKE2b digest of ``arrays`` (dense or sparse), of their shapes, dtypes and values: a
    sparse matrix is digested as CSR with sorted, summed indices, so a matrix given as COO or with unsorted
    indices has its CSR's key.  The dtypes are part of the key (a float32 copy, or int64 indices where scipy
    chose int32, has another key): a key can only tell apart too much (the check then asks for a re-run that
    changes nothing), never miss a change of values."""
    h = hashlib.blake2b(digest_size=8)
    for a in arrays:
        if sp.issparse(a):
            a = sp.csr_matrix(a, copy=True) if not (sp.isspmatrix_csr(a) and a.has_canonical_format) else a
            a.sum_duplicates()
            parts = (("csr", a.shape), a.data, a.indices, a.indptr)
        else:
            a = np.ascontiguousarray(a)
            parts = (("dense", a.shape), a)
        for part in parts:
            if isinstance(part, tuple):
                h.update(repr(part).encode())
            else:
                h.update(f"{part.dtype.str}{part.shape}".encode())
                h.update(np.ascontiguousarray(part).view(np.uint8))
    return h.hexdigest()


def matrix_key(X, y):
    """The key of a dataset's rows ``X`` and truth ``y`` (:func:`array_digest`; ``y`` as int8 +1/-1/0, so the
    same labels held as another integer type have one key)."""
    return array_digest(X, np.asarray(y).astype(np.int8))


def dataset_key(dataset):
    """The key of a loaded :class:`~ssl_repro.data.Dataset`: :func:`matrix_key` of its ``X`` and ``y``."""
    return matrix_key(dataset.X, dataset.y)


def data_keys(used):
    """A script record's ``data_keys``: ``{name: key}`` of each dataset in ``used``, a mapping of the name the
    record gives it (a registry name or one of ``experiments/data_keys.py``'s ``SCRIPT_SETS``) to the data the
    script trained and tested on: a loaded :class:`~ssl_repro.data.Dataset` (:func:`dataset_key`) or its
    ``(X, y)`` (:func:`matrix_key`).  Stamp the arrays as they were loaded (``dataset.X``, not a copy in
    another format: a dense and a sparse matrix of one set have two keys)."""
    return {name: dataset_key(data) if hasattr(data, "X") else matrix_key(*data) for name, data in used.items()}


def split_key(split):
    """The key of a :class:`~ssl_repro.data.Split`: a digest of its labeled, unlabeled and test rows."""
    return array_digest(np.asarray(split.labeled, np.int64), np.asarray(split.unlabeled, np.int64),
                        np.asarray(split.test, np.int64))


class TodaysKeys:
    """The keys of today's data, each dataset loaded once: ``loaders`` maps a name to a function returning its
    (X, y) (scripts' own data, e.g. 002's ``g50c``), every other name is loaded by ``load`` (a function of the
    name returning a :class:`~ssl_repro.data.Dataset`, e.g. :func:`~ssl_repro.data.load_dataset` without
    download).  A name that cannot be loaded gives the loader's message instead of a key (:meth:`problem`)."""

    def __init__(self, load, loaders=None):
        self.load, self.loaders = load, dict(loaders or {})
        self._datasets, self._keys, self._problems = {}, {}, {}

    def dataset(self, name):
        """The :class:`~ssl_repro.data.Dataset` ``name`` (None for a script's own data or when it cannot be
        loaded: :meth:`problem` says why)."""
        self.key(name)
        return self._datasets.get(name)

    def key(self, name):
        """Today's dataset key of ``name``, or None when its data cannot be loaded here."""
        if name not in self._keys and name not in self._problems:
            try:
                if name in self.loaders:
                    self._keys[name] = matrix_key(*self.loaders[name]())
                else:
                    self._datasets[name] = self.load(name)
                    self._keys[name] = dataset_key(self._datasets[name])
            except (OSError, ValueError) as problem:     # missing files (DatasetNotAvailable), unknown names
                self._problems[name] = str(problem).splitlines()[0] if str(problem) else type(problem).__name__
        return self._keys.get(name)

    def problem(self, name):
        """Why ``name``'s key could not be computed (None when it could)."""
        self.key(name)
        return self._problems.get(name)

    def split_key(self, name, seed, n_labeled, n_unlabeled):
        """Today's :func:`split_key` of split ``seed`` of dataset ``name`` with ``n_labeled`` labeled and
        ``n_unlabeled`` unlabeled rows (a job's recorded sizes give the rows it drew: an explicit count equal
        to every remaining row draws the same rows as none), or None where the split cannot be drawn."""
        dataset = self.dataset(name)
        if dataset is None:
            return None
        try:
            return split_key(make_split(dataset, int(seed), int(n_labeled), int(n_unlabeled)))
        except (TypeError, ValueError):
            return None
