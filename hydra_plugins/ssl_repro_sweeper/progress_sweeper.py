"""The default sweeper: Hydra's basic sweeper that counts a sweep's jobs (``conf/hydra/sweeper/progress.yaml``).

:class:`ProgressSweeper` keeps what the basic sweeper computes anyway: the
job list it expands, and each job's configuration, which the basic sweeper
composes to validate the job before launching it (here once per distinct
choice of config groups, :mod:`hydra_plugins.ssl_repro_sweeper.job_configs`,
so a 770-job sweep starts in seconds).  From those it takes each
job's output directory (``hydra.sweep.dir``/``hydra.sweep.subdir`` of the
job's configuration, as the launcher resolves it), logs how many jobs
already have a finished result and writes the list to
``<sweep dir>/.sweep/jobs.json``, from which each job reports ``done/total``
when it ends (:func:`ssl_repro.harness.progress.report`).  When the sweep ends the sweeper
logs the totals and the wall time, how many jobs this sweep computed (its jobs'
return value, :data:`ssl_repro.harness.app.RAN`) and how many another process
computed meanwhile (a second sweep into the same folder), appends them to
``<sweep dir>/.sweep/history.jsonl`` (how long each run of the sweep took)
and exits with an error naming the failed jobs' ``error.txt``.

Before any job runs, the sweep loads each dataset its jobs use once
(:func:`ssl_repro.harness.runner.check_job_data`): missing data stops it with
the one message naming the file and where to put it, instead of every job
failing (or downloading) on its own.
A sweep folder (``results_dir``/``sweep_name``) in the repository's committed
``results/`` (not its ``runs/``), or one that cannot be created or
written, stops the sweep before any job, with one ``Error:`` line naming it
and the override that fixes it; a job whose own folder cannot be created or
written is not launched (Hydra would fail the whole sweep creating it) and
counts as a failed job of the summary, named with its reason.

Decisions: the directories come from each job's configuration without the
launcher's job number, so a ``hydra.sweep.subdir`` that used
``${hydra.job.num}`` would not be counted (the project's subdir is the job's
content hash, :mod:`ssl_repro.harness.jobkey`).  Another sweeper (``hydra/sweeper=...``) runs
without progress counting.  The class lives in the ``hydra_plugins``
namespace because Hydra instantiates sweepers only from there; its plugin
scan executes this module after the basic sweeper's, so the base class is
always the one Hydra uses.
"""
import datetime
import itertools
import json
import logging
import shutil
import time
from pathlib import Path

from hydra._internal.core_plugins.basic_sweeper import BasicSweeper
from hydra.core.utils import JobStatus

from hydra_plugins.ssl_repro_sweeper.job_configs import JobConfigs
from ssl_repro.harness import jobkey
from ssl_repro.harness.app import RAN, REUSED, USER_ERRORS, local_jobs, remove_refused_run, unwritable_folder
from ssl_repro.harness.progress import HISTORY, MANIFEST, REPORTED, count_done, mark_reported
from ssl_repro.harness.result_files import (COMMITTED, ERROR_FILE, LOCK_FILE, RESULT_FILE, finished_result,
                                            in_committed, stale_lock, write_json)
from ssl_repro.harness.runner import check_job_data
from ssl_repro.harness.settings import check_settings

jobkey.register()     # the sweep's sub-directories use ${job_key:}

log = logging.getLogger("ssl_repro")


class ProgressSweeper(BasicSweeper):
    """Hydra's basic sweeper, counting its jobs at the start and summing up at the end."""

    def sweep(self, arguments):
        started = time.perf_counter()
        self.jobs, self.done_before, self.unwritable, self.launched = None, 0, {}, False
        sweep_dir = Path(str(self.config.hydra.sweep.dir))
        problem = unwritable_folder(sweep_dir)
        if problem:
            raise SystemExit(f"Error: cannot write the sweep folder {sweep_dir} ({problem}); "
                             "set results_dir=DIR to a folder you can write (or a shorter sweep_name=NAME)")
        if in_committed(sweep_dir):
            raise SystemExit(f"Error: the sweep folder {sweep_dir} is in the repository's committed results "
                             f"({COMMITTED}), which aggregate and plots refuse to write: set results_dir=DIR outside "
                             f"it, or leave results_dir out (sweeps write to results/runs, which is not committed)")
        log.info("sweep %s: composing its jobs, checking their settings and data", sweep_dir)
        created = next((folder for folder in reversed([sweep_dir, *sweep_dir.parents]) if not folder.exists()), None)
        had_multirun = (sweep_dir / "multirun.yaml").exists()
        try:
            returns = super().sweep(arguments)
        except (SystemExit, KeyboardInterrupt) as stop:
            if not self.launched:       # refused or interrupted before any job: nothing left behind
                remove_unlaunched(sweep_dir, created, had_multirun)
            if isinstance(stop, KeyboardInterrupt):
                if not self.launched:
                    raise SystemExit(f"Interrupted: sweep {sweep_dir} stopped while composing its jobs, before "
                                     "running any (nothing left behind)") from None
                interrupted(sweep_dir, self.jobs, created, had_multirun)
            raise
        said = [job.return_value for batch in returns for job in batch if job.status == JobStatus.COMPLETED]
        self._sum_up(time.perf_counter() - started, said.count(RAN), said.count(REUSED))
        return returns

    def validate_batch_is_legal(self, batch):
        """Compose the jobs as the basic sweeper does to validate them, keeping their directories.

        On the first batch every job of the sweep (all batches) is composed,
        so the manifest lists the whole sweep before any job runs.
        """
        if self.jobs is not None:
            batch[:] = [job for job in batch if tuple(job) not in self.skipped]
            self.launched = True
            return
        compose = JobConfigs(self.hydra_context.config_loader, self.config)
        self.jobs, data, timed, self.skipped, first = [], {}, False, set(), {}
        composed = {}
        for overrides in itertools.chain.from_iterable(self.overrides):
            job = composed[tuple(overrides)] = compose(overrides)
            directory, task = job.directory, job.task
            check_job_settings(task, overrides)
            timed = timed or task.get("timing") is not None
            if str(directory) in first:    # the same job under another name (method=tsvm,tsvm_s1)
                earlier = first[str(directory)]
                log.info("%s is the job of %s (same settings, same folder): run once",
                         " ".join(o for o in overrides if o not in earlier),
                         " ".join(o for o in earlier if o not in overrides))
                self.skipped.add(tuple(overrides))
                continue
            first[str(directory)] = overrides
            data.setdefault(json.dumps([task.get(k) for k in ("dataset", "data_root", "download")], sort_keys=True,
                                       default=str), task)
            self.jobs.append(str(directory))
            problem = unwritable_folder(directory)
            if problem:
                self.unwritable[tuple(overrides)] = f"{directory.resolve()}: cannot write it ({problem})"
                self.skipped.add(tuple(overrides))
                continue
            self.done_before += finished_result(directory, task) is not None
        check_data(data.values())
        if hasattr(self.launcher, "composed"):      # the local launcher takes the jobs as composed here
            self.launcher.composed = composed
        check_timing_launcher(timed, self.config.hydra.launcher)
        sweep_dir = Path(str(self.config.hydra.sweep.dir))
        write_json(sweep_dir / MANIFEST, {"sweep_dir": str(sweep_dir), "jobs": self.jobs})
        mark_reported(sweep_dir, self.done_before)      # the jobs found done print no progress line each
        log.info("sweep %s: %d jobs, %d already done, %d to run", sweep_dir, len(self.jobs), self.done_before,
                 len(self.jobs) - self.done_before - len(self.unwritable))
        for reason in self.unwritable.values():
            log.error("job folder %s: not run", reason)
        batch[:] = [job for job in batch if tuple(job) not in self.skipped]
        self.launched = True

    def _sum_up(self, seconds, ran, reused=0):
        """Log the totals (``ran``: jobs this sweep computed; ``reused``: jobs it copied from another sweep's
        folder), append them to the history, fail if a job failed."""
        sweep_dir = Path(str(self.config.hydra.sweep.dir))
        done = count_done(self.jobs)
        failed = [str(Path(job) / ERROR_FILE) for job in self.jobs
                  if (Path(job) / ERROR_FILE).exists() and not (Path(job) / RESULT_FILE).exists()]
        failed += list(self.unwritable.values())
        elsewhere = max(0, done - self.done_before - ran - reused)
        running = len(self.jobs) - done - len(failed)       # locked by another process, not finished yet
        log.info("sweep %s: finished in %.1f s, %d/%d jobs done (%d run by this sweep, %d by another process "
                 "meanwhile, %d done before%s), %d failed%s", sweep_dir, seconds, done, len(self.jobs), ran, elsewhere,
                 self.done_before, f", {reused} copied from another sweep's folder" if reused else "", len(failed),
                 f", {running} still running in another process" if running else "")
        entry = {"ended": datetime.datetime.now().isoformat(timespec="seconds"), "seconds": round(seconds, 2),
                 "jobs": len(self.jobs), "done_before": self.done_before, "done_after": done, "ran": ran,
                 "reused": reused,
                 "ran_elsewhere": elsewhere,
                 "command_line": list(self.config.hydra.overrides.task), "failed": len(failed)}
        with open(sweep_dir / HISTORY, "a") as f:
            f.write(json.dumps(entry) + "\n")
        if failed:
            raise SystemExit(f"sweep {sweep_dir}: {len(failed)} job(s) failed; see " + ", ".join(failed[:5]))


def check_job_settings(task, overrides):
    """Check every setting of one job before any job runs (:func:`ssl_repro.harness.settings.check_settings`);
    a refused one ends the sweep with its one message, naming the job."""
    try:
        check_settings(task)
    except ValueError as error:
        raise SystemExit(f"Error: {error}\n(job {' '.join(overrides)}; the sweep checks every job's settings "
                         "before launching any: no job was run)") from None


#: What a sweep writes in its folder before any job's result: its config, its job list, its progress mark.
SWEEP_FILES = (Path("multirun.yaml"), MANIFEST, REPORTED)


def remove_unlaunched(sweep_dir, created, had_multirun):
    """Remove what a sweep refused or interrupted before any job finished wrote: the folders it created
    when they hold nothing but :data:`SWEEP_FILES` (its ``multirun.yaml``, job list and progress mark), else
    those files where they were not before."""
    if created is not None and {p.name for p in created.rglob("*") if p.is_file()} <= {f.name for f in SWEEP_FILES}:
        shutil.rmtree(created)
    elif not had_multirun:
        for name in SWEEP_FILES:
            (Path(sweep_dir) / name).unlink(missing_ok=True)


def interrupted(sweep_dir, jobs, created=None, had_multirun=True, wait=5.0):
    """After Ctrl-C: remove the ``.job.lock`` files of this sweep's jobs whose owner has ended (the
    launcher's workers stop with the sweep; waits up to ``wait`` seconds for them), then the folders of
    the jobs it interrupted (those holding only what Hydra writes before a job's result,
    :func:`~ssl_repro.harness.app.remove_refused_run`, as a single run interrupted leaves none) and, when no
    job is done, what :func:`remove_unlaunched` removes; then end with one line saying what is done and how
    to go on.  A job whose lock is still held (another process) and a failed job's ``error.txt`` are kept;
    so is every finished result, so the same command computes only the rest."""
    locks = [Path(job) / LOCK_FILE for job in jobs]
    deadline = time.monotonic() + wait
    while True:
        held = [lock for lock in locks if lock.exists() and not stale_lock(lock)]
        if not held or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    for lock in locks:
        if lock.exists() and stale_lock(lock):
            lock.unlink(missing_ok=True)
        if not lock.exists():
            remove_refused_run(lock.parent, root=sweep_dir)
    if count_done(jobs) == 0:
        remove_unlaunched(sweep_dir, created, had_multirun)
    raise SystemExit(f"Interrupted: sweep {sweep_dir} stopped, {count_done(jobs)}/{len(jobs)} jobs done; "
                     "the same command computes the rest" + (f" ({len(held)} job(s) still locked by a running "
                                                             "process)" if held else "")) from None


def check_data(configs):
    """Load the data of each job configuration of ``configs`` (one per dataset) before any job runs;
    missing data (or a refused dataset setting) ends the sweep with its one message."""
    for config in configs:
        try:
            check_job_data(config)
        except USER_ERRORS as error:
            raise SystemExit(f"Error: {error}\n(the sweep loads its data once before launching jobs: "
                             "no job was run)") from None


def check_timing_launcher(timed, launcher):
    """A sweep of timing jobs (the timing protocol: one job at a time) on a launcher that runs several
    at once ends before any job, with one line saying how to run it."""
    jobs = local_jobs(launcher) or 1
    if timed and jobs != 1:
        raise SystemExit(f"Error: this sweep's jobs are timed (the timing protocol: one job at a time) but its launcher "
                         f"runs {jobs} at once: drop the n_jobs override, or set hydra.launcher.n_jobs=1")
