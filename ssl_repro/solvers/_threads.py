"""Keep BLAS single-threaded while a solver runs.

The sparse products run on numba's thread pool; the many small BLAS dot
products in between would otherwise wake OpenBLAS's own threads, whose
busy-waiting competes with numba's for the same cores (measured: TSVM on
text20k took 40 s instead of 4 s).  One BLAS thread also makes the dot
products' rounding independent of the machine's core count.
"""
import functools

from threadpoolctl import threadpool_limits


def single_threaded_blas(solver):
    """Decorator: run ``solver`` with BLAS limited to one thread."""

    @functools.wraps(solver)
    def wrapper(*args, **kwargs):
        with threadpool_limits(limits=1, user_api="blas"):
            return solver(*args, **kwargs)

    return wrapper
