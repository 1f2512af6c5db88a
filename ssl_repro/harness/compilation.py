"""Compiling the linear solvers' numba kernels before a job's timed fit, and saying so when it is slow.

A job's ``seconds`` is its fit alone; the kernels its data calls (value type, CSR index type) are
compiled, or loaded from numba's on-disk cache, before the timer starts (``compile_seconds``).
"""
import logging
import sys
import threading
import time

import numpy as np
import scipy.sparse as sp

from ssl_repro.solvers import warm_up_kernels
from ssl_repro.solvers.warm_up import INDEX_DTYPES

log = logging.getLogger("ssl_repro")

#: Seconds the warm-up may take before the job says that it is compiling (loading cached kernels
#: takes well under one; compiling them, in a fresh install, tens of seconds).
COMPILE_NOTICE_AFTER = 1.0


def compile_solvers(*matrices):
    """Seconds taken to compile (or load from numba's cache) the linear solvers' kernels for the
    job's ``matrices`` (the training rows, and the dataset's matrix that its outputs are computed on):
    their value type (float32 data has its own kernels; any other type is trained as float64) and CSR
    index types (int32 or int64: scikit-learn's svmlight reader gives int64, and a row selection of
    it may be int32; a matrix in another format is converted by the estimator, so both are loaded),
    only what the job calls, so that nothing compiles inside the timed fit.  When numba is compiling (a kernel missed
    its on-disk cache) and still at it after :data:`COMPILE_NOTICE_AFTER` seconds (the first job after
    an install), the log says so once, so the wait is explained; loading cached kernels says nothing."""
    dtype = np.float32 if matrices[0].dtype == np.float32 else np.float64
    index_dtypes = sorted({np.dtype(t) for X in matrices
                           for t in ((X.indices.dtype,) if sp.issparse(X) and X.format == "csr" else INDEX_DTYPES)}, key=str)
    notice = threading.Timer(COMPILE_NOTICE_AFTER, _compile_notice, (np.dtype(dtype).name,))
    notice.daemon = True
    start = time.perf_counter()
    notice.start()
    try:
        warm_up_kernels(dtypes=(dtype,), index_dtypes=index_dtypes)
    finally:
        notice.cancel()
    return time.perf_counter() - start


def _compile_notice(dtype_name):
    """Log that numba is compiling the kernels, if any kernel of the solvers missed numba's cache."""
    if numba_cache_misses():
        log.info("compiling the solvers' numba kernels for %s data: once after an install (tens of seconds), "
                 "cached on disk for the next jobs", dtype_name)


def numba_cache_misses():
    """How many compilations of the solvers' numba kernels missed numba's on-disk cache in this process."""
    from numba.core.registry import CPUDispatcher
    return sum(sum(kernel.stats.cache_misses.values()) for name, module in list(sys.modules.items())
               if name.startswith("ssl_repro.solvers") for kernel in vars(module).values()
               if isinstance(kernel, CPUDispatcher))


def compile_kernel_method(estimator):
    """Seconds taken to compile (or load from numba's cache) a kernel method's own compiled kernels (the
    estimator class's ``warm_up``: KernelCCCPTSVM's SMO, the dense-Gram methods' f-step system) before
    its timed fit; 0 for a kernel method without any."""
    warm_up = getattr(type(estimator), "warm_up", None)
    if warm_up is None:
        return 0.0
    start = time.perf_counter()
    warm_up()
    return time.perf_counter() - start
