"""Run one job of the harness: ``python run.py dataset=pcmac method=da split=3 n_labeled=29``.

Sweeps: ``python run.py +experiment=<name>`` (conf/experiment/) or
``python run.py -m dataset=pcmac method=svm,tsvm_smax,da split=0,1,2``, on the parallel
``local`` launcher (``conf/hydra/launcher/local.yaml``) unless another is chosen
(``hydra/launcher=basic``: one job at a time in this process).
Each job's results go to ``<dataset>/<variant>/split=S/l=N/cfg-<hash>/`` under the sweep
folder (``outputs/`` for a single run): the hash covers every setting that changes the result
(:mod:`ssl_repro.harness.jobkey`), so jobs of a sweep over any parameter never share a folder.
Everything this calls lives in :mod:`ssl_repro.harness` and runs without Hydra.

A user's mistake in a single run (a refused value, a missing data file, an unreachable
cluster: :data:`ssl_repro.harness.app.USER_ERRORS`) ends with its message alone and exit
status 1, and leaves no folder in ``outputs/`` (:func:`ssl_repro.harness.app.remove_refused_run`);
``HYDRA_FULL_ERROR=1`` shows the traceback (and keeps the folder).  In a sweep a failing job leaves its
traceback in its ``error.txt`` and the sweep goes on.
"""
import os
import sys

import hydra
from hydra.core.hydra_config import HydraConfig
from omegaconf import OmegaConf

from ssl_repro.harness import jobkey
from ssl_repro.harness.app import USER_ERRORS, remove_refused_run, run_or_skip
from ssl_repro.harness.timing_protocol import MachineBusy

jobkey.register()     # ${job_key:} in conf/config.yaml: the result folder's hash


@hydra.main(config_path="conf", config_name="config", version_base=None)
def main(cfg):
    hydra_cfg = HydraConfig.get()
    multirun = hydra_cfg.mode.name == "MULTIRUN"
    launcher = hydra_cfg.launcher
    parallel = launcher.get("n_jobs") if multirun and "joblib" in str(launcher.get("_target_", "")) else None
    try:
        status, _ = run_or_skip(OmegaConf.to_container(cfg, resolve=True), hydra_cfg.runtime.output_dir,
                                sweep_dir=hydra_cfg.sweep.dir if multirun else None, parallel_jobs=parallel)
    except MachineBusy as error:     # a timing sweep stops: each later job would wait as long
        sys.exit(f"Error: {error}")
    except USER_ERRORS as error:
        if multirun or os.environ.get("HYDRA_FULL_ERROR") == "1":
            raise
        remove_refused_run(hydra_cfg.runtime.output_dir)     # nothing left behind in outputs/
        sys.exit(f"Error: {error}\n(HYDRA_FULL_ERROR=1 shows where it was raised)")
    return status       # what the job did, counted by the sweep's summary


if __name__ == "__main__":
    main()
