"""Records that know their data: a job stamps the keys of the arrays it used (:mod:`ssl_repro.data.keys`), and
``report --check`` recomputes them from today's data and fails, one ``Error:`` line per record file, on a record
without keys or with keys other than today's."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from ssl_repro.data import load_dataset, make_split
from ssl_repro.data.keys import NOT_FROM_DATA, TodaysKeys, array_digest, dataset_key, matrix_key, split_key
from ssl_repro.harness import runner
from ssl_repro.harness.aggregate import collect
from ssl_repro.harness.result_files import write_result
from ssl_repro.report.key_check import key_problems

REPO = Path(__file__).resolve().parents[2]

SVM_JOB = {"dataset": {"name": "text-like"}, "method": {"name": "svm", "variant": "svm", "lam": None},
           "split": 0, "n_labeled": 16, "n_unlabeled": 300}


def test_a_key_is_of_the_values_not_of_how_they_are_stored():
    X = sp.random(30, 20, density=0.2, format="csr", random_state=0)
    y = np.where(np.arange(30) % 3 == 0, 1, -1)
    assert matrix_key(X, y) == matrix_key(X.tocoo(), y.astype(np.int64))           # another storage, same data
    changed = X.copy()
    changed.data[0] *= 1 + 1e-6          # far below any setting's change, far above the key's rounding (2^-24)
    assert matrix_key(changed, y) != matrix_key(X, y)                               # one value
    assert matrix_key(X, -y) != matrix_key(X, y)                                    # the labels
    assert array_digest(np.arange(3)) != array_digest(np.arange(3).reshape(3, 1))   # the shape


def test_the_split_key_changes_with_the_seed_the_labels_and_the_unlabeled_rows():
    data = load_dataset("text-like")
    keys = {split_key(make_split(data, seed, n, u)) for seed, n, u in
            ((0, 16, 300), (1, 16, 300), (0, 32, 300), (0, 16, 200))}
    assert len(keys) == 4
    assert split_key(make_split(data, 0, 16, 300)) == split_key(make_split(data, 0, 16, 300))
    everything = make_split(data, 0, 16)
    assert split_key(make_split(data, 0, 16, everything.unlabeled.size)) == split_key(everything)


def test_a_job_stamps_the_keys_of_its_data_and_the_sweep_table_keeps_them(tmp_path):
    record = runner.run_job(SVM_JOB)
    data = load_dataset("text-like")
    assert record["provenance"]["dataset_key"] == dataset_key(data)
    assert record["provenance"]["split_key"] == split_key(make_split(data, 0, 16, 300))
    write_result(tmp_path / "job", record)
    row = collect(tmp_path).loc[0]
    assert (row["dataset_key"], row["split_key"]) == (record["provenance"]["dataset_key"],
                                                      record["provenance"]["split_key"])


def results_with(tmp_path, **edits):
    """A results/ folder holding a text-like sweep table of two jobs (keyed as a job keys them) and two JSON
    records, one made from text-like and one not from a dataset; ``edits`` change its fields."""
    data = load_dataset("text-like")
    results = tmp_path / "results"
    (results / "learning_curve_text_like").mkdir(parents=True)
    rows = pd.DataFrame({"dataset": "text-like", "method": "svm", "split": [0, 1], "n_labeled": 16,
                         "n_unlabeled": 300, "dataset_key": dataset_key(data),
                         "split_key": [split_key(make_split(data, s, 16, 300)) for s in (0, 1)]})
    for column, value in edits.get("csv", {}).items():
        rows[column] = value
    rows.drop(columns=edits.get("drop", [])).to_csv(results / "learning_curve_text_like" / "results.csv", index=False)
    (results / "svm_bias").mkdir()
    (results / "svm_bias" / "text-like.json").write_text(json.dumps(
        {"provenance": {"command": "python experiments/svm_bias.py --dataset text-like"}, "rows": {}, "data_keys": edits.get("data_keys", {"text-like": dataset_key(data)})}))
    (results / "benchmarks").mkdir()
    (results / "benchmarks" / "bench.json").write_text(json.dumps([{"seconds": 1, "data_keys": NOT_FROM_DATA}]))
    return results


def todays():
    return TodaysKeys(lambda name: load_dataset(name, download=False))


def test_the_check_passes_records_keyed_with_todays_data(tmp_path):
    assert key_problems(results_with(tmp_path), todays()) == []


@pytest.mark.parametrize("edits, problem", [
    ({"csv": {"dataset_key": "0123456789abcdef"}}, "text-like made from other data (dataset key 0123456789abcdef"),
    ({"csv": {"split": [1, 2]}}, "2 of 2 splits of text-like differ from today's (first: split 1, 16 labeled"),
    ({"csv": {"split_key": ["", "x"]}}, "1 of 2 rows of text-like carry no key"),
    ({"drop": ["split_key"]}, "no split_key column"),
    ({"data_keys": {}}, "no data_keys"),
    ({"data_keys": {"text-like": "feedface"}}, "text-like made from other data (dataset key feedface"),
    ({"data_keys": {"no-such-set": "feedface"}}, "cannot check no-such-set's key: unknown dataset"),
])
def test_the_check_names_each_record_whose_keys_are_missing_or_not_todays(tmp_path, edits, problem):
    [(record, problems)] = key_problems(results_with(tmp_path, **edits), todays())
    assert record in ("learning_curve_text_like/results.csv", "svm_bias/text-like.json")
    assert len(problems) == 1 and problems[0].startswith(problem), problems


def test_report_check_prints_one_error_line_per_record_with_the_command_that_remakes_it(
        tmp_path, capsys, experiment_script):
    artifacts = experiment_script("paper_artifacts")
    results = results_with(tmp_path, csv={"dataset_key": "0123456789abcdef"}, data_keys={})
    assert artifacts.check_keys(results) == 1
    summary, *lines = capsys.readouterr().out.splitlines()
    assert summary.startswith("data keys: ") and " computed, " in summary     # how many keys it computed
    assert len(lines) == 2 and all(line.startswith("Error: results/") for line in lines)
    assert lines[0].startswith("Error: results/learning_curve_text_like/results.csv: text-like made from other data")
    assert lines[1].startswith("Error: results/svm_bias/text-like.json: no data_keys") and \
        lines[1].endswith("remake it with python experiments/svm_bias.py --dataset text-like")
    assert artifacts.check_keys(results_with(tmp_path / "fresh")) == 0


def test_every_committed_record_carries_keys_or_says_it_is_not_from_a_dataset():
    """Every results.csv row and every JSON record (each item of a list record) under results/ carries keys;
    whether they are today's is the slow check below (it loads every dataset)."""
    from ssl_repro.report.key_check import json_problems, record_files, sweep_problems

    class Unloaded:      # a TodaysKeys that loads nothing: every present key reads "cannot check"
        def key(self, name):
            return None

        def problem(self, name):
            return "not loaded"
    for path in record_files(REPO / "results"):
        if path.suffix == ".csv":
            problems = sweep_problems(pd.read_csv(path, dtype=str), Unloaded())
        else:
            problems = json_problems(json.loads(path.read_text()), Unloaded())
        assert all(p.startswith("cannot check") for p in problems), (path, problems)


SCRATCH_CHANGES = {
    "min_df": ("ssl_repro/data/text.py", "NEWSGROUPS_MIN_DF = 2", "NEWSGROUPS_MIN_DF = 3"),
    "pcmac's rows": ("ssl_repro/data/registry.py", "n_train=1460, n_test=486", "n_train=1400, n_test=486"),
    "pcmac's groups": ("ssl_repro/data/text.py", '"pcmac": NewsgroupsTask(PCMAC_GROUPS[:1], PCMAC_GROUPS[1:])',
                       '"pcmac": NewsgroupsTask(PCMAC_GROUPS[:1], ("comp.sys.ibm.pc.hardware",))'),
    "a split seed": ("ssl_repro/data/splits.py", "rng = np.random.default_rng(seed)\n    frac",
                     "rng = np.random.default_rng(seed + 1)\n    frac"),
}


@pytest.mark.slow    # four copies of the repository, each checking pcmac's records with data built anew
@pytest.mark.skipif(not os.environ.get("SSL_REPRO_DATA"), reason="needs SSL_REPRO_DATA with 20 Newsgroups")
def test_report_check_fails_on_a_scratch_copy_whose_data_settings_changed(tmp_path):
    """A copy of the repository with one setting changed (and pcmac's committed records): its check of those
    records fails naming the sweep's table (and svm_bias's record where the matrix changed: it keys the dataset,
    not its splits); the unchanged copy's passes.  Each copy builds its
    data in a data root of its own, linked to the 20 Newsgroups files (a changed setting must not read the
    cache the unchanged one made)."""
    source = Path(os.environ["SSL_REPRO_DATA"]) / "20newsgroups"
    code = ("import sys; sys.path[:0] = ['experiments']; import paper_artifacts; "
            "sys.exit(paper_artifacts.check_keys(sys.argv[1]))")
    for change, edit in {"none": None, **SCRATCH_CHANGES}.items():
        copy = tmp_path / change.replace(" ", "_").replace("'", "")
        shutil.copytree(REPO, copy, ignore=shutil.ignore_patterns(".git", "results", "docs", "outputs", ".venv*"))
        for folder in ("learning_curve_pcmac", "svm_bias"):
            shutil.copytree(REPO / "results" / folder, copy / "results" / folder)
        if edit:
            path, old, new = edit
            text = (copy / path).read_text()
            assert old in text, (change, path)
            (copy / path).write_text(text.replace(old, new))
        (copy / "data").mkdir()
        (copy / "data" / "20newsgroups").symlink_to(source)
        proc = subprocess.run([sys.executable, "-c", code, str(copy / "results")], cwd=copy, capture_output=True,
                              text=True, timeout=600, env={**os.environ, "PYTHONPATH": str(copy),
                                                           "SSL_REPRO_DATA": str(copy / "data")})
        errors = [line for line in proc.stdout.splitlines() if line.startswith("Error:")]
        if edit is None:
            assert proc.returncode == 0 and not errors, proc.stdout + proc.stderr[-2000:]
        else:
            assert proc.returncode == 1 and errors, (change, proc.stdout + proc.stderr[-2000:])
            assert any("learning_curve_pcmac/results.csv: " in e and "pcmac" in e for e in errors), errors
