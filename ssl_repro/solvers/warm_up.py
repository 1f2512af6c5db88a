"""Compile (or load from numba's cache) every compiled kernel before a timed solve.

The kernels are compiled on first use and cached on disk; loading them
still takes tens of milliseconds each, which a benchmark should not time.
"""
import warnings

import numba
import numpy as np
import scipy.sparse as sp

from ssl_repro.solvers.annealing import deterministic_annealing
from ssl_repro.solvers.engine.cgls import cgls
from ssl_repro.solvers.engine.biased_rows import BiasedRows
from ssl_repro.solvers.engine.cg_layout import COMPACT_FEATURES
from ssl_repro.solvers.engine.problem import from_mask
from ssl_repro.solvers.tsvm import tsvm
from ssl_repro.solvers.engine.data_checks import DATA_DTYPES


#: The index types of scipy's CSR matrices (``indices``, ``indptr``): int32 where they fit, int64 where
#: a loader or an operation made them so (scikit-learn's svmlight reader does); the kernels that read
#: them are compiled for each type they meet.
INDEX_DTYPES = (np.int32, np.int64)
#: The (value type, index type) pairs whose kernels this process has loaded: a second warm-up of a pair
#: is a no-op (a sweep's worker runs many jobs; each job's warm-up once cost ~27 ms of tiny solves).
_LOADED = set()


def warm_up_kernels(dtypes=DATA_DTYPES, index_dtypes=INDEX_DTYPES):
    """Run tiny CGLS, TSVM and DA solves with one thread and CGLS with numba's full count,
    on data of each of ``dtypes`` (default: float64 and float32, :data:`.engine.data_checks.DATA_DTYPES`)
    with CSR indices of each of ``index_dtypes`` (default :data:`INDEX_DTYPES`): each pair compiles
    its own kernels; a job passes its data's alone (:func:`ssl_repro.harness.runner.compile_solvers`),
    so that no kernel compiles inside its timed fit.

    Both the serial and the parallel build of the CG loop are loaded
    (whichever the machine's load will later call for), and the line
    search, optimality test and OPTIMIZE-P kernels for both pseudo-row
    layouts (TSVM's own rows, DA's shared rows); the data hold a repeated
    row, and CGLS also runs on a matrix too wide for the compact column
    ids (:mod:`.engine.cg_layout`) with one thread and with numba's full
    count (a solve on such data may call either build, whatever the
    machine's thread settings), so every form of the CG pass is loaded,
    and the products run before and after the CG layout exists.  Each pair
    is warmed up once per process (:data:`_LOADED`).
    """
    for dtype in dtypes:
        for index_dtype in index_dtypes:
            pair = (np.dtype(dtype), np.dtype(index_dtype))
            if pair not in _LOADED:
                _warm_up(dtype, index_dtype)
                _LOADED.add(pair)


def _indexed(X, index_dtype):
    """``X`` (CSR) with its ``indices`` and ``indptr`` of type ``index_dtype`` (scipy picks int32 itself)."""
    X.indices, X.indptr = X.indices.astype(index_dtype), X.indptr.astype(index_dtype)
    return X


def _warm_up(dtype, index_dtype):
    X = _indexed(sp.csr_matrix(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, -1.0]], dtype=dtype)),
                 index_dtype)
    problem = from_mask(X, np.array([1.0, -1.0]), np.array([True, True, False, False]))   # X's own indices
    op, rows, y = BiasedRows(X), np.arange(4, dtype=np.int64), np.array([1.0, -1.0, 1.0, -1.0])
    repeated = BiasedRows(_indexed(sp.vstack([X[:3], X[2:3]], format="csr"), index_dtype))
    wide = BiasedRows(_indexed(sp.csr_matrix((np.ones(4, dtype), [0, 1, 2, COMPACT_FEATURES], np.arange(5)),
                                             shape=(4, COMPACT_FEATURES + 1)), index_dtype))
    previous = numba.get_num_threads()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # the tiny solves' cap warnings concern nobody
        try:
            numba.set_num_threads(1)
            tsvm(problem, 0.1, 1.0, 0.5, switches="max")
            deterministic_annealing(problem, 0.1, 1.0, 0.5, max_outer=2)
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
            for laid_out in (False, True):      # the products read X's own ids, then the CG layout's
                op.matvec(np.ones(3), rows)
                op.matvec_beside(np.ones(3), rows, np.array([1], np.int64), np.zeros(1))
                op.rmatvec(y, rows)
                if not laid_out:
                    cgls(op, rows, y, np.ones(4), 1.0, np.zeros(3), np.zeros(4), 1e-12, 10)
            for threads in (1, numba.config.NUMBA_NUM_THREADS):     # each form in both CG builds
                numba.set_num_threads(threads)
                for other in (repeated, wide):
                    cgls(other, rows, y, np.ones(4), 1.0, np.zeros(other.n_weights), np.zeros(4), 1e-12, 10)
        finally:
            numba.set_num_threads(previous)
