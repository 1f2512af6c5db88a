"""experiments/script_steps.py: the steps of ``run all`` that run a script of their own (the calibration, the
peers', and the records the pages read besides the artifacts), their estimates and where they write."""
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def steps_module(experiment_script):
    return experiment_script("script_steps")


def without_paths(words, options=("--out", "--results", "--universvm", "--svmlin", "--svm-learn")):
    """A command's words after its script, less the options that name a path (where it writes, a peer)."""
    words = list(words)
    script = next(k for k, w in enumerate(words) if w.endswith(".py"))
    kept, skip = [Path(words[script]).name], False
    for w in words[script + 1:]:
        if skip:
            skip = False
        elif w in options:
            skip = True
        else:
            kept.append(w)
    return kept


def test_each_beyond_step_runs_the_command_its_committed_record_names(steps_module):
    """A step's arguments are those of the command in its committed record's provenance (less the paths of
    where it writes and of a peer): a regeneration remakes the record as it was made, not a variant."""
    for name, command, _, record in steps_module.BEYOND_SCRIPTS:
        stored = json.loads((ROOT / "results" / record).read_text())
        made_by = stored.get("provenance", stored).get("command") or stored["command"]
        assert without_paths(command.split()) == without_paths(made_by.split()), name


def test_every_beyond_step_writes_under_the_results_folder_it_is_given(plan, steps_module, tmp_path):
    """With ``--results`` elsewhere (a scratch regeneration), no Beyond step writes into the committed results/."""
    results = tmp_path / "results"
    steps = {s.name: s for s in plan.plan_all(results, {"--svmlin": "/bin/true", "--universvm": "/bin/true"},
                                               root=tmp_path / "empty")}
    for name, *_ in steps_module.BEYOND_SCRIPTS:
        argv = steps[name].argv
        assert argv is not None, name
        written = argv[argv.index("--out") + 1] if "--out" in argv else argv[argv.index("--results") + 1]
        assert Path(written).is_relative_to(results), (name, written)


def test_a_peers_step_runs_only_with_its_path(plan, tmp_path):
    steps = {s.name: s for s in plan.plan_all(tmp_path / "results", {}, root=tmp_path / "empty")}
    assert steps["svmlin-agreement pcmac"].argv is None
    assert steps["svmlin-agreement pcmac"].why == "no --svmlin PATH given"
    assert steps["universvm-multiclass"].why == "no --universvm PATH given"
    assert steps["potts-vs-ovr digits"].argv is not None               # ours alone: no peer
    given = {s.name: s for s in plan.plan_all(tmp_path / "results", {"--svmlin": "/opt/svmlin"}, tmp_path / "empty")}
    assert given["svmlin-agreement pcmac"].argv[-2:] == ["--svmlin", "/opt/svmlin"]


def test_a_json_records_seconds_sum_its_rows_and_scale_to_the_draws_asked(steps_module, tmp_path):
    """One draw of ten asked, 60 CPU s in its rows: the step is estimated at 600 s, and says so; a record's own
    top-level seconds come first; a record without seconds leaves the estimate to the last run."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"settings": {"draws": 1, "draws_asked": 10},
                                "rows": [{"cpu_seconds": 20.0}, {"cpu_seconds": 40.0}]}))
    seconds, basis = steps_module.record_seconds(path)
    assert seconds == pytest.approx(600.0) and "times 10" in basis
    path.write_text(json.dumps({"cpu_seconds": 7.5, "rows": [{"cpu_seconds": 1.0}]}))
    assert steps_module.record_seconds(path)[0] == 7.5
    path.write_text(json.dumps({"rows": {"2": {"bias": 0.0}}}))
    assert steps_module.record_seconds(path) == (None, "no seconds in r.json")
    partial = tmp_path / "p.json"                       # a row without seconds (an older run's): not summed short
    partial.write_text(json.dumps({"rows": [{"seconds": 3.0}, {"test_error": 0.1}]}))
    assert steps_module.record_seconds(partial)[0] is None
    csv = tmp_path / "t.csv"
    pd.DataFrame({"seconds": [1.0, 2.5]}).to_csv(csv, index=False)
    assert steps_module.record_seconds(csv)[0] == 3.5


def test_a_step_without_recorded_seconds_takes_its_last_runs_wall_seconds(plan, tmp_path):
    results = tmp_path / "results"
    (results / "svm_bias").mkdir(parents=True)
    (results / "svm_bias" / "pcmac.json").write_text(json.dumps({"rows": {"2": {"bias": 0.0}}}))
    (results / "run_all").mkdir()
    pd.DataFrame({"run": ["old"], "step": ["svm-bias"], "seconds": [12.0]}).to_csv(results / plan.RUN_RECORD,
                                                                                     index=False)
    step = next(s for s in plan.plan_all(results, {}, root=tmp_path / "empty") if s.name == "svm-bias")
    assert step.seconds == 12.0 and "run of old" in step.basis


def test_svmlin_must_name_an_executable_and_only_run_all_reads_it(tmp_path):
    def refused(*argv):
        run = subprocess.run([sys.executable, str(ROOT / "experiments" / "paper_artifacts.py"), *argv],
                             capture_output=True, text=True, cwd=ROOT)
        return run.returncode, run.stderr.strip().splitlines()
    code, lines = refused("run", "all", "--dry-run", "--svmlin", str(tmp_path / "nothing"))
    assert code != 0 and lines == [f"Error: --svmlin {tmp_path / 'nothing'} does not exist: give the path of the "
                                   f"peer's program, or drop --svmlin (its step is then skipped, with the reason)"]
    code, lines = refused("run", "tsvm-loss", "--dry-run", "--svmlin", "/bin/true")
    assert code != 0 and lines[-1].startswith("Error: --svmlin /bin/true is not read by tsvm-loss")


def test_every_script_imports_the_package_beside_it_not_an_installed_copy():
    """A script run as a command (``python experiments/X.py``) puts its checkout first on ``sys.path`` before it
    imports ``ssl_repro``: run from another checkout than the installed one (a worktree at the regeneration's
    commit), it computes with, and its record names, that checkout's code."""
    for script in sorted((ROOT / "experiments").glob("*.py")):
        text = script.read_text()
        if '__name__ == "__main__"' not in text:
            continue                                    # a module the scripts import, never run alone
        first_import = text.index("\nfrom ssl_repro")
        assert "sys.path.insert(0, str(" in text[:first_import], script.name
