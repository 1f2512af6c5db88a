"""A small per-process cache of label spreading's neighbour searches (:class:`~ssl_repro.estimators.label_reach.ReachSpreading`).

Why: scikit-learn's ``LabelSpreading(kernel="knn")`` spends nearly all its time on two brute-force
searches over the sparse rows (8.1 of 8.2 CPU seconds on 20ng-ccat-like, 14,129 training rows: the
graph of the training rows at fit time, the test rows' neighbours among them at predict time); the
spreading itself and the hop distances take hundredths.  Neither search depends on the labels, and a
learning curve fits the same rows at 6-11 label counts of one split, one after another in one worker
process.

But not in the same order: the harness fits ``X[labeled + unlabeled]`` (each part sorted), so the
training rows are a different permutation of one set at every label count, and a key over the matrix
as stored would never hit.  The cache therefore works on the *set* of rows and maps its results
through the permutation, which is exact where the search's answer does not depend on the rows' order:

- Each distance (scikit-learn's squared Euclidean, ``||x||^2 - 2 x.y + ||y||^2`` from sparse products
  and row norms, the query's own column set to 0 when the rows are searched among themselves) is
  computed from the two rows' stored entries alone, so it is the same number in any order; and the
  ``k`` nearest, ordered by distance, are then fixed by the values, *unless two distances tie* among a
  row's ``k`` nearest or at the ``k``-th (duplicate rows, one-word documents): scikit-learn's
  ``argpartition``/``argsort`` choose among ties by position.
- So a search records, for each query row, whether its ``k`` nearest distances are strictly increasing
  and no other row lies as near as the ``k``-th ("tie-free").  A later search of the same rows in
  another order takes the tie-free rows' neighbours from the cache (renumbered) and searches the other
  rows afresh, in the new order, with scikit-learn's own distance and selection functions.  Either way
  the result is the array scikit-learn's ``NearestNeighbors.kneighbors`` returns, bit for bit (tests:
  ``tests/estimators/test_knn_cache.py``), hence the same graph, spreading, labels and test outputs.  On
  20ng-ccat-like 2.4% of the training rows and 2.5% of the test rows tie: a label count after the
  first fits in 0.19 CPU seconds instead of 4.5 (its job, test rows included, 0.6 instead of 5.5).

What is cached: the neighbour indices (``n_queries x k``, in the rows' order when first searched), the
tie flags and the order that sorts the fit rows' digests (to renumber).  The key: a digest of the *multiset* of the fit rows (each row's
blake2b over its column indices and values; the sorted row digests hashed with the column count and
dtype), the ordered digest of the query rows (or "the fit rows themselves"), ``k`` and the metric
(scikit-learn's default Minkowski p = 2, the only one ``LabelSpreading`` uses).  Digesting 14k rows
costs a few hundredths of a second against seconds of search.  Only CSR float64 rows searched by
scikit-learn's chunked brute-force path are cached; anything else (dense rows, other dtypes) goes to
scikit-learn unchanged.

The bound: at most :data:`MAX_ENTRIES` searches (least recently used dropped first), each about
``n_queries x k`` int64 plus 9 bytes a row (under 1 MB at 14k rows, k = 7): a split's graph and its
test rows' search, and the split before.  The cache belongs to the process (a sweep's worker keeps it
between jobs) and is guarded by a lock; :func:`clear` empties it, :data:`stats` counts what it did.
"""
import hashlib
import numbers
import threading
from collections import Counter, OrderedDict

import numpy as np
import scipy.sparse as sp
from sklearn.metrics import pairwise_distances_chunked
from sklearn.neighbors import NearestNeighbors
from sklearn.utils.validation import validate_data

try:            # scikit-learn's faster path, which the cache leaves alone where it applies
    from sklearn.metrics._pairwise_distances_reduction import ArgKmin
except ImportError:        # pragma: no cover - another scikit-learn: no cache
    ArgKmin = None

#: Searches kept per process (LRU): a split's graph and test search, and the previous split's.
MAX_ENTRIES = 4

#: Counts of ``hits``, ``misses``, ``rows_searched`` (fresh searches' query rows, misses and ties)
#: and ``rows_reused`` (rows taken from the cache).
stats = Counter()

_cache = OrderedDict()
_lock = threading.Lock()


def clear():
    """Empty the cache and its counts."""
    with _lock:
        _cache.clear()
        stats.clear()


def cacheable(X):
    """True for the rows the cache takes: CSR float64 (scikit-learn's chunked brute-force search)."""
    return sp.issparse(X) and X.format == "csr" and X.dtype == np.float64


def row_digests(X):
    """(n, 2) uint64: each row's blake2b (16 bytes) over its entry count, column indices and values."""
    out = np.empty((X.shape[0], 16), dtype=np.uint8)
    indptr, indices, data = X.indptr.tolist(), X.indices, X.data
    for i in range(X.shape[0]):
        a, b = indptr[i], indptr[i + 1]
        h = hashlib.blake2b(digest_size=16)
        h.update((b - a).to_bytes(8, "little"))
        h.update(indices[a:b].tobytes())
        h.update(data[a:b].tobytes())
        out[i] = np.frombuffer(h.digest(), dtype=np.uint8)
    return out.view(np.uint64)


def _set_digest(digests, X):
    """A digest of the multiset of rows (order-free) and the order that sorts ``digests``."""
    order = np.lexsort((digests[:, 1], digests[:, 0]))
    h = hashlib.blake2b(digest_size=16)
    h.update(repr((X.shape, str(X.dtype), str(X.indices.dtype))).encode())
    h.update(np.ascontiguousarray(digests[order]).tobytes())
    return h.digest(), order


def _ordered_digest(X):
    """blake2b over the shape, dtype and stored arrays of ``X`` (order-sensitive)."""
    h = hashlib.blake2b(digest_size=16)
    h.update(repr((X.shape, str(X.dtype), str(X.indices.dtype))).encode())
    for a in (X.indptr, X.indices, X.data):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.digest()


def _search(nn, query, fit_X, k, own=None):
    """scikit-learn's brute-force search of ``query``'s ``k`` nearest rows of ``fit_X`` (``nn``'s chunked
    path and selection): (indices, tied), tied True where the row's answer depends on the rows' order.
    ``own``: the position in ``fit_X`` of each query row searched among its own rows, whose distance
    is set to 0 as scikit-learn does when the query is the fit matrix itself."""

    def reduce(dist, start):
        if own is not None and query is not fit_X:
            dist[np.arange(dist.shape[0]), own[start:start + dist.shape[0]]] = 0.0
        ind = nn._kneighbors_reduce_func(dist, start, k, False)
        near = np.take_along_axis(dist, ind, axis=1)
        tied = ~np.all(np.diff(near, axis=1) > 0, axis=1)
        tied |= np.count_nonzero(dist <= near[:, -1:], axis=1) != k
        return ind, tied

    parts = list(pairwise_distances_chunked(query, fit_X, reduce_func=reduce, metric="euclidean",
                                            n_jobs=nn.n_jobs, squared=True))
    return np.vstack([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def kneighbors(nn, query, k):
    """``nn.kneighbors(query, k, return_distance=False)`` of a fitted brute-force Euclidean
    ``NearestNeighbors`` ``nn`` on CSR float64 rows, through the cache (module doc); ``query`` None: its
    own rows, searched among themselves with themselves included (``LabelSpreading``'s graph)."""
    fit_X = nn._fit_X
    own_rows = query is None
    query = fit_X if own_rows else query
    set_key, order = nn._row_set()
    key = (set_key, "own" if own_rows else _ordered_digest(query), int(k), "minkowski-2")
    with _lock:
        entry = _cache.get(key)
        if entry is not None:
            _cache.move_to_end(key)
    if entry is None:
        ind, tied = _search(nn, query, fit_X, k)
        for a in (ind, tied):
            a.setflags(write=False)             # the cache's copy; callers get their own
        with _lock:
            stats["misses"] += 1
            stats["rows_searched"] += ind.shape[0]
            _cache[key] = (ind, tied, order)
            while len(_cache) > MAX_ENTRIES:
                _cache.popitem(last=False)
        return ind.copy()
    base_ind, tied, base_order = entry
    to_new = np.empty_like(order)
    to_new[base_order] = order                  # row base_order[j] then is row order[j] now
    if own_rows:
        to_base = np.empty_like(order)
        to_base[order] = base_order
        ind = to_new[base_ind[to_base]]
        redo = np.flatnonzero(tied[to_base])
        if redo.size:
            ind[redo] = _search(nn, fit_X[redo], fit_X, k, own=redo)[0]
    else:
        ind = to_new[base_ind]
        redo = np.flatnonzero(tied)
        if redo.size:
            ind[redo] = _search(nn, query[redo], fit_X, k)[0]
    with _lock:
        stats["hits"] += 1
        stats["rows_searched"] += redo.size
        stats["rows_reused"] += ind.shape[0] - redo.size
    return ind


class CachedNeighbors(NearestNeighbors):
    """scikit-learn's ``NearestNeighbors`` whose ``kneighbors(X, k, return_distance=False)`` goes
    through the cache where the search is the chunked brute-force Euclidean one on CSR float64 rows
    (the same indices, module doc); every other call is scikit-learn's.  ``X`` being the fitted rows
    themselves (the object, as ``LabelSpreading`` passes them) searches them among themselves."""

    def kneighbors(self, X=None, n_neighbors=None, return_distance=True):
        k = self.n_neighbors if n_neighbors is None else n_neighbors
        if X is None or return_distance or not self._cached_search(X, k):
            return super().kneighbors(X, n_neighbors, return_distance)
        if X is self._fit_X:
            return kneighbors(self, None, k)
        X = validate_data(self, X, accept_sparse="csr", reset=False, order="C")
        return kneighbors(self, X, k)

    def _row_set(self):
        """(digest of the multiset of the fitted rows, the order sorting their digests), worked out once
        for the rows fitted (the graph's search and the test rows' share it)."""
        memo = self.__dict__.get("_row_set_memo")
        if memo is None or memo[0] is not self._fit_X:
            memo = (self._fit_X, *_set_digest(row_digests(self._fit_X), self._fit_X))
            self._row_set_memo = memo
        return memo[1:]

    def __getstate__(self):
        state = dict(super().__getstate__())     # a copy: scikit-learn's may be the instance's own __dict__
        state.pop("_row_set_memo", None)       # worked out again where needed
        return state

    def _cached_search(self, X, k):
        """True where scikit-learn would search by its chunked brute-force Euclidean path (what the
        cache reproduces) with a valid ``k``; anything else is left to scikit-learn, errors included."""
        fit_X = getattr(self, "_fit_X", None)
        return (ArgKmin is not None and isinstance(k, numbers.Integral) and 0 < k <= self.n_samples_fit_
                and self._fit_method == "brute" and self.effective_metric_ == "euclidean"
                and cacheable(X) and cacheable(fit_X) and not ArgKmin.is_usable_for(X, fit_X, "euclidean"))
