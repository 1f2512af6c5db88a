"""``run all --resume`` (experiments/step_runs.py ``resumed_run``, run_all_plan.py): a run interrupted after
some steps goes on where it stopped, as one run, on the commit it started on and on no other."""
import json

import pandas as pd
import pytest
from conftest import sleeping_popen

from ssl_repro.data.keys import NOT_FROM_DATA
from ssl_repro.utils import provenance

HEAD = "a" * 40


@pytest.fixture
def clean_head(monkeypatch):
    """The code is at the clean commit HEAD (whatever the checkout the tests run in)."""
    monkeypatch.setattr(provenance, "git_commit", lambda root=None: HEAD)


def interrupted_run(plan, results, empty, at=3):
    """A run whose launch number ``at`` is interrupted: it keeps the rows of the ``at - 1`` steps it finished."""
    with pytest.raises(KeyboardInterrupt):
        plan.run_all(results, {}, dry_run=False, popen=sleeping_popen([], interrupt_at=at), root=empty)


def test_a_resumed_run_runs_only_the_steps_left_and_records_one_run(plan, clean_head, tmp_path, capsys):
    results, empty, ran, rendered = tmp_path / "results", tmp_path / "empty", [], []
    interrupted_run(plan, results, empty)
    before = pd.read_csv(results / plan.RUN_RECORD)
    assert len(before) == 2
    steps = plan.run_all(results, {}, dry_run=False, popen=sleeping_popen(ran), root=empty, resume=True,
                         finish=lambda: rendered.append(True))
    todo = [s for s in steps if s.argv]
    assert ran == [s.argv for s in todo if s.name not in set(before["step"])]
    assert len(ran) == len(todo) - 2 and rendered == [True]
    table = pd.read_csv(results / plan.RUN_RECORD)
    assert table["run"].nunique() == 1 and sorted(table["step"]) == sorted([s.name for s in todo] + [plan.FINISH_STEP])
    record = json.loads((results / "run_all" / "provenance.json").read_text())
    assert record["provenance"]["date"] == table["run"].iloc[0] and record["earlier"] == []
    assert [r["git_commit"] for r in record["resumed"]] == [HEAD] and record["data_keys"] == NOT_FROM_DATA
    out = capsys.readouterr().out
    assert "2 done earlier in the run of" in out and out.count("(done earlier in this run: skipped)") == 2


def test_a_dry_run_of_a_resume_counts_only_the_steps_left(plan, clean_head, tmp_path, capsys):
    results, empty = tmp_path / "results", tmp_path / "empty"
    interrupted_run(plan, results, empty, at=5)
    plan.run_all(results, {}, dry_run=True, popen=None, root=empty, resume=True)
    out = capsys.readouterr().out
    assert "4 done earlier in the run of" in out and out.count("(done earlier in this run: skipped)") == 4
    assert "0% of the estimate done" in out          # the first step left starts the estimate at nothing done
    assert len(pd.read_csv(results / plan.RUN_RECORD)) == 4 and "resumed" not in json.loads(
        (results / "run_all" / "provenance.json").read_text())


def test_a_run_continues_only_on_the_commit_it_started_on(plan, monkeypatch, tmp_path):
    results, empty = tmp_path / "results", tmp_path / "empty"
    with pytest.raises(SystemExit, match=r"^Error: --resume: no run to continue in .*run_all .*without --resume"):
        plan.run_all(results, {}, dry_run=True, popen=None, root=empty, resume=True)
    monkeypatch.setattr(provenance, "git_commit", lambda root=None: HEAD)
    interrupted_run(plan, results, empty)
    for code in ("b" * 40, HEAD + "+uncommitted changes", None):
        monkeypatch.setattr(provenance, "git_commit", lambda root=None, code=code: code)
        with pytest.raises(SystemExit, match=rf"^Error: --resume: the run in .* started on commit {HEAD}, and the "
                                             r"code here is .*: a run continues only on the commit it started on"):
            plan.run_all(results, {}, dry_run=False, popen=sleeping_popen([]), root=empty, resume=True)
    assert len(pd.read_csv(results / plan.RUN_RECORD)) == 2                  # nothing ran, nothing recorded


def test_resume_is_read_by_run_all_only(experiment_script, tmp_path):
    artifacts = experiment_script("paper_artifacts")
    with pytest.raises(SystemExit, match=r"^Error: --resume is not read by tsvm-loss, a drawing: drop it \(run all"):
        artifacts.main(["run", "tsvm-loss", "--resume", "--results", str(tmp_path / "r")])
