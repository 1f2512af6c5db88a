"""Freed heap memory kept by the C allocator while a solver runs, so its temporaries are not faulted in again.

Each Newton step of L2-SVM-MFN (Table 1 of the spec paper) and each CGLS call
(Table 2) makes temporaries of one float per row or per feature (outputs,
residuals, the CG vectors, the pass's partial sums) and frees them.  By
default glibc's allocator hands the freed memory at the top of its heap
back to the operating system once more than 128 KiB of it is free,
keeping 128 KiB (``M_TRIM_THRESHOLD``, ``M_TOP_PAD``), so the next step's
temporaries are page-faulted and zeroed again: on the
20ng-ccat-like benchmark file (``benchmarks/write_bench_file.py
--dataset 20ng-ccat-like --n-labeled 35``, 14,129 rows, 54,426 features),
deterministic annealing took 50,000-170,000 page faults in 324 Newton
steps, depending on what the process had allocated before (about 3,000
with the settings below; counted with ``resource.getrusage``), in the
thread that also runs the serial part of a solve.  Requests above the
allocator's mmap threshold (128 KiB at first, raised by glibc as large
blocks are freed, up to 32 MiB) are mapped afresh each time, faulting
every page.

While a solver runs, :func:`keep_freed_heap` sets the mmap threshold to
:data:`MMAP_THRESHOLD_BYTES` (the largest value glibc's own adaptive
threshold reaches) and raises ``M_TOP_PAD`` to :data:`TOP_PAD_BYTES`: the
temporaries come from the heap, and up to that much freed memory stays
with the process (as resident memory it had already touched) for the next
ones.  ``M_TOP_PAD`` returns to its default when the outermost solver
returns; the mmap threshold stays at 32 MiB, since any ``mallopt`` call
ends glibc's adaptation of it (``man 3 mallopt``), and 32 MiB is where that
adaptation leads.  glibc only (``mallopt`` found in the C library);
elsewhere a no-op.
"""
import contextlib
import ctypes
import ctypes.util

#: glibc's ``mallopt`` parameter numbers and the documented default of ``M_TOP_PAD`` (``man 3 mallopt``).
M_TOP_PAD, M_MMAP_THRESHOLD, DEFAULT_TOP_PAD = -2, -3, 128 * 1024
#: Freed memory the allocator keeps while a solver runs.
TOP_PAD_BYTES = 64 * 2**20
#: Requests up to this size come from the heap (glibc's largest adaptive mmap threshold).
MMAP_THRESHOLD_BYTES = 32 * 2**20


def _load_mallopt():
    """glibc's ``mallopt``, or None where the C library has none."""
    try:
        name = ctypes.util.find_library("c")
        mallopt = ctypes.CDLL(name).mallopt if name else None
    except (OSError, AttributeError):
        return None
    if mallopt is not None:
        mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return mallopt


_mallopt = _load_mallopt()
_depth = 0


@contextlib.contextmanager
def keep_freed_heap():
    """Within the block (the outermost one, when nested), the allocator serves requests up to
    :data:`MMAP_THRESHOLD_BYTES` from its heap and keeps up to :data:`TOP_PAD_BYTES` of freed memory;
    the default ``M_TOP_PAD`` after it."""
    global _depth
    outermost = _depth == 0 and _mallopt is not None
    if outermost:
        _mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_BYTES)
        _mallopt(M_TOP_PAD, TOP_PAD_BYTES)
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if outermost:
            _mallopt(M_TOP_PAD, DEFAULT_TOP_PAD)
