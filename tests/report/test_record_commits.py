"""The commits behind the verdicts' records (ssl_repro/report/record_commits.py, experiments/record_commits.py)."""
import json
from pathlib import Path

import pytest

from ssl_repro.report.record_commits import commit_table, commits_in, commits_of, short, summary, verdict_inputs

ROOT = Path(__file__).resolve().parents[2]
A, B = "a" * 40, "b" * 40


def test_a_csv_names_its_rows_commits_and_says_how_many_rows_name_none(tmp_path):
    f = tmp_path / "results.csv"
    f.write_text(f"split,git_commit\n0,{A}\n1,{B}+uncommitted changes\n2,\n3,{A}\n")
    assert commits_in(f) == ["aaaaaaa", "bbbbbbb+uncommitted", "1 row(s) naming none"]
    (tmp_path / "old.csv").write_text("split,error\n0,0.1\n")
    assert commits_in(tmp_path / "old.csv") == []


def test_a_json_names_every_commit_it_holds_and_a_file_naming_none_takes_its_folders_provenance(tmp_path):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "provenance.json").write_text(json.dumps(
        {"provenance": {"git_commit": A}, "earlier": [{"git_commit": B}]}))
    (tmp_path / "x" / "grid.json").write_text(json.dumps([{"successes": 3}]))
    (tmp_path / "x" / "rows.json").write_text(json.dumps({"rows": [{"git_commit": B}]}))
    assert commits_of(tmp_path, "x/grid.json") == ["aaaaaaa", "bbbbbbb"]
    assert commits_of(tmp_path, "x/rows.json") == ["bbbbbbb"]
    assert short(A + "+uncommitted changes") == "aaaaaaa+uncommitted"


def test_the_summary_counts_the_commits_and_names_the_files_that_mix_or_name_none():
    lines = summary([("a.csv", ["aaaaaaa"]), ("b.csv", ["aaaaaaa", "bbbbbbb"]), ("c.csv", [])])
    assert lines[0].startswith("3 record files read by the verdicts, made by 2 commit(s): aaaaaaa, bbbbbbb")
    assert lines[1] == "1 file(s) mix commits: b.csv" and lines[2] == "1 file(s) name no commit: c.csv"


@pytest.mark.slow
def test_the_verdicts_read_the_sweeps_and_the_script_records_and_every_one_names_a_commit_or_says_not():
    """On the committed records: the learning curves, the timing sweeps and 002's grid are among the files the
    verdicts read; each is listed with its commits."""
    read = verdict_inputs(ROOT / "results", ROOT)
    assert {"learning_curve_pcmac/results.csv", "timing_pcmac/results.csv", "cccp_002/grid.csv"} <= set(read)
    table = dict(commit_table(ROOT / "results", ROOT))
    assert set(table) == set(read) and table["learning_curve_pcmac/results.csv"]
