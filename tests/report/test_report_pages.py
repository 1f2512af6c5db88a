"""The Results pages as a reader meets them: every sentence the records support, plain words, short rows.

Each test here stands for one sentence the records did not support and fails on its cause in
the renderer: a quote's line-break hyphens, a temperature that is not drawn, a commit without its
"+uncommitted" flag, a capped run's seconds, the machine's load, a comparison worded as a claim's
verdict, cells that go unnamed, a cut quote, a dataset status.
"""
import json
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ssl_repro import claims
from ssl_repro.report import plots
from ssl_repro.claims import verdicts
from ssl_repro.report import claim_pages
from ssl_repro.report.sections import degenerate
from ssl_repro.report.sections import distributed_scaling as distributed
from ssl_repro.report.sections import loss_shapes
from ssl_repro.report import record_text as records
from ssl_repro.report import words
from ssl_repro.report.claim_words import CLAIM_WORDS

ROOT = Path(__file__).resolve().parents[2]
PAPERS = Path(os.environ.get("SSL_REPRO_PAPERS", "/nonexistent"))
NUMBERS = json.loads((ROOT / "experiments" / "paper_numbers.json").read_text())
RENDERED = [ROOT / "results" / "README.md", *sorted((ROOT / "docs" / "results").rglob("*.md"))]


@pytest.mark.skipif(not PAPERS.is_dir(), reason="set SSL_REPRO_PAPERS to a folder holding the papers' plain texts")
def test_a_joined_hyphen_is_a_word_the_paper_prints_whole_and_a_kept_one_a_compound_it_never_joins():
    texts = {k: (PAPERS / f).read_text() for k, f in NUMBERS["papers"].items()}
    joined, kept = 0, 0
    for claim in NUMBERS["claims"]:
        text, reading = texts[claim["paper"]], words.unbreak(claim["quote"])
        for m in re.finditer(r"([A-Za-z]+)-( ?)([a-z]+)", claim["quote"]):
            whole = m.group(1) + m.group(3)
            if re.search(rf"\b{re.escape(m.group(0))}", reading):        # kept: a compound of the paper's
                kept += 1
                assert not re.search(rf"\b{whole}\b", text), (claim["id"], m.group(0), "the paper prints it whole")
            else:
                joined += 1
                assert re.search(rf"\b{whole}\b", text), (claim["id"], m.group(0), "not a word of the paper")
                assert whole in reading
    assert joined >= 8 and kept >= 10
    assert words.unbreak("DA performs significantly bet- ter optimization") == "DA performs significantly better optimization"


def test_the_rendered_pages_carry_no_line_break_hyphen_no_empty_count_and_no_undrawn_temperature():
    for path in RENDERED:
        text = path.read_text()
        for bad in ("bet- ter", "generaliza- tion", "sig-nificantly", "0 of 0 cells", "T = 1000"):
            assert bad not in text, (path, bad)
    assert words.evidence_words("pcmac: not higher in 0 of 0 cells ()") == "pcmac: no cell where both methods ran"


def test_the_da_loss_row_cites_only_the_temperatures_the_figure_draws(tmp_path):
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "paper_numbers.json").write_text(json.dumps(NUMBERS))
    lines = "\n".join(loss_shapes.section_drawings(records.Records(tmp_path / "results", tmp_path))).splitlines()
    row = next(line for line in lines if line.startswith("| da-loss"))
    cited = {float(t) for t in re.findall(r"T = ([\d.]+)", row)}
    assert cited and cited <= set(plots.DA_LOSS_TEMPERATURES), cited
    assert row.rstrip(" |").endswith("yes")


def test_a_commit_is_read_whole_with_its_uncommitted_flag():
    assert records.short_commit("66ffa089fe84eaf6010e4a41a347746e38e74eff+uncommitted changes") == "66ffa08+uncommitted"
    assert records.short_commit("80ccded336b0dceb") == "80ccded" and records.short_commit(None) == ""
    p = {"command": "x", "date": "2026-11-23T21:12:24", "git_commit": "66ffa089fe84+uncommitted changes"}
    assert "code commit 66ffa08+uncommitted" in records.provenance(p)
    calibration = json.loads((ROOT / "results" / "calibration" / "calibration.json").read_text())
    if "uncommitted" in calibration["provenance"]["git_commit"]:
        assert "+uncommitted" in (ROOT / "docs" / "results" / "calibration.md").read_text()


def test_svmlight_capped_runs_show_the_cpu_seconds_recorded_at_the_kill():
    peers = pd.read_csv(ROOT / "results" / "peers" / "table9.csv")
    page = (ROOT / "docs" / "results" / "svmlight-speed.md").read_text()
    for _, r in peers[peers["capped"]].iterrows():
        assert f"killed at {r['cpu_seconds']:.1f} CPU s (cap {r['cap_seconds']:g})" in page
    assert f"> {peers['cap_seconds'].max():g}" not in page


def test_the_distributed_page_states_the_cores_and_every_load_of_its_record():
    record = json.loads((ROOT / "results" / "distributed" / "scaling.json").read_text())
    text = "\n".join(distributed._distributed(None, record))
    assert f"a machine of {record['machine']['cpus']} cores" in text
    entries = [record["single_process"], *record["distributed"]]
    for entry in entries + [s for e in entries for s in e["solves"]]:
        assert f"{entry['load_before']:.1f}" in text


def test_the_universvm_comparison_is_no_verdict_of_a_claim():
    page = (ROOT / "docs" / "results" / "universvm.md").read_text()
    body = page.split("Artifacts:", 1)[1]
    assert "not a claim of the papers" in body and "**" not in body


def _cell(dataset, l, da, svm, da_one_class):
    """Ten splits of DA and the SVM in one learning-curve cell; DA one-class (all negative, r = 0.3) or not."""
    return [{"dataset": dataset, "split": k, "n_labeled": l, "n_unlabeled": 1000, "method": m, "r": 0.3,
             "test_error": e + 0.001 * k, "transductive_error": 0.3 if (m == "da" and da_one_class) else 0.1,
             "objective_eqn18": 0.2, "seconds": 1.0, "converged": True}
            for k in range(10) for m, e in (("da", da), ("svm", svm))]


def test_where_da_is_one_class_the_cells_are_named_and_equal_only_where_the_errors_are(tmp_path):
    rows = (_cell("synthetic-gcat", 44, 0.2972, 0.2972, True) + _cell("synthetic-gcat", 348, 0.2957, 0.2862, True)
            + _cell("synthetic-gcat", 695, 0.20, 0.25, False))
    (tmp_path / "results" / "learning_curve_synthetic_gcat").mkdir(parents=True)
    pd.DataFrame(rows).to_csv(tmp_path / "results" / "learning_curve_synthetic_gcat" / "results.csv", index=False)
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "paper_numbers.json").write_text(json.dumps(NUMBERS))
    text = " ".join(degenerate.one_class_lines(records.Records(tmp_path / "results", tmp_path)))
    equal, differ = text.split("equals the SVM's")[1].split("it does not at")
    assert "l = 44" in equal and "l = 348" not in equal
    assert "l = 348 (30.02% vs 29.07%)" in differ              # means over the ten splits
    assert "l = 695" not in text


def test_the_committed_da_equals_svm_sentence_names_only_cells_where_the_errors_are_equal():
    r = records.Records(ROOT / "results", ROOT)
    for dataset, l, _, _, da, svm, equal in degenerate._one_class_cells(r):
        assert equal == claims.equal_within("test_error", da - svm, da, svm)
    sentence = next(line for line in (ROOT / "docs" / "results" / "learning-curves.md").read_text().splitlines()
                    if line.startswith("DA is one-class"))
    for name, da, svm in re.findall(r"(\S+ l = \d+) \(([\d.]+)% vs ([\d.]+)%\)", sentence.split("it does not at")[0]):
        assert abs(float(da) - float(svm)) < 100 * claims.ERROR_EQUAL_POINTS, name


def test_001_fig5_middles_quote_is_whole():
    claim = next(c for c in NUMBERS["claims"] if c["id"] == "001-fig5-middle")
    assert claim["quote"].endswith("given that DA finds significantly better solutions")
    assert "these improvements are not as much as one might expect" in (
        ROOT / "docs" / "results" / "claims" / "001-fig5-middle.md").read_text()


def test_the_dataset_tables_status_tells_regenerated_stand_ins_and_analogs_apart(experiment_script):
    state, what = experiment_script("artifact_listing").dataset_table_kinds(ROOT / "results")
    table = json.loads((ROOT / "results" / "dataset_table" / "table.json").read_text())
    if any(r.get("stand_in") for r in table["rows"]):
        assert state == "partial" and "stand-in, the paper's d, l+u and t by construction" in what
    for r in table["rows"]:
        for a in r.get("analogs", []):
            assert f"{a['dataset']} (for {r['dataset']})" in what
    assert what in (ROOT / "docs" / "results" / "index.md").read_text()      # the listing of every artifact


def test_the_overview_has_one_short_row_per_claim_with_a_verdict_per_data_kind():
    tested = [c for c in NUMBERS["claims"] if "test" in c]
    assert set(CLAIM_WORDS) == {c["id"] for c in tested}
    assert all(len(w) <= 80 and "_" not in w for w in CLAIM_WORDS.values())
    index = (ROOT / "docs" / "results" / "index.md").read_text()
    header = next(line for line in index.splitlines() if line.startswith("| # |"))
    assert header.count("|") == 7 and header.endswith("| knife edge |")     # six columns, the knife edge last
    rows = [line for line in index.splitlines() if re.match(r"\| \d+ \| \[", line)]
    assert len(rows) == len(tested)
    assert all(re.search(r"\| (not testable|((real subset|real|analog|stand-in|generated): \*\*\w[\w -]*\*\*(, )?)+) \|"
                         r" (yes|) \|$", r) for r in rows), rows
    kinds = claim_pages.kind_words([verdicts.Verdict(verdicts.HOLDS, "pcmac (real)", "", kind="real"),
                                    verdicts.Verdict(verdicts.FAILS, "20ng-aut-avn-like (analog)", "", kind="analog"),
                                    verdicts.Verdict(verdicts.UNTESTABLE, "", "real-sim: only a stand-in")])
    assert kinds == {"real": verdicts.HOLDS, "analog": verdicts.FAILS}


def test_plain_words_replace_the_record_names():
    text = words.plain("paired per cell of `learning_curve_*`: da vs tsvm-Smax on objective_eqn18")
    assert text == "paired per cell of `learning_curve_*`: DA vs TSVM S=max on objective J (Eqn 18)"
    assert "MFA (mean field annealing)" in words.glossary("MFA performs")[0]


def test_no_module_of_the_report_is_over_400_lines():
    sizes = {str(p): len(p.read_text().splitlines()) for p in (ROOT / "ssl_repro" / "report").rglob("*.py")}
    assert max(sizes.values()) <= 400, sizes
    assert np.sum(list(sizes.values())) > 1000                    # the whole renderer, not a stub


def test_a_curve_without_s1_counts_each_timing_split_once_not_each_repeat(tmp_path):
    """The learning-curve table borrows TSVM S=1 from the timing sweep; its 3 repeats of 3 splits are 3 splits."""
    from ssl_repro.report.sections import learning_curves
    curve = [{"dataset": "20ng-gcat-like-b", "method": m, "split": k, "n_labeled": 34, "n_unlabeled": 100,
              "test_error": 0.1, "converged": True} for k in range(10) for m in ("svm", "tsvm-Smax", "da")]
    timing = [{"dataset": "20ng-gcat-like-b", "method": "tsvm-S1", "split": k, "repeat": rep, "n_labeled": 34,
               "n_unlabeled": 100, "test_error": 0.1 + 0.01 * k, "converged": True}
              for rep in range(3) for k in range(3)]
    for folder, rows in (("learning_curve_20ng_gcat_like_b", curve), ("timing_20ng_gcat_like_b", timing)):
        (tmp_path / "results" / folder).mkdir(parents=True)
        pd.DataFrame(rows).to_csv(tmp_path / "results" / folder / "results.csv", index=False)
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "paper_numbers.json").write_text(json.dumps(NUMBERS))
    r = records.Records(tmp_path / "results", tmp_path)
    frame = r.runs("learning_curve_20ng_gcat_like_b")
    merged = learning_curves._with_timing_s1(r, "20ng-gcat-like-b", frame)
    s1 = merged[merged["method"] == "tsvm-S1"]
    assert sorted(s1["split"]) == [0, 1, 2]
