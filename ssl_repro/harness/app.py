"""What ``run.py`` does with a composed configuration: skip, or run and store, one job."""
import logging
import os
from pathlib import Path

from .progress import report
from .runner import run_job
from .store import RESULT_FILE, finished_result, remove_stale_temp_files, write_result

log = logging.getLogger("ssl_repro")


def job_threads(solver_threads=None, parallel_jobs=None):
    """Threads one job's solver may use.

    ``solver_threads`` if set; else, when ``parallel_jobs`` jobs share this
    machine (the joblib launcher's ``n_jobs``; negative as in joblib), the
    job's share of the cores it may run on; else those cores (under SLURM
    the task's allocation, not the node's), at most ``OMP_NUM_THREADS`` where
    the launcher sets it (Ray sets it to the task's ``num_cpus``).
    """
    if solver_threads:
        return int(solver_threads)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if parallel_jobs:
        from joblib import effective_n_jobs
        return max(1, cores // min(effective_n_jobs(int(parallel_jobs)), cores))
    omp = os.environ.get("OMP_NUM_THREADS", "")
    return max(1, min(cores, int(omp))) if omp.isdigit() else cores


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


def run_configured_job(cfg, output_dir, sweep_dir=None, parallel_jobs=None):
    """Run the job of ``cfg`` into ``output_dir/result.json`` unless it is already there.

    Returns the record (stored or new).  ``sweep_dir``, in a multirun, is
    the sweep whose done/remaining count is logged after the job;
    ``parallel_jobs``, how many jobs the launcher runs at once on this
    machine (see :func:`job_threads`).
    """
    job = (f"{cfg['dataset']['name']} {cfg['method']['variant']} split={cfg['split']} "
           f"l={cfg['n_labeled']}")
    record = finished_result(output_dir, cfg)
    if record is not None:
        log.info("%s: already done, skipped (%s)", job, Path(output_dir) / RESULT_FILE)
    else:
        threads = limit_threads(job_threads(cfg.get("solver_threads"), parallel_jobs))
        log.info("%s: running (%d solver thread%s)", job, threads, "s" * (threads != 1))
        remove_stale_temp_files(output_dir)
        record = run_job(cfg)
        write_result(output_dir, record)
        log.info("%s: done in %.2f s: test error %.4f, transductive error %.4f, own objective %.6f",
                 job, record["seconds"], record["test_error"], record["transductive_error"],
                 record["objective_own"])
    if sweep_dir is not None:
        report(sweep_dir, output_dir)
    print(f"{job}: test error {record['test_error']:.4f}, transductive error "
          f"{record['transductive_error']:.4f}, own objective {record['objective_own']:.6f}, "
          f"{record['seconds']:.2f} s -> {Path(output_dir) / RESULT_FILE}")
    return record
