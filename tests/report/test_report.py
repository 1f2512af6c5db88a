"""results/README.md rendered from the records: the papers' quotes, the paired verdicts, the check, run all."""
import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ssl_repro.claims.records import Records
from ssl_repro.report.figures import lowest_curve
from ssl_repro.report.page import render_sections
from ssl_repro.report.record_text import commit_note
from ssl_repro.report.sections.objective_minima import svmlin_agreement_lines
from ssl_repro.report.tables import cell_text, convergence_line, not_converged, paired, pct, stopped, verdict

ROOT = Path(__file__).resolve().parents[2]
#: a folder holding the papers' plain texts, the files named in experiments/paper_numbers.json (CI sets it)
PAPERS = Path(os.environ.get("SSL_REPRO_PAPERS", "/nonexistent"))


@pytest.fixture(scope="module")
def artifacts(experiment_script):
    return experiment_script("paper_artifacts")


def jobs(cells, dataset="synthetic-33-vs-36", metric="test_error"):
    """A results.csv table: ``cells`` maps (n_labeled, method) -> list of per-split values (or
    (value, converged) pairs)."""
    rows = []
    for (n_labeled, method), values in cells.items():
        for split, v in enumerate(values):
            value, converged = v if isinstance(v, tuple) else (v, True)
            rows.append({"dataset": dataset, "method": method, "split": split, "n_labeled": n_labeled,
                         "n_unlabeled": 1000 - n_labeled, "test_error": value, "transductive_error": value,
                         "objective_own": value, "objective_eqn18": value, "seconds": 1.0,
                         "converged": converged, "cg_iterations": 10})
    return pd.DataFrame(rows)


@pytest.mark.skipif(not PAPERS.is_dir(), reason="set SSL_REPRO_PAPERS to a folder holding the papers' plain "
                                                   "texts named in experiments/paper_numbers.json")
def test_every_paper_number_and_claim_is_quoted_from_its_paper_and_the_number_is_in_the_quote():
    record = json.loads((ROOT / "experiments" / "paper_numbers.json").read_text())
    norm = lambda s: re.sub(r"\s+", " ", s)     # noqa: E731
    texts = {k: norm((PAPERS / f).read_text()) for k, f in record["papers"].items()}
    for entry in record["numbers"] + record["claims"]:
        assert norm(entry["quote"]) in texts[entry["paper"]], entry
    for entry in record["numbers"]:
        tokens = re.findall(r"\d+(?:\.\d+)?", entry["quote"].replace(",", ""))
        assert any(float(t) == entry["value"] for t in tokens), entry
    table9 = [n for n in record["numbers"] if n["where"] == "Table 9"]
    assert len(table9) == 6 * 4 * 2                 # 6 datasets x (SVM-light, S=1, S=max, MFA) x (time, error)


def test_a_paired_verdict_counts_wins_and_says_not_significant_as_pcmac_at_37_labels_is():
    # 7 wins of 10, small mean gain: the "DA outperforms TSVM significantly" does not follow
    da = [0.10, 0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.30, 0.31, 0.32]
    tsvm = [0.11, 0.12, 0.13, 0.14, 0.15, 0.16, 0.17, 0.20, 0.21, 0.22]
    frame = jobs({(37, "da"): da, (37, "tsvm-Smax"): tsvm}, dataset="pcmac")
    c = paired(frame, "da", "tsvm-Smax", "test_error")
    assert (c.n, c.wins, c.ties) == (10, 7, 0)
    assert c.mean == pytest.approx(np.mean(np.subtract(da, tsvm)))
    text, word = verdict(c)
    assert word == "no" and "lower on 7/10" in text
    better = jobs({(37, "da"): [t - 0.01 for t in tsvm], (37, "tsvm-Smax"): tsvm}, dataset="pcmac")
    assert verdict(paired(better, "da", "tsvm-Smax", "test_error"))[1] == "yes (slightly)"      # 1 pt, p = 0.002: within the slight band
    close = jobs({(37, "da"): [t - 0.002 for t in tsvm], (37, "tsvm-Smax"): tsvm}, dataset="pcmac")
    assert verdict(paired(close, "da", "tsvm-Smax", "test_error"))[1] == "equal"     # 0.2 pt, p = 0.002


def test_one_split_gets_no_test_and_equal_values_are_a_tie():
    frame = jobs({(827, "svm"): [0.2136], (827, "tsvm-Smax"): [0.2033], (827, "da"): [0.2801]})
    assert verdict(paired(frame, "tsvm-Smax", "svm", "test_error")) == (
        "-0.0103 (1 split, no test)", "yes (1 split) (slightly)")
    assert verdict(paired(frame, "da", "tsvm-Smax", "test_error"))[1] == "no (1 split)"
    same = jobs({(44, "da"): [0.1958, 0.2], (44, "da-T1"): [0.1958, 0.2]})
    assert verdict(paired(same, "da", "da-T1", "test_error"))[1] == "equal"


def test_not_converged_runs_are_counted_in_their_cell():
    frame = jobs({(2, "da"): [(0.2, False), (0.3, True), (0.25, False)]})
    assert stopped(frame, ["svm", "da"]) == "DA 2 of 3"          # the not-converged column, per method
    assert "converged" not in cell_text(frame, "da", "test_error", pct)
    assert stopped(frame.assign(converged=True), ["da"]) == "none"
    assert stopped(frame.drop(columns="converged"), ["da"]) == "not recorded"
    assert not_converged(frame.drop(columns="converged")) == ""
    partial = jobs({(2, "da"): [0.2, 0.3, 0.25], (2, "tsvm-S1"): [0.4]})
    assert cell_text(partial, "tsvm-S1", "test_error", pct) == "40.00% (1 of 3 splits)"
    assert "not recorded" in convergence_line(frame.drop(columns="converged"))


def test_timing_records_name_their_code_commit_or_say_it_was_not_recorded(tmp_path):
    frame = jobs({(2, "da"): [0.2]}).assign(git_commit="abc1234def", date="2026-11-24T10:00:00")
    assert commit_note(frame) == "code commit abc1234 (2026-11-24)"
    assert commit_note(frame.drop(columns="git_commit")) == "code commit not recorded"
    some = pd.concat([frame, frame.assign(git_commit=None)], ignore_index=True)
    assert commit_note(some) == "code commit abc1234 (2026-11-24); 1 jobs: code commit not recorded"


def test_a_figure_note_names_the_method_lowest_at_most_label_counts_and_ties_are_no_wins():
    curves = {"svm": ([2, 4, 8], np.array([0.5, 0.4, 0.3])), "da": ([2, 4, 8], np.array([0.3, 0.2, 0.35]))}
    assert lowest_curve(curves, "test_error") == "lowest: DA at 2 of 3 label counts"
    tied = {"svm": ([2, 4], np.array([0.5, 0.4])), "rls": ([2, 4], np.array([0.5, 0.4]))}
    assert lowest_curve(tied, "test_error") == "no single lowest at any of 2 label counts"
    close = {"svm": ([2, 4, 8], np.array([0.5, 0.4, 0.3])), "da": ([2, 4, 8], np.array([0.3, 0.2, 0.298]))}
    assert lowest_curve(close, "test_error") == ("lowest: DA at 2 of 3 label counts; no single lowest "
                                                        "(within the thresholds) at 1")


def sections_text(results):
    """The artifacts' sections as a render gives them from the records under ``results`` (the docs' artifact
    pages hold them; results/README.md is their index)."""
    return "\n".join(line for lines in render_sections(Records(results, ROOT)).values() for line in lines)


def write_records(results, frame, folder="learning_curve_synthetic_33_vs_36"):
    (results / folder).mkdir(parents=True)
    frame.to_csv(results / folder / "results.csv", index=False)


def test_the_report_renders_the_records_verdicts_and_check_fails_on_a_stale_file(artifacts, tmp_path, capsys):
    frame = jobs({(413, "svm"): [0.2782], (413, "tsvm-Smax"): [0.3335], (413, "da"): [(0.3701, False)],
                  (827, "svm"): [0.2136], (827, "tsvm-Smax"): [0.2093], (827, "da"): [0.2801]})
    write_records(tmp_path, frame)
    text = sections_text(tmp_path)
    row_827 = next(line for line in text.splitlines()
                   if line.startswith("| synthetic-33-vs-36 | SYNTHETIC stand-in | 827 | 21.36%"))
    assert row_827.split(" | ")[-4:-2] == ["no (1 split)", "equal (1 split)"]     # DA lower: no; TSVM below SVM: 0.43 pt, equal
    row_413 = next(line for line in text.splitlines() if line.startswith("| synthetic-33-vs-36 | SYNTHETIC stand-in | 413 | 27.82%"))
    assert "| 37.01% |" in row_413 and row_413.endswith("| DA 1 of 1 |")      # not converged: its own column
    assert "`calibration/calibration.json` absent" in text and "`peers/universvm.csv` absent" in text
    readme = artifacts.report_text(tmp_path)
    assert readme.startswith("# Results") and "## Summary" in readme
    (tmp_path / "README.md").write_text(readme.replace("**Verdicts of the", "**Verdicts of some"))
    assert artifacts.write_report(tmp_path, check=True) == 1
    out = capsys.readouterr().out
    assert "-**Verdicts of some" in out and "+**Verdicts of the" in out
    assert artifacts.write_report(tmp_path) == 0
    # the rendered files are up to date; the check as a whole still fails: these made-up rows carry no data keys
    assert artifacts.check_files(artifacts.rendered_files(tmp_path)) == 0
    assert artifacts.write_report(tmp_path, check=True) == 1 and "carry no key" in capsys.readouterr().out


def test_the_peers_and_calibration_records_are_rendered_when_present(artifacts, tmp_path):
    write_records(tmp_path, jobs({(44, "tsvm-Smax"): [0.2], (44, "svm"): [0.3]}, dataset="synthetic-ccat"))
    (tmp_path / "peers").mkdir()
    pd.DataFrame([{"dataset": "synthetic-ccat", "data": "SYNTHETIC", "n_labeled": 44, "method": m, "seconds": s,
                   "capped": c, "cap_seconds": 3600, "test_error": 0.2, "transductive_error": 0.21,
                   "git_commit": "fedcba987", "date": "2026-11-24", "command": "x"}
                  for m, s, c in (("svmlight-tsvm", 3600.0, True),)]
                 ).to_csv(tmp_path / "peers" / "table9.csv", index=False)
    (tmp_path / "calibration").mkdir()
    (tmp_path / "calibration" / "calibration.json").write_text(json.dumps(
        {"provenance": {"command": "python experiments/calibrate_standins.py", "date": "2026-11-24",
                        "git_commit": "fedcba987"},
         "rows": [{"dataset": "synthetic-ccat", "paper_error": 20.81, "paper_source": "000 Table 9",
                   "matched": "test error", "reached_error": 19.5, "generator": {"noise": 0.3}}]}))
    pd.DataFrame([{"dataset": "pcmac", "split": k, "n_labeled": 2, "method": m, "seconds": 1.0,
                   "test_error": 0.3, "transductive_error": e + 0.01 * k, "parameters": "C=1",
                   "git_commit": "fedcba987", "date": "2026-11-24", "command": "x"}
                  for k in range(10) for m, e in (("universvm-cccp", 0.30), ("cccp-tsvm", 0.25))]
                 + [{"dataset": "text20k", "split": 0, "n_labeled": 100, "method": m, "seconds": s, "capped": c,
                     "cap_seconds": 1200.0, "test_error": np.nan, "transductive_error": e, "parameters": "C=5",
                     "git_commit": "fedcba987", "date": "2026-11-24", "command": "x"}
                    for m, s, c, e in (("universvm-cccp", 1200.0, True, np.nan), ("cccp-tsvm", 80.0, False, 0.1))]
                 ).to_csv(tmp_path / "peers" / "universvm.csv", index=False)
    text = sections_text(tmp_path)
    assert "lower on 10/10, -5 pt ± 0 pt, p = 0.002: ours lower" in text
    assert "not a claim of the papers" in text
    assert "| text20k | real | 100 | UniverSVM CCCP-TSVM | 1 | > 1200 |" in text
    assert "UniverSVM capped on 1 of 1 splits: not compared" in text
    # SVM-light's row from peers/table9.csv, ours (S=max, 1 s) from the learning-curve record
    assert "| synthetic-ccat | SYNTHETIC stand-in | 44 | SVM-light TSVM | 13,540 | > 3600 | 40.71% |" in text
    assert "| synthetic-ccat | SYNTHETIC stand-in | 44 | TSVM S=max | 390 | 1 |" in text
    # learning-curve seconds are never set in a ratio (jobs in parallel: not the protocol's)
    assert "no ratio on synthetic-ccat: our seconds there are a learning curve's" in text
    assert "synthetic-ccat: 3.6e+03x" not in text
    assert "| synthetic-ccat | 20.81% | 000 Table 9 | test error | 19.50% | -1.31 pt | yes | noise=0.3 |" in text


def test_render_folder_redraws_from_results_csv_and_drops_stale_figures(artifacts, tmp_path):
    folder = tmp_path / "timing_toy"
    frame = jobs({(l, m): [v * k] for l, k in ((2, 1.0), (4, 3.0)) for m, v in (("tsvm-S1", 0.4), ("da", 0.1))},
                 dataset="toy").assign(git_commit="0123456789", date="2026-11-24")
    frame["seconds"] = frame["test_error"] * 100
    write_records(tmp_path, frame, folder="timing_toy")
    (folder / "figures").mkdir()
    (folder / "figures" / "toy_stale.png").write_bytes(b"png")
    assert artifacts.render_folder(folder) == 1      # one split: the seconds figure; errors and J are tables
    assert not (folder / "figures" / "toy_stale.png").exists()
    assert not (folder / "figures" / "toy_test_error.png").exists()
    assert (folder / "figures" / "toy_seconds.png").stat().st_size > 1000
    assert "## seconds" in (folder / "summary.md").read_text()


def test_the_committed_results_readme_is_the_render_of_the_committed_records(artifacts, committed_render, tmp_path):
    """The session's render of the committed records is the committed results/README.md and docs/results
    pages (what ``report --check`` checks), and a copy of results/ outside the repository renders the same
    README."""
    assert artifacts.check_files(committed_render) == 0
    copy = tmp_path / "results"
    shutil.copytree(ROOT / "results", copy)
    assert artifacts.report_text(copy) == (ROOT / "results" / "README.md").read_text(), (
        "the render reads the records alone: outside the repository (no git history) it is the same")


def test_a_learning_curve_without_s1_takes_s1_from_the_timing_sweep(artifacts, tmp_path):
    """The stand-ins run TSVM S=1 in the timing sweep only: the learning-curve table shows it there, paired
    with S=max on the split both ran."""
    write_records(tmp_path, jobs({(413, "svm"): [0.30, 0.31], (413, "tsvm-Smax"): [0.22, 0.23],
                                  (413, "da"): [0.21, 0.22]}))
    write_records(tmp_path, jobs({(413, "tsvm-S1"): [0.25], (413, "tsvm-Smax"): [0.22]}),
                  folder="timing_synthetic_33_vs_36")
    row = next(line for line in sections_text(tmp_path).splitlines()
               if line.startswith("| synthetic-33-vs-36 | SYNTHETIC stand-in | 413 | 30.50%"))
    assert "| 25.00% (1 of 2 splits) |" in row and row.endswith("| +3.00 pt (1 split) | none |")


def test_svmlin_agreement_counts_the_jobs_where_each_side_has_da_above_tsvm(tmp_path):
    folder = tmp_path / "results" / "reference_agreement"
    folder.mkdir(parents=True)
    rows = [(0, "da", 0.30, 0.31), (0, "tsvm-Smax", 0.16, 0.15), (1, "da", 0.18, 0.17), (1, "tsvm-Smax", 0.183, 0.165)]
    pd.DataFrame([{"dataset": "20ng-aut-avn-like", "split": s, "n_labeled": 2, "method": m, "objective_svmlin": j_ref,
                   "objective_record": j_rec, "objective_relative_difference": j_rec / j_ref - 1}
                  for s, m, j_ref, j_rec in rows]).to_csv(folder / "svmlin_x.csv", index=False)
    shutil.copytree(ROOT / "experiments", tmp_path / "experiments")
    lines = svmlin_agreement_lines(Records(tmp_path / "results", tmp_path))
    assert "DA's J above TSVM S=max's on 1 of 2 jobs for SVMlin, 2 of 2 in the record" in lines[-1]
    assert "within 9.8% of SVMlin's" in lines[-1] and "4 of the same jobs" in lines[-1]
    assert svmlin_agreement_lines(Records(tmp_path / "none", tmp_path)) == []


def test_an_analogs_records_are_labelled_as_such_and_judged_by_their_paper_sets_claim(artifacts, tmp_path):
    frame = jobs({(35, "tsvm-Smax"): [0.74, 0.75], (35, "da"): [0.69, 0.70]}, dataset="20ng-ccat-like")
    write_records(tmp_path, frame, folder="learning_curve_20ng_ccat_like")
    text = sections_text(tmp_path)
    row = next(line for line in text.splitlines() if line.startswith("| 20ng-ccat-like | "))
    # ccat's claim (000 Sec. 4: DA's J "significantly" lower), not a real set's nor a stand-in's label
    assert row.startswith("| 20ng-ccat-like | real-text analog | 35 | significantly lower |")
