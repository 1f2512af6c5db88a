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

**The same data, the same key, on every machine** (decision, 2026-12-07).  A key must tell apart any change
a setting makes and nothing else, so it digests the integers exactly (shapes, CSR column indices and row
pointers, labels, split rows) and every float64 value rounded to :data:`SIGNIFICANT_BITS` significant bits
(float32's precision; :func:`rounded_bits`).  Why rounded: the same computation on two processors can differ
in the last bits (numpy's SIMD logarithms, a sum in another order: :mod:`ssl_repro.utils.tf_idf`), and a
digest of the raw bits then calls equal data other data on every other machine.  Why 24 bits: the rounding
step is 2^29 units in the last place, so a value moved by one unit crosses a rounding boundary with
probability about 2^-29 (a set of a million drifted values keeps its key with probability 0.998); and it is
far finer than any change a setting makes: a dropped document moves 20 Newsgroups' idf weights by about
1/18,846 (2^-14), a changed ``min_df`` or generator parameter changes the integers, a float32 copy has
another dtype, which the key includes.  The generated sets are besides computed the same to the bit on every
processor (:func:`ssl_repro.utils.tf_idf.tf_idf_rows`), so their keys do not rest on the rounding at all.

The committed records were keyed again with this key, not refitted (2026-12-07): each of the 25 sets they
name was loaded by the code of 84466c8 (whose keys the records carried, on the AVX-512 machine that made
them) and by this code.  20 Newsgroups, pcmac, kdd99-10, digits, mnist-5k and the toy sets are the same to
the bit; the generated sets (the stand-ins, text20k) have the same integers and values within 7 units in the
last place (numpy's logarithms against correctly rounded ones, 30-43% of the values), and this key of the old
arrays equals this key of the new ones for every set.  Each record's old key was then replaced by the new one.
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


#: The significant bits of a float64 value that a key digests (module doc): float32's precision.
SIGNIFICANT_BITS = 24

#: How a key digests float64 values (part of what a cached key was made from, :mod:`.key_cache`).  Integer
#: arrays are digested as before this rounding, so split keys, all integers, kept their values.
KEY_SCHEME = f"values rounded to {SIGNIFICANT_BITS} significant bits"


def rounded_bits(values):
    """The bits of float64 ``values`` rounded to :data:`SIGNIFICANT_BITS` significant bits (to nearest, ties
    away from zero; the exponent kept whole, so no value overflows or underflows), -0.0 as 0.0 and every NaN
    as one NaN: an array of little-endian unsigned integers, equal for values that differ only in their last bits."""
    values = np.where(np.isnan(values), np.nan, values + 0.0)     # + 0.0: -0.0 becomes 0.0
    dropped = 52 - (SIGNIFICANT_BITS - 1)
    rounded = (values.view(np.uint64) + np.uint64(1 << (dropped - 1))) >> np.uint64(dropped)
    return rounded.astype("<u8")


def array_digest(*arrays):
    """A 16-hex-digit BLAKE2b digest of ``arrays`` (dense or sparse), of their shapes, dtypes and values: a
    sparse matrix is digested as CSR with sorted, summed indices, so a matrix given as COO or with unsorted
    indices has its CSR's key.  Integers are digested exactly, float64 values rounded (:func:`rounded_bits`,
    module doc), other floats exactly.  The dtypes are part of the key (a float32 copy, or int64 indices where
    scipy chose int32, has another key): a key can only tell apart too much (the check then asks for a re-run
    that changes nothing), never miss a change a setting makes."""
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
                part = np.ascontiguousarray(part)
                h.update((rounded_bits(part) if part.dtype == np.float64 else part).view(np.uint8))
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
    download).  A name that cannot be loaded gives the loader's message instead of a key (:meth:`problem`).

    With a ``cache`` (:class:`~ssl_repro.data.key_cache.KeyCache`) and ``made_from`` (a function of the name
    returning the digest of what its data are made from, :func:`~ssl_repro.data.key_cache.made_from`), a key
    whose data were made from the same is read from the cache, and a dataset is loaded only for a key that
    is not there."""

    def __init__(self, load, loaders=None, cache=None, made_from=None):
        self.load, self.loaders = load, dict(loaders or {})
        self.cache, self.made_from = (cache, made_from) if cache is not None and made_from is not None else (None, None)
        self._datasets, self._keys, self._problems, self._digests = {}, {}, {}, {}

    def _digest(self, name, again=False):
        if again or name not in self._digests:
            self._digests[name] = self.made_from(name)
        return self._digests[name]

    def _compute(self, name):
        if name in self.loaders:
            return matrix_key(*self.loaders[name]())
        return dataset_key(self._loaded(name))

    def _loaded(self, name):
        if name not in self._datasets:
            self._datasets[name] = self.load(name)
        return self._datasets[name]

    def dataset(self, name):
        """The :class:`~ssl_repro.data.Dataset` ``name`` (None for a script's own data or when it cannot be
        loaded: :meth:`problem` says why)."""
        if name in self.loaders or self.key(name) is None:
            return None
        return self._loaded(name)

    def key(self, name):
        """Today's dataset key of ``name``, or None when its data cannot be loaded here."""
        if name not in self._keys and name not in self._problems:
            try:
                self._keys[name] = (self.cache.key(name, self._digest(name), lambda: self._compute(name),
                                                   lambda: self._digest(name, again=True))
                                    if self.cache is not None else self._compute(name))
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
        if self.key(name) is None or name in self.loaders:
            return None

        def compute():
            try:
                return split_key(make_split(self._loaded(name), int(seed), int(n_labeled), int(n_unlabeled)))
            except (TypeError, ValueError):
                return None
        if self.cache is None:
            return compute()
        return self.cache.split_key(name, self._digest(name), f"{seed}/{n_labeled}/{n_unlabeled}", compute)
