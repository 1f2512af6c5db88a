"""What ``run.py`` does with a composed configuration: skip, or run and store, one job."""
import logging
import os
import shutil
import tempfile
import traceback
from pathlib import Path

from ssl_repro.harness import timing_protocol
from ssl_repro.harness.progress import report
from ssl_repro.harness.settings import check_settings, check_solver_threads
from ssl_repro.harness.runner import train_job
from ssl_repro.harness.result_files import (ERROR_FILE, RESULT_FILE, copy_result, finished_result, job_lock, remove_stale_temp_files,
                           sibling_result, write_arrays, write_result)

log = logging.getLogger("ssl_repro")


def job_threads(solver_threads=None, parallel_jobs=None):
    """Threads one job's solver may use.

    ``solver_threads`` if set; else, when ``parallel_jobs`` jobs share this
    machine (the local launcher's ``n_jobs``, :func:`local_jobs`; negative as in joblib), the
    job's share of the cores it may run on; else those cores (under SLURM
    the task's allocation, not the node's), at most ``OMP_NUM_THREADS`` where
    the launcher sets it (Ray sets it to the task's ``num_cpus``).
    """
    if solver_threads is not None:
        return check_solver_threads(solver_threads)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if parallel_jobs:
        from joblib import effective_n_jobs
        return max(1, cores // min(effective_n_jobs(int(parallel_jobs)), cores))
    omp = os.environ.get("OMP_NUM_THREADS", "")
    return max(1, min(cores, int(omp))) if omp.isdigit() else cores


def local_jobs(launcher):
    """How many jobs a sweep's ``launcher`` (its Hydra settings) runs at once on this machine: the
    ``n_jobs`` of the local launchers (the project's ``local``, Hydra's ``joblib``), None for the others
    (a cluster's, or a single run)."""
    target = str(launcher.get("_target_", ""))
    return launcher.get("n_jobs") if "local_launcher" in target or "joblib" in target else None


def limit_threads(threads):
    """Make this process's numba pool and its BLAS/OpenMP pools use ``threads`` threads.

    (What ``NUMBA_NUM_THREADS`` / ``OMP_NUM_THREADS`` would do, but effective
    after the libraries are loaded, as they are in a launcher's worker.)
    """
    import numba
    from threadpoolctl import threadpool_limits
    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))
    threadpool_limits(limits=threads)
    return numba.get_num_threads()


#: Errors a user's input causes: a refused value (ValueError, scikit-learn's InvalidParameterError),
#: a missing data file (:class:`~ssl_repro.data.DatasetNotAvailable`), an unreachable cluster
#: (ConnectionError); their messages name the problem and the override that fixes it.
USER_ERRORS = (ValueError, OSError)

#: What Hydra writes into a single run's folder before the job starts (its configs, its log), and the
#: arrays a job on a user's own files writes just before its ``result.json``.
HYDRA_RUN_FILES = {".hydra", "run.log", "weights.npy", "outputs.npz"}


def remove_refused_run(output_dir, root="outputs"):
    """Remove the folder of a run that was refused or interrupted before it stored its result:
    when it holds only :data:`HYDRA_RUN_FILES`, it goes, and so do its parents left empty, up to and
    including ``root`` (relative to the working directory: Hydra's ``outputs/`` for a single run; a
    sweep's folder for its jobs) but never above it.
    Decision: a refused or interrupted run leaves nothing behind; its message is on the console."""
    folder = Path(output_dir).absolute()
    if not folder.is_dir() or not {p.name for p in folder.iterdir()} <= HYDRA_RUN_FILES:
        return
    shutil.rmtree(folder)
    top = (Path.cwd() / root).absolute()
    parent = folder.parent
    while (parent == top or top in parent.parents) and not any(parent.iterdir()):
        parent.rmdir()
        if parent == top:
            break
        parent = parent.parent


def unwritable_folder(directory):
    """Why the folder ``directory`` cannot be created or written (None if it can), told from its
    nearest existing ancestor: a name longer than that file system allows (``NAME_MAX``, usually 255
    bytes), an ancestor that is not a folder or not writable, or a folder that cannot be made in it.
    Permissions alone do not tell (root may write anywhere, yet not make a folder in ``/proc``), so a
    folder of a unique name is made in the ancestor and removed at once; the path itself is never
    created (another process may be creating it)."""
    path = Path(directory).absolute()
    missing = []
    while not os.path.exists(path) and path != path.parent:      # (Path.exists raises on a too-long name)
        missing.append(path.name)
        path = path.parent
    if not path.is_dir():
        return f"{path} is not a folder"
    longest = max(missing, key=lambda name: len(os.fsencode(name)), default="")
    allowed = os.pathconf(path, "PC_NAME_MAX") if hasattr(os, "pathconf") else 255
    if len(os.fsencode(longest)) > allowed:
        return f"the name {longest[:40]}... is {len(os.fsencode(longest))} bytes long, more than the {allowed} allowed"
    if not os.access(path, os.W_OK | os.X_OK):
        return f"{path}: permission denied"
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".write-test-", dir=path))
    except OSError as error:
        return f"cannot make a folder in {path}: {error.strerror}"
    return None


def unwritable_file(path, option):
    """The ``Error:`` line for a command's ``option`` naming a file ``path`` it would write but cannot (a
    folder, a missing folder, a folder it cannot write: :func:`unwritable_folder`), checked before the command's
    work; None when it can be written."""
    path = Path(path)
    problem = ("it is a folder" if path.is_dir() else "its folder does not exist" if not path.parent.is_dir()
               else unwritable_folder(path.parent))
    return f"Error: {option} {path} cannot be written ({problem}): give a file in a folder you can write" if problem \
        else None


#: What :func:`run_or_skip` did with a job: computed it, found its record, left it to the
#: process holding its lock, (in a sweep) recorded its failure, or copied the record of the same job
#: from another sweep's folder (:func:`.result_files.sibling_result`).
RAN, FOUND, ELSEWHERE, FAILED, REUSED = "ran", "found", "elsewhere", "failed", "reused"


def run_configured_job(cfg, output_dir, sweep_dir=None, parallel_jobs=None):
    """Run the job of ``cfg`` into ``output_dir/result.json`` unless it is already there.

    Returns the record (stored or new), or None when another process holds
    the job's lock (it is computing the job) or, in a sweep, when the job
    failed (its traceback is then in ``output_dir/error.txt``, its message
    in one log line, and the sweep goes on).  ``sweep_dir``, in a multirun, is
    the sweep whose done/remaining count is logged after the job;
    ``parallel_jobs``, how many jobs the launcher runs at once on this
    machine (see :func:`job_threads`).
    """
    return run_or_skip(cfg, output_dir, sweep_dir, parallel_jobs)[1]


def run_or_skip(cfg, output_dir, sweep_dir=None, parallel_jobs=None):
    """:func:`run_configured_job` and what it did with the job: (``RAN``, ``FOUND``, ``ELSEWHERE``,
    ``FAILED`` or ``REUSED``, the record or None); the sweep's summary counts these.  Each job is reported once,
    in one log line (Hydra shows it on the console and keeps it in the job's log): its scores,
    seconds and result file, or why it was skipped or failed."""
    check_settings(cfg)         # every setting, before a result is looked up or data are read
    job = (f"{cfg['dataset']['name']} {cfg['method']['variant']} split={cfg['split']} "
           f"l={cfg['n_labeled']}")
    status, record, source = FOUND, finished_result(output_dir, cfg), None
    if record is None:
        with job_lock(output_dir) as mine:
            record = finished_result(output_dir, cfg)      # finished while we waited for the lock?
            if not mine:
                log.info("%s: being computed by another process (%s), skipped", job, output_dir)
                return ELSEWHERE, None
            if record is None and sweep_dir is not None:
                record, source = sibling_result(output_dir, sweep_dir, cfg)
            if record is not None and source is not None:
                (Path(output_dir) / ERROR_FILE).unlink(missing_ok=True)
                status, record = REUSED, copy_result(record, source, output_dir)
            elif record is None:
                try:
                    status, record = RAN, _run_and_store(cfg, output_dir, job, parallel_jobs)
                except Exception as error:
                    if sweep_dir is None or isinstance(error, timing_protocol.MachineBusy):
                        raise       # a busy machine stops a timing sweep: its next jobs would wait too
                    # in a sweep: keep the error beside the job and go on; the sweep's
                    # summary counts it and the sweep exits with an error
                    (Path(output_dir) / ERROR_FILE).write_text(traceback.format_exc())
                    message = " ".join(str(error).split()) or type(error).__name__
                    log.error("%s: failed: %s (traceback in %s)", job, message, Path(output_dir) / ERROR_FILE)
                    report(sweep_dir, output_dir)
                    return FAILED, None
    said = {FOUND: "already done, skipped: ", REUSED: f"done in {source}, copied: "}.get(status, "")
    log.info("%s: %s%s, %.2f s -> %s", job, said, scores(record), record["seconds"], Path(output_dir) / RESULT_FILE)
    if sweep_dir is not None:
        report(sweep_dir, output_dir)
    return status, record


def _run_and_store(cfg, output_dir, job, parallel_jobs):
    threads = limit_threads(job_threads(cfg.get("solver_threads"), parallel_jobs))
    remove_stale_temp_files(output_dir)
    (Path(output_dir) / ERROR_FILE).unlink(missing_ok=True)

    def running():          # said once the data are read: a missing file's Error: line comes alone
        log.info("%s: running (%d solver thread%s)", job, threads, "s" * (threads != 1))
    if cfg.get("timing") is None:
        record, arrays = train_job(cfg, running)
    else:                   # a timing job: one at a time, on an idle machine (the timing protocol)
        with timing_protocol.measured(cfg["timing"], parallel_jobs) as measurement:
            record, arrays = train_job(cfg, running)
        record["timing"] = measurement
    write_arrays(output_dir, arrays)        # own data: weights.npy, outputs.npz (before result.json)
    write_result(output_dir, record)
    return record


def scores(record):
    """The record's errors, objective and convergence in words; errors that could not be
    scored (no test rows, or no known truth) are said so, not printed as nan."""
    parts = []
    for key, name, absent in (("test_error", "test error", "no test rows"),
                              ("transductive_error", "transductive error", "no unlabeled rows of known label")):
        value = record.get(key)
        parts.append(f"{name} {value:.4f}" if value is not None and value == value else absent)
    parts.append(f"own objective {record['objective_own']:.6f}")
    if not record.get("converged", True):
        parts.append(f"NOT converged ({stop_in_words(record['diagnostics'])})")
    if record["diagnostics"].get("suspect"):
        parts.append(f"SUSPECT answer ({', '.join(record['diagnostics']['suspect'])}: see the warning above)")
    return ", ".join(parts)


def stop_in_words(diagnostics):
    """Why a solver stopped short, in words: "stopped on max_outer; inner cap max_inner reached 2 times"."""
    reason = diagnostics.get("stop_reason")
    words = ["stopped by its own rule" if reason == "tolerance" else f"stopped on {reason}"]
    words += [f"inner cap {cap} reached {times} time{'s' * (times != 1)}"
              for cap, times in (diagnostics.get("capped") or {}).items()]
    return "; ".join(words)
