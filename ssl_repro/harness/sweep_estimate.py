"""How long a sweep will take, from its committed record and its recipe (``run all --dry-run``'s estimate).

A sweep of recipe ``conf/experiment/<name>.yaml`` on one dataset takes about

    (seconds per job + :data:`OVERHEAD`) x jobs the recipe launches now / jobs it runs at once

- **Seconds per job**: per method the recipe runs, the mean over that method's jobs in the record
  (``results/<sweep folder>/results.csv``; a method without a job there leaves the sweep without an
  estimate, "?", rather than one borrowed from cheaper methods) of what best stands for a job's time on
  an idle machine: the wall ``seconds`` of a record made by the
  timing protocol (:mod:`ssl_repro.harness.timing_protocol`: one job at a time on an idle machine;
  its records carry the load columns), else ``cpu_seconds`` where the record has them (a job runs one
  solver thread, so its CPU seconds are close to its idle wall seconds even when the machine was busy),
  else the wall ``seconds``, which for the parallel sweeps were taken under load ("busy seconds":
  two jobs at once plus other work, so the estimate is high).
- **Jobs now**: per method, the product of the sizes of the recipe's other sweep parameters (methods x splits x label
  counts x repeats x unlabeled subsets) as the registry gives them for the dataset today
  (``curve_methods``, ``ablation_grid``, ``timing_grid``: :mod:`ssl_repro.data.registry`), which need
  not be the number of jobs the record holds.
- **At once**: the recipe's ``hydra.launcher.n_jobs`` (the timing sweeps: 1), else the default
  launcher's (``conf/hydra/launcher/local.yaml``: one job per core).
- **Overhead**: :data:`OVERHEAD` seconds a job for what is not the fit (the launcher starting the job,
  composing its configuration, loading the cached data, writing its record), plus the timing
  protocol's idle check (:data:`ssl_repro.harness.timing_protocol.WINDOW`) on a timing sweep.
"""
import math
from pathlib import Path

from hydra.core.override_parser.overrides_parser import OverridesParser
from omegaconf import OmegaConf
from omegaconf.errors import OmegaConfBaseException

from ssl_repro.harness import resolvers  # noqa: F401  (the recipes' registry and methods resolvers)
from ssl_repro.harness.aggregate import read_results
from ssl_repro.harness.methods import VARIANTS
from ssl_repro.harness.timing_protocol import WINDOW

#: The configuration folder (``conf/``: the recipes and the launchers).
CONF = Path(__file__).resolve().parents[2] / "conf"
#: Seconds a job costs besides its fit, on the project's launcher (``conf/hydra/launcher/local.yaml``).
#: Measured 2026-11-27 on this 2-core machine, in CPU seconds (a job's one thread spends them alike on an
#: idle machine): ``run.py -m dataset=pcmac method=rls,svm split=range(10) solver_threads=1`` at 2 and at
#: 14 label counts (40 and 280 jobs) under ``/usr/bin/time``: the sweep's CPU seconds (its process and
#: the launcher's workers) less the jobs' recorded fit CPU seconds grew by 0.020 s a job (Hydra's joblib
#: launcher, which composed each job again in its worker: 0.25 s).  The sweep's own start (2 to 5 CPU s:
#: imports, the plan, the data loaded once, the workers' imports) is left out: seconds against a step's
#: minutes.
OVERHEAD = 0.03


def recipe(experiment):
    """The recipe ``conf/experiment/<experiment>.yaml`` as an OmegaConf node (unresolved)."""
    return OmegaConf.load(CONF / "experiment" / f"{experiment}.yaml")


def sweep_values(experiment, dataset):
    """{parameter: the values recipe ``experiment`` sweeps it over on ``dataset``}, resolved for the dataset
    (``ValueError`` where the recipe does not apply)."""
    params = recipe(experiment).hydra.sweeper.params
    node = OmegaConf.create({"dataset": {"name": dataset}, "params": OmegaConf.to_container(params)})
    values = OmegaConf.to_container(node, resolve=True)["params"]
    overrides = OverridesParser.create().parse_overrides([f"{k}={v}" for k, v in values.items()])
    return {o.key_or_group: list(o.sweep_iterator()) if o.is_sweep_override() else [o.value()] for o in overrides}


def jobs_now(experiment, dataset):
    """How many jobs recipe ``experiment`` launches on ``dataset`` today: the product of the sizes of
    its sweep parameters (:func:`sweep_values`)."""
    return math.prod(len(values) for values in sweep_values(experiment, dataset).values())


def record_names(configs):
    """The ``method`` strings the records of method configs ``configs`` carry (a config that is no variant of
    :data:`ssl_repro.harness.methods.VARIANTS`, a user's own, by its name)."""
    return [VARIANTS[c].record_name if c in VARIANTS else c for c in configs]


def at_once(experiment):
    """How many jobs recipe ``experiment`` runs at once on the default launcher."""
    own = OmegaConf.select(recipe(experiment), "hydra.launcher.n_jobs")
    return int(own if own is not None else OmegaConf.load(CONF / "hydra" / "launcher" / "local.yaml").n_jobs)


def seconds_column(table):
    """(column, which seconds) of a record ``table`` that stands for a job's time (module doc): ``wall s``
    of the timing protocol, ``CPU s``, or ``busy s`` (wall seconds taken with other jobs running)."""
    if "load_before" in table and table["load_before"].notna().any():
        return "seconds", "wall s (timing protocol)"
    if "cpu_seconds" in table and table["cpu_seconds"].notna().all():
        return "cpu_seconds", "CPU s"
    return "seconds", "busy s"


#: The columns that tell one job of a sweep from another (beside the settings a recipe fixes).
JOB_COLUMNS = ("method", "split", "n_labeled")


def shared_rows(table, earlier):
    """Which rows of a record ``table`` are jobs that a sweep run earlier holds too (its record among
    ``earlier``, results.csv paths): a sweep copies those instead of computing them
    (:func:`ssl_repro.harness.result_files.sibling_result`)."""
    keys = [frozenset(zip(JOB_COLUMNS, row)) for row in table[list(JOB_COLUMNS)].itertuples(index=False)]
    seen = set()
    for path in earlier:
        other = read_results(path)
        seen.update(frozenset(zip(JOB_COLUMNS, row)) for row in other[list(JOB_COLUMNS)].itertuples(index=False))
    return table.index.isin([i for i, key in zip(table.index, keys) if key in seen])


def estimate(record, experiment, dataset, earlier=()):
    """(seconds, basis) of recipe ``experiment``'s sweep on ``dataset`` from its committed ``record``
    (a results.csv; module doc); (None, why) without a record, where the recipe does not apply, or where
    the record holds no job of a method the recipe runs.  ``earlier``: the records of the sweeps ``run all``
    runs before this one on the dataset; the jobs they share with this one (:func:`shared_rows`; never a
    timing sweep's, whose jobs are its own) are left out, in proportion, method by method."""
    record = Path(record)
    if not record.exists():
        return None, "no record"
    try:
        values = sweep_values(experiment, dataset)
    except (ValueError, OmegaConfBaseException) as error:
        return None, f"{experiment} does not apply to {dataset}: {error}"
    table = read_results(record)
    names = record_names(values.get("method", []))
    absent = [n for n in names if not (table["method"] == n).any()]
    if absent:
        return None, f"no job of {', '.join(absent)} in {record.parent.name}/{record.name}"
    timed = "timing" in recipe(experiment)
    shared = shared_rows(table, [] if timed else [Path(p) for p in earlier if Path(p).exists()])
    column, which = seconds_column(table)
    jobs = math.prod(len(v) for v in values.values())      # jobs_now, from the values resolved above
    per_method = jobs // max(len(names), 1)
    groups = [table["method"] == n for n in names] or [table["method"].notna()]
    run = busy = 0.0
    for rows in groups:
        own = rows & ~shared
        copied = round(per_method * shared[rows].mean())
        run += per_method - copied
        busy += float(table.loc[own if own.any() else rows, column].mean()) * (per_method - copied)
    per_job = busy / run if run else 0.0
    parallel = at_once(experiment)
    overhead = OVERHEAD + (WINDOW if timed else 0.0)
    copied = jobs - int(run)
    return (per_job + overhead) * run / parallel, (
        f"({per_job:.2f} {which}/job, mean of {int((~shared).sum())} in {record.parent.name}/{record.name} "
        f"method by method, + {overhead:g} s overhead) x {int(run)} jobs / {parallel} at once"
        + (f" ({copied} more copied from an earlier sweep)" if copied else ""))


def timed_first(record, experiment, earlier, copied_then=0):
    """(jobs, seconds, folders) that the sweep of recipe ``experiment`` whose committed record is ``record`` (a
    results.csv) no longer computes against a run that copied ``copied_then`` jobs: its jobs that a timing sweep
    run before it holds (among ``earlier``, results.csv paths; the fit of a timing job's first repeat,
    :func:`ssl_repro.harness.result_files.timed_twin`) and no other sweep before it does, at their recorded
    wall ``seconds`` over the jobs the sweep runs at once (:func:`at_once`); ``folders``: those timing sweeps.
    Nothing where that run copied at least as many jobs as the sweep copies now (its wall seconds then
    already leave them out), for a timing sweep (its jobs are its own) or without a record."""
    record, earlier = Path(record), [Path(p) for p in earlier if Path(p).exists()]
    timing = [p for p in earlier if "repeat" in read_results(p)]
    if not record.exists() or not timing or "timing" in recipe(experiment):
        return 0, 0.0, []
    table = read_results(record)
    shared = shared_rows(table, earlier)
    if int(shared.sum()) <= copied_then:
        return 0, 0.0, []
    only_timed = shared & ~shared_rows(table, [p for p in earlier if p not in timing])
    return (int(only_timed.sum()), float(table.loc[only_timed, "seconds"].sum()) / at_once(experiment),
            [p.parent.name for p in timing])


def reused(record, experiment, earlier):
    """{sweep folder: jobs} of the jobs of the sweep of recipe ``experiment`` (its committed ``record``) that it
    reads from the sweeps run before it (``earlier``, results.csv paths) instead of computing them, as
    :func:`ssl_repro.harness.result_files.sibling_result` finds them: the same job in an untimed sweep first,
    else a timing job's first repeat; none for a timing sweep or without a record."""
    record, earlier = Path(record), [Path(p) for p in earlier if Path(p).exists()]
    if not record.exists() or not earlier or "timing" in recipe(experiment):
        return {}
    table = read_results(record)
    untimed = [p for p in earlier if "repeat" not in read_results(p)]
    taken, found = table.index.isin([]), {}
    for path in untimed + [p for p in earlier if p not in untimed]:
        rows = shared_rows(table, [path]) & ~taken
        taken |= rows
        if rows.any():
            found[path.parent.name] = int(rows.sum())
    return found
