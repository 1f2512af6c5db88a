"""How the CG pass reads X (engine/cg_layout.py): identical rows found exactly, taken once with their
costs added, and compact column ids that never change a result."""
import functools

import numba
import numpy as np
import pytest
import scipy.sparse as sp

from solver_problems import augmented_dense, random_problem
from ssl_repro.solvers import BiasedRows, cgls, train_da, train_tsvm
from ssl_repro.solvers.engine.cg_layout import (COMPACT_FEATURES, compact_layout, first_identical_rows, group_rows,
                                                plain_layout)
from ssl_repro.solvers.engine._row_products import unsigned_indices


def with_copies(seed, n_distinct=30, copies=70, d=12, dtype=np.float64):
    """A CSR matrix of ``n_distinct`` random rows (one of them empty) and ``copies`` rows repeating them,
    shuffled; returns it and, for each row, the index of the distinct row it repeats."""
    rng = np.random.default_rng(seed)
    base = sp.random(n_distinct, d, density=0.3, random_state=rng, format="lil", dtype=dtype)
    base[0, :] = 0
    base[1, :] = base[2, :] * -1.0                 # same column ids, other values
    which = np.concatenate([np.arange(n_distinct), rng.integers(0, n_distinct, copies)])
    rng.shuffle(which)
    X = sp.csr_matrix(base.tocsr()[which])
    X.sort_indices()
    return X, which


def brute_force_first_identical(X):
    dense = X.toarray()
    return np.array([next(j for j in range(i + 1) if np.array_equal(dense[j], dense[i])
                          and np.array_equal(X[j].indices, X[i].indices)) for i in range(X.shape[0])])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("seed", [0, 1])
def test_identical_rows_are_found_exactly(seed, dtype):
    X, _ = with_copies(seed, dtype=dtype)
    first = first_identical_rows(X.indptr, unsigned_indices(X), X.data)
    np.testing.assert_array_equal(first, brute_force_first_identical(X))


def test_rows_of_equal_hash_are_compared_value_by_value(monkeypatch):
    """Every row hashed alike: only exact comparison tells them apart."""
    from ssl_repro.solvers.engine import cg_layout
    X, _ = with_copies(3)
    monkeypatch.setattr(cg_layout, "_row_hashes", lambda indptr, indices, bits: np.zeros(len(indptr) - 1, np.uint64))
    np.testing.assert_array_equal(cg_layout.first_identical_rows(X.indptr, unsigned_indices(X), X.data),
                                  brute_force_first_identical(X))


def test_group_rows_adds_the_costs_of_copies_and_maps_every_position():
    X, _ = with_copies(4)
    first = first_identical_rows(X.indptr, unsigned_indices(X), X.data)
    scratch = np.full(X.shape[0], -1, np.int64)
    rng = np.random.default_rng(0)
    rows = np.sort(rng.choice(X.shape[0], 60, replace=False)).astype(np.int64)
    c = rng.uniform(0.1, 2.0, rows.size)
    distinct, cost, slot = group_rows(rows, c, first, scratch)
    assert np.all(scratch == -1)
    assert np.all(np.diff(distinct) > 0) and np.isin(distinct, rows).all()     # first copies, ascending
    dense = X.toarray()
    np.testing.assert_array_equal(dense[distinct[slot]], dense[rows])         # each position -> its row
    assert np.unique(dense[distinct], axis=0).shape[0] == distinct.size       # no row twice
    np.testing.assert_allclose(cost, np.bincount(slot, weights=c), rtol=1e-15)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_cgls_on_rows_with_copies_equals_the_dense_solve(dtype):
    """Copies taken once with their costs added: the same normal equations (Eqn 5)."""
    X, _ = with_copies(5, dtype=dtype)
    op = BiasedRows(X)
    assert op.cg_layout().first_identical is not None
    rng = np.random.default_rng(1)
    rows = np.sort(rng.choice(X.shape[0], 80, replace=False)).astype(np.int64)
    y, c, lam = np.where(rng.random(80) < 0.5, 1.0, -1.0), rng.uniform(0.1, 2.0, 80), 0.05
    beta, o, info = cgls(op, rows, y, c, lam, np.zeros(op.n_weights), np.zeros(80), 1e-13, 1000)
    A = augmented_dense(X.astype(np.float64))[rows]
    expected = np.linalg.solve(lam * np.eye(A.shape[1]) + A.T @ (c[:, None] * A), A.T @ (c * y))
    assert info.converged
    np.testing.assert_allclose(beta, expected, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(o, A @ beta, rtol=1e-8, atol=1e-10)


def test_the_compact_ids_are_made_for_float64_data_with_few_enough_features():
    X, _ = with_copies(6)
    layout = BiasedRows(X).cg_layout()
    assert layout.indices.dtype == np.uint16
    np.testing.assert_array_equal(layout.indices, layout.new_id[X.indices])
    counts = np.bincount(X.indices, minlength=X.shape[1])
    assert np.all(np.diff(counts[np.argsort(layout.new_id)]) <= 0)          # most frequent first
    assert BiasedRows(X.astype(np.float32)).cg_layout().indices.dtype == np.uint32
    wide = sp.csr_matrix(([1.0, 2.0], [0, COMPACT_FEATURES], [0, 1, 2]), shape=(2, COMPACT_FEATURES + 1))
    layout = BiasedRows(wide).cg_layout()
    assert layout.indices.dtype == np.uint32 and layout.first_identical is None
    np.testing.assert_array_equal(layout.new_id, np.arange(COMPACT_FEATURES + 1))


def test_the_compact_ids_on_float32_data_give_the_same_cgls_bits_as_its_own_ids():
    """The layout ``benchmarks/profile_cg.py`` times on float32 data (the solvers make it for float64
    only): renumbered ids, the same solve bit for bit; a matrix too wide for 16 bits is refused."""
    rng = np.random.default_rng(10)
    X = sp.random(200, 40, density=0.25, random_state=rng, format="lil", dtype=np.float32)
    X[:, 5] = 1.0                                   # a frequent feature, so the renumbering moves it
    X = sp.csr_matrix(X)
    rows = np.arange(200, dtype=np.int64)
    y, c = np.where(rng.random(200) < 0.5, 1.0, -1.0), rng.uniform(0.1, 2.0, 200)
    runs = []
    for layout in (plain_layout, compact_layout):
        op = BiasedRows(X, layout=layout)
        runs.append(cgls(op, rows, y, c, 1e-3, np.zeros(op.n_weights), np.zeros(200), 1e-10, 500))
    assert BiasedRows(X, layout=compact_layout).cg_layout().indices.dtype == np.uint16
    (b1, o1, i1), (b2, o2, i2) = runs
    assert np.array_equal(b1, b2) and np.array_equal(o1, o2) and i1 == i2
    wide = sp.csr_matrix(([1.0, 2.0], [0, COMPACT_FEATURES], [0, 1, 2]), shape=(2, COMPACT_FEATURES + 1))
    with pytest.raises(ValueError, match="at most 65536 columns"):
        compact_layout(wide, unsigned_indices(wide))


def without_layout(monkeypatch):
    """The solvers' BiasedRows read X as it is: its own column ids, every row on its own."""
    from ssl_repro.solvers.engine import biased_rows, problem

    monkeypatch.setattr(problem, "BiasedRows", functools.partial(biased_rows.BiasedRows, layout=plain_layout))


def test_the_compact_ids_give_the_same_bits(monkeypatch):
    """TSVM and DA on distinct rows: same weights with and without the compact ids."""
    Xl, yl, Xu, _ = random_problem(7, l=20, u=120, d=40)
    assert BiasedRows(sp.vstack([Xl, Xu], format="csr")).cg_layout().indices.dtype == np.uint16
    fits = []
    for plain in (False, True):
        if plain:
            without_layout(monkeypatch)
        fits.append([train_tsvm(Xl, yl, Xu, lam=1e-2, lam_u=1.0, r=0.4, switches="max")[0],
                     train_da(Xl, yl, Xu, lam=1e-2, lam_u=1.0, r=0.4)[0]])
    for compact, plain in zip(*fits):
        assert np.array_equal(compact, plain)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_tsvm_and_da_on_data_with_copies_reach_the_objective_of_every_row_on_its_own(monkeypatch):
    """Taking copies once changes only the order of additions: the same switches and objective.
    (DA may stop on max_outer here, both ways alike: copies of a row share one belief, so the
    balance constraint can hold several fractional.)"""
    X, _ = with_copies(8, n_distinct=40, copies=160, d=15)
    y = np.where(X[:, 0].toarray().ravel() + X[:, 1].toarray().ravel() > 0.3, 1.0, -1.0)
    labeled = np.flatnonzero(np.r_[True, True, np.zeros(X.shape[0] - 2, bool)] | (np.arange(X.shape[0]) % 9 == 0))
    unlabeled = np.setdiff1d(np.arange(X.shape[0]), labeled)
    assert len(set(y[labeled])) == 2
    args = (X[labeled], y[labeled], X[unlabeled])
    runs = []
    for plain in (False, True):
        if plain:
            without_layout(monkeypatch)
        runs.append([train_tsvm(*args, lam=1e-2, lam_u=1.0, r=0.5, switches="max"),
                     train_da(*args, lam=1e-2, lam_u=1.0, r=0.5)])
    for (w_merged, info_merged), (w_plain, info_plain) in zip(*runs):
        np.testing.assert_allclose(w_merged, w_plain, rtol=1e-7, atol=1e-9)
        np.testing.assert_allclose(info_merged.objective, info_plain.objective, rtol=1e-9)


def test_copies_give_the_same_bits_with_one_thread_and_with_all():
    X, _ = with_copies(9)
    op = BiasedRows(X)
    rows = np.arange(X.shape[0], dtype=np.int64)
    rng = np.random.default_rng(2)
    y, c = np.where(rng.random(rows.size) < 0.5, 1.0, -1.0), rng.uniform(0.1, 2.0, rows.size)
    runs = []
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        numba.set_num_threads(threads)
        try:
            runs.append(cgls(op, rows, y, c, 1e-3, np.zeros(op.n_weights), np.zeros(rows.size), 1e-10, 500))
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    (b1, o1, i1), (b2, o2, i2) = runs
    assert np.array_equal(b1, b2) and np.array_equal(o1, o2) and i1 == i2


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_products_give_the_same_bits_through_the_cg_layout(dtype):
    """Once the CG layout exists, matvec, matvec_beside and rmatvec read its ids (16-bit and renumbered
    by frequency for float64): the same bits as with X's own ids, on a row subset in any order."""
    rng = np.random.default_rng(3)
    X = sp.random(300, 50, density=0.2, random_state=rng, format="lil", dtype=dtype)
    X[:, 7] = 1.0                                   # a frequent feature, so the renumbering moves it
    X = sp.csr_matrix(X)
    X.data = (X.data * rng.choice([-1.0, 1.0], X.nnz)).astype(dtype)
    op = BiasedRows(X)
    rows = rng.permutation(300)[:200].astype(np.int64)
    w, z = rng.normal(size=51), rng.normal(size=200)
    known = np.sort(rng.choice(200, 50, replace=False)).astype(np.int64)
    values = rng.normal(size=50)

    def products():
        return op.matvec(w, rows), op.matvec_beside(w, rows, known, values), op.rmatvec(z, rows)

    before = products()
    layout = op.cg_layout()
    assert (layout.indices.dtype == np.uint16) == (dtype == np.float64)
    assert not np.array_equal(layout.new_id, np.arange(50)) or dtype == np.float32
    for got, expected in zip(products(), before):
        assert np.array_equal(got, expected)
    A = augmented_dense(X)[rows]
    np.testing.assert_allclose(before[0], A @ w, rtol=1e-10)
    np.testing.assert_allclose(before[2], A.T @ z, rtol=1e-10)
    np.testing.assert_allclose(np.delete(before[1], known), np.delete(A @ w, known), rtol=1e-10)
    assert np.array_equal(before[1][known], values)
