"""How ``run all`` runs its steps and what each one's row of the run record holds: a step's child process alone,
or two one-core steps side by side (:func:`batches`, :func:`run_batch`), or the in-process re-rendering that ends
the run (:func:`timed`).

A pair's wall time counts once: the run's total is the batches' wall seconds, a pair's estimate the longer of
the two (:func:`batch_seconds`).  Each member keeps its own row: its own wall seconds, its own CPU seconds (the
child's resource usage, :func:`os.wait4`), the load before and after, and ``beside``, the step it ran beside.

A run may go on over several sessions (``run all --resume``, :func:`resumed_run`): it skips the steps its rows
show finished and adds its rows under the same start, and only on the commit it started on.
"""
import json
import os
import subprocess
import time
from pathlib import Path

import pandas as pd

from ssl_repro.harness.progress import HISTORY
from ssl_repro.utils import provenance as prov

from script_steps import RUN_PROVENANCE, RUN_RECORD

#: Added to the environment of a pair's children: one BLAS/OpenMP/numba thread each, so that the two fill the two
#: cores without oversubscribing them.
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1"}
#: How often a running batch looks for a child that ended (seconds).
POLL = 0.05
#: How long a stopped child gets to end after SIGTERM before it is killed (seconds).
GRACE = 5.0


def batches(steps):
    """``steps`` in order, grouped as they run: two adjacent steps that may share the machine (``one_core``)
    together, every other step alone."""
    grouped = []
    for s in steps:
        if s.one_core and grouped and len(grouped[-1]) == 1 and grouped[-1][0].one_core:
            grouped[-1].append(s)
        else:
            grouped.append([s])
    return grouped


def batch_seconds(batch):
    """A batch's estimated wall seconds: its step's, or the longer of a pair's (None: no member's recorded).
    No allowance for the two sharing memory bandwidth: measured side by side, each kernel script took no more
    CPU seconds than alone, and the records its estimate reads are rewritten by the paired run itself."""
    known = [s.seconds for s in batch if s.seconds is not None]
    return max(known) if known else None


#: A step's job counts in its row: none for a script or the re-rendering (:func:`sweep_jobs`).
NO_JOBS = {"jobs": None, "jobs_ran": None, "jobs_copied": None}


def step_row(name, seconds, cpu_seconds, estimate, load_before, command, beside="", jobs=NO_JOBS):
    """One step's row of the run record (the 1-minute load average after is read now)."""
    return {"step": name, "seconds": round(seconds, 2), "cpu_seconds": round(cpu_seconds, 2),
            "estimate_seconds": None if estimate is None else round(estimate, 1),
            "load_before": load_before, "load_after": os.getloadavg()[0], "command": command, "beside": beside,
            **jobs}


def history_entries(sweep):
    """The entries of the sweep folder ``sweep``'s history (one a sweep command that ended; [] for None or
    none yet)."""
    if sweep is None or not (Path(sweep) / HISTORY).exists():
        return []
    return [json.loads(line) for line in (Path(sweep) / HISTORY).read_text().splitlines() if line.strip()]


def sweep_jobs(sweep, before):
    """The job counts of a step that ran the sweep folder ``sweep`` (None: a script), from the history entries
    its sweep commands appended after the first ``before``: the jobs the sweep holds, those it ran and those it
    copied from another sweep's folder."""
    new = history_entries(sweep)[before:]
    if not new:
        return NO_JOBS
    return {"jobs": new[-1]["jobs"], "jobs_ran": sum(e["ran"] for e in new),
            "jobs_copied": sum(e.get("reused", 0) for e in new)}


def run_batch(batch, cwd, record, popen=subprocess.Popen, env=None):
    """Run the steps of ``batch`` (one, or a pair with :data:`ONE_THREAD`) as child processes started together
    by ``popen`` in ``cwd``, with ``env`` ({variable: value}) added to their environment, and wait for all;
    ``record(row)`` takes each step's row (:func:`step_row`) as the step ends.  When a step fails, or the wait is
    interrupted, the children still running are stopped (SIGTERM, then SIGKILL after :data:`GRACE` s) before a
    failure ends the run with SystemExit naming the step."""
    env = {**os.environ, **(env or {}), **(ONE_THREAD if len(batch) > 1 else {})}
    load_before, running = os.getloadavg()[0], {}
    history = {s.name: len(history_entries(s.sweep)) for s in batch}
    try:
        for s in batch:
            running[s.name] = (s, popen(s.argv, cwd=cwd, env=env), time.perf_counter())
        while running:
            name, status, usage = next_end({n: child for n, (_, child, _) in running.items()})
            s, child, started = running.pop(name)
            child.returncode = os.waitstatus_to_exitcode(status)
            if child.returncode:
                raise SystemExit(f"run all: step {name} failed (exit {child.returncode}): {' '.join(s.argv)}"
                                 + (f"; stopped {', '.join(running)}, which ran beside it" if running else ""))
            record(step_row(name, time.perf_counter() - started, usage.ru_utime + usage.ru_stime, s.seconds,
                            load_before, " ".join(s.argv[1:]), ", ".join(o.name for o in batch if o is not s),
                            sweep_jobs(s.sweep, history[name])))
    finally:
        for _, child, _ in running.values():
            stop(child)


def next_end(children):
    """(name, wait status, resource usage) of the first of ``children`` ({name: Popen}) to end, reaped: a
    blocking wait when one is left (nothing polls beside a step that runs alone), else a look every
    :data:`POLL` s."""
    while True:
        for name, child in children.items():
            pid, status, usage = os.wait4(child.pid, 0 if len(children) == 1 else os.WNOHANG)
            if pid:
                return name, status, usage
        time.sleep(POLL)


def stop(child):
    """End ``child`` (a :class:`subprocess.Popen`): SIGTERM, SIGKILL if it is still running :data:`GRACE` s later."""
    child.terminate()
    try:
        child.wait(GRACE)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()


def timed(name, call, estimate, command):
    """Run ``call()`` in this process; its row (:func:`step_row`): wall seconds, CPU seconds (this process and
    the processes it ran, ``resource``'s self and children), the load before and after, the estimate."""
    import resource

    def cpu():
        return sum(u.ru_utime + u.ru_stime for u in (resource.getrusage(resource.RUSAGE_SELF),
                                                       resource.getrusage(resource.RUSAGE_CHILDREN)))
    load_before, cpu_before, started = os.getloadavg()[0], cpu(), time.perf_counter()
    call()
    return step_row(name, time.perf_counter() - started, cpu() - cpu_before, estimate, load_before, command)


def resumed_run(results):
    """(start, finished) of the run that ``run all --resume`` continues in ``results``: the last run's start, as
    its ``run_all/provenance.json`` (written as it started) and its rows of the run record name it, and the names
    of the steps those rows show finished.

    Decision: a run continues only on the commit it started on, with a clean tree, so that every record of a run
    made over several sessions shares one commit; a run record from another commit, or none, ends the command
    with one ``Error:`` line.  Finished steps are skipped whole; an unfinished sweep resumes at its job level
    (its finished jobs stay), an unfinished script runs again."""
    folder, started = Path(results) / RUN_RECORD.parent, Path(results) / RUN_PROVENANCE
    if not started.exists():
        raise SystemExit(f"Error: --resume: no run to continue in {folder} (no provenance.json): run all without "
                         f"--resume starts one")
    first = json.loads(started.read_text())["provenance"]
    code = prov.git_commit()
    if not code or code.endswith(prov.UNCOMMITTED) or first.get("git_commit") != code:
        raise SystemExit(f"Error: --resume: the run in {folder} started on commit {first.get('git_commit')}, and "
                         f"the code here is {code or 'not a git checkout'}: a run continues only on the commit it "
                         f"started on, with a clean tree; check that commit out, or run all without --resume "
                         f"to start anew")
    record = Path(results) / RUN_RECORD
    rows = pd.read_csv(record) if record.exists() else pd.DataFrame(columns=["run", "step"])
    finished = set(rows.loc[rows["run"] == first["date"], "step"])
    return first["date"], finished


def note_resumed(results):
    """Add this session's provenance (date, machine, load) to the ``resumed`` list of the run's
    ``run_all/provenance.json``: where and when each part of a run made over several sessions ran."""
    path = Path(results) / RUN_PROVENANCE
    record = json.loads(path.read_text())
    record["resumed"] = record.get("resumed", []) + [prov.provenance()]
    path.write_text(json.dumps(record, indent=1))
