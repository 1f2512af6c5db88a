"""The timing protocol: how a seconds figure that a verdict rests on is measured.

Stated once here (the user guide's benchmarks page quotes it; the timing sweeps,
``conf/experiment/timing.yaml`` and ``conf/experiment/scale_timing.yaml``, and the scripts that time
fits outside a sweep (002's Fig 3 and Fig 8, :func:`flat`), follow it):

1. **One job at a time**: the timing sweeps run their jobs in turn (the launcher's ``n_jobs: 1``)
   with one solver thread (the papers' C++ is single-threaded); a timing job on a parallel
   launcher is refused.
2. **An idle machine**: before each job the CPU use of every other process over the last
   :data:`WINDOW` seconds (``/proc/stat``'s busy time less this process's own) must be below
   ``idle_cores`` cores; the job waits, polling, up to ``max_wait`` seconds, then is refused with a
   message naming the load.  The 1-, 5- and 15-minute load averages are recorded before and after
   each job, but not waited on: the 1-minute average lags a minute behind, so this sweep's own
   previous job would keep it high.  The other processes' CPU use *during* the job is recorded too
   (``others_busy_during``, cores, over the job or over :data:`WINDOW` seconds from its start when it is
   shorter: ``/proc/stat`` counts 10 ms ticks, so one tick of a kernel thread during a 10 ms job would read
   as a whole core); a job above ``idle_cores`` there is marked ``disturbed`` and the timing verdicts leave
   it out (:mod:`ssl_repro.claims.timing_rules`).  The job's own subprocesses (a peer's program) count as the
   job, not as other processes.
3. **What is timed**: wall and CPU seconds of the fit alone (data loading and the numba compilation
   are before the timer: :mod:`ssl_repro.harness.compilation`), with the work counts (MFN calls, CG
   iterations) beside them in the record.
4. **Repeats**: 3 repeats, interleaved across methods (``repeat`` is the sweep's outermost
   parameter, so each repeat runs every method and label count once before the next), on 3 splits;
   summaries and verdicts use medians with their range, never one run.

Sweeps that are not timing sweeps (learning curves, ablations) run jobs in parallel: their
``seconds`` are sweep throughput, kept in the records and never used for a timing verdict.
"""
import os
import time
from contextlib import contextmanager

#: Seconds over which the other processes' CPU use is measured before a job (and at least during it).  At
#: 2 cores and 10 ms ticks one tick of another process reads as 0.025 cores, a tenth of ``idle_cores``.
WINDOW = 0.2
#: The protocol's version, stored in each timing record (``timing.protocol``).  v1 (to 2026-11-26) measured
#: over 0.5 s: 0.5 s to 1 s a job that a sweep of sub-second jobs spent waiting; v2, 0.2 s.
PROTOCOL = "one-job-at-a-time/idle/v2"
#: The settings of ``timing:`` in a job configuration, with their defaults.
DEFAULTS = {"idle_cores": 0.25, "max_wait": 300.0}


class MachineBusy(OSError):
    """The machine stayed busy past the protocol's ``max_wait``: no timing job was run."""


def _busy_seconds():
    """(CPU-busy seconds of the whole machine since boot, CPU seconds of this process and of the children it
    has waited for), or (None, own) where ``/proc/stat`` cannot be read.  A job's own subprocess (a peer's
    program timed beside ours, e.g. UniverSVM) is the job, not another process."""
    own = sum(os.times()[:4])
    try:
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None, own
    busy = sum(fields) - fields[3] - (fields[4] if len(fields) > 4 else 0)     # less idle and iowait
    return busy / os.sysconf("SC_CLK_TCK"), own


def others_busy(since, now):
    """Cores' worth of CPU used by other processes between two :func:`_busy_seconds` readings, and the
    seconds between them; None where ``/proc/stat`` is not there (the load average then stands in)."""
    (busy0, own0, t0), (busy1, own1, t1) = since, now
    if busy0 is None or busy1 is None or t1 <= t0:
        return None
    return max(0.0, (busy1 - busy0) - (own1 - own0)) / (t1 - t0)


def reading():
    """A timestamped :func:`_busy_seconds` reading."""
    return (*_busy_seconds(), time.monotonic())


def wait_until_idle(idle_cores, max_wait, window=WINDOW):
    """Wait until the other processes use less than ``idle_cores`` cores over ``window`` seconds;
    return (their use, seconds waited).  Past ``max_wait`` seconds: :class:`MachineBusy`."""
    started = time.monotonic()
    while True:
        before = reading()
        time.sleep(window)
        busy = others_busy(before, reading())
        if busy is None:                        # no /proc/stat: the 1-minute load average
            busy = os.getloadavg()[0]
        waited = time.monotonic() - started - window
        if busy < idle_cores:
            return busy, waited
        if waited >= max_wait:
            loads = ", ".join(f"{v:.2f}" for v in os.getloadavg())
            raise MachineBusy(
                f"the machine stayed busy for {waited:.0f} s: other processes used {busy:.2f} cores "
                f"(over {window:g} s; load average {loads}), above the timing protocol's {idle_cores:g}: a timing "
                "job needs an idle machine; stop the other work, or wait longer with timing.max_wait=SECONDS")


def settings(timing):
    """The protocol settings of a job's ``timing:`` configuration, defaults filled; unknown keys refused."""
    unknown = sorted(set(timing or {}) - set(DEFAULTS))
    if unknown:
        raise ValueError(f"timing.{unknown[0]} is not a setting of the timing protocol: it takes "
                         + ", ".join(f"timing.{k} (default {v:g})" for k, v in DEFAULTS.items()))
    return {**DEFAULTS, **{k: float(v) for k, v in (timing or {}).items() if v is not None}}


@contextmanager
def measured(timing, parallel_jobs=None):
    """Run the body (one timing job) under the protocol; yields the dict that becomes the record's
    ``timing``: protocol, load averages before and after, the other processes' CPU use before and
    during the job, the seconds waited for an idle machine, and ``disturbed``."""
    if parallel_jobs not in (None, 1):
        raise ValueError(f"a timing job runs one at a time (the timing protocol), but this sweep's launcher runs "
                         f"{parallel_jobs} jobs at once: run it with hydra.launcher.n_jobs=1 (the timing "
                         "experiments' default)")
    config = settings(timing)
    busy_before, waited = wait_until_idle(config["idle_cores"], config["max_wait"])
    meta = {"protocol": PROTOCOL, **config, "load_before": list(os.getloadavg()),
            "others_busy_before": busy_before, "waited_seconds": waited}
    start = reading()
    yield meta
    left = WINDOW - (time.monotonic() - start[2])
    if left > 0:             # a job shorter than the window: /proc/stat counts 10 ms ticks, so measure a window
        time.sleep(left)
    during = others_busy(start, reading())
    meta.update(load_after=list(os.getloadavg()), others_busy_during=during,
                disturbed=bool(during is not None and during >= config["idle_cores"]))


def flat(meta):
    """The protocol's record of one fit (:func:`measured`'s dict) as flat CSV columns (load averages: the
    1-minute one), for the scripts that time fits outside a sweep (002's Fig 3 and Fig 8)."""
    return {"timing": meta["protocol"], "load_before": meta["load_before"][0], "load_after": meta["load_after"][0],
            "others_busy_before": meta["others_busy_before"], "others_busy_during": meta["others_busy_during"],
            "disturbed": meta["disturbed"]}
