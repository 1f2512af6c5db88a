"""A Ray launcher that runs a sweep's jobs in batches: many jobs to one Ray task (``hydra/launcher=ray_batched``).

Hydra's own Ray launcher (``hydra/launcher=ray_cluster``) starts one Ray task per job and composes
every job's configuration on the machine that launches the sweep: for pcmac's 770-job learning
curve, whose fits take a fraction of a second, a cluster would spend more on starting tasks and
composing than on training.  Here the jobs are cut into batches of ``jobs_per_task`` (in the
sweep's order, so each batch holds neighbouring jobs of one method); each Ray task composes and
runs its batch's jobs one after another, in one process that keeps its compiled kernels and loaded
data, and returns their results.  A job that fails is that job's failure alone (its ``error.txt``,
as with every launcher of the harness); the other jobs of its batch run.

Settings (``conf/hydra/launcher/ray_batched.yaml``): ``jobs_per_task``, ``ray.init`` (``ray.init``'s
arguments: ``address: auto`` joins a running cluster, ``null`` starts a local instance) and
``ray.remote`` (each task's resources, e.g. ``num_cpus``).
"""
import logging

from hydra.core.hydra_config import HydraConfig
from hydra.core.singleton import Singleton
from hydra.core.utils import run_job, setup_globals
from omegaconf import OmegaConf, open_dict

from hydra_plugins.ssl_repro_launcher.local_launcher import SweepLauncher

log = logging.getLogger(__name__)


def run_batch(hydra_context, master_config, task_function, batch, first_index, singleton_state):
    """Compose and run the jobs of ``batch`` (lists of overrides) in turn; their ``JobReturn``\\ s."""
    setup_globals()
    Singleton.set_state(singleton_state)
    returns = []
    for index, overrides in enumerate(batch, first_index):
        config = hydra_context.config_loader.load_sweep_config(master_config, list(overrides))
        with open_dict(config):
            config.hydra.job.id = f"job_id_for_{index}"
            config.hydra.job.num = index
        HydraConfig.instance().set_config(config)
        returns.append(run_job(hydra_context=hydra_context, task_function=task_function, config=config,
                               job_dir_key="hydra.sweep.dir", job_subdir_key="hydra.sweep.subdir"))
    return returns


def batches(job_overrides, jobs_per_task, initial_job_idx=0):
    """(first job's index, jobs) of each batch of at most ``jobs_per_task`` consecutive jobs."""
    size = max(1, int(jobs_per_task))
    return [(initial_job_idx + start, list(job_overrides[start:start + size]))
            for start in range(0, len(job_overrides), size)]


class BatchedRayLauncher(SweepLauncher):
    """Hydra launcher: the sweep's jobs in batches of ``jobs_per_task``, one Ray task a batch."""

    def __init__(self, jobs_per_task, ray):
        self.jobs_per_task, self.ray_cfg = jobs_per_task, ray

    def launch(self, job_overrides, initial_job_idx):
        import ray

        self.start()
        if not ray.is_initialized():
            init = OmegaConf.to_container(self.ray_cfg.init, resolve=True) or {}
            ray.init(**{k: v for k, v in init.items() if v is not None})
        remote = OmegaConf.to_container(self.ray_cfg.remote, resolve=True) or {}
        task = ray.remote(**remote)(run_batch) if remote else ray.remote(run_batch)
        planned = batches(job_overrides, self.jobs_per_task, initial_job_idx)
        log.info("Ray: %d jobs in %d tasks of at most %d jobs, sweep output dir: %s", len(job_overrides), len(planned),
                 self.jobs_per_task, self.config.hydra.sweep.dir)
        state = Singleton.get_state()
        futures = [task.remote(self.hydra_context, self.config, self.task_function, batch, first, state)
                   for first, batch in planned]
        return [job for future in futures for job in ray.get(future)]
