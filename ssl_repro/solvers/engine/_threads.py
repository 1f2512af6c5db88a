"""Thread use of the solvers: BLAS on one thread, numba on the idle cores.

BLAS: the sparse products run on numba's thread pool; the many small BLAS
dot products in between would otherwise wake OpenBLAS's own threads, whose
busy-waiting competes with numba's for the same cores (measured: TSVM on
text20k took 40 s instead of 4 s).  One BLAS thread also makes the dot
products' rounding independent of the machine's core count.

numba: a parallel region ends when its slowest thread ends, so a thread
that shares its core with another busy process holds every region up by
a scheduler time slice (measured on 2 cores beside one busy loop: text20k
TSVM took 14.8 s with 2 threads where the single-threaded reference took
5.7 s; beside a test suite 44.9 s with 2 threads, 8.6 s with one).  The solvers
therefore use only the cores other processes leave idle, never more than
the caller's ``numba.get_num_threads()`` (the harness's share of the
cores, or ``NUMBA_NUM_THREADS``): at the start of a solve from the number
of runnable tasks (``/proc/loadavg``, sampled a few times over ~5 ms), then
every :data:`RESAMPLE_SECONDS` from the CPU time the rest of the machine
used meanwhile (``/proc/stat`` minus this process's own CPU time; time of
niced processes does not count, since the scheduler runs them only in the
room our threads leave; counting them, a ``nice -n 19`` job beside DA at
full-ccat size makes the solver switch between 1 and 2 threads 12 times).  A core
counts as busy when others use more than :data:`BUSY_SHARE` of it.  The
kernels' results do not depend on the thread count (see
:mod:`._cg_pass`), so this choice never changes a result.  Where
``/proc`` is missing (not Linux) the caller's thread count is used.
"""
import functools
import math
import os
import time

import numba
from threadpoolctl import threadpool_limits

#: Seconds between two re-evaluations of the idle cores during a solve.
RESAMPLE_SECONDS = 0.25
#: Share of a core other processes may use before the core counts as busy.
BUSY_SHARE = 0.25
#: Samples of /proc/loadavg (1 ms apart) at the start of a solve.
START_SAMPLES = 5


def solver_threads(solver):
    """Decorator: BLAS on one thread; numba threads follow the idle cores during ``solver``."""

    @functools.wraps(solver)
    def wrapper(*args, **kwargs):
        global _active, _last_counts
        with threadpool_limits(limits=1, user_api="blas"):
            governor = _Governor(numba.get_num_threads())
            outer, _active = _active, governor
            try:
                return solver(*args, **kwargs)
            finally:
                _active = outer
                numba.set_num_threads(governor.limit)
                if outer is None:
                    _last_counts = governor.counts or [governor.limit]

    return wrapper


def last_solve_threads():
    """The numba thread counts the last solve used, in the order it set them (for benchmarks)."""
    return list(_last_counts)


def refresh_threads():
    """Re-evaluate the idle cores if the last look is old (called between CG blocks)."""
    if _active is not None:
        _active.refresh()


_active = None
_last_counts = []


class _Governor:
    """Sets numba's thread count to the idle cores, at most ``limit``."""

    def __init__(self, limit):
        self.limit = limit
        self.counts = []
        self.n_cpus = os.cpu_count() or 1
        self._last = None
        if limit > 1:
            others = _runnable_others()
            if others is not None:
                self._set(self.n_cpus - others)
            self._last = self._sample()

    def refresh(self):
        if self._last is None:
            return
        now = time.perf_counter()
        if now - self._last[0] < RESAMPLE_SECONDS:
            return
        sample = self._sample()
        if sample is None:
            self._last = None
            return
        seconds = sample[0] - self._last[0]
        busy, total = sample[1] - self._last[1], sample[2] - self._last[2]
        own = sample[3] - self._last[3]
        self._last = sample
        if total > 0:
            # cores kept busy by the whole machine, minus this process's share
            others = max(0.0, busy / total * self.n_cpus - own / seconds)
            self._set(self.n_cpus - others)

    def _set(self, idle):
        threads = max(1, min(self.limit, math.floor(idle + BUSY_SHARE)))
        numba.set_num_threads(threads)
        if not self.counts or threads != self.counts[-1]:
            self.counts.append(threads)

    @staticmethod
    def _sample():
        """(wall s, busy ticks, all ticks, this process's CPU s) or None without /proc/stat."""
        try:
            with open("/proc/stat") as f:
                ticks = [int(v) for v in f.readline().split()[1:]]
        except (OSError, ValueError):
            return None
        return time.perf_counter(), busy_ticks(ticks, _niced()), sum(ticks[:8]), time.process_time()


def busy_ticks(ticks, count_nice):
    """The busy time in /proc/stat's cpu line ``ticks`` (user nice system idle iowait irq softirq
    steal ...): all but idle and iowait, and without nice (the time of processes at a lower
    priority, which the scheduler runs only when our threads leave it room: a niced background
    job does not make a core busy for us) unless ``count_nice`` (this process is niced itself, so
    its own time is in that column)."""
    busy = sum(ticks[:8]) - ticks[3] - (ticks[4] if len(ticks) > 4 else 0)
    return busy if count_nice else busy - ticks[1]


def _niced():
    """Whether this process runs at a lower priority than normal (nice > 0)."""
    try:
        return os.getpriority(os.PRIO_PROCESS, 0) > 0
    except (AttributeError, OSError):
        return False


def _runnable_others():
    """Mean number of runnable tasks other than the caller, from /proc/loadavg; None if unknown."""
    total = 0
    for k in range(START_SAMPLES):
        if k:
            time.sleep(0.001)
        try:
            with open("/proc/loadavg") as f:
                total += int(f.read().split()[3].split("/")[0]) - 1
        except (OSError, ValueError, IndexError):
            return None
    return total / START_SAMPLES
