"""What ``run.py`` does with a composed configuration: skip, or run and store, one job."""
import logging
from pathlib import Path

from .runner import run_job
from .store import RESULT_FILE, finished_result, write_result

log = logging.getLogger("ssl_repro")


def run_configured_job(cfg, output_dir, sweep_dir=None):
    """Run the job of ``cfg`` into ``output_dir/result.json`` unless it is already there.

    Returns the record (stored or new).  ``sweep_dir``, in a multirun, is
    where the sweep's results are counted for the progress line.
    """
    if cfg.get("solver_threads"):
        import numba
        numba.set_num_threads(int(cfg["solver_threads"]))
    job = (f"{cfg['dataset']['name']} {cfg['method']['variant']} split={cfg['split']} "
           f"l={cfg['n_labeled']}")
    record = finished_result(output_dir, cfg)
    if record is not None:
        log.info("%s: already done, skipped (%s)", job, Path(output_dir) / RESULT_FILE)
    else:
        log.info("%s: running", job)
        record = run_job(cfg)
        write_result(output_dir, record)
        log.info("%s: done in %.2f s: test error %.4f, transductive error %.4f, objective %.6f",
                 job, record["seconds"], record["test_error"], record["transductive_error"],
                 record["objective"])
    if sweep_dir is not None:
        done = sum(1 for _ in Path(sweep_dir).rglob(RESULT_FILE))
        log.info("sweep %s: %d job results on disk", sweep_dir, done)
    print(f"{job}: test error {record['test_error']:.4f}, transductive error "
          f"{record['transductive_error']:.4f}, objective {record['objective']:.6f}, "
          f"{record['seconds']:.2f} s -> {Path(output_dir) / RESULT_FILE}")
    return record
