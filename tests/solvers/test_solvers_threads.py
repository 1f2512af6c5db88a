"""The compiled CG loop and the thread governor: same bits for any thread count, sound stops."""
import importlib

import numba
import numpy as np
import pytest

from solver_problems import random_problem
from ssl_repro.solvers import BiasedRows, cgls, train_da, train_tsvm

cgls_module = importlib.import_module("ssl_repro.solvers.engine.cgls")
threads_module = importlib.import_module("ssl_repro.solvers.engine._threads")
MAX_THREADS = numba.config.NUMBA_NUM_THREADS


def weighted_system(seed, n=400, d=60):
    X, y, _, _ = random_problem(seed, l=n, u=0, d=d, density=0.2)
    rng = np.random.default_rng(seed)
    return BiasedRows(X), np.arange(n, dtype=np.int64), y, rng.uniform(0.1, 2.0, n) / n


def exact_residual(op, rows, y, c, lam, beta):
    """||X^T C (Y - X beta) - lambda beta|| and ||C (Y - X beta)||, recomputed from scratch."""
    z = c * (y - op.matvec(beta, rows))
    return np.linalg.norm(op.rmatvec(z, rows) - lam * beta), np.linalg.norm(z)


@pytest.fixture
def idle_machine(monkeypatch):
    """The governor sees idle cores: solvers use numba's full thread count."""
    monkeypatch.setattr(threads_module, "_runnable_others", lambda: 0.0)
    monkeypatch.setattr(threads_module, "RESAMPLE_SECONDS", float("inf"))


@pytest.mark.parametrize("seed", [0, 1])
def test_cgls_gives_the_same_bits_with_one_thread_and_with_all(seed):
    op, rows, y, c = weighted_system(seed)
    runs = []
    for threads in (1, MAX_THREADS):
        numba.set_num_threads(threads)
        try:
            runs.append(cgls(op, rows, y, c, 1e-3, np.zeros(op.n_weights), np.zeros(rows.size), 1e-10, 500))
        finally:
            numba.set_num_threads(MAX_THREADS)
    (b1, o1, i1), (b2, o2, i2) = runs
    assert np.array_equal(b1, b2) and np.array_equal(o1, o2) and i1 == i2


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_converged_cgls_meets_the_test_on_the_exact_residual(seed):
    """Table 2's stop ||r|| < eps ||z|| holds for r and z recomputed from the returned beta."""
    op, rows, y, c = weighted_system(seed)
    tol = 1e-8
    beta, o, info = cgls(op, rows, y, c, 1e-3, np.zeros(op.n_weights), np.zeros(rows.size), tol, 1000)
    r_norm, z_norm = exact_residual(op, rows, y, c, 1e-3, beta)
    assert info.converged
    assert r_norm < tol * z_norm * (1 + 1e-6)
    np.testing.assert_allclose(o, op.matvec(beta, rows), rtol=0, atol=1e-12)


def test_cgls_goes_on_when_the_recurrence_claims_convergence_too_early(monkeypatch):
    """A recurrence that says "converged" after one step is checked and overruled."""
    op, rows, y, c = weighted_system(3)
    real_run = cgls_module.CGSteps.run
    calls = []

    def optimistic_run(self, beta, o, z, r, p, cg_scalars, n_steps):
        steps, met = real_run(self, beta, o, z, r, p, cg_scalars, 1 if not calls else n_steps)
        calls.append(steps)
        return steps, met or len(calls) == 1

    monkeypatch.setattr(cgls_module.CGSteps, "run", optimistic_run)
    tol = 1e-8
    beta, _, info = cgls(op, rows, y, c, 1e-3, np.zeros(op.n_weights), np.zeros(rows.size), tol, 1000)
    r_norm, z_norm = exact_residual(op, rows, y, c, 1e-3, beta)
    assert calls[0] == 1 and len(calls) > 1 and info.iterations > 1
    assert info.converged and r_norm < tol * z_norm * (1 + 1e-6)


def test_tsvm_and_da_give_the_same_bits_with_one_thread_and_with_all(idle_machine):
    Xl, yl, Xu, _ = random_problem(4, l=20, u=300, d=30, sep=0.8)
    results = []
    for threads in (1, MAX_THREADS):
        numba.set_num_threads(threads)
        try:
            results.append((train_tsvm(Xl, yl, Xu, lam=1e-2, lam_u=1.0, r=0.45, switches="max"),
                            train_da(Xl, yl, Xu, lam=1e-2, lam_u=1.0, r=0.45)))
        finally:
            numba.set_num_threads(MAX_THREADS)
    ((wt1, it1), (wd1, id1)), ((wt2, it2), (wd2, id2)) = results
    assert np.array_equal(wt1, wt2) and it1.objective_path == it2.objective_path
    assert np.array_equal(wd1, wd2) and id1.objective_path == id2.objective_path


@pytest.mark.parametrize("others, expected", [(0.0, 2), (0.2, 2), (0.6, 1), (1.0, 1), (2.0, 1)])
def test_governor_leaves_busy_cores_alone(monkeypatch, others, expected):
    """On 2 cores: another process using more than a quarter of one core takes it."""
    monkeypatch.setattr(threads_module, "_runnable_others", lambda: others)
    monkeypatch.setattr(threads_module.os, "cpu_count", lambda: 2)
    seen = []

    @threads_module.solver_threads
    def solver():
        seen.append(numba.get_num_threads())

    numba.set_num_threads(min(2, MAX_THREADS))
    solver()
    assert seen == [min(expected, MAX_THREADS)]
    assert numba.get_num_threads() == min(2, MAX_THREADS)   # the caller's count is restored
    numba.set_num_threads(MAX_THREADS)


def test_governor_follows_the_cpu_time_others_use(monkeypatch):
    """Between samples: machine busy time minus this process's own CPU time = others' load."""
    monkeypatch.setattr(threads_module, "_runnable_others", lambda: 0.0)
    monkeypatch.setattr(threads_module.os, "cpu_count", lambda: 2)
    numba.set_num_threads(min(2, MAX_THREADS))
    samples = iter([(0.0, 0, 0, 0.0),            # (wall s, busy ticks, all ticks, own CPU s)
                    (1.0, 200, 200, 1.0),         # both cores busy, one of them by us
                    (2.0, 300, 400, 2.0)])        # one core busy, by us
    monkeypatch.setattr(threads_module._Governor, "_sample", staticmethod(lambda: next(samples)))
    governor = threads_module._Governor(2)
    assert numba.get_num_threads() == min(2, MAX_THREADS)
    monkeypatch.setattr(threads_module.time, "perf_counter", lambda: 1.0)
    governor.refresh()
    assert numba.get_num_threads() == 1
    monkeypatch.setattr(threads_module.time, "perf_counter", lambda: 2.0)
    governor.refresh()
    assert numba.get_num_threads() == min(2, MAX_THREADS)
    numba.set_num_threads(MAX_THREADS)


def test_niced_processes_do_not_make_a_core_busy():
    """/proc/stat's nice column (lower-priority processes) is left out of the busy time, unless the
    solver itself is niced (then its own time is there)."""
    #        user nice system idle iowait irq softirq steal
    ticks = [100, 700, 50, 900, 30, 5, 5, 10]
    assert threads_module.busy_ticks(ticks, count_nice=False) == 170
    assert threads_module.busy_ticks(ticks, count_nice=True) == 870


def test_warm_up_loads_every_kernel_a_solve_calls():
    """After the warm-up a timed solve compiles nothing: both CG builds and the helpers are loaded,
    for data with and without repeated rows, and for a matrix too wide for the compact column ids."""
    import scipy.sparse as sp
    from ssl_repro.solvers import warm_up_kernels
    from ssl_repro.solvers.engine._cg_pass import cg_steps_parallel, cg_steps_serial, chunk_bounds
    from ssl_repro.solvers.balance import _belief_sums
    from ssl_repro.solvers.engine.cg_layout import (COMPACT_FEATURES, _column_counts, _first_of_equal_hashes,
                                                    _renumbered, _row_hashes, group_rows)
    from ssl_repro.solvers.engine.line_search import _walk_break_points
    from ssl_repro.solvers.engine.loss import _line_pieces, _optimal
    from ssl_repro.solvers.engine._row_products import renumber, rows_matvec, rows_matvec_beside, rows_rmatvec

    warm_up_kernels()
    kernels = (cg_steps_parallel, cg_steps_serial, chunk_bounds, _belief_sums, _walk_break_points, _optimal,
               _line_pieces, group_rows, _row_hashes, _first_of_equal_hashes, _column_counts, _renumbered,
               renumber, rows_matvec, rows_matvec_beside, rows_rmatvec)
    for kernel in kernels:
        assert kernel.signatures, kernel
    before = {k: len(k.signatures) for k in kernels}
    Xl, yl, Xu, _ = random_problem(5, l=10, u=40, d=12)
    Xu = sp.vstack([Xu, Xu[:10]], format="csr")                     # repeated rows
    for dtype in (np.float64, np.float32):
        train_tsvm(Xl.astype(dtype), yl, Xu.astype(dtype), lam=1e-2, lam_u=1.0, r=0.4, switches="max")
        train_da(Xl.astype(dtype), yl, Xu.astype(dtype), lam=1e-2, lam_u=1.0, r=0.4)
    wide = sp.csr_matrix((np.ones(3), [0, 5, COMPACT_FEATURES], np.arange(4)), shape=(3, COMPACT_FEATURES + 1))
    train_tsvm(wide[:2], np.array([1.0, -1.0]), wide[2:], lam=1e-2, lam_u=1.0, r=0.5)
    assert {k: len(k.signatures) for k in before} == before


def test_cgls_forms_the_exact_residual_at_its_start_and_when_the_recurrence_meets_the_test(monkeypatch):
    """One transposed product at the seed and one per met test: on these systems the
    recurrence and the exact residual agree, so a converged call makes exactly two."""
    real_residual = cgls_module._residual
    calls = []
    monkeypatch.setattr(cgls_module, "_residual", lambda *a: calls.append(1) or real_residual(*a))
    per_solve = []
    for seed in range(6):
        op, rows, y, c = weighted_system(seed)
        calls.clear()
        beta, _, info = cgls(op, rows, y, c, 1e-3, np.zeros(op.n_weights), np.zeros(rows.size), 1e-8, 1000)
        r_norm, z_norm = exact_residual(op, rows, y, c, 1e-3, beta)
        assert info.converged and r_norm < 1e-8 * z_norm * (1 + 1e-6)
        per_solve.append(len(calls))
    assert per_solve == [2] * 6


def test_cgls_with_a_linear_term_solves_the_shifted_system():
    """[lambda I + X^T C X] beta = X^T C Y - v, the exact residual including v (CCCP's use)."""
    from solver_problems import augmented_dense
    X, y, _, _ = random_problem(8, l=300, u=0, d=40, density=0.2)
    op, rows = BiasedRows(X), np.arange(300, dtype=np.int64)
    c = np.random.default_rng(8).uniform(0.1, 2.0, 300) / 300
    v = np.random.default_rng(9).normal(size=op.n_weights) * 1e-2
    beta, _, info = cgls(op, rows, y, c, 1e-2, np.zeros(op.n_weights), np.zeros(300), 1e-12, 2000, linear=v)
    A = augmented_dense(X)
    expected = np.linalg.solve(1e-2 * np.eye(A.shape[1]) + A.T @ (c[:, None] * A), A.T @ (c * y) - v)
    assert info.converged
    np.testing.assert_allclose(beta, expected, rtol=1e-7, atol=1e-9)
