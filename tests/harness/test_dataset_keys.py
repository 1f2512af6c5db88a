"""Records that know their data: every new record carries the key of its dataset's definition; the render
marks, and ``report --check`` fails on, a record whose key is not today's."""
import json
from dataclasses import replace
from pathlib import Path

import pandas as pd

from ssl_repro.data import definition_key, text
from ssl_repro.harness import runner
from ssl_repro.harness.aggregate import collect
from ssl_repro.harness.result_files import write_result
from ssl_repro.claims.records import Records
from ssl_repro.report.sections.datasets import key_lines

REPO = Path(__file__).resolve().parents[2]

SVM_JOB = {"dataset": {"name": "text-like"}, "method": {"name": "svm", "variant": "svm", "lam": None},
           "split": 0, "n_labeled": 16, "n_unlabeled": 300}


def test_the_key_changes_with_the_groups_the_parts_removed_and_the_vectorizer(monkeypatch):
    today = definition_key("pcmac")
    assert today == definition_key("pcmac") and today != definition_key("20ng-aut-avn-like")
    task = text.NEWSGROUPS_TASKS["pcmac"]
    for changed in (replace(task, negative=("comp.sys.ibm.pc.hardware",)),     # pcmac before windows vs mac
                    replace(task, remove=("headers", "footers"))):
        monkeypatch.setitem(text.NEWSGROUPS_TASKS, "pcmac", changed)
        assert definition_key("pcmac") != today
    monkeypatch.setitem(text.NEWSGROUPS_TASKS, "pcmac", task)
    monkeypatch.setitem(text.VECTORIZER, "sublinear_tf", False)
    assert definition_key("pcmac") != today
    assert definition_key("no-such-set") is None


def test_a_job_stamps_its_key_and_the_sweep_table_keeps_it(tmp_path):
    record = runner.run_job(SVM_JOB)
    assert record["provenance"]["dataset_key"] == definition_key("text-like")
    write_result(tmp_path / "job", record)
    assert collect(tmp_path).loc[0, "dataset_key"] == definition_key("text-like")


def results_with(tmp_path, key):
    """A results/ folder with one JSON record of pcmac made with dataset key ``key`` and one sweep table."""
    results = tmp_path / "results"
    (results / "svm_bias").mkdir(parents=True)
    (results / "svm_bias" / "pcmac.json").write_text(json.dumps({"dataset": "pcmac", "dataset_key": key, "rows": {}}))
    (results / "timing_pcmac").mkdir()
    pd.DataFrame({"dataset": ["pcmac"], "method": ["svm"], "split": [0], "n_labeled": [2], "n_unlabeled": [10],
                  "dataset_key": [definition_key("pcmac")]}).to_csv(results / "timing_pcmac" / "results.csv", index=False)
    return results


def test_check_fails_on_a_record_made_from_another_definition(tmp_path, capsys, experiment_script):
    paper_artifacts = experiment_script("paper_artifacts")
    results = results_with(tmp_path, "0123456789")
    records = Records(results, REPO)
    assert [(p, d) for p, d, _, _ in records.stale()] == [("svm_bias/pcmac.json", "pcmac")]
    assert len(records.dataset_keys()) == 2
    assert paper_artifacts.check_keys(results) == 1
    out = capsys.readouterr().out
    assert out.startswith("Error: svm_bias/pcmac.json was made from another definition of pcmac") and \
        out.count("\n") == 1
    assert any("**made from another definition of pcmac**: `svm_bias/pcmac.json`" in line for line in key_lines(records))
    fresh = results_with(tmp_path / "fresh", definition_key("pcmac"))
    assert paper_artifacts.check_keys(fresh) == 0 and Records(fresh, REPO).stale() == []


def test_the_committed_records_that_carry_a_key_carry_todays():
    records = Records(REPO / "results", REPO)
    assert records.stale() == []
    assert any(path == "svm_bias/pcmac.json" for path, *_ in records.dataset_keys())      # re-run with its key


def test_the_section_quoting_a_record_marks_it_when_its_key_is_not_todays():
    from ssl_repro.report.record_text import commit_note, provenance
    record = {"provenance": {"command": "python experiments/svm_bias.py", "date": "2026-11-25", "git_commit": "a79074d"},
              "dataset": "pcmac", "dataset_key": "0123456789"}
    assert "**made from another definition of pcmac** (key 0123456789" in provenance(record)
    assert "another definition" not in provenance({**record, "dataset_key": definition_key("pcmac")})
    frame = pd.DataFrame({"dataset": ["pcmac"], "dataset_key": ["0123456789"], "git_commit": ["a79074d"],
                          "date": ["2026-11-25"]})
    assert "**made from another definition of pcmac**" in commit_note(frame)
