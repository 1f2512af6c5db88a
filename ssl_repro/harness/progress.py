"""How far a sweep has got: its jobs, how many are done, how many remain.

:class:`SweepProgress` is a Hydra callback (registered in ``conf/config.yaml``).
When a multirun starts it expands the sweep into its jobs as Hydra's basic
sweeper does (``hydra.sweeper.params`` first, then the command line, the
cartesian product of the values), works out each job's output directory,
logs how many jobs already have a finished result and writes the list to
``<sweep dir>/.sweep/jobs.json``.  Each job then reports, when it ends,
``done/total`` and what remains (:func:`report`); when the multirun ends the
callback logs the totals and the wall time and appends them to
``<sweep dir>/.sweep/history.jsonl`` (how long each run of the sweep took).

Working out a job's directory needs its composed configuration: jobs that
differ only in plain values (split, n_labeled, ...) share one composition
of their config groups (dataset, method, ...), so a sweep of hundreds of
jobs composes a handful of configurations.  For sweepers other than the
basic one, progress is not tracked (a log line says so).
"""
import copy
import datetime
import itertools
import json
import logging
import time
from pathlib import Path

from hydra.core.global_hydra import GlobalHydra
from hydra.core.override_parser.overrides_parser import OverridesParser
from hydra.experimental.callback import Callback
from omegaconf import OmegaConf

from . import jobkey
from .store import ERROR_FILE, RESULT_FILE, finished_result, write_json

jobkey.register()     # the sweep's sub-directories use ${job_key:}

log = logging.getLogger("ssl_repro")

MANIFEST = Path(".sweep") / "jobs.json"
HISTORY = Path(".sweep") / "history.jsonl"


def expand_sweep(params, arguments):
    """The jobs of a basic-sweeper multirun, each a list of ``key=value`` overrides.

    ``params`` is ``hydra.sweeper.params`` (a mapping), ``arguments`` the
    command line's overrides, which take precedence key by key.
    """
    lines = [f"{key}={value}" for key, value in (params or {}).items()] + list(arguments)
    choices = {}
    for override in OverridesParser.create().parse_overrides(lines):
        key = override.get_key_element()
        if override.is_sweep_override():
            if not override.is_discrete_sweep():
                raise ValueError(f"{key}: only discrete sweeps (a,b,c or range) are expanded")
            values = list(override.sweep_string_iterator())
        else:
            values = [override.get_value_element_as_str()]
        choices[key] = [f"{key}={value}" for value in values]
    return [list(job) for job in itertools.product(*choices.values())]


def job_configs(master, jobs, config_loader):
    """Yield (output directory, task configuration as a dict) of every job, in order."""
    parser = OverridesParser.create()
    is_group = {}
    composed = {}
    templates = OmegaConf.to_container(master.hydra.sweep, resolve=False)
    hydra_dependent = any("${hydra" in str(v) for v in templates.values())
    for job in jobs:
        group_part, value_part = [], []
        for line, override in zip(job, parser.parse_overrides(job)):
            key = override.key_or_group
            plain = not (override.is_add() or override.is_force_add() or override.is_delete()
                         or key.startswith("hydra"))
            if key not in is_group:
                is_group[key] = bool(config_loader.get_group_options(key))
            if plain and not is_group[key]:
                value_part.append((key, override.value()))
            else:
                group_part.append(line)
        if hydra_dependent:      # the directory depends on hydra.job.*: compose each job fully
            group_part, value_part = list(job), []
        cache_key = tuple(group_part)
        if cache_key not in composed:
            composed[cache_key] = _task_and_sweep(config_loader.load_sweep_config(master, group_part))
        cfg = OmegaConf.create(copy.deepcopy(composed[cache_key]))
        for key, value in value_part:
            OmegaConf.update(cfg, key, value, merge=False)
        cfg = OmegaConf.to_container(cfg, resolve=True)
        sweep = cfg.pop("hydra")["sweep"]
        yield Path(str(sweep["dir"])) / str(sweep["subdir"]), cfg


def _task_and_sweep(cfg):
    """A composed job configuration as a plain (unresolved) dict: the task's keys plus hydra.sweep."""
    plain = OmegaConf.to_container(cfg, resolve=False)
    plain["hydra"] = {"sweep": plain["hydra"]["sweep"]}
    return plain


def report(sweep_dir, output_dir):
    """Log and return (done, total) of the sweep ``output_dir`` belongs to, or None if unknown."""
    manifest = Path(sweep_dir) / MANIFEST
    try:
        jobs = json.loads(manifest.read_text())["jobs"]
    except (OSError, ValueError, KeyError):
        return None
    if str(Path(output_dir).resolve()) not in jobs:
        return None
    done = sum(1 for job in jobs if (Path(job) / RESULT_FILE).exists())
    log.info("sweep %s: %d/%d jobs done, %d remaining", sweep_dir, done, len(jobs), len(jobs) - done)
    return done, len(jobs)


class SweepProgress(Callback):
    """Hydra callback: count a multirun's jobs at its start, sum up at its end."""

    def __init__(self):
        self.jobs = None
        self.started = None
        self.done_before = 0

    def on_multirun_start(self, config, **kwargs):
        self.started = time.perf_counter()
        self.jobs = None
        sweep_dir = Path(str(config.hydra.sweep.dir))
        if not str(config.hydra.sweeper.get("_target_", "")).endswith("BasicSweeper"):
            log.info("sweep %s: progress is counted only for Hydra's basic sweeper", sweep_dir)
            return
        try:
            jobs = expand_sweep(config.hydra.sweeper.get("params"), config.hydra.overrides.task)
            entries = list(job_configs(config, jobs, GlobalHydra.instance().config_loader()))
        except Exception as error:  # progress must never stop a sweep
            log.warning("sweep %s: cannot count its jobs (%s)", sweep_dir, error)
            return
        self.jobs = [str(directory.resolve()) for directory, _ in entries]
        done = sum(finished_result(directory, cfg) is not None for directory, cfg in entries)
        self.done_before = done
        write_json(sweep_dir / MANIFEST, {"sweep_dir": str(sweep_dir), "jobs": self.jobs})
        log.info("sweep %s: %d jobs, %d already done, %d to run", sweep_dir, len(self.jobs), done,
                 len(self.jobs) - done)

    def on_multirun_end(self, config, **kwargs):
        if self.jobs is None:
            return
        sweep_dir = Path(str(config.hydra.sweep.dir))
        seconds = time.perf_counter() - self.started
        done = sum(1 for job in self.jobs if (Path(job) / RESULT_FILE).exists())
        failed = [job for job in self.jobs
                  if (Path(job) / ERROR_FILE).exists() and not (Path(job) / RESULT_FILE).exists()]
        log.info("sweep %s: finished in %.1f s, %d/%d jobs done (%d run now), %d failed", sweep_dir, seconds,
                 done, len(self.jobs), done - self.done_before, len(failed))
        entry = {"ended": datetime.datetime.now().isoformat(timespec="seconds"), "seconds": round(seconds, 2),
                 "jobs": len(self.jobs), "done_before": self.done_before, "done_after": done,
                 "command_line": list(config.hydra.overrides.task)}
        entry["failed"] = len(failed)
        with open(sweep_dir / HISTORY, "a") as f:
            f.write(json.dumps(entry) + "\n")
        if failed:
            raise SystemExit(f"sweep {sweep_dir}: {len(failed)} job(s) failed; see "
                             + ", ".join(str(Path(job) / ERROR_FILE) for job in failed[:5]))
