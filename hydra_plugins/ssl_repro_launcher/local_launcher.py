"""The default launcher of the sweeps (``hydra/launcher=local``): jobs in parallel on this machine, each
job's configuration composed once, in the sweep's process, from a template.

Hydra's joblib launcher, which this replaces as the default, sends every job Hydra's whole state (its
config store included) to a worker, which composes the job's configuration from scratch and writes
three YAML files beside it: about 0.2 CPU s a job on this project's 2-core machine (measured
2026-11-27: 80 one-line RLS fits on pcmac, 18.2 CPU s against 3.8 for one), a sweep's whole cost where the
fits take a fraction of a second (pcmac's 1,210-job learning curve).  Here the jobs come as the project's
sweeper composed them to check them before any job ran (:attr:`LocalLauncher.composed`; under another
sweeper the launcher composes them the same way: :class:`hydra_plugins.ssl_repro_sweeper.job_configs.JobConfigs`,
one Hydra composition per distinct choice of config groups, checked against Hydra's own) and a worker gets only
the job's folder and its resolved settings, runs :func:`ssl_repro.harness.app.run_or_skip` (what
``run.py`` runs) and returns what it did.

Each job's folder keeps what Hydra's launchers leave there for a reader: ``.hydra/config.yaml`` (the
job's settings) and ``.hydra/overrides.yaml``, and ``run.log`` (the job's log lines, in Hydra's format).
Decision: Hydra's ``.hydra/hydra.yaml`` (a dump of Hydra's own settings, the same for every job of a
sweep) is not written per job: the sweep folder's ``multirun.yaml`` holds it once.

Workers: ``n_jobs`` loky processes (joblib's), which keep their compiled kernels and loaded data from
job to job; joblib's automatic batching sends several sub-second jobs to a worker at once.  With
``n_jobs: 1`` (the timing sweeps: one job at a time) the jobs run in the sweep's own process, in turn,
and a job refused by the timing protocol (:class:`~ssl_repro.harness.timing_protocol.MachineBusy`) ends
the sweep with its message, as ``run.py`` ends a single run.  Each job's solver threads are its share
of the cores (:func:`ssl_repro.harness.app.job_threads` with ``parallel_jobs=n_jobs``).
"""
import logging
from pathlib import Path

from hydra.core.utils import JobReturn, JobStatus, configure_log, setup_globals
from hydra.plugins.launcher import Launcher
from joblib import Parallel, delayed, effective_n_jobs
from omegaconf import OmegaConf

from hydra_plugins.ssl_repro_sweeper.job_configs import JobConfigs
from ssl_repro.harness.app import run_or_skip
from ssl_repro.harness.timing_protocol import MachineBusy

log = logging.getLogger(__name__)

#: Hydra's format of a job's log lines (its default ``hydra/job_logging``), on the console and in ``run.log``.
JOB_FORMAT = "[%(asctime)s][%(name)s][%(levelname)s] - %(message)s"
#: The log file each job leaves in its folder (Hydra's ``<job name>.log``; the job is ``run.py``).
JOB_LOG = "run.log"


class SweepLauncher(Launcher):
    """What the project's launchers share: Hydra's context kept by :meth:`setup`, and :meth:`start`."""

    hydra_context = task_function = config = None

    def setup(self, *, hydra_context, task_function, config):
        self.hydra_context, self.task_function, self.config = hydra_context, task_function, config

    def start(self):
        """Hydra's globals and its own logging set up, the sweep folder made; returns the folder."""
        setup_globals()
        configure_log(self.config.hydra.hydra_logging, self.config.hydra.verbose)
        sweep_dir = Path(str(self.config.hydra.sweep.dir))
        sweep_dir.mkdir(parents=True, exist_ok=True)
        return sweep_dir


class LocalLauncher(SweepLauncher):
    """Hydra launcher: the sweep's jobs on ``n_jobs`` local processes (module doc)."""

    def __init__(self, n_jobs=2):
        self.n_jobs = n_jobs
        #: The jobs' configurations as the project's sweeper composed them (overrides -> JobConfig), so
        #: that they are not composed twice; a job missing there is composed here.
        self.composed = {}

    def launch(self, job_overrides, initial_job_idx):
        sweep_dir = self.start()
        compose = JobConfigs(self.hydra_context.config_loader, self.config)
        jobs = [(list(overrides), self.composed.get(tuple(overrides)) or compose(overrides))
                for overrides in job_overrides]
        at_once = max(1, min(effective_n_jobs(int(self.n_jobs)), len(jobs)))
        log.info("local launcher: %d jobs, %d at once, sweep output dir: %s", len(jobs), at_once, sweep_dir)
        if at_once == 1:
            outcomes = [_in_this_process(overrides, job, sweep_dir, self.n_jobs) for overrides, job in jobs]
        else:
            outcomes = Parallel(n_jobs=at_once, backend="loky")(
                delayed(run_one)(overrides, job.directory, job.task, sweep_dir, self.n_jobs)
                for overrides, job in jobs)
        return [_job_return(overrides, job, outcome) for (overrides, job), outcome in zip(jobs, outcomes)]


def run_one(overrides, directory, task, sweep_dir, n_jobs):
    """Run one job in this process (a worker): its folder's ``.hydra`` files and ``run.log``, then
    :func:`~ssl_repro.harness.app.run_or_skip`.  Returns (True, what it did) or (False, the exception);
    :class:`~ssl_repro.harness.timing_protocol.MachineBusy` is raised (it ends a timing sweep)."""
    directory = Path(directory)
    (directory / ".hydra").mkdir(parents=True, exist_ok=True)
    OmegaConf.save(OmegaConf.create(task), directory / ".hydra" / "config.yaml")
    OmegaConf.save(OmegaConf.create(list(overrides)), directory / ".hydra" / "overrides.yaml")
    root = logging.getLogger()
    _console(root)
    file_handler = logging.FileHandler(directory / JOB_LOG)
    file_handler.setFormatter(logging.Formatter(JOB_FORMAT))
    root.addHandler(file_handler)
    try:
        status, _ = run_or_skip(task, str(directory), sweep_dir=str(sweep_dir), parallel_jobs=n_jobs)
        return True, status
    except MachineBusy:
        raise
    except Exception as error:      # what Hydra's run_job does: the job fails, the sweep goes on
        log.exception("job %s failed", " ".join(overrides))
        return False, error
    finally:
        root.removeHandler(file_handler)
        file_handler.close()


def _console(root):
    """Give this process's root logger Hydra's job console handler (once): INFO lines in :data:`JOB_FORMAT`."""
    if not getattr(root, "_ssl_repro_job_console", False):
        for handler in list(root.handlers):
            root.removeHandler(handler)
        console = logging.StreamHandler()
        console.setFormatter(logging.Formatter(JOB_FORMAT))
        root.addHandler(console)
        root.setLevel(logging.INFO)
        root._ssl_repro_job_console = True


def _in_this_process(overrides, job, sweep_dir, n_jobs):
    """:func:`run_one` in the sweep's process, its logging put back after; a busy machine ends the sweep."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        return run_one(overrides, job.directory, job.task, sweep_dir, n_jobs)
    except MachineBusy as error:
        raise SystemExit(f"Error: {error}") from None
    finally:
        for handler in list(root.handlers):
            root.removeHandler(handler)
        for handler in handlers:
            root.addHandler(handler)
        root.setLevel(level)
        root._ssl_repro_job_console = False


def _job_return(overrides, job, outcome):
    """Hydra's record of a job: COMPLETED with what the job did, or FAILED with its exception."""
    ok, value = outcome
    return JobReturn(overrides=overrides, working_dir=str(job.directory), task_name="run",
                     status=JobStatus.COMPLETED if ok else JobStatus.FAILED, _return_value=value)
