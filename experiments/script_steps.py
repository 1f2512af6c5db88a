"""The steps of ``run all`` that run a script of their own, and how each is estimated.

Two lists: :data:`EXTRA_SCRIPTS`, the calibration and the peers' scripts, which make paper artifacts, and
:data:`BEYOND_SCRIPTS`, the scripts whose records the pages read besides the artifacts (the "Beyond the
papers" sections and the learning-curve and degenerate sections' diagnoses), so that a regeneration remakes
every record a page reads on one commit.  A peer's step runs only when its program's path is given (``run
all --svm-learn / --universvm / --svmlin PATH``).  Each step is estimated by the seconds its record sums
(:func:`record_seconds`: taken beside other work, "busy"; scaled to the splits or draws the command asks
when the record holds fewer), else by its wall seconds in the last run that ran it (:func:`last_measured`).
The benchmarks' records (``results/benchmarks``, ``distributed``, ``text20k_linear_methods``, the side by
side in ``reference_agreement/side_by_side.*``) are timings: they are made by their benchmark commands on an
idle machine (the benchmarks guide), never inside ``run all``.
"""
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import pandas as pd


@dataclass
class Step:
    """One step of ``run all``: a name, the argv it runs (None: skipped, ``why`` says why), its estimated
    seconds (None: not recorded), what the estimate is based on, whether it uses about one core, so that
    it may run beside the next such step (``one_core``, ``run_all_plan.ONE_CORE``), and the sweep folder it
    runs (``sweep``: its job counts go to its row, :func:`step_runs.sweep_jobs`; None for a script), and the jobs
    a sweep reads from the sweeps run before it (``reuses``: "54 from timing_pcmac", ``run_all_plan``)."""

    name: str
    argv: list | None
    seconds: float | None
    basis: str
    why: str = ""
    one_core: bool = False
    sweep: Path | None = None
    reuses: str = ""


#: Where ``run all`` records each run, step by step (under the results folder).
RUN_RECORD = Path("run_all") / "steps.csv"
#: The run's provenance beside its record: written as a run starts (``resumed``: one entry per session after).
RUN_PROVENANCE = RUN_RECORD.parent / "provenance.json"

#: Why ``run all`` leaves the scale experiments out unless asked.
SCALE_STEP = ("scale experiments (004's large transductive tables and their doubling by the timing protocol, "
              "minutes a job; 002's large experiment, hours): --scale runs them")

#: The peers' and the calibration's scripts (written beside this one): (name, script and its arguments, the
#: option giving the program's path or None, the record under results/ whose ``seconds`` column estimates the
#: time).
EXTRA_SCRIPTS = (("calibration", "calibrate_standins.py", None, None),
                 ("svmlight-table9", "svmlight_table9.py", "--svm-learn", "peers/table9.csv"),
                 ("universvm-002", "universvm_compare.py --keep-capped", "--universvm", "peers/universvm.csv"),
                 ("002-large", "cccp_002_large.py", None, "cccp_002/large.csv"),
                 ("002-large-time", "cccp_002_large.py --time", None, "cccp_002/large_times.csv"))
#: The scripts among them that only ``--scale`` runs (hours of kernel fits).
SCALE_SCRIPTS = ("002-large", "002-large-time")

#: The scripts of the records the pages read besides the artifacts: (name, script and its arguments with
#: ``{results}`` for the results folder, the option giving a peer's path or None, the record they write).
#: Their arguments are the ones each committed record names in its command.
BEYOND_SCRIPTS = (
    ("svm-bias", "svm_bias.py --out {results}/svm_bias", None, "svm_bias/pcmac.json"),
    ("da-path", "da_path.py --dataset synthetic-gcat --n-labeled 44 --out {results}/da_path", None,
     "da_path/synthetic-gcat_l44_split0.json"),
    *((f"potts-vs-ovr {d}", f"potts_vs_ovr.py --datasets {d} --out {{results}}/potts_vs_ovr", None,
       f"potts_vs_ovr/{d}.json") for d in ("digits", "mnist-5k", "20ng-all")),
    ("sklearn-example digits", "sklearn_examples.py --examples digits --out {results}/sklearn_examples", None,
     "sklearn_examples/digits.json"),
    ("sklearn-example newsgroups", "sklearn_examples.py --examples newsgroups --out {results}/sklearn_examples",
     None, "sklearn_examples/newsgroups.json"),
    ("universvm-multiclass", "universvm_multiclass.py --out {results}/peers/universvm_multiclass", "--universvm",
     "peers/universvm_multiclass.json"),
    ("svmlin-agreement pcmac", "svmlin_agreement.py --dataset pcmac --splits 0 1 2 3 4 --n-labeled 2 584 "
     "--results {results}", "--svmlin", "reference_agreement/svmlin_pcmac.json"),
    ("svmlin-agreement 20ng-aut-avn-like", "svmlin_agreement.py --dataset 20ng-aut-avn-like --splits 0 1 2 3 4 "
     "--n-labeled 2 45 --results {results}", "--svmlin", "reference_agreement/svmlin_20ng_aut_avn_like.json"),
    ("svmlin-agreement 20ng-ccat-like", "svmlin_agreement.py --dataset 20ng-ccat-like --splits 0 1 2 "
     "--n-labeled 35 --results {results}", "--svmlin", "reference_agreement/svmlin_20ng_ccat_like.json"))

#: A row's seconds in the records, in the order they are read (a K-class comparison keeps CPU seconds and
#: marks its wall seconds as no timing; a peer's row keeps its wall seconds).
SECONDS_FIELDS = ("seconds", "cpu_seconds", "wall_seconds_not_a_timing")
#: The record's settings that say how many splits or draws it holds and how many its command asked.
HELD_AND_ASKED = (("splits", "splits_asked"), ("draws", "draws_asked"))


def record_seconds(path):
    """(seconds, basis) of a step from the record ``path`` it writes: a CSV's ``seconds`` column summed; a JSON
    record's ``seconds`` (or ``cpu_seconds``) at its top, else its rows' summed, scaled by the splits or draws
    its command asks over those it holds (:data:`HELD_AND_ASKED`); (None, reason) when it holds none."""
    path = Path(path)
    if not path.exists():
        return None, f"{path.name} not here"
    if path.suffix == ".csv":
        frame = pd.read_csv(path)
        return (float(frame["seconds"].sum()), f"busy s summed in {path.name}") if "seconds" in frame else (
            None, f"no seconds in {path.name}")
    record = json.loads(path.read_text())
    for field in ("seconds", "cpu_seconds"):
        if isinstance(record.get(field), (int, float)):
            return float(record[field]), f"its {field} in {path.name}"
    rows = record.get("rows")
    rows = rows if isinstance(rows, list) else []
    field = next((f for f in SECONDS_FIELDS if rows and all(isinstance(r.get(f), (int, float)) for r in rows)), None)
    if field is None:
        return None, f"no seconds in {path.name}"
    settings = record.get("settings") or {}
    scale = next((settings[asked] / settings[held] for held, asked in HELD_AND_ASKED
                  if settings.get(held) and settings.get(asked)), 1.0)
    return float(sum(r[field] for r in rows) * scale), f"busy {field} summed in {path.name}" + (
        f", times {scale:g} for the splits or draws asked" if scale != 1.0 else "")


def last_measured(results, name):
    """(seconds, basis) of the step ``name`` from its row of the last run that ran it in the run record
    (:data:`RUN_RECORD`: its wall seconds), or (None, "seconds not recorded")."""
    last = last_row(results, name)
    if last is None:
        return None, "seconds not recorded"
    return float(last["seconds"]), f"{MEASURED} in the run of {str(last['run'])[:10]}, {RUN_RECORD}"


def last_row(results, name):
    """The row of the step ``name`` in the last run that ran it (:data:`RUN_RECORD`), or None."""
    path = Path(results) / RUN_RECORD
    rows = pd.read_csv(path) if path.exists() else pd.DataFrame(columns=["run", "step", "seconds", "command"])
    rows = rows[rows["step"] == name]
    return None if rows.empty else rows.iloc[-1]


#: How an estimate from a step's measured wall seconds starts its basis (:func:`last_measured`).
MEASURED = "its wall seconds"


def measured_first(results, step, jobs_now=lambda step: None):
    """``step`` with its estimate from its wall seconds in the last run that ran it (:func:`last_measured`), less
    what a lever of this plan saves against that run (:func:`kept_capped_seconds`); a step no run recorded keeps
    the estimate it has (its records').  Decision: the measured seconds come first (issue 72): the records' seconds
    per job, taken two jobs at once or beside other work, put the whole run at 4.3 h where it took 5.8 h, and
    missed single steps by a factor of 2 (objective-minima 20ng-ccat-like: 2,198 s against 1,084 s).  A step whose
    last run ran other peers' programs than this plan does (their options in that row's command against the
    step's argv: 002-table2 without ``--universvm``; 002-ramp-s, which runs UniverSVM since that run) keeps its
    records' estimate, which counts the peers' rows the plan runs.  A sweep's seconds are scaled by the jobs its
    recipe launches now (``jobs_now(step)``) over the jobs that run held (its row's ``jobs``) when they differ."""
    last = last_row(results, step.name)
    if last is None or step.argv and peers_in(str(last.get("command", "")).split()) != peers_in(step.argv):
        return step
    seconds, basis = last_measured(results, step.name)
    then = last.get("jobs")
    now = jobs_now(step) if pd.notna(then) else None
    if now and int(then) != now:        # a sweep whose recipe launches another number of jobs than that run held
        seconds, basis = seconds * now / int(then), basis + f", times {now}/{int(then)} jobs (its recipe now)"
    kept, why = kept_capped_seconds(results, step)
    step.seconds, step.basis = max(seconds - kept, 0.0), basis + (f", less {kept:.0f} s {why}" if kept else "")
    return step


#: The options naming a peer's program in a step's command.
PEER_OPTIONS = ("--svm-learn", "--universvm", "--svmlin")
def peers_in(argv):
    """The peers' options (:data:`PEER_OPTIONS`) among the words ``argv``."""
    return {w for w in argv if w in PEER_OPTIONS}


#: A peer's script option that keeps an earlier run's capped fits instead of running them again
#: (``universvm_compare.py --keep-capped``), and the record holding them.
KEEP_CAPPED = "--keep-capped"


def kept_capped_seconds(results, step):
    """(seconds, why) that ``step`` no longer spends against its last run: the capped fits of its record (rows
    with ``capped`` true: each used its whole CPU cap) when its command keeps them (:data:`KEEP_CAPPED`);
    (0.0, "") otherwise."""
    record = dict((name, record) for name, _, _, record in EXTRA_SCRIPTS).get(step.name)
    path = Path(results) / record if record else None
    if not step.argv or KEEP_CAPPED not in step.argv or path is None or not path.exists():
        return 0.0, ""
    frame = pd.read_csv(path)
    if "capped" not in frame:
        return 0.0, ""
    capped = frame[frame["capped"].fillna(False).astype(bool)]
    return float(capped["seconds"].sum()), f"for the {len(capped)} capped fit(s) its record keeps ({KEEP_CAPPED})"


#: The step of the construction corners (``experiments/construction_corners.py``: the two sweeps of
#: :data:`ssl_repro.claims.corners.SWEEPS`, aggregated and drawn).
CORNERS_STEP = "construction-corners"


def corners_step(results, scripts_dir, passed, why=""):
    """The construction corners' step: ``passed`` (``--data-root`` etc.) given to its script; skipped with ``why``
    (a corner's data missing).  Estimated by :func:`last_measured`, else by :func:`span_seconds` of the corners'
    committed records."""
    from ssl_repro.claims.corners import SWEEPS
    seconds, basis = last_measured(results, CORNERS_STEP)
    if seconds is None:
        seconds, basis = span_seconds([Path(results) / folder / "results.csv" for folder, _, _ in SWEEPS])
    argv = [sys.executable, str(Path(scripts_dir) / "construction_corners.py"), "--results", str(results), *passed]
    return Step(CORNERS_STEP, None if why else argv, seconds, basis, why)


def span_seconds(paths):
    """(seconds, basis) of sweeps from their records (results.csv ``paths``): per record, the wall seconds from its
    first job's start to its last job's end (its jobs' ``date``, when each ended, less the first job's ``seconds``);
    (None, why) when a record is missing.  The sweeps' start and aggregation (about 13 s each) are not in it."""
    total = 0.0
    for path in paths:
        if not Path(path).exists():
            return None, f"{Path(path).parent.name}/results.csv not here"
        frame = pd.read_csv(path, usecols=["date", "seconds"])
        ended = pd.to_datetime(frame["date"])
        total += (ended.max() - ended.min()).total_seconds() + float(frame.loc[ended.idxmin(), "seconds"])
    return total, (f"wall s its records' job dates span in {', '.join(Path(p).parent.name for p in paths)} "
                   f"(busy: taken beside other work)")


def script_steps(results, programs, scale, scripts_dir):
    """The steps of :data:`EXTRA_SCRIPTS` then :data:`BEYOND_SCRIPTS` (scripts under ``scripts_dir``):
    each with its estimate (:func:`record_seconds` of its record, else :func:`last_measured`), skipped with
    the reason when its script is not in the checkout, it is a scale script without ``scale``, or its peer's
    path is not in ``programs``."""
    steps = []
    for name, command, option, record in EXTRA_SCRIPTS + BEYOND_SCRIPTS:
        script, *arguments = command.format(results=results).split()
        path = Path(scripts_dir) / script
        seconds, basis = record_seconds(Path(results) / record) if record else (None, "")
        if seconds is None:
            seconds, basis = last_measured(results, name)
        if not path.exists():
            steps.append(Step(name, None, seconds, basis, f"experiments/{script} is not in this checkout"))
        elif name in SCALE_SCRIPTS and not scale:
            steps.append(Step(name, None, seconds, basis, SCALE_STEP))
        elif option and not programs.get(option):
            steps.append(Step(name, None, seconds, basis, f"no {option} PATH given"))
        else:
            steps.append(Step(name, [sys.executable, str(path), *arguments]
                              + ([option, programs[option]] if option else []), seconds, basis))
    return steps
