"""``paper_artifacts.py run all``: the plan of steps, what it leaves out and why, and the estimate of its time.

The plan (:func:`plan_all`) holds every artifact of :data:`artifact_table.ARTIFACTS`, each sweep folder
once, then the calibration, the peers' scripts and the records the pages read besides the artifacts
(:mod:`script_steps`); a sweep on a real set runs only where its loader finds
the files under the data root (or, with ``--download``, may fetch them), SYNTHETIC stand-ins only with
``--stand-ins`` and the large transductive tables only with ``--scale`` (:func:`optional`).  Each sweep's
time is estimated from its committed record and its recipe (:func:`ssl_repro.harness.sweep_estimate.estimate`:
the record's seconds per job, times the jobs the recipe launches now, over the jobs it runs at once, plus a
per-job overhead); a script's from the seconds its record sums, taken under load ("busy"), less the rows of a
peer whose path is not given (:func:`ours_and_given_peers`); any other step's from its wall seconds in the last
run that ran it (:func:`last_measured`, the run record ``run_all/steps.csv``).  Two adjacent steps
that use about one core each (:data:`ONE_CORE`) run side by side and count once, as the longer of the two
(:mod:`step_runs`).  A sweep that reads fits another sweep run before it made (the timing sweeps run first, the
learning curves read their first repeat's fits, the ablations the curves' DA) says so, and its estimate leaves
those fits' recorded seconds out (:mod:`reused_fits`).
"""
import json
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
from omegaconf.errors import OmegaConfBaseException

from ssl_repro.data import availability, data_root
from ssl_repro.data.cache import ENV_VAR as DATA_ROOT_VAR, in_words_of
from ssl_repro.claims.corners import SWEEPS as CORNER_SWEEPS
from ssl_repro.data.keys import NOT_FROM_DATA
from ssl_repro.harness.sweep_estimate import estimate, jobs_now
from ssl_repro.utils.provenance import add_provenance

from artifact_table import ARTIFACTS, OPTIONS, ROOT, RUNS, experiment_name, sweep_folder
from script_steps import (EXTRA_SCRIPTS, MEASURED, RUN_PROVENANCE, RUN_RECORD, SCALE_STEP, Step, corners_step,
                          last_measured, measured_first, script_steps)
from reused_fits import less_timed_first, timing_first
from step_runs import batch_seconds, batches, note_resumed, resumed_run, run_batch, timed

#: The script whose ``run`` makes one artifact (each step of the plan runs it, or an artifact's own script).
PAPER_ARTIFACTS = ROOT / "experiments" / "paper_artifacts.py"


#: The steps that use about one core and may share the 2-core machine with one other such step
#: (:func:`step_runs.batches`): the kernel scripts, which fit small dense Gram matrices in one process, read no
#: file the other writes and write their own folders.  The run record shows it: kernel-benchmarks (BLAS held to
#: one thread by the script) took 327 CPU s in 286 wall s; kernel-toy-table 653 CPU s in 431 wall s, its BLAS
#: spinning on the second core for little gain: with one thread each (:data:`step_runs.ONE_THREAD`) it took
#: 437-449 CPU s, and both scripts' outputs were the same to the bit (2026-11-27, a shared machine: side by side
#: 547 s wall against 783 s one after the other).  Not the timing sweeps (they time on an idle machine) nor the
#: other sweeps (they run 2 jobs at once already).  And 002's K-class scripts, adjacent in the plan by pairs
#: (002-table2-uspst with 002-mnist, 002-table6 with 002-table6-mnist8, 002-fig6 with 002-fig6-mnist5k): each holds
#: its solvers to one thread (``limit_threads(1)``), writes its own CSV and merges the folder's provenance.json under
#: its lock (``cccp_002_data.write``, ``add_provenance``); their seconds are CPU seconds "on a shared machine", never
#: timings.  And 002-table2 and 002-ramp-s (issue 72): one solver thread each (the run of 2026-11-29: 271 CPU s in
#: 276 wall s, 913 in 913), each beside a K-class script (002-table2 with 002-table2-uspst, 002-ramp-s with
#: 002-mnist), never beside each other (both rewrite grid.csv, and the plan keeps them apart); no verdict reads
#: grid.csv's seconds (Fig 5's are provisional, taken under load), and 002-fig4 and 002-fig3, which read its best
#: points, still run after both.  Saves 002-table2's seconds (276 s in that run; 156 s without UniverSVM).  Not
#: 002-fig3 (the timing protocol).
ONE_CORE = ("kernel-toy-table", "kernel-benchmarks", "002-table2", "002-table2-uspst", "002-mnist", "002-ramp-s",
            "002-table6", "002-table6-mnist8", "002-fig6", "002-fig6-mnist5k")


def recorded_seconds(results, artifact, dataset=None, earlier=()):
    """(seconds, basis) of a step from an artifact's committed records: a sweep's estimate
    (:func:`ssl_repro.harness.sweep_estimate.estimate`; ``earlier``: the sweep folders run before it on the
    dataset, whose jobs it copies), the kernel scripts' summed fit seconds (busy); (None, reason) when not
    recorded."""
    results = Path(results)
    if artifact.kind == "sweep":
        csv = results / sweep_folder(artifact, dataset) / "results.csv"
        return estimate(csv, experiment_name(artifact), dataset, [results / f / "results.csv" for f in earlier])
    if artifact.name == "kernel-toy-table" and (results / "kernel_toy_table/grid.json").exists():
        grid = json.loads((results / "kernel_toy_table/grid.json").read_text())
        return float(sum(g["seconds_10_draws"] for g in grid)), "busy s summed in kernel_toy_table/grid.json"
    if artifact.name == "kernel-benchmarks" and (results / "kernel_benchmarks/runs.jsonl").exists():
        runs = [json.loads(line) for line in (results / "kernel_benchmarks/runs.jsonl").read_text().splitlines()]
        return float(sum(r["seconds"] for r in runs)), "busy s summed in kernel_benchmarks/runs.jsonl"
    if artifact.kind == "drawing":
        return 0.0, "a drawing"
    return last_measured(results, artifact.name)


def data_plan(root=None, download=False):
    """Per dataset of a sweep artifact, its :class:`ssl_repro.data.Availability` under the data root
    ``root``: what its loader finds there (or, with ``download``, may fetch), asked without loading."""
    names = dict.fromkeys(d for a in ARTIFACTS if a.kind == "sweep" for d in a.datasets)
    return {d: availability(d, root, download) for d in names}


def plan_all(results, programs, root=None, download=False, launcher=None, stand_ins=False, scale=False, force=False):
    """The steps of ``run all``: every artifact (each sweep folder once: every SYNTHETIC stand-in, every
    real set and real-text analog whose loader finds its files under the data root ``root`` or, with
    ``download``, may fetch them (:func:`data_plan`); the others are skipped, saying which file to put
    where), then the calibration, the peers' scripts and the other records' scripts
    (:func:`script_steps.script_steps`: ``programs`` maps a peer's option to a path; without one a peer is
    skipped).  SYNTHETIC stand-ins run only with ``stand_ins`` and the large
    transductive tables (minutes a job) only with ``scale`` (:func:`optional`).  ``force``: the steps may
    replace the files earlier runs made (``paper_artifacts.py run --force``)."""
    steps, seen, ran_before, recipes, before = [], set(), {}, {}, {}
    data = data_plan(root, download)
    passed = (["--data-root", str(data_root(root))] + (["--download"] if download else [])
              + (["--launcher", launcher] if launcher else []) + (["--force"] if force else []))
    for a in timing_first(ARTIFACTS):
        if a.record or a.kind == "not reproduced":    # a peer's record: made by EXTRA_SCRIPTS below
            continue
        if a.kind != "sweep":
            seconds, basis = recorded_seconds(results, a)
            argv = ([sys.executable, str(PAPER_ARTIFACTS), "run", a.name, "--results", str(results)]
                    + (["--force"] if force else []) if a.kind == "drawing"
                    else [sys.executable, *a.command.split()[1:]])
            steps.append(Step(a.name, argv, seconds, basis, one_core=a.name in ONE_CORE))
            continue
        for d in a.datasets:
            folder = sweep_folder(a, d)
            if folder in seen:
                continue
            seen.add(folder)
            why = optional(a, d, stand_ins, scale)
            runnable = data[d].runnable
            seconds, basis = recorded_seconds(results, a, d, ran_before.get(d, ()) if not why else ())
            if not why and runnable:
                ran_before.setdefault(d, []).append(folder)
            recipes[f"{a.name} {d}"] = (experiment_name(a), d)
            before[f"{a.name} {d}"] = (Path(results) / folder / "results.csv", experiment_name(a),
                                       [Path(results) / f / "results.csv" for f in ran_before.get(d, ()) if f != folder])
            if why:
                steps.append(Step(f"{a.name} {d}", None, seconds, basis, why))
                continue
            argv = [sys.executable, str(PAPER_ARTIFACTS), "run", a.name, "--dataset", d, "--results", str(results), *passed]
            steps.append(Step(f"{a.name} {d}", argv if runnable else None, seconds, basis,
                              "" if runnable else in_words_of(data[d].detail, *OPTIONS),
                              sweep=Path(results) / RUNS / folder))
    missing = [d for _, d, _ in CORNER_SWEEPS if not data[d].runnable]
    steps.append(corners_step(results, ROOT / "experiments", passed,
                              in_words_of(data[missing[0]].detail, *OPTIONS) if missing else ""))
    steps += record_steps(results, programs)
    steps += script_steps(results, programs, scale, ROOT / "experiments")
    return [less_timed_first(results, measured_first(results, s, lambda step: recipe_jobs(*recipes[step.name])
                                                     if step.name in recipes else None), before.get(s.name))
            for s in steps]


def recipe_jobs(experiment, dataset):
    """How many jobs recipe ``experiment`` launches on ``dataset`` today
    (:func:`ssl_repro.harness.sweep_estimate.jobs_now`), or None where the recipe does not apply."""
    try:
        return jobs_now(experiment, dataset)
    except (ValueError, OmegaConfBaseException):
        return None


def script_argv(command, programs):
    """The arguments of an artifact's script ``command`` (``python experiments/x.py ...``) without ``python``:
    a peer's ``--option PATH`` given the path of ``programs``, or left out when it has none."""
    words = command.split()[1:]
    argv = []
    for k, w in enumerate(words):
        if k + 1 < len(words) and words[k + 1] == "PATH":
            argv += [w, programs[w]] if programs.get(w) else []
        elif w != "PATH":
            argv.append(w)
    return argv


def record_steps(results, programs):
    """The steps of the artifacts whose script writes a record that no script of :data:`EXTRA_SCRIPTS` makes
    (002's small-scale tables and figures, ``cccp_002/*.csv``): one step per distinct command of
    :data:`artifact_table.ARTIFACTS` (:func:`script_argv`: without a peer's path the script runs our methods
    and keeps the peer's rows its record holds), estimated by the ``seconds`` its record sums for the
    command's ``--dataset`` (busy)."""
    made_by_extra = {record for *_, record in EXTRA_SCRIPTS if record}
    steps, seen = [], set()
    for a in ARTIFACTS:
        if not a.record or a.record in made_by_extra or a.kind != "script":
            continue
        argv = script_argv(a.command, programs)
        if fits_of(a.command) in seen:
            continue
        seen.add(fits_of(a.command))
        seconds, basis = last_measured(results, a.name)
        record = Path(results) / a.record
        if record.exists():
            frame = ours_and_given_peers(pd.read_csv(record), programs)
            if "--dataset" in argv and "dataset" in frame:
                frame = frame[frame["dataset"] == argv[argv.index("--dataset") + 1]]
            if "seconds" in frame and not frame.empty:
                seconds, basis = float(frame["seconds"].sum()), f"busy s summed in {a.record}" + (
                    "" if len(frame) == frame.attrs.get("rows") else ", less the peers' rows not run") + (
                    unrecorded_peers(frame, argv, a.record))
        steps.append(Step(a.name, [sys.executable, *argv], seconds, basis, one_core=a.name in ONE_CORE))
    return steps


def fits_of(command):
    """What an artifact's script ``command`` fits: its arguments without a peer's (:func:`script_argv` with no
    path given).  Two artifacts whose commands differ only in a peer's option fit our methods alike, and the one
    without the peer keeps the peer's rows its record holds: one step makes both, the first (002-table2, with
    UniverSVM when its path is given).  Before, with ``--universvm``, 002-heuristics fitted g50c's grid again
    (160 s in the run of 2026-11-29)."""
    return tuple(script_argv(command, {}))


#: The peers' programs (``run all``'s option giving each one's path) and the prefix of their rows' ``method``
#: in the records of 002 (``cccp_002/grid.csv``, ``times.csv``): without the path, ``run all`` runs none of them.
PEER_METHODS = {"--universvm": "universvm", "--svm-learn": "svmlight"}


def ours_and_given_peers(frame, programs):
    """The rows of a record ``frame`` that ``run all`` with ``programs`` runs: ours, and a peer's only when its
    path is given (:data:`PEER_METHODS`); ``attrs["rows"]`` keeps how many rows the record holds."""
    rows = len(frame)
    if "method" in frame:
        for option, prefix in PEER_METHODS.items():
            if not programs.get(option):
                frame = frame[~frame["method"].astype(str).str.startswith(prefix)]
    frame.attrs["rows"] = rows
    return frame


def unrecorded_peers(frame, argv, record):
    """What an estimate summed from a record ``frame`` leaves out: the rows of a peer the step runs (its option in
    ``argv``) that the record does not hold yet ("" when none).  SVM-light's rows of 002's grids, for one, came
    with the peer's build (issue 72): until a run records them their seconds are not in the estimate, and the
    dry run says so instead of passing the sum off as the step's."""
    if "method" not in frame:
        return ""
    methods = frame["method"].astype(str)
    absent = [prefix for option, prefix in PEER_METHODS.items()
              if option in argv and not methods.str.startswith(prefix).any()]
    return f"; no {', '.join(absent)} rows in {record} yet: their fits are not in the estimate" if absent else ""


def coverage(steps, programs):
    """[(artifact name, the steps that make it and those left out, with why and the command)]: every
    artifact of :data:`artifact_table.ARTIFACTS` and where ``run all`` makes it, so a dry run shows that
    nothing is left out unsaid.  A sweep artifact is made by the steps of its folders; a script or drawing by
    its own step, the :data:`EXTRA_SCRIPTS` step writing its record, or the step of its command
    (:func:`record_steps`)."""
    by_name = {s.name: s for s in steps}
    extra = {record: name for name, _, _, record in EXTRA_SCRIPTS if record}
    by_fits = {}
    for a in ARTIFACTS:         # the step of the first artifact of each command (:func:`fits_of`), as planned
        step = by_name.get(a.name)
        if a.kind == "script" and step is not None:
            by_fits.setdefault(fits_of(a.command), step)
    rows = []
    for a in ARTIFACTS:
        if a.kind == "not reproduced":
            rows.append((a.name, f"skipped: not reproduced here: {a.why_not}"))
            continue
        if a.kind == "sweep":
            made = {d: by_name.get(f"{b.name} {d}") for d in a.datasets for b in ARTIFACTS
                    if b.kind == "sweep" and d in b.datasets and sweep_folder(b, d) == sweep_folder(a, d)
                    and f"{b.name} {d}" in by_name}
            ran = list(dict.fromkeys(s.name for s in made.values() if s.argv))
            left = {}
            for d, s in made.items():
                if not s.argv:
                    left.setdefault(SHORT_WHY.get(s.why, "missing data (the files named above)"), []).append(d)
            text = "; ".join(([f"steps {', '.join(ran)}"] if ran else [])
                             + [f"skipped on {', '.join(ds)}: {why} (command: python experiments/paper_artifacts.py "
                                f"run {a.name} --dataset {ds[0]})" for why, ds in left.items()])
            rows.append((a.name, text))
            continue
        step = by_name.get(extra.get(a.record, a.name)) or by_fits.get(fits_of(a.command))
        if step is None:
            rows.append((a.name, f"skipped: no step makes it (command: {a.command})"))
        elif step.argv:
            rows.append((a.name, f"step {step.name}"))
        else:
            rows.append((a.name, f"skipped: {step.why} (command: {a.command})"))
    return rows


#: Why ``run all`` leaves a step out unless asked (:func:`optional`).
STAND_IN_STEP = "SYNTHETIC stand-ins (no error or optimization verdict rests on one): --stand-ins runs them"


#: The reasons above as the dry run's list of artifacts says them.
SHORT_WHY = {STAND_IN_STEP: "SYNTHETIC stand-ins, --stand-ins runs them", SCALE_STEP: "scale experiments, --scale runs them"}


def optional(artifact, dataset, stand_ins, scale):
    """Why ``run all`` leaves the sweep of ``artifact`` on ``dataset`` out (None: it runs): a SYNTHETIC
    stand-in without ``stand_ins``, a large transductive table or its doubling timing without ``scale``."""
    if artifact.name in ("large-transductive", "scale-timing") and not scale:
        return SCALE_STEP
    if dataset.startswith("synthetic-") and not stand_ins:
        return STAND_IN_STEP
    return None


def print_data_plan(root=None, download=False):
    """Say up front which real sets run (their files here, or to be downloaded) and which are missing,
    with the file to put where."""
    data = data_plan(root, download)
    real = {d: a for d, a in data.items() if a.state != "generated"}
    runs = [f"{d} ({a.state})" for d, a in real.items() if a.runnable]
    print(f"data root {data_root(root)}: real sets that run: {', '.join(runs) or 'none'}; missing: "
          f"{', '.join(d for d, a in real.items() if not a.runnable) or 'none'}"
          + ("" if download else " (downloads not allowed: --download lets the loaders fetch what they can)"),
          flush=True)
    for d, a in real.items():
        if not a.runnable:
            print(f"missing {d}: {in_words_of(a.detail, *OPTIONS)}", flush=True)


def run_all(results, programs, dry_run=False, popen=subprocess.Popen, root=None, download=False, launcher=None,
            stand_ins=False, scale=False, finish=None, force=False, resume=False):
    """Run every step of :func:`plan_all` with a progress line (each step's estimate and its basis), after
    saying which real sets run and which are missing (:func:`print_data_plan`) and the estimate of the
    whole (module doc; a pair of one-core steps counts as the longer of the two), then ``finish`` (the
    caller's re-rendering of the summaries, figures and report), timed as the step ``render + report``;
    ``dry_run``: print it all and run nothing.  The steps run as children started by ``popen``, one at a time
    or two one-core steps side by side (:mod:`step_runs`); each step's row goes to the run record
    (:func:`record_step`) as the step ends, so an interrupted run keeps the rows of the steps it finished, and a
    failed step ends the run.  ``resume``: continue the last run (:func:`step_runs.resumed_run`: same commit,
    its finished steps skipped and left out of the estimate, the rows added under its start; the steps may
    replace files, as the run's own first part could).  Returns the steps."""
    run, finished = resumed_run(results) if resume else (None, set())
    print_data_plan(root, download)
    steps = plan_all(results, programs, root, download, launcher, stand_ins, scale, force or resume)
    todo = [s for s in steps if s.argv]
    closing = [s for s in ([] if finish is None else [finish_step(results)]) if s.name not in finished]
    grouped = batches(todo)
    left = [[s for s in b if s.name not in finished] for b in grouped]
    known = sum(x for x in [batch_seconds(b) for b in left if b] + [s.seconds for s in closing] if x is not None)
    unknown = [s.name for s in sum(left, []) + closing if s.seconds is None]
    pairs = [" and ".join(s.name for s in b) for b in grouped if len(b) > 1]
    measured = sum(s.basis.startswith(MEASURED) for s in todo + closing)
    print(f"run all: {len(todo)} steps, {len(steps) - len(todo)} skipped"
          + (f", {len(finished & {s.name for s in todo})} done earlier in the run of {run} (resumed)" if resume else "")
          + f"; estimate {known / 3600:.2f} h ({known:.0f} s: per step, its wall seconds in the last run that ran it "
          f"({measured} of {len(todo) + len(closing)} steps), else per sweep its record's seconds per job plus "
          f"overhead, times the jobs its recipe launches now, over the jobs it runs at once, and per script its "
          f"record's seconds"
          + (f"; side by side, one thread each, the longer counted: {'; '.join(pairs)}" if pairs else "") + ")"
          + (f", plus {', '.join(unknown)} (time not recorded)" if unknown else ""), flush=True)
    for line in left_out_lines(steps):
        print(line, flush=True)
    reusing = [f"{s.name} ({s.reuses})" for s in todo if s.reuses]
    if reusing:
        print("fits read from the sweep run before that made them, not fitted again (their seconds left out of the "
              f"estimate): {'; '.join(reusing)}", flush=True)
    if dry_run:
        print("every artifact and the step that makes it:", flush=True)
        for name, where in coverage(steps, programs):
            print(f"  {name}: {where}", flush=True)
    recording = not dry_run and bool(sum(left, []) + closing)
    if recording and resume:
        note_resumed(results)
    elif recording:                                                                                   # a run log
        record = add_provenance(Path(results) / RUN_PROVENANCE, data_keys=NOT_FROM_DATA)
        run = record["provenance"]["date"]
    # every step reads the real sets under this data root: the sweeps are given it, the scripts (some take no
    # data-root option) find it in their environment, so none looks in another folder and says "not here"
    children_env = {DATA_ROOT_VAR: str(data_root(root))}
    done, total, k = 0.0, 0.0, 0
    for batch, batch_left in zip(grouped, left):
        for s in batch:
            k += 1
            beside = "".join(f" beside {o.name}" for o in batch_left if o is not s)
            print(f"[{k}/{len(todo)}] {s.name}{beside} " + (
                "(done earlier in this run: skipped)" if s not in batch_left else
                f"(estimate {estimate_text(s)}; {done / max(known, 1e-9):.0%} of the estimate done): "
                f"{' '.join(s.argv[1:])}"), flush=True)
        if batch_left and not dry_run:
            started = time.perf_counter()
            run_batch(batch_left, ROOT, lambda row: record_step(results, run, row), popen, env=children_env)
            total += time.perf_counter() - started
        done += batch_seconds(batch_left) or 0.0
    for s in closing:
        print(f"[{s.name}] the summaries, figures and report from the new records (estimate {estimate_text(s)})",
              flush=True)
        if not dry_run:
            total += record_step(results, run, timed(s.name, finish, s.seconds, "render_all + write_report"))
    if recording:
        print(f"run all: {total / 3600:.2f} h wall (estimate {known / 3600:.2f} h, {total / max(known, 1e-9):.0%} "
              f"of it); per step: {Path(results) / RUN_RECORD}", flush=True)
    return steps


def left_out_lines(steps):
    """One line per reason the plan leaves steps out: the steps, why, and the seconds they would add by their
    estimates (:func:`script_steps.measured_first`: their wall seconds in the last run that ran them), so that the
    estimate of the whole says what it does not count."""
    skipped = {}
    for s in steps:
        if not s.argv:
            skipped.setdefault(s.why, []).append(s)
    lines = []
    for why, left in skipped.items():
        known = [s.seconds for s in left if s.seconds is not None]
        cost = (f" (left out of the estimate: {sum(known):.0f} s" + (f" for {len(known)} of them" if len(known) < len(left)
                                                                     else "") + ")") if known else ""
        lines.append(f"skip {', '.join(s.name for s in left)}: "
                     + ("missing data (above)" if why.startswith("dataset ") else why) + cost)
    return lines


#: The row of the re-rendering after the steps (``finish`` of :func:`run_all`).
FINISH_STEP = "render + report"


def finish_step(results):
    """The re-rendering after the steps as a :class:`Step` (run in-process, no argv), estimated by its row of
    the last run in the run record (:func:`last_measured`)."""
    return Step(FINISH_STEP, None, *last_measured(results, FINISH_STEP))


def estimate_text(step):
    """A step's estimate and its basis, as the progress lines give them."""
    return f"{'?' if step.seconds is None else f'{step.seconds:.0f} s'} = {step.basis}"


def record_step(results, run, row):
    """Append one step's ``row`` (:func:`step_runs.step_row`) to ``<results>/run_all/steps.csv`` under the run's
    start ``run`` (the run's ``provenance.json`` beside it is written by :func:`run_all` before its first step).
    A record written before a column was added (``beside``) is rewritten once with it, its rows' cells empty.
    Returns the step's wall seconds."""
    path = Path(results) / RUN_RECORD
    frame = pd.DataFrame([{"run": run, **row}])
    older = path.exists() and list(pd.read_csv(path, nrows=0).columns) != list(frame.columns)
    if older:
        frame = pd.concat([pd.read_csv(path), frame], ignore_index=True).reindex(columns=frame.columns)
    frame.to_csv(path, mode="w" if older else "a", header=older or not path.exists(), index=False)
    return row["seconds"]
