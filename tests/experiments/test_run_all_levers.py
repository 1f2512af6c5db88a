"""Issue 72's levers on ``run all``: the construction corners a step, its estimate from the measured seconds of
the last run (``results/run_all/steps.csv``) less what each lever saves, the steps it leaves out and what they
would cost, no grid fitted twice, UniverSVM's capped fit kept."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"


@pytest.fixture(scope="module")
def plan(experiment_script):
    return experiment_script("run_all_plan")


@pytest.fixture(scope="module")
def last_run():
    """The rows of the last run in the committed run record."""
    rows = pd.read_csv(RESULTS / "run_all" / "steps.csv")
    return rows[rows["run"] == rows["run"].iloc[-1]]


def sets_of(plan, runnable):
    """A stand-in for :func:`run_all_plan.data_plan`: ``runnable`` sets here, the others missing."""
    from ssl_repro.data.sources import Availability
    names = list(plan.data_plan(ROOT / "no-such-folder"))
    return lambda root=None, download=False: {
        d: Availability(d, "here" if d in runnable else "missing", "" if d in runnable else f"dataset {d!r}: missing")
        for d in names}


def peers(tmp_path):
    """Executable stand-ins for the peers' programs (a dry run only checks that they are)."""
    paths = {}
    for option in ("--universvm", "--svmlin"):
        path = tmp_path / option.strip("-")
        path.write_text("#!/bin/sh\nexit 1\n")
        path.chmod(0o755)
        paths[option] = str(path)
    return paths


def read_from_timing(dataset_folder):
    """(jobs, seconds) of the learning curve's record on ``dataset_folder`` that the timing sweep's record holds
    too (same method, split and label count), computed here from the two records: the fits the curves now read
    from the timing sweep's first repeat, and their recorded wall seconds over the curves' 2 jobs at once."""
    curves = pd.read_csv(RESULTS / f"learning_curve_{dataset_folder}" / "results.csv")
    timing = pd.read_csv(RESULTS / f"timing_{dataset_folder}" / "results.csv")
    keys = ["method", "split", "n_labeled"]
    shared = curves.merge(timing.loc[timing["repeat"] == 0, keys], on=keys)
    return len(shared), shared["seconds"].sum() / 2


@pytest.mark.slow
def test_the_construction_corners_step_remakes_the_two_committed_sweeps(plan, experiment_script, tmp_path,
                                                                         monkeypatch):
    corners = experiment_script("construction_corners")
    planned = corners.commands(RESULTS, tmp_path)
    assert sorted(folder for folder, _, _ in planned) == sorted(p.name for p in RESULTS.glob("construction_corners_*"))
    for folder, dataset, command in planned:
        recorded = pd.read_csv(RESULTS / folder / "results.csv", usecols=["command", "dataset"])
        assert set(recorded["dataset"]) == {dataset}
        words = recorded["command"].iloc[0].split()
        ours = command[command.index("+experiment=learning_curve"):]
        for override in ours[:5]:                        # recipe, dataset, lambda', methods, folder: as recorded
            assert override in words, (folder, override)
        assert f"results_dir={RESULTS / 'runs'}" in ours and f"data_root={tmp_path}" in ours
    monkeypatch.setattr(plan, "data_plan", sets_of(plan, {"20ng-aut-avn-like", "20ng-aut-avn-like-b"}))
    step = {s.name: s for s in plan.plan_all(RESULTS, {}, root=tmp_path)}["construction-corners"]
    assert step.argv[1:] == [str(ROOT / "experiments" / "construction_corners.py"), "--results", str(RESULTS),
                             "--data-root", str(tmp_path)]


def test_the_corners_estimate_is_their_records_span_until_a_run_measures_them(plan, experiment_script, tmp_path):
    steps_module = experiment_script("script_steps")
    for folder, start in (("construction_corners_a", 0), ("construction_corners_b", 500)):
        (tmp_path / folder).mkdir()
        dates = pd.to_datetime([1000 + start, 1010 + start, 1100 + start], unit="s", utc=True)
        pd.DataFrame({"date": [d.isoformat() for d in dates[::-1]], "seconds": [7.0, 5.0, 2.0]}).to_csv(
            tmp_path / folder / "results.csv", index=False)
    seconds, basis = steps_module.span_seconds([tmp_path / f / "results.csv" for f in ("construction_corners_a",
                                                                                      "construction_corners_b")])
    assert seconds == 2 * (100 + 2.0) and "busy" in basis       # first end to last end, plus the first job's 2 s
    committed = steps_module.corners_step(RESULTS, ROOT / "experiments", [])
    assert committed.seconds == pytest.approx(steps_module.span_seconds(
        [RESULTS / f / "results.csv" for f in ("construction_corners_20ng_aut_avn_like_lamu1",
                                               "construction_corners_20ng_aut_avn_like_b_lamu10")])[0])
    assert 300 < committed.seconds < 400            # the session of 2026-11-29: 168 s and 221 s wall, beside CI
    (tmp_path / "run_all").mkdir()
    pd.DataFrame({"run": ["r"], "step": ["construction-corners"], "seconds": [42.0], "command": ["x"]}).to_csv(
        tmp_path / "run_all" / "steps.csv", index=False)
    assert steps_module.corners_step(tmp_path, ROOT / "experiments", []).seconds == 42.0


@pytest.mark.slow
def test_the_estimate_is_the_last_runs_measured_seconds_less_the_levers(plan, last_run, tmp_path, capsys, monkeypatch):
    """The plan of the last run (its sets here, --stand-ins, UniverSVM and SVMlin) is estimated from that run's
    own rows: its wall time (a pair counted once), less UniverSVM's capped fit now kept and 002-heuristics' grid
    no longer fitted twice, plus the construction corners (their records' span)."""
    ran = {d for name in last_run["step"] for d in [name.split(" ", 1)[-1]]}
    monkeypatch.setattr(plan, "data_plan", sets_of(plan, ran))
    steps = plan.run_all(RESULTS, peers(tmp_path), dry_run=True, popen=None, stand_ins=True, finish=lambda: None)
    out = capsys.readouterr().out
    by_name = {s.name: s for s in steps}
    paired = last_run[last_run["beside"].notna()]
    wall = last_run["seconds"].sum() - sum(min(a, b) for a, b in zip(
        paired["seconds"], paired.set_index("step").loc[paired["beside"], "seconds"])) / 2
    capped = pd.read_csv(RESULTS / "peers" / "universvm.csv")
    kept = capped.loc[capped["capped"].fillna(False).astype(bool), "seconds"].sum()
    heuristics = float(last_run.loc[last_run["step"] == "002-heuristics", "seconds"].iloc[0])
    assert "002-heuristics" not in by_name and kept == 1800.0
    assert by_name["universvm-002"].seconds == pytest.approx(
        float(last_run.loc[last_run["step"] == "universvm-002", "seconds"].iloc[0]) - kept)
    assert "--keep-capped" in by_name["universvm-002"].argv
    ramp = by_name["002-ramp-s"]                 # it runs UniverSVM since that run: its record's seconds instead
    assert "--universvm" in ramp.argv and ramp.basis.startswith("busy s summed in cccp_002/grid.csv")
    then = dict(zip(last_run["step"], last_run["seconds"]))
    assert then["002-table2"] == by_name["002-table2"].seconds and by_name["002-ramp-s"].one_core
    # 002-table2 and 002-ramp-s now run beside a K-class script each: (table2 | uspst), (mnist | ramp-s)
    was = then["002-table2"] + max(then["002-table2-uspst"], then["002-mnist"]) + then["002-ramp-s"]
    now = max(then["002-table2"], then["002-table2-uspst"]) + max(then["002-mnist"], ramp.seconds)
    timed = sum(read_from_timing(f.name.removeprefix("timing_"))[1] for f in RESULTS.glob("timing_*")
                if f"objective-minima {pd.read_csv(f / 'results.csv')['dataset'].iloc[0]}" in by_name)
    expected = wall - kept - heuristics + by_name["construction-corners"].seconds - was + now - timed
    line = next(x for x in out.splitlines() if x.startswith("run all:"))
    assert f"({expected:.0f} s: per step, its wall seconds in the last run that ran it" in line
    assert f"({len(last_run) - 2} of {len(last_run)} steps)" in line     # the corners and 002-ramp-s by their records
    assert not any("jobs (its recipe now)" in s.basis for s in steps)     # every sweep launches the jobs it ran then


@pytest.mark.slow
def test_a_sweeps_measured_seconds_scale_with_the_jobs_its_recipe_launches_now(plan, tmp_path):
    from ssl_repro.harness.sweep_estimate import jobs_now
    now = jobs_now("learning_curve", "pcmac")
    (tmp_path / "run_all").mkdir()
    pd.DataFrame({"run": ["r", "r"], "step": ["objective-minima pcmac", "timing pcmac"], "seconds": [100.0, 50.0],
                  "command": ["x", "y"], "jobs": [now // 2, jobs_now("timing", "pcmac")]}).to_csv(
        tmp_path / "run_all" / "steps.csv", index=False)
    steps = {s.name: s for s in plan.plan_all(tmp_path, {}, root=tmp_path / "empty")}
    curves, timing = steps["objective-minima pcmac"], steps["timing pcmac"]
    assert curves.seconds == pytest.approx(100.0 * now / (now // 2))
    assert f"times {now}/{now // 2} jobs (its recipe now)" in curves.basis
    assert timing.seconds == 50.0 and "jobs" not in timing.basis


def test_the_curves_read_the_timing_sweeps_fits_and_their_estimate_drops_by_those_fits_seconds(plan, last_run,
                                                                                                 tmp_path, capsys,
                                                                                                 monkeypatch):
    """The timing sweep runs first on its dataset; the learning curve's step is estimated at its last run's wall
    seconds less the recorded seconds of the fits it now reads from the timing sweep (computed here from the
    two records); the ablation's, whose DA that run already copied from the curves, is not lowered again; the dry
    run names what each step reads."""
    monkeypatch.setattr(plan, "data_plan", sets_of(plan, {"pcmac", "20ng-ccat-like"}))
    steps = plan.run_all(RESULTS, {}, dry_run=True, popen=None, root=tmp_path)
    out = capsys.readouterr().out
    names = [s.name for s in steps if s.argv]
    then = dict(zip(last_run["step"], last_run["seconds"]))
    for dataset, folder in (("pcmac", "pcmac"), ("20ng-ccat-like", "20ng_ccat_like")):
        assert names.index(f"timing {dataset}") < names.index(f"objective-minima {dataset}")
        jobs, seconds = read_from_timing(folder)
        assert jobs == {"pcmac": 54, "20ng-ccat-like": 12}[dataset] and seconds > 0
        curves = next(s for s in steps if s.name == f"objective-minima {dataset}")
        assert curves.seconds == pytest.approx(then[f"objective-minima {dataset}"] - seconds)
        assert f"less {seconds:.0f} s for the {jobs} fits it reads from timing_{folder}" in curves.basis
        assert curves.reuses == f"{jobs} from timing_{folder}"
        ablation = next(s for s in steps if s.name == f"annealing-ablation {dataset}")
        assert ablation.seconds == then[f"annealing-ablation {dataset}"] and "timing" not in ablation.reuses
        line = next(x for x in out.splitlines() if x.startswith("fits read from the sweep run before"))
        assert f"objective-minima {dataset} ({jobs} from timing_{folder})" in line
    (tmp_path / "run_all").mkdir()                # a run that copied them already: its seconds left them out
    rows = last_run[last_run["step"] == "objective-minima pcmac"].assign(jobs_copied=54)
    rows.to_csv(tmp_path / "run_all" / "steps.csv", index=False)
    for folder in ("learning_curve_pcmac", "timing_pcmac"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "results.csv").write_bytes((RESULTS / folder / "results.csv").read_bytes())
    again = {s.name: s for s in plan.plan_all(tmp_path, {}, root=tmp_path)}["objective-minima pcmac"]
    assert again.seconds == then["objective-minima pcmac"] and "less" not in again.basis


def test_the_dry_run_says_what_it_leaves_out_and_what_it_would_cost(plan, last_run, tmp_path, capsys):
    plan.run_all(RESULTS, {}, dry_run=True, popen=None, root=tmp_path)
    out = capsys.readouterr().out
    stand_ins = last_run[last_run["step"].str.contains(" synthetic-")]
    assert len(stand_ins) == 10
    line = next(x for x in out.splitlines() if x.startswith("skip objective-minima synthetic-"))
    assert line.endswith(f"--stand-ins runs them (left out of the estimate: {stand_ins['seconds'].sum():.0f} s)")
    assert all(name in line for name in stand_ins["step"])
    assert any(x.startswith("skip ") and "construction-corners" in x and "missing data (above)" in x
               for x in out.splitlines())                  # its sets are not in an empty data root
    universvm = next(x for x in out.splitlines() if x.startswith("skip universvm-002"))
    assert "no --universvm PATH given (left out of the estimate: " in universvm


@pytest.mark.slow
def test_no_stand_in_sweep_backs_a_verdict(tmp_path):
    """Without the stand-ins' sweep folders every claim keeps its verdict words (only the reason a set with
    no other data is not testable changes): leaving them out of the default run moves no verdict."""
    import shutil

    from ssl_repro.claims.records import Records
    dropped = [p.name for p in RESULTS.iterdir() if p.name.startswith(("learning_curve_synthetic", "ablation_synthetic"))]
    assert len(dropped) == 10
    shutil.copytree(RESULTS, tmp_path / "results", ignore=lambda d, names: dropped if Path(d) == RESULTS else [])
    full, cut = Records(RESULTS, ROOT), Records(tmp_path / "results", ROOT)
    claims = [c for c in full.papers["claims"] if "test" in c and "learning_curve" in str(c["test"])
              or "ablation" in str(c.get("test"))]
    assert len(claims) > 20
    for claim in claims:
        words = [[(s, v.word) for s, v in records.named_verdicts(claim)] for records in (full, cut)]
        assert words[0] == words[1], claim.get("id")


@pytest.mark.slow
def test_one_step_fits_002s_g50c_grid_with_or_without_universvm(plan, tmp_path):
    for programs in ({}, peers(tmp_path)):
        steps = plan.plan_all(RESULTS, programs, root=tmp_path)
        grids = [s for s in steps if s.argv and "table2" in s.argv and "g50c" in s.argv]
        assert [s.name for s in grids] == ["002-table2"]
        assert ("--universvm" in grids[0].argv) == bool(programs)
        where = dict(plan.coverage(steps, programs))
        assert where["002-heuristics"] == where["002-fig5"] == "step 002-table2"


def test_a_capped_universvm_row_is_kept_only_for_the_same_binary_cap_parameters_and_data(experiment_script):
    from ssl_repro.data.keys import data_keys
    compare = experiment_script("universvm_compare")
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(30, 4)), np.where(rng.normal(size=30) > 0, 1, -1)
    problem = compare.Problem("text20k", 0, X, y, np.arange(5), np.arange(5, 30), np.array([], int))
    row = {"dataset": "text20k", "split": 0, "n_labeled": 5, "method": "universvm-cccp", "seconds": 60.0,
           "capped": True, "cap_seconds": 60.0, "parameters": compare.universvm_parameters(compare.universvm_cost(5)),
           "git_commit": "abc", "date": "then", "command": "python x"}
    earlier = {"universvm": "/bin/universvm", "data_keys": data_keys({"text20k": (X, y)}), "rows": [row]}
    assert compare.kept_capped(earlier, problem, "/bin/universvm", 60.0) == row
    assert compare.kept_capped(earlier, problem, "/bin/universvm", 120.0) is None           # another cap
    assert compare.kept_capped(earlier, problem, "/other/universvm", 60.0) is None          # another binary
    assert compare.kept_capped({**earlier, "rows": [{**row, "capped": False}]}, problem, "/bin/universvm", 60.0) is None
    changed = compare.Problem("text20k", 0, X + 1, y, np.arange(5), np.arange(5, 30), np.array([], int))
    assert compare.kept_capped(earlier, changed, "/bin/universvm", 60.0) is None            # other data
    fewer = compare.Problem("text20k", 0, X, y, np.arange(4), np.arange(4, 30), np.array([], int))
    assert compare.kept_capped(earlier, fewer, "/bin/universvm", 60.0) is None              # another problem


def test_the_corners_script_replaces_no_record_without_force_and_stops_on_missing_data(experiment_script, tmp_path):
    corners = experiment_script("construction_corners")
    with pytest.raises(SystemExit, match=r"^Error: the construction corners would replace \d+ file\(s\)"):
        corners.main(["--results", str(RESULTS), "--data-root", str(tmp_path)])
    with pytest.raises(SystemExit, match=r"^Error: construction corner construction_corners_20ng_aut_avn_like_\S+ on "
                                         r"20ng-aut-avn-like\S*: .*missing"):
        corners.main(["--results", str(tmp_path / "out"), "--data-root", str(tmp_path / "empty")])
