"""CGLS (Table 2) against a dense solve of the same normal equations."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from solver_problems import augmented_dense, random_problem
from ssl_repro.solvers import BiasedRows, cgls, from_blocks


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cgls_equals_dense_solve(seed):
    X, y, _, _ = random_problem(seed, l=40, d=30)
    rng = np.random.default_rng(seed)
    c = rng.uniform(0.1, 2.0, size=40)
    lam = 0.05
    op = BiasedRows(X)
    rows = np.arange(40, dtype=np.int64)
    beta, o, info = cgls(op, rows, y, c, lam, np.zeros(op.n_weights), np.zeros(40), 1e-13, 1000)
    A = augmented_dense(X)
    expected = np.linalg.solve(lam * np.eye(A.shape[1]) + A.T @ (c[:, None] * A), A.T @ (c * y))
    assert info.converged
    np.testing.assert_allclose(beta, expected, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(o, A @ beta, rtol=1e-8, atol=1e-10)


def test_cgls_seeded_from_any_guess_reaches_the_same_solution_on_a_row_subset():
    X, y, _, _ = random_problem(5, l=50, d=20)
    op = BiasedRows(X)
    rows = np.array([3, 7, 8, 20, 21, 30, 41, 42, 49], dtype=np.int64)
    c = np.full(rows.size, 0.3)
    seed_w = np.random.default_rng(0).normal(size=op.n_weights)
    beta, _, _ = cgls(op, rows, y[rows], c, 0.1, seed_w, op.matvec(seed_w, rows), 1e-13, 1000)
    A = augmented_dense(X)[rows]
    expected = np.linalg.solve(0.1 * np.eye(A.shape[1]) + A.T @ (c[:, None] * A), A.T @ (c * y[rows]))
    np.testing.assert_allclose(beta, expected, rtol=1e-8, atol=1e-10)


def test_cgls_leaves_the_seed_outputs_alone_unless_told_to_overwrite_them():
    """``overwrite_o`` updates the caller's array in place (no copy) and gives the same bits."""
    X, y, _, _ = random_problem(6, l=50, d=20)
    op = BiasedRows(X)
    rows = np.arange(50, dtype=np.int64)
    seed_w = np.random.default_rng(1).normal(size=op.n_weights)
    o_seed = op.matvec(seed_w, rows)
    kept = o_seed.copy()
    beta, o, _ = cgls(op, rows, y, np.full(50, 0.5), 0.1, seed_w, o_seed, 1e-12, 1000)
    assert np.array_equal(o_seed, kept) and o is not o_seed
    beta_in_place, o_in_place, _ = cgls(op, rows, y, np.full(50, 0.5), 0.1, seed_w, o_seed, 1e-12, 1000,
                                        overwrite_o=True)
    assert o_in_place is o_seed and not np.array_equal(o_seed, kept)
    assert np.array_equal(beta_in_place, beta) and np.array_equal(o_in_place, o)


def test_cgls_stops_at_max_iter_without_claiming_convergence():
    X, y, _, _ = random_problem(1, l=40, d=30)
    op = BiasedRows(X)
    rows = np.arange(40, dtype=np.int64)
    _, _, info = cgls(op, rows, y, np.ones(40), 1e-3, np.zeros(op.n_weights), np.zeros(40), 1e-14, 2)
    assert info.iterations == 2 and not info.converged


def test_cgls_returns_at_once_when_the_seed_residual_is_zero():
    X = sp.csr_matrix((4, 3))
    prob = from_blocks(X, np.array([1.0, -1.0, 1.0, -1.0]))
    rows = prob.labeled
    with warnings.catch_warnings():
        warnings.simplefilter("error")            # no 0/0 RuntimeWarning
        beta, o, info = cgls(prob.op, rows, prob.y, np.full(4, 0.25), 1e-3, np.zeros(4), np.zeros(4), 1e-6, 100)
    assert info.converged and info.iterations == 0
    assert np.all(beta == 0.0)


def dense_residual(A, y, c, lam, beta, v=0.0):
    """Table 2's r = X^T C (Y - X beta) - lambda beta - v, formed densely."""
    return A.T @ (c * (y - A @ beta)) - lam * beta - v


@pytest.mark.parametrize("seed", [0, 1])
def test_cgls_reports_its_seed_and_solution_residuals_and_accepts_a_given_seed_residual(seed):
    """The residuals CGLS hands out (for MFN's carried residual) are Table 2's r at the seed and at the
    solution; started from a given seed residual it reaches the same solution."""
    X, y, _, _ = random_problem(seed, l=50, d=20)
    op = BiasedRows(X)
    rng = np.random.default_rng(seed)
    rows = np.sort(rng.choice(50, 35, replace=False)).astype(np.int64)
    c, v = rng.uniform(0.1, 2.0, rows.size), rng.normal(size=op.n_weights) * 0.01
    A = augmented_dense(X)[rows]
    seed_w = rng.normal(size=op.n_weights)
    args = (op, rows, y[rows], c, 0.05, seed_w, A @ seed_w, 1e-12, 1000, v)
    beta, _, info = cgls(*args)
    np.testing.assert_allclose(info.seed_residual, dense_residual(A, y[rows], c, 0.05, seed_w, v), atol=1e-11)
    np.testing.assert_allclose(info.residual, dense_residual(A, y[rows], c, 0.05, beta, v), atol=1e-11)
    given = info.seed_residual.copy()
    beta_given, _, info_given = cgls(*args, residual=given)
    np.testing.assert_array_equal(given, info.seed_residual)       # not modified
    np.testing.assert_allclose(beta_given, beta, rtol=1e-9, atol=1e-11)
    assert info_given.converged and info_given.iterations == info.iterations


def test_matvec_beside_computes_only_the_rows_not_given_and_equals_matvec():
    """MFN's o_bar off the active set: known positions keep the given values, the rest equal matvec's bits."""
    X, _, _, _ = random_problem(3, l=60, d=20)
    op = BiasedRows(X)
    rng = np.random.default_rng(3)
    rows = rng.permutation(60)[:45].astype(np.int64)
    w = rng.normal(size=op.n_weights)
    known = np.sort(rng.choice(45, 17, replace=False))
    given = rng.normal(size=17)
    out = op.matvec_beside(w, rows, known, given)
    expected = op.matvec(w, rows)
    expected[known] = given
    np.testing.assert_array_equal(out, expected)
