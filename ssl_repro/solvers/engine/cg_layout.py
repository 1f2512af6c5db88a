"""How the CG pass reads X: identical rows once, and a compact, frequency-ordered copy of the column ids.

Both are prepared once per data matrix (:meth:`.biased_rows.BiasedRows.cg_layout`)
and change the arithmetic of Table 2 only in the order of its floating-point
additions.

Identical rows.  [lambda I + X^T C X] is a sum over rows of c_i x_i x_i^T,
so rows with the same x_i can be taken once with their costs added:
X^T C q = sum over distinct rows of (sum of their c) x q, and q = X p is the
same for all copies.  CG's per-row quantities (o, z) are still kept per
row, reading the shared q.  Data sets with many repeated records gain the
most: kdd99-10 has 145,584 distinct rows among 494,021, so the pass over
X in each CG iteration reads 3.4 times fewer rows.  Rows are found
identical by a 64-bit hash of their column ids and values and then compared
exactly (:func:`first_identical_rows`).

Compact column ids.  The fused pass gathers p[j] and scatters into a
partial-sum buffer at j for every nonzero; with the columns renumbered by
decreasing frequency the entries most nonzeros touch sit together in cache,
and with 16-bit ids the pass reads 10 bytes per nonzero instead of 12.
Measured on text20k (one thread, the fused loop alone over every row, best
of 9): 2.24 ms with the matrix's own int32 ids, 1.99 ms with 16-bit ids,
1.83 ms with 16-bit frequency-ordered ids.  The copy costs 2 bytes per
nonzero, so it is made only for float64 values (float32 input is a choice
of less memory; 2 more bytes per nonzero would be a quarter of its matrix)
and when the features fit in 16 bits.  Only the pass's gathers and
scatters use the new numbering; beta, r and p and every sum over features
keep the features' own order (:mod:`._cg_pass`), so the compact ids never
change a result: float64 data give the same bits with and without them,
and the same bits as float32 data holding the same values.
"""
from typing import NamedTuple

import numba
import numpy as np

#: Largest column count whose ids fit the compact 16-bit copy.
COMPACT_FEATURES = 2**16


class CGLayout(NamedTuple):
    """What the CG pass reads besides X's own arrays.

    ``indices``: the column ids the pass reads (X's own, as unsigned, or
    the compact renumbered copy); ``new_id``: the id of each feature in
    ``indices`` (0, 1, 2, ... for X's own); ``first_identical``: for each row of
    X the first row identical to it (``None`` when all rows differ);
    ``slot_of_row``: scratch for :func:`group_rows` (-1 everywhere between
    uses; ``None`` with ``first_identical``).
    """

    indices: np.ndarray
    new_id: np.ndarray
    first_identical: np.ndarray | None
    slot_of_row: np.ndarray | None


def make_layout(X, unsigned):
    """The :class:`CGLayout` of the CSR matrix ``X`` whose unsigned column ids are ``unsigned``."""
    first = first_identical_rows(X.indptr, unsigned, X.data)
    if np.all(first == np.arange(X.shape[0])):
        first, slots = None, None
    else:
        slots = np.full(X.shape[0], -1, np.int64)
    if X.data.dtype != np.float64 or X.shape[1] > COMPACT_FEATURES:
        ids = plain_layout(X, unsigned)
    else:
        ids = compact_layout(X, unsigned)
    return ids._replace(first_identical=first, slot_of_row=slots)


def plain_layout(X, unsigned):
    """The layout that reads X as it is: its own column ids, every row on its own (for comparisons)."""
    return CGLayout(unsigned, np.arange(X.shape[1], dtype=np.uint32), None, None)


def compact_layout(X, unsigned):
    """The layout that reads the 16-bit frequency-ordered copy of the column ids, every row on its own
    (at most :data:`COMPACT_FEATURES` columns; :func:`make_layout` uses it for float64 values only,
    ``benchmarks/profile_cg.py`` also times it on float32 values)."""
    n = X.shape[1]
    if n > COMPACT_FEATURES:
        raise ValueError(f"compact 16-bit column ids need at most {COMPACT_FEATURES} columns, X has {n}")
    counts = _column_counts(unsigned, n)
    new_id = np.empty(n, np.uint32)
    new_id[np.argsort(-counts, kind="stable")] = np.arange(n, dtype=np.uint32)
    return CGLayout(_renumbered(unsigned, new_id.astype(np.uint16)), new_id, None, None)


@numba.njit(cache=True, nogil=True)
def _renumbered(indices, new_id):
    """``new_id[indices]`` without numpy's copy of the ids to 8-byte integers (8 bytes per nonzero)."""
    out = np.empty(indices.shape[0], new_id.dtype)
    for jj in range(indices.shape[0]):
        out[jj] = new_id[indices[jj]]
    return out


@numba.njit(cache=True, nogil=True)
def _column_counts(indices, n):
    """Nonzeros per column (``np.bincount`` would first copy the ids to 8-byte integers)."""
    counts = np.zeros(n, np.int64)
    for jj in range(indices.shape[0]):
        counts[indices[jj]] += 1
    return counts


@numba.njit(cache=True, nogil=True)
def _row_hashes(indptr, indices, bits):
    """A 64-bit hash of each row's column ids and value bits (FNV-1a over 64-bit words)."""
    n = indptr.shape[0] - 1
    out = np.empty(n, np.uint64)
    prime = np.uint64(1099511628211)
    for i in range(n):
        h = np.uint64(14695981039346656037)
        for jj in range(indptr[i], indptr[i + 1]):
            h = (h ^ np.uint64(indices[jj])) * prime
            h = (h ^ np.uint64(bits[jj])) * prime
        out[i] = h
    return out


@numba.njit(cache=True, nogil=True)
def _same_row(indptr, indices, bits, a, b):
    la, lb = indptr[a], indptr[b]
    n = indptr[a + 1] - la
    if indptr[b + 1] - lb != n:
        return False
    for t in range(n):
        if indices[la + t] != indices[lb + t] or bits[la + t] != bits[lb + t]:
            return False
    return True


@numba.njit(cache=True, nogil=True)
def _first_of_equal_hashes(indptr, indices, bits, by_hash, hashes):
    """For rows sorted by hash (``by_hash``), the first identical row of each, compared exactly."""
    n = by_hash.shape[0]
    first = np.arange(n)
    start = 0
    while start < n:
        end = start + 1
        while end < n and hashes[by_hash[end]] == hashes[by_hash[start]]:
            end += 1
        # within one hash (rows ascending, so the first identical row is found first)
        for s in range(start + 1, end):
            i = by_hash[s]
            for t in range(start, s):
                j = by_hash[t]
                if first[j] == j and _same_row(indptr, indices, bits, j, i):
                    first[i] = j
                    break
        start = end
    return first


def first_identical_rows(indptr, indices, data):
    """For each row of a CSR matrix (sorted column ids), the smallest index of a row identical to it.

    Rows are equal when their column ids and value bits are (so 0.0 and -0.0
    differ, which only keeps two such rows apart).
    """
    bits = data.view(np.uint64 if data.dtype == np.float64 else np.uint32)
    hashes = _row_hashes(indptr, indices, bits)
    by_hash = np.argsort(hashes, kind="stable")
    return _first_of_equal_hashes(indptr, indices, bits, by_hash, hashes)


@numba.njit(cache=True, nogil=True)
def group_rows(rows, c, first_identical, slot_of_row):
    """The distinct rows among ``rows``, their added costs, and for each position of ``rows`` the
    slot of its distinct row.

    A distinct row is represented by its first copy in ``rows`` (so ascending
    ``rows`` give ascending distinct rows); without copies the result is
    ``rows``, ``c`` and 0, 1, 2, ...  ``slot_of_row`` (one entry per row of
    X, all -1) is scratch and left all -1.
    """
    n = rows.shape[0]
    slot = np.empty(n, np.int64)
    distinct = np.empty(n, np.int64)
    cost = np.zeros(n)
    n_distinct = 0
    for kk in range(n):
        i = first_identical[rows[kk]]
        s = slot_of_row[i]
        if s < 0:
            s = n_distinct
            slot_of_row[i] = s
            distinct[s] = rows[kk]
            n_distinct += 1
        slot[kk] = s
        cost[s] += c[kk]
    for s in range(n_distinct):
        slot_of_row[first_identical[distinct[s]]] = -1
    return distinct[:n_distinct].copy(), cost[:n_distinct].copy(), slot
