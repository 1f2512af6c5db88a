"""Two sets of records side by side (ssl_repro/report/record_diff.py, experiments/compare_records.py)."""
import importlib.util
import shutil
from pathlib import Path

import pandas as pd
import pytest

from ssl_repro.claims.verdicts import UNTESTABLE
from ssl_repro.report.record_diff import J_EQUAL, differs, row_changes, row_line, sweep_folders, verdict_changes

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("compare_records", ROOT / "experiments" / "compare_records.py")
compare_records = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare_records)


def _rows(**changes):
    """Four jobs of a sweep (two methods x two splits) as a results.csv table, with ``changes`` {column: {row: value}}."""
    table = pd.DataFrame({
        "dataset": "pcmac", "method": ["da", "da", "tsvm", "tsvm"], "split": [0, 1, 0, 1], "n_labeled": 2,
        "n_unlabeled": 100, "lam": 1e-3, "lam_u": 1.0, "r": 0.5,
        "test_error": [0.1, 0.2, 0.3, 0.25], "transductive_error": [0.1, float("nan"), 0.3, 0.2],
        "objective_own": [0.5, 0.6, 0.7, 0.8], "objective_eqn18": [0.5, 0.6, 0.7, 0.8],
        "seconds": [1.0, 2.0, 3.0, 4.0], "converged": True, "switches": 3, "mfn_calls": 4,
        "cg_iterations": [100, 200, 300, 400]})
    for column, values in changes.items():
        for row, value in values.items():
            table.loc[row, column] = value
    return table


def test_rows_are_matched_by_job_and_each_outcome_counts_the_rows_that_differ(tmp_path):
    before, after = tmp_path / "before.csv", tmp_path / "after.csv"
    _rows().to_csv(before, index=False)
    # rows reordered, seconds all new (never compared), one test error and one CG count changed, J moved
    # beyond the bound in one row and within it in another; the NaN transductive error stays equal
    changed = _rows(test_error={2: 0.35}, cg_iterations={1: 204}, objective_eqn18={0: 0.5 * (1 + 1e-3)},
                    objective_own={3: 0.8 * (1 + J_EQUAL / 10)}, seconds={0: 9.0, 1: 9.0, 2: 9.0, 3: 9.0})
    changed.iloc[::-1].to_csv(after, index=False)
    found = row_changes(before, after)
    assert found["rows"] == 4 and found["only_before"] == found["only_after"] == 0
    assert found["test_error"] == 1 and found["transductive_error"] == 0 and found["converged"] == 0
    assert found["cg_iterations"] == 1 and found["cg_max"] == pytest.approx(0.02)
    assert found["J"] == 1 and found["J_max"] == pytest.approx(1e-3)
    line = row_line("learning_curve_pcmac", found)
    assert line.startswith("learning_curve_pcmac: 4 rows; test_error 1 differ") and "CG largest change 2.00%" in line
    per_method = row_changes(before, after, by="method")["by"]
    assert row_line("tsvm", per_method["tsvm"], changed_only=True) == "tsvm: 2 rows; test_error 1 differ"
    assert per_method["da"]["J"] == 1 and per_method["da"]["cg_iterations"] == 1 and differs(per_method["da"])
    _rows().to_csv(after, index=False)
    assert not differs(row_changes(before, after))


def test_a_job_one_record_lacks_is_counted_and_two_rows_of_one_job_are_refused(tmp_path):
    before, after = tmp_path / "before.csv", tmp_path / "after.csv"
    _rows().to_csv(before, index=False)
    _rows().iloc[:3].to_csv(after, index=False)
    found = row_changes(before, after)
    assert (found["rows"], found["only_before"], found["only_after"]) == (3, 1, 0)
    assert "1 only before, 0 only after" in row_line("x", found)
    pd.concat([_rows(), _rows().iloc[:1]]).to_csv(after, index=False)
    with pytest.raises(ValueError, match="two rows of one job"):
        row_changes(before, after)


def test_the_committed_records_against_their_own_commit_differ_in_no_row(tmp_path, capsys):
    """--before HEAD reads the committed results/ through git; the working tree's records are those."""
    if compare_records.subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", "HEAD", "--", "results"]).returncode:
        pytest.skip("results/ has uncommitted changes")
    assert compare_records.main(["--after", str(ROOT / "results"), "--rows-only"]) == 0
    lines = capsys.readouterr().out.splitlines()
    folders = sweep_folders(ROOT / "results", ROOT / "results")
    assert lines[0] == f"{len(folders)} sweep folders in both" and len(lines) == len(folders) + 1
    assert "learning_curve_pcmac" in folders
    for line in lines[1:]:
        assert " only " not in line and "J beyond 1e-06 0 (largest 0.0e+00)" in line
        assert all(part.endswith(" 0 differ") for part in line.split("; ") if part.endswith("differ"))


def test_a_revision_that_is_not_a_commit_and_a_missing_folder_are_one_error_line(tmp_path):
    with pytest.raises(SystemExit, match="^Error: --before no-such-commit: neither a folder nor a commit"):
        compare_records.main(["--before", "no-such-commit", "--after", str(tmp_path), "--rows-only"])
    with pytest.raises(SystemExit, match="^Error: --after .*nowhere: no such folder"):
        compare_records.main(["--after", str(tmp_path / "nowhere")])


@pytest.mark.slow
def test_a_verdict_a_changed_record_moves_is_listed_and_the_same_records_list_none(tmp_path):
    """The committed records judged against themselves: no change; without pcmac's learning curve, the claims
    that read it become not testable on pcmac, and only there."""
    changed, judged = verdict_changes(ROOT / "results", ROOT / "results", ROOT)
    assert changed == [] and judged > 50
    shutil.copytree(ROOT / "results", tmp_path / "results", ignore=shutil.ignore_patterns("*.pdf", "*.png"))
    shutil.rmtree(tmp_path / "results" / "learning_curve_pcmac")
    changed, _ = verdict_changes(ROOT / "results", tmp_path / "results", ROOT)
    assert changed and all(was != now for _, _, was, now in changed)
    assert {paper_set for _, paper_set, _, _ in changed} == {"pcmac"}
    assert {now for _, _, _, now in changed} == {UNTESTABLE}
