"""Run one job of the harness: ``python run.py dataset=pcmac method=da split=3 n_labeled=29``.

Sweeps: ``python run.py +experiment=<name>`` (conf/experiment/) or
``python run.py -m dataset=pcmac method=svm,tsvm_smax,da split=0,1,2``, on the parallel
``local`` launcher (``conf/hydra/launcher/local.yaml``) unless another is chosen
(``hydra/launcher=basic``: one job at a time in this process).
Each job's results go to ``<dataset>/<variant>/split=S/l=N/cfg-<hash>/`` under the sweep
folder (``outputs/`` for a single run): the hash covers every setting that changes the result
and the content of a user's own data files (:mod:`ssl_repro.harness.jobkey`), so jobs of a sweep
over any parameter never share a folder and an edited file is never served an old result.
Everything this calls lives in :mod:`ssl_repro.harness` and runs without Hydra.

A user's mistake in a single run (a refused value, a missing data file, an unreachable
cluster: :data:`ssl_repro.harness.app.USER_ERRORS`) ends with its message alone and exit
status 1, and leaves no folder in ``outputs/`` (:func:`ssl_repro.harness.app.remove_refused_run`);
``HYDRA_FULL_ERROR=1`` shows the traceback (and keeps the folder).  So does Ctrl-C (exit status
130), during the imports too (one line, before Hydra has made any folder).  Before Hydra composes anything, a ``dataset=``/``method=`` naming no config is refused with
the close name (:func:`ssl_repro.harness.settings.check_choices`), an override Hydra would refuse in
several lines or a traceback (:mod:`ssl_repro.harness.overrides`: bad syntax, ``~method``, an unset
``${oc.env:...}``), and a single run whose folder
cannot be written (a read-only working folder) with the override that moves it; so are a
``+repeat=N`` in a single run (only a timing sweep's repeats use it) and an ``+experiment=`` whose recipe
does not apply to the dataset (:func:`ssl_repro.harness.resolvers.check_recipe`).  Every other
setting is checked before the data are read (:func:`ssl_repro.harness.settings.check_settings`).
In a sweep a failing job leaves its traceback in its ``error.txt`` and the sweep goes on.
A single run's record keeps no ``results_dir`` or ``sweep_name``: only sweeps use them.
"""
import os
import signal
import sys


def _interrupted_while_importing(signum, frame):
    """Ctrl-C before the job starts (the imports take seconds): one line, as every later interrupt gives, not
    the interpreter's traceback from inside whichever module was being imported; nothing was run or written."""
    print("Interrupted before the job started: nothing run, nothing written", file=sys.stderr, flush=True)
    os._exit(130)


signal.signal(signal.SIGINT, _interrupted_while_importing)

from pathlib import Path  # noqa: E402  (after the handler: the imports below take seconds)

import hydra  # noqa: E402
from hydra.core.hydra_config import HydraConfig
from omegaconf import OmegaConf  # noqa: E402

from ssl_repro.harness import jobkey, resolvers  # noqa: E402
from ssl_repro.harness.app import USER_ERRORS, local_jobs, remove_refused_run, run_or_skip, unwritable_folder  # noqa: E402
from ssl_repro.harness.overrides import check_overrides, overrides_of  # noqa: E402
from ssl_repro.harness.settings import JOB_SETTINGS, check_choices  # noqa: E402
from ssl_repro.harness.timing_protocol import MachineBusy  # noqa: E402

jobkey.register()     # ${job_key:} in conf/config.yaml: the result folder's hash
resolvers.register_methods()   # again here: a method declared after the harness was imported gets its config too

signal.signal(signal.SIGINT, signal.default_int_handler)     # from here an interrupt is a KeyboardInterrupt

CONF = Path(__file__).resolve().parent / "conf"
#: Settings of sweeps only, left out of a single run's record.
SWEEP_ONLY = ("results_dir", "sweep_name")


@hydra.main(config_path="conf", config_name="config", version_base=None)
def main(cfg):
    hydra_cfg = HydraConfig.get()
    multirun = hydra_cfg.mode.name == "MULTIRUN"
    launcher = hydra_cfg.launcher
    parallel = local_jobs(launcher) if multirun else None
    task = OmegaConf.to_container(cfg, resolve=True)
    if not multirun:
        for key in SWEEP_ONLY:
            task.pop(key, None)
    try:
        status, _ = run_or_skip(task, hydra_cfg.runtime.output_dir,
                                sweep_dir=hydra_cfg.sweep.dir if multirun else None, parallel_jobs=parallel)
    except MachineBusy as error:     # a timing sweep stops: each later job would wait as long
        sys.exit(f"Error: {error}")
    except USER_ERRORS as error:
        if multirun or os.environ.get("HYDRA_FULL_ERROR") == "1":
            raise
        remove_refused_run(hydra_cfg.runtime.output_dir)     # nothing left behind in outputs/
        sys.exit(f"Error: {error} (HYDRA_FULL_ERROR=1 shows where it was raised)")
    except KeyboardInterrupt:
        if multirun:
            raise
        remove_refused_run(hydra_cfg.runtime.output_dir)
        print(f"Interrupted: no result kept ({hydra_cfg.runtime.output_dir} removed)", file=sys.stderr)
        sys.exit(130)
    return status       # what the job did, counted by the sweep's summary


def command_line(argv):
    """``argv`` with ``--cfg hydra --resolve`` made ``--cfg all --resolve --package hydra`` (Hydra
    prints the hydra node cut from the job's settings, so ``hydra.run.dir``'s ``${dataset.name}``
    cannot resolve: the same node printed from the whole configuration resolves)."""
    argv = list(argv)
    for flag in ("--cfg", "-c"):
        if flag in argv[:-1] and argv[argv.index(flag) + 1] == "hydra" and "--resolve" in argv \
                and "--package" not in argv and "-p" not in argv:
            argv[argv.index(flag) + 1:argv.index(flag) + 2] = ["all", "--package", "hydra"]
    return argv


def refusal(argv):
    """The ``Error:`` line for a command line refused before Hydra composes, or None."""
    try:
        check_overrides(argv, JOB_SETTINGS)
        overrides = [a for a in overrides_of(argv) if "=" in a]
        check_choices(overrides, CONF)
        resolvers.check_recipe(overrides, CONF)
    except ValueError as error:
        return f"Error: {error}"
    single = not ({"-m", "--multirun"} & set(argv)) and not any(a.startswith("+experiment=") for a in argv)
    repeat = next((a for a in overrides if a.lstrip("~+").partition("=")[0] == "repeat"), None)
    if single and repeat:
        return (f"Error: {repeat} numbers the repeats of a timing sweep (python run.py +experiment=timing runs each "
                "job 3 times); a single run is one fit, so it would change only the job's folder: drop "
                f"{repeat}, or run the timing sweep")
    run_dir = next((a.split("=", 1)[1] for a in overrides if a.startswith("hydra.run.dir=")), "outputs")
    problem = unwritable_folder(run_dir) if single and "--cfg" not in argv and "-c" not in argv else None
    if problem:
        return (f"Error: a single run writes its result under {Path(run_dir).absolute()}, which cannot be written "
                f"({problem}): run from a folder you can write, or set hydra.run.dir=DIR")
    return None


if __name__ == "__main__":
    sys.argv[1:] = command_line(sys.argv[1:])
    message = refusal(sys.argv[1:])
    if message:
        sys.exit(message)
    main()
