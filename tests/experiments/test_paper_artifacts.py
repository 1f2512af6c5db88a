"""experiments/paper_artifacts.py (with artifact_table.py, run_all_plan.py and step_runs.py): statuses from the files
present, drawings under their committed names, the plan of ``run all``, its one-core steps side by side."""
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import sleeping_popen

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def artifacts(experiment_script):
    return experiment_script("paper_artifacts")


@pytest.fixture(scope="module")
def table(experiment_script):
    return experiment_script("artifact_table")


@pytest.fixture(scope="module")
def runs(experiment_script):
    return experiment_script("step_runs")


def by_name(artifacts, name):
    return next(a for a in artifacts.ARTIFACTS if a.name == name)


def test_drawings_are_written_under_the_names_the_results_folder_uses(artifacts, table, tmp_path):
    for name in artifacts.DRAWINGS:
        artifact = by_name(artifacts, name)
        artifacts.regenerate(artifact, None, tmp_path)
        assert table.status(artifact, tmp_path)[0] == "regenerated"
        for f in artifact.files:
            assert (tmp_path / f).stat().st_size > 1000


def test_a_sweep_artifact_is_partial_until_every_dataset_has_its_files(artifacts, table, tmp_path):
    timing = by_name(artifacts, "timing")
    assert table.status(timing, tmp_path)[:2] == ("missing", [])
    for f in table.files_of(timing, "pcmac"):
        (tmp_path / f).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f).write_bytes(b"png")
    state, done, why = table.status(timing, tmp_path)
    assert (state, done) == ("partial", ["pcmac"]) and "no run on the real SRAA, RCV1" in why
    assert "timing_pcmac/figures/pcmac_seconds.png" in table.files_of(timing, "pcmac")


def test_every_sweep_has_its_recipe_and_defaults_are_among_its_datasets(artifacts):
    for a in artifacts.ARTIFACTS:
        if a.kind == "sweep":
            assert a.default_dataset in a.datasets
            assert (ROOT / "conf" / "experiment" / f"{artifacts.experiment_name(a)}.yaml").exists(), a.name


def test_sweep_folders_keep_the_committed_names(artifacts):
    assert artifacts.sweep_folder(by_name(artifacts, "timing"), "pcmac") == "timing_pcmac"
    assert artifacts.sweep_folder(by_name(artifacts, "timing"), "33-vs-36") == "timing_33_vs_36"
    assert artifacts.sweep_folder(by_name(artifacts, "large-transductive"), "kdd99-10") == "transductive_kdd99_10"


def test_a_dataset_outside_the_artifact_is_refused_by_name(artifacts, tmp_path):
    with pytest.raises(SystemExit, match="large-transductive is made on .*kdd99-10.*not 'pcmac'"):
        artifacts.regenerate(by_name(artifacts, "large-transductive"), "pcmac", tmp_path)


def test_the_listing_names_every_artifact_with_a_status(artifacts):
    text = artifacts.listing(ROOT / "results")
    for a in artifacts.ARTIFACTS:
        assert f"{a.name}: " in text
    assert text.count("status: ") == len(artifacts.ARTIFACTS)


def test_a_peer_record_holds_its_artifact_for_the_datasets_in_its_rows(artifacts, table, plan, tmp_path):
    speed = by_name(artifacts, "svmlight-speed")
    assert table.status(speed, tmp_path)[:2] == ("missing", [])
    (tmp_path / "peers").mkdir()
    (tmp_path / "peers" / "table9.csv").write_text("dataset,method,seconds\npcmac,da,1\nsynthetic-gcat,da,1\nnot-listed,da,1\n")
    state, done, _ = table.status(speed, tmp_path)
    assert (state, done) == ("partial", ["pcmac", "synthetic-gcat"])
    with pytest.raises(SystemExit, match="svm_learn|PATH"):
        artifacts.regenerate(speed, None, tmp_path)
    assert "svmlight-speed" not in [s.name for s in plan.plan_all(tmp_path, {})]


def test_a_figure_the_records_make_a_table_counts_as_held_by_the_summary(artifacts, table, tmp_path):
    curves = by_name(artifacts, "learning-curves")
    folder = tmp_path / artifacts.sweep_folder(curves, "pcmac")
    folder.mkdir()
    columns = "test_error_mean,transductive_error_mean,seconds_mean,objective_eqn18_mean"
    summary = f"dataset,method,n_labeled,n_unlabeled,{columns}\n" + "".join(
        f"pcmac,{m},{n},100,0.2,0.2,1.0,0.5\n" for m in ("svm", "da") for n in (10, 20))   # flat: a table instead
    (folder / "summary.csv").write_text(summary)
    assert table.status(curves, tmp_path)[:2] == ("missing", [])
    (folder / "summary.md").write_text("the table")
    assert table.status(curves, tmp_path)[1] == ["pcmac"]


def test_dry_run_runs_nothing_for_every_artifact(artifacts, tmp_path, monkeypatch, capsys):
    def no_run(*args, **kwargs):
        raise AssertionError(f"--dry-run ran {args}")
    monkeypatch.setattr(artifacts.subprocess, "run", no_run)
    monkeypatch.setattr(artifacts.plots, "save", no_run)
    for a in artifacts.ARTIFACTS:
        artifacts.main(["run", a.name, "--dry-run", "--results", str(tmp_path)])
        out = capsys.readouterr().out
        assert out.startswith(f"{a.name}") and "would " in out, out
    artifacts.main(["run", "learning-curves", "--dataset", "pcmac", "--dry-run", "--results", str(tmp_path)])
    out = capsys.readouterr().out
    assert "+experiment=learning_curve dataset=pcmac" in out and "download=false" in out
    assert not list(tmp_path.iterdir())           # nothing written


def sweeps_planned(steps, dataset):
    """The sweep steps of ``run all`` on ``dataset`` that would run (argv set), by artifact name."""
    return {s.name.rsplit(" ", 1)[0] for s in steps if s.argv and s.name.endswith(f" {dataset}")}


def test_run_all_plans_the_real_sets_whose_files_are_in_the_data_root(plan, tmp_path, capsys):
    from fake_data_files import write_fake_rcv1, write_fake_sraa
    root = tmp_path / "data"
    write_fake_sraa(root / "sraa" / "sraa.tar.gz")
    write_fake_rcv1(root / "RCV1", 30)
    steps = plan.run_all(tmp_path / "results", {}, dry_run=True, popen=None, root=root)
    out = capsys.readouterr().out
    medium = {"objective-minima", "timing", "annealing-ablation"}   # learning-curves: objective-minima's folder
    for name in ("aut-avn", "real-sim", "ccat", "gcat"):
        assert sweeps_planned(steps, name) == medium, name
    assert sweeps_planned(steps, "aut-avn-fig5") == set()                                 # same folder as above
    assert not [line for line in out.splitlines() if line.startswith("[") and "aut-avn-fig5" in line]
    assert sweeps_planned(steps, "full-ccat") == sweeps_planned(steps, "full-gcat") == set()   # behind --scale
    scaled = plan.plan_all(tmp_path / "results", {}, root, scale=True)
    assert sweeps_planned(scaled, "full-ccat") == sweeps_planned(scaled, "full-gcat") == {"large-transductive",
                                                                                           "scale-timing"}
    assert "--scale runs them" in out
    step = next(s for s in steps if s.name == "timing ccat")
    assert step.argv[-2:] == ["--data-root", str(root)]      # the sweep reads the same data root
    assert "real sets that run: aut-avn (here), real-sim (here), ccat (here), gcat (here)" in out
    assert sweeps_planned(steps, "33-vs-36") == set()
    assert f"missing 33-vs-36: dataset '33-vs-36': expected file(s) {root / '33-vs-36' / '33-vs-36.svmlight'}" in out


def test_run_all_with_an_empty_data_root_names_each_missing_set_and_its_file(plan, tmp_path, capsys):
    root = tmp_path / "empty"
    steps = plan.run_all(tmp_path / "results", {}, dry_run=True, popen=None, root=root)
    out = capsys.readouterr().out
    assert "real sets that run: none" in out
    newsgroups = "20newsgroups/20news-bydate_py3.pkz"
    expected = {"aut-avn": "sraa/sraa.tar.gz", "ccat": "RCV1/samples_py3.pkl", "pcmac": newsgroups,
                "20ng-ccat-like": newsgroups, "kdd99-10": "kddcup99/kddcup.data_10_percent.gz"}
    for name, file in expected.items():
        assert sweeps_planned(steps, name) == set(), name
        assert f"missing {name}: dataset '{name}': expected file(s) {root / file}" in out, name
    assert sweeps_planned(steps, "synthetic-ccat") == set() and "--stand-ins runs them" in out
    with_stand_ins = plan.plan_all(tmp_path / "results", {}, root, stand_ins=True)
    assert sweeps_planned(with_stand_ins, "synthetic-ccat") == {"objective-minima", "annealing-ablation"}
    assert not root.exists()                                  # asking the loaders creates nothing
    downloading = plan.plan_all(tmp_path / "results", {}, root, download=True)
    assert "timing aut-avn" in {s.name for s in downloading if s.argv}
    assert sweeps_planned(downloading, "33-vs-36") == set()   # proprietary: never downloadable


def test_run_all_records_each_step_as_it_ends_and_the_rendering_after(plan, tmp_path, capsys):
    """A real run (here with children that only sleep) appends one row a step to run_all/steps.csv as the
    step ends (the kernel scripts side by side, each its own row naming the other), then the rendering's row,
    with its provenance, and prints the total against the estimate; a second run adds its rows under its own
    start; an interrupted run keeps the rows of its finished steps."""
    import pandas as pd
    results, ran, finished = tmp_path / "results", [], []
    for _ in range(2):
        steps = plan.run_all(results, {}, dry_run=False, popen=sleeping_popen(ran), root=tmp_path / "empty",
                             finish=lambda: finished.append(True))
    table = pd.read_csv(results / plan.RUN_RECORD)
    todo = [s for s in steps if s.argv]
    assert len(ran) == 2 * len(todo) and len(finished) == 2
    assert len(table) == 2 * (len(todo) + 1) and table["run"].nunique() <= 2
    first = list(table["step"][:len(todo) + 1])                  # a pair's two rows in the order they ended
    assert sorted(first[:-1]) == sorted(s.name for s in todo) and first[-1] == plan.FINISH_STEP
    beside = dict(zip(table["step"], table["beside"].fillna("")))
    assert beside["kernel-toy-table"] == "kernel-benchmarks" and beside["kernel-benchmarks"] == "kernel-toy-table"
    assert beside["dataset-table"] == beside[plan.FINISH_STEP] == ""
    assert table["jobs"].isna().all()                     # the children ran no sweep: no job counts
    rendering = table[table["step"] == plan.FINISH_STEP]       # the second run's estimate is the first's seconds
    assert rendering["estimate_seconds"].isna().tolist() == [True, False]
    assert rendering["estimate_seconds"].iloc[1] == pytest.approx(rendering["seconds"].iloc[0], abs=0.01)
    assert (table["seconds"][table["step"] != plan.FINISH_STEP] >= 0.01).all() and table["load_before"].notna().all()
    record = json.loads((results / "run_all" / "provenance.json").read_text())
    assert record["provenance"]["git_commit"] and len(record["earlier"]) == 1      # the first run's
    assert "h wall (estimate" in capsys.readouterr().out
    with pytest.raises(KeyboardInterrupt):
        plan.run_all(results, {}, dry_run=False, popen=sleeping_popen([], interrupt_at=2), root=tmp_path / "empty")
    assert len(pd.read_csv(results / plan.RUN_RECORD)) == len(table) + 1


def test_every_child_of_run_all_reads_the_runs_data_root(plan, tmp_path, monkeypatch):
    """``run all --data-root DIR``: every step's child, a sweep or a script (some take no data-root option), and
    each of a pair, has DIR as $SSL_REPRO_DATA, whatever the caller's environment says, so none looks for the
    real sets in another folder (the kernel benchmarks failed there and the dataset table wrote "not here")."""
    monkeypatch.setenv("SSL_REPRO_DATA", str(tmp_path / "elsewhere"))
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    environments = []

    def popen(argv, **kwargs):
        environments.append(kwargs["env"])
        return subprocess.Popen([sys.executable, "-c", "pass"], **kwargs)
    steps = plan.run_all(tmp_path / "results", {}, popen=popen, root=tmp_path / "here")
    assert len(environments) == len([s for s in steps if s.argv]) > 2
    assert {e["SSL_REPRO_DATA"] for e in environments} == {str(tmp_path / "here")}
    assert {e.get("OMP_NUM_THREADS") for e in environments} == {None, "1"}      # a pair's children: one thread


def test_a_sweep_on_a_missing_real_set_stops_before_any_job(artifacts, tmp_path, monkeypatch):
    monkeypatch.setattr(artifacts.subprocess, "run", lambda *a, **k: pytest.fail(f"launched {a}"))
    timing = by_name(artifacts, "timing")
    with pytest.raises(SystemExit, match=r"timing on gcat: dataset 'gcat': expected file\(s\) .*RCV1/samples_py3"):
        artifacts.regenerate(timing, "gcat", tmp_path / "results", root=tmp_path / "data")


def test_run_all_passes_a_launcher_to_every_sweep(artifacts, plan, tmp_path, capsys):
    steps = plan.run_all(tmp_path / "results", {}, dry_run=True, popen=None, root=tmp_path / "empty",
                              launcher="ray_cluster", stand_ins=True)
    sweeps = [s for s in steps if s.argv and s.sweep is not None]
    assert sweeps and all(s.argv[-2:] == ["--launcher", "ray_cluster"] for s in sweeps)
    command = artifacts.sweep_command(by_name(artifacts, "timing"), "pcmac", tmp_path, launcher="slurm")
    assert command[-1] == "hydra/launcher=slurm" and "ray_cluster" in artifacts.LAUNCHERS
    assert artifacts.sweep_command(by_name(artifacts, "timing"), "pcmac", tmp_path)[-1].startswith("download=")


def fake_record(results, folder, dataset, seconds, **columns):
    """``results/<folder>/results.csv``: one job per value of ``seconds`` (``columns``: more columns)."""
    import pandas as pd
    (results / folder).mkdir(parents=True)
    pd.DataFrame({"dataset": dataset, "method": "da", "split": range(len(seconds)), "n_labeled": 44,
                  "seconds": seconds, **columns}).to_csv(results / folder / "results.csv", index=False)
    return results / folder / "results.csv"


def every_method(experiment, dataset, seconds):
    """(method, seconds) columns of a record with the jobs ``seconds[i]`` for the i-th method the recipe runs
    on ``dataset`` (each method its own seconds), and the mean over the methods of their means."""
    from ssl_repro.harness.sweep_estimate import record_names, sweep_values
    names = record_names(sweep_values(experiment, dataset)["method"])
    method = [n for n, own in zip(names, seconds) for _ in own]
    flat = [x for own in seconds[:len(names)] for x in own]
    return {"method": method, "split": range(len(flat))}, flat, sum(sum(o) / len(o) for o in seconds[:len(names)]) / len(names)


def test_run_all_estimates_each_sweep_from_its_records_seconds_per_job_and_the_jobs_its_recipe_launches_now(
        plan, tmp_path, capsys):
    """Per method the recipe runs, the mean of its jobs' seconds (CPU seconds where the record has them,
    else busy seconds), times the jobs the recipe launches now, over the jobs it runs at once."""
    from omegaconf import OmegaConf

    from ssl_repro.data import dataset_info
    from ssl_repro.harness import sweep_estimate
    from ssl_repro.harness.methods import recipe_variants
    results, d = tmp_path / "results", "synthetic-ccat"
    per_method = [[10.0, 30.0], [50.0], [5.0, 7.0, 9.0], [100.0], [1.0]]
    columns, busy, busy_mean = every_method("learning_curve", d, per_method)
    fake_record(results, "learning_curve_synthetic_ccat", d, busy, **columns)             # busy seconds only
    columns, cpu, cpu_mean = every_method("ablation", d, per_method)
    columns["split"] = [100 + s for s in columns["split"]]                                # no job of the curve's
    fake_record(results, "ablation_synthetic_ccat", d, [99.0] * len(cpu), cpu_seconds=cpu, **columns)
    calls = []
    steps = plan.run_all(results, {}, dry_run=True, popen=lambda *a, **k: calls.append(a), root=tmp_path / "empty",
                         stand_ins=True)
    out = capsys.readouterr().out
    assert calls == []
    info, cores = dataset_info(d), OmegaConf.load(sweep_estimate.CONF / "hydra/launcher/local.yaml").n_jobs
    assert len(info.curve_methods) == 4 < len(recipe_variants("learning_curve"))        # a stand-in's four methods
    grid = {"objective-minima": (busy_mean, "busy s", 4 * 10 * len(info.curve_labels)),
            "annealing-ablation": (cpu_mean, "CPU s", len(recipe_variants("ablation")) * 10 * len(info.ablation_grid))}
    by_name = {s.name: s for s in steps}
    for name, (per_job, which, jobs) in grid.items():
        step = by_name[f"{name} {d}"]
        assert step.seconds == pytest.approx((per_job + sweep_estimate.OVERHEAD) * jobs / cores), name
        assert f"({per_job:.2f} {which}/job, mean of " in step.basis and f" x {jobs} jobs / {cores} at once" in step.basis
        assert f"{name} {d} (estimate {step.seconds:.0f} s = {step.basis};" in out
    assert f"timing {d}" not in by_name                     # the stand-ins are not timed (artifact_table.NOT_TIMED)
    known = sum(s.seconds for s in steps if s.argv and s.seconds is not None)
    assert f"estimate {known / 3600:.2f} h" in out
    peers = {s.name: s for s in steps if s.name in ("svmlight-table9", "universvm-002")}
    assert all(s.argv is None and s.why for s in peers.values())
    assert "skip " in out and "full-ccat" in out           # real sets without their files are skipped with the reason


def test_a_timing_sweeps_estimate_reads_the_protocols_wall_seconds(tmp_path):
    from ssl_repro.harness.sweep_estimate import OVERHEAD, estimate, jobs_now
    from ssl_repro.harness.timing_protocol import WINDOW
    columns, wall, mean = every_method("timing", "pcmac", [[2.0, 4.0], [3.0], [7.0], [1.0, 1.0], [10.0]])
    timing = fake_record(tmp_path, "timing", "pcmac", wall, cpu_seconds=[1.0] * len(wall),
                         load_before=[0.1] * len(wall), **columns)
    seconds, basis = estimate(timing, "timing", "pcmac")
    assert seconds == pytest.approx((mean + OVERHEAD + WINDOW) * jobs_now("timing", "pcmac"))
    assert "wall s (timing protocol)/job" in basis and " / 1 at once" in basis


def test_a_sweep_whose_record_lacks_a_method_it_runs_has_no_estimate(tmp_path):
    """A method the recipe runs now and the record never held (the stand-ins' curves before they were
    narrowed: TSVM S=1 at minutes a job against DA's seconds) gives "?", not a mean borrowed from others."""
    from ssl_repro.harness.sweep_estimate import estimate
    curve = fake_record(tmp_path, "curve", "pcmac", [1.0, 2.0], method=["da", "svm"])
    seconds, why = estimate(curve, "learning_curve", "pcmac")
    assert seconds is None and why.startswith("no job of ") and "tsvm-S1" in why and "curve/results.csv" in why


def test_a_sweeps_estimate_leaves_out_the_jobs_an_earlier_sweep_holds(tmp_path):
    """The ablation copies its full DA from the learning curve (same method, split and label count): the
    estimate counts only the other jobs, at their own seconds; a timing sweep copies nothing."""
    from ssl_repro.harness.sweep_estimate import OVERHEAD, estimate, jobs_now
    d = "synthetic-ccat"
    curve = fake_record(tmp_path, "curve", d, [30.0, 50.0, 70.0])
    columns, cpu, alone_mean = every_method("ablation", d, [[9.0, 9.0], [1.0, 3.0], [4.0, 4.0], [6.0, 8.0]])
    columns["split"] = [0, 1] * 4
    ablation = fake_record(tmp_path, "ablation", d, cpu, cpu_seconds=cpu, **columns)
    alone, _ = estimate(ablation, "ablation", d)
    seconds, basis = estimate(ablation, "ablation", d, earlier=[curve])
    jobs = jobs_now("ablation", d)
    assert columns["method"][0] == "da"
    assert alone == pytest.approx((alone_mean + OVERHEAD) * jobs / 2)
    assert seconds == pytest.approx((13 / 3 + OVERHEAD) * (jobs - jobs // 4) / 2)    # the three fixed-T means: 2, 4, 7
    assert f"({jobs // 4} more copied from an earlier sweep)" in basis and "mean of 6 in" in basis
    columns, wall, _ = every_method("timing", d, [[1.0], [2.0], [3.0], [4.0], [5.0]])
    timing = fake_record(tmp_path, "timing", d, wall, load_before=[0.1] * len(wall), **columns)
    assert estimate(timing, "timing", d, earlier=[curve]) == estimate(timing, "timing", d)


def test_a_large_analogs_estimate_counts_the_methods_and_labels_the_registry_narrows_it_to(plan):
    from ssl_repro.data import dataset_info
    from ssl_repro.harness.sweep_estimate import jobs_now
    from ssl_repro.harness.methods import recipe_variants
    info = dataset_info("20ng-ccat-like")
    narrowed = [v for v in recipe_variants("learning_curve") if v.config in info.curve_methods]
    assert 0 < len(narrowed) < len(recipe_variants("learning_curve"))
    assert jobs_now("learning_curve", "20ng-ccat-like") == len(narrowed) * 10 * len(info.curve_labels)
    assert jobs_now("ablation", "20ng-ccat-like") == len(recipe_variants("ablation")) * 10 * len(info.ablation_grid)
    assert len(info.ablation_grid) < len(info.label_grid) and len(info.timing_grid) < len(info.label_grid)


#: A child that writes its marker (holding its OMP_NUM_THREADS), then waits up to 20 s for the other's: it
#: exits 0 only if the other child ran at the same time.
MEET = ("import os, pathlib, sys, time; mine, other = map(pathlib.Path, sys.argv[1:]); "
        "mine.write_text(os.environ.get('OMP_NUM_THREADS', '')); end = time.time() + 20\n"
        "while not other.exists() and time.time() < end: time.sleep(0.01)\n"
        "sys.exit(0 if other.exists() else 3)")


def one_core(plan, name, *code):
    return plan.Step(name, [sys.executable, "-c", *code], 1.0, "test", one_core=True)


def test_a_pair_runs_side_by_side_one_thread_each_and_each_step_gets_its_own_row(plan, runs, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    pair = [one_core(plan, "first", MEET, str(a), str(b)), one_core(plan, "second", MEET, str(b), str(a))]
    alone = plan.Step("alone", [sys.executable, "-c", "pass"], 1.0, "test")
    assert [[s.name for s in batch] for batch in runs.batches([*pair, alone])] == [["first", "second"], ["alone"]]
    rows = []
    runs.run_batch(pair, tmp_path, rows.append)            # run one after the other, the first would exit 3
    assert sorted(r["step"] for r in rows) == ["first", "second"]
    assert {r["step"]: r["beside"] for r in rows} == {"first": "second", "second": "first"}
    assert all(0 < r["seconds"] < 20 and r["cpu_seconds"] >= 0 and r["load_before"] >= 0 for r in rows)
    assert a.read_text() == b.read_text() == "1"            # one thread each
    runs.run_batch([alone], tmp_path, rows.append)
    assert rows[-1]["beside"] == ""


def test_a_sweep_steps_row_counts_the_jobs_its_sweep_commands_held_ran_and_copied(plan, runs, tmp_path):
    """The counts come from the history entries the step's sweep commands append (``progress_sweeper``), not
    from those of earlier runs; a script's row has none."""
    from ssl_repro.harness.progress import HISTORY
    sweep = tmp_path / "runs" / "timing_toy"
    (sweep / HISTORY).parent.mkdir(parents=True)
    (sweep / HISTORY).write_text(json.dumps({"jobs": 9, "ran": 9, "reused": 0}) + "\n")     # an earlier run's
    entries = [{"jobs": 12, "ran": 5, "reused": 2}, {"jobs": 12, "ran": 3, "reused": 0}]
    code = (f"import json; f = open({str(sweep / HISTORY)!r}, 'a'); "
            f"f.write(''.join(json.dumps(e) + chr(10) for e in {entries!r}))")
    step = plan.Step("timing toy", [sys.executable, "-c", code], 1.0, "test", sweep=sweep)
    script = plan.Step("a script", [sys.executable, "-c", "pass"], 1.0, "test")
    rows = []
    for batch in runs.batches([step, script]):
        runs.run_batch(batch, tmp_path, rows.append)
    assert [(r["jobs"], r["jobs_ran"], r["jobs_copied"]) for r in rows] == [(12, 8, 2), (None, None, None)]


def test_a_failing_member_ends_the_run_and_stops_the_other(plan, runs, tmp_path):
    children, rows = [], []

    def popen(argv, **kwargs):
        children.append(subprocess.Popen(argv, **kwargs))
        return children[-1]
    pair = [one_core(plan, "slow", "import time; time.sleep(60)"), one_core(plan, "bad", "raise SystemExit(1)")]
    started = time.perf_counter()
    with pytest.raises(SystemExit, match="step bad failed \\(exit 1\\).*; stopped slow, which ran beside it"):
        runs.run_batch(pair, tmp_path, rows.append, popen)
    assert time.perf_counter() - started < 30 and rows == []
    assert len(children) == 2 and all(c.poll() is not None for c in children)     # none left running


def test_each_pair_the_plan_runs_side_by_side_holds_one_thread_scripts_writing_different_records(
        plan, runs, table, tmp_path):
    """``run all`` runs two steps at once only where neither rewrites the other's record: each pair of the plan
    (:func:`step_runs.batches`) is two of :data:`ONE_CORE`, and two 002 scripts in a pair write different CSVs."""
    steps = plan.plan_all(tmp_path / "results", {}, root=tmp_path / "empty")
    pairs = [batch for batch in runs.batches([s for s in steps if s.argv]) if len(batch) == 2]
    assert {s.name for batch in pairs for s in batch} == set(plan.ONE_CORE)
    records = {a.name: a.record for a in table.ARTIFACTS if a.record}
    for first, second in pairs:
        if first.name in records or second.name in records:
            assert records[first.name] != records[second.name], (first.name, second.name)


def test_the_estimate_counts_a_pair_as_the_longer_of_the_two(plan, tmp_path, capsys):
    results = tmp_path / "results"
    (results / "kernel_toy_table").mkdir(parents=True)
    (results / "kernel_toy_table" / "grid.json").write_text(json.dumps([{"seconds_10_draws": 3600.0}] * 2))
    (results / "kernel_benchmarks").mkdir()
    (results / "kernel_benchmarks" / "runs.jsonl").write_text(json.dumps({"seconds": 3600.0}) + "\n")
    steps = plan.run_all(results, {}, dry_run=True, popen=None, root=tmp_path / "empty")
    out = capsys.readouterr().out
    others = sum(s.seconds or 0 for s in steps if s.argv and not s.one_core)
    assert {s.name for s in steps if s.one_core} == set(plan.ONE_CORE)
    assert f"estimate {(7200 + others) / 3600:.2f} h" in out      # 2.0 h, not 3.0 h (their sum)
    assert "side by side, one thread each, the longer counted: kernel-toy-table and kernel-benchmarks" in out
    assert "kernel-benchmarks beside kernel-toy-table (estimate 3600 s" in out


def test_the_estimate_counts_a_peers_seconds_only_with_its_path_and_a_step_without_a_record_by_its_last_run(
        plan, tmp_path):
    """002's records hold UniverSVM's and SVM-light's rows beside ours: without ``--universvm`` / ``--svm-learn``
    their seconds are not counted; a step whose record holds no seconds is estimated by its wall seconds in the
    last run that ran it (run_all/steps.csv), and none is left at "?" once each has run."""
    import pandas as pd
    results = tmp_path / "results"
    (results / "cccp_002").mkdir(parents=True)
    pd.DataFrame({"dataset": "g50c", "method": ["svm", "cccp-tsvm", "universvm", "nabla-tsvm"],
                  "seconds": [1.0, 2.0, 900.0, 4.0]}).to_csv(results / "cccp_002" / "grid.csv", index=False)
    (results / "run_all").mkdir()
    pd.DataFrame({"run": ["old"] * 2, "step": ["dataset-table", "002-table6"], "seconds": [8.0, 30.0]}).to_csv(
        results / plan.RUN_RECORD, index=False)
    by_name = {s.name: s for s in plan.plan_all(results, {}, root=tmp_path / "empty")}
    assert by_name["002-table2"].seconds == 7.0 and "less the peers' rows not run" in by_name["002-table2"].basis
    with_peer = {s.name: s for s in plan.plan_all(results, {"--universvm": "/bin/true"}, root=tmp_path / "empty")}
    assert with_peer["002-table2"].seconds == 907.0
    assert (by_name["dataset-table"].seconds, by_name["002-table6"].seconds) == (8.0, 30.0)
    assert "last run" not in by_name["002-table2"].basis and "run of old" in by_name["002-table6"].basis


def test_a_record_without_the_beside_column_stays_readable_and_gains_it(plan, tmp_path):
    import pandas as pd
    path = tmp_path / plan.RUN_RECORD
    path.parent.mkdir()
    path.write_text("run,step,seconds,cpu_seconds,estimate_seconds,load_before,load_after,command\n"
                    f"old,{plan.FINISH_STEP},12.5,12.0,,0.1,0.2,render_all + write_report\n")
    assert plan.finish_step(tmp_path).seconds == 12.5
    row = {"step": "x", "seconds": 1.0, "cpu_seconds": 1.0, "estimate_seconds": None, "load_before": 0.1,
           "load_after": 0.1, "command": "x", "beside": "y"}
    for run in ("new", "newer"):
        plan.record_step(tmp_path, run, row)
    table = pd.read_csv(path)
    assert list(table["run"]) == ["old", "new", "newer"] and list(table["beside"].fillna("")) == ["", "y", "y"]
    assert plan.finish_step(tmp_path).seconds == 12.5


def test_a_dry_run_of_run_all_names_every_artifact_as_a_step_or_skipped_with_why_and_command(plan, artifacts,
                                                                                                tmp_path, capsys):
    steps = plan.run_all(ROOT / "results", {}, dry_run=True, popen=None, root=tmp_path / "empty")
    out = capsys.readouterr().out
    listed = dict(line.strip().split(": ", 1) for line in out.split("every artifact and the step that makes it:\n")[1]
                  .split("\n[")[0].splitlines())
    assert list(listed) == [a.name for a in artifacts.ARTIFACTS]
    step_lines = [line for line in out.splitlines() if line.startswith("[")]
    for name, where in listed.items():
        assert where.startswith(("step ", "steps ", "skipped")), name
        if where.startswith("step"):
            for step in where.split("; ")[0].split(" ", 1)[1].split(", "):
                assert any(f"] {step} " in line for line in step_lines), (name, step)
        if "skipped" in where:
            assert "(command: python " in where or "not reproduced here" in where, name
    for name in ("002-table1", "002-table2", "002-heuristics", "002-ramp-s", "002-table6", "002-table6-mnist8",
                 "002-fig6", "002-fig4", "002-fig3"):
        assert listed[name].startswith("step "), name          # 002's small-scale artifacts are steps
    table2 = next(s for s in steps if s.name == "002-table2")
    # no peer: our methods, every grid point fitted again (--fresh: the record of one commit, not resumed)
    assert table2.argv[1:] == ["experiments/cccp_002.py", "table2", "--dataset", "g50c", "--fresh"]
    with_peer = plan.plan_all(ROOT / "results", {"--universvm": "/opt/universvm"}, tmp_path / "empty")
    assert next(s for s in with_peer if s.name == "002-table2").argv[-3:] == ["--universvm", "/opt/universvm", "--fresh"]
    # the text grid (002-ramp-s's step) holds Table 2's text column, UniverSVM's rows among them
    assert next(s for s in with_peer if s.name == "002-ramp-s").argv[-4:] == ["text", "--universvm", "/opt/universvm",
                                                                          "--fresh"]
    assert "--universvm" not in next(s for s in steps if s.name == "002-ramp-s").argv
    # Fig 4's path on both its sets (the claim reads g50c's and text's)
    assert next(s for s in steps if s.name == "002-fig4").argv[1:] == ["experiments/cccp_002.py", "fig4"]
