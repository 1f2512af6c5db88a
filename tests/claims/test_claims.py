"""The claims' rules (ssl_repro.claims.rules): thresholds, tied signed-rank p, one-class runs, data kinds."""
import dataclasses
import json
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import PermutationMethod, wilcoxon

from ssl_repro.data import registry
from ssl_repro import claims
from ssl_repro.claims.records import Records
from ssl_repro.report.tables import cell_text, num, verdict
from ssl_repro.claims import verdicts
from ssl_repro.report import claim_pages

ROOT = Path(__file__).resolve().parents[2]


def cell(values, metric="objective_eqn18", dataset="pcmac", r=0.5, errors=None, l=7):
    """A results.csv cell: ``values`` maps method -> per-split values of ``metric``."""
    rows = []
    for method, per_split in values.items():
        for split, v in enumerate(per_split):
            e = (errors or {}).get(method, [0.2] * len(per_split))[split]
            rows.append({"dataset": dataset, "method": method, "split": split, "n_labeled": l, "n_unlabeled": 1000,
                         "r": r, "objective_eqn18": v if metric == "objective_eqn18" else 0.2,
                         "test_error": v if metric == "test_error" else e,
                         "transductive_error": v if metric == "transductive_error" else e})
    return pd.DataFrame(rows)


def test_the_signed_rank_p_on_tied_differences_is_scipys_exact_p():
    rng = np.random.default_rng(0)
    for n in (5, 9, 12):
        d = rng.integers(-3, 4, n) * 0.0137            # ties and zeros
        assert claims.signed_rank_p(d, 1e-14) == pytest.approx(wilcoxon(d, method=PermutationMethod()).pvalue)
    tied = np.array([1, 1, 2, -2, 3, 3, 3, 4, -1, 5]) * 0.0137
    noisy = tied + np.array([0, 1e-17, 0, 0, -2e-17, 0, 1e-17, 0, 0, 0])   # equal up to float noise
    exact = wilcoxon(tied, method=PermutationMethod()).pvalue
    assert claims.signed_rank_p(noisy, 1e-12 * 0.1) == pytest.approx(exact)
    assert claims.signed_rank_p(noisy) != pytest.approx(exact)              # without the noise rule: no ties
    for n in (3, 7, 10):                                                    # no ties: scipy's exact table
        d = rng.normal(0.2, 1.0, n)
        assert claims.signed_rank_p(d) == pytest.approx(wilcoxon(d, method="exact").pvalue)


def test_a_difference_below_the_thresholds_is_equal_however_small_its_p():
    tsvm = [0.20 + 0.01 * k for k in range(10)]
    j = cell({"da": [t * (1 - 2e-4) for t in tsvm], "tsvm-Smax": tsvm})          # 0.02% lower on 10 of 10
    c = claims.compare(j, "da", "tsvm-Smax", "objective_eqn18")
    assert c.p < 0.01 and c.wins == 10 and c.word == "equal" and c.band == "equal"
    assert verdict(c)[1] == "equal"
    e = cell({"da": [t - 0.003 for t in tsvm], "tsvm-Smax": tsvm}, metric="test_error")   # 0.3 points
    assert claims.compare(e, "da", "tsvm-Smax", "test_error").word == "equal"
    slight = cell({"da": [t * (1 - 1e-3) for t in tsvm], "tsvm-Smax": tsvm})
    assert (claims.compare(slight, "da", "tsvm-Smax", "objective_eqn18").word,
            claims.compare(slight, "da", "tsvm-Smax", "objective_eqn18").band) == ("lower", "slightly")
    small = cell({"da": [0.0022] * 3, "tsvm-Smax": [0.0029] * 3}, metric="transductive_error")  # kdd99's sizes
    assert not claims.compare(small, "da", "tsvm-Smax", "transductive_error").equal


def test_a_one_class_solution_is_flagged_and_never_counts_as_better():
    # DA's J is 20% lower on every split, but it labels every unlabeled row negative: error = r = 0.3
    frame = cell({"da": [0.19] * 10, "tsvm-Smax": [0.24] * 10}, r=0.3,
                 errors={"da": [0.3] * 10, "tsvm-Smax": [0.06] * 10})
    c = claims.compare(frame, "da", "tsvm-Smax", "objective_eqn18")
    assert c.one_class_a == 10 and c.one_class_b == 0 and c.p < 0.01
    assert c.word == "one-class" and not claims.meets(c, "lower")
    text, word = verdict(c)
    assert word == "one-class: not counted" and "A one-class on 10 of 10" in text
    assert cell_text(frame, "da", "objective_eqn18", num).endswith("(one-class on 10 of 10)")
    # the recorded predicted share, where present, decides: 2% positive at r = 0.3 is one-class, 25% is not
    shares = frame.assign(unlabeled_positive_fraction=np.where(frame["method"] == "da", 0.02, 0.25))
    assert claims.one_class(shares).tolist() == [True] * 10 + [False] * 10
    assert not claims.one_class(shares.assign(unlabeled_positive_fraction=0.25)).any()
    assert not claims.one_class(frame.assign(r=0.01)).any()          # r at the edge: not "well inside"


@pytest.fixture
def analog(monkeypatch):
    """A registered real-text analog of ccat (its records come from another branch)."""
    info = dataclasses.replace(registry.DATASETS["pcmac"], name="20ng-ccat-like", analog_of="ccat")
    monkeypatch.setitem(registry.DATASETS, "20ng-ccat-like", info)


def test_a_claim_rests_on_the_analog_before_the_stand_in_and_never_on_a_stand_in_alone(analog, tmp_path):
    (tmp_path / "experiments").mkdir()
    shutil.copy(ROOT / "experiments" / "paper_numbers.json", tmp_path / "experiments")
    tsvm = [0.20 + 0.01 * k for k in range(10)]
    stand_in = cell({"da": [t * 0.9 for t in tsvm], "tsvm-Smax": tsvm}, dataset="synthetic-ccat")
    (tmp_path / "results" / "learning_curve_synthetic_ccat").mkdir(parents=True)
    stand_in.to_csv(tmp_path / "results" / "learning_curve_synthetic_ccat" / "results.csv", index=False)
    records = Records(tmp_path / "results", tmp_path)
    claim = next(c for c in records.papers["claims"] if c["id"] == "001-fig5-top")   # aut-avn only
    ccat = dict(claim, test=dict(claim["test"], expect={"ccat": "significantly lower"}))
    v = claims.evaluate(ccat, records)
    assert v.word == verdicts.UNTESTABLE and "only a synthetic stand-in" in v.evidence
    real = cell({"da": [t * 0.99 for t in tsvm], "tsvm-Smax": tsvm}, dataset="20ng-ccat-like")    # 1% lower
    (tmp_path / "results" / "learning_curve_20ng_ccat_like").mkdir()
    real.to_csv(tmp_path / "results" / "learning_curve_20ng_ccat_like" / "results.csv", index=False)
    v = claims.evaluate(ccat, records)
    assert (v.word, v.data) == (verdicts.HOLDS, "20ng-ccat-like (analog, at its settings, construction a; b not run)")
    assert verdicts.data_kind("20ng-ccat-like") == verdicts.ANALOG and verdicts.paper_set("20ng-ccat-like") == "ccat"


def test_report_check_covers_the_docs_results_pages(experiment_script, committed_render, tmp_path):
    """The check compares every docs/results page: the session's render of the committed records, its pages
    moved to a copy of docs/results, matches the copy, then fails on a page edited by hand and on a stale
    page no render writes."""
    artifacts = experiment_script("paper_artifacts")
    docs, pages = artifacts.DOCS_RESULTS, tmp_path / "docs_results"
    shutil.copytree(docs, pages)
    render = {pages / t.relative_to(docs) if t.is_relative_to(docs) else t: text
              for t, text in committed_render.items()}
    assert artifacts.check_files(render, pages) == 0
    page = pages / "objective-minima.md"
    assert "../../results/learning_curve_pcmac/figures/pcmac_objective.png" in page.read_text()
    page.write_text(page.read_text() + "\nedited by hand\n")
    assert artifacts.check_files(render, pages) == 1
    page.write_text((docs / "objective-minima.md").read_text())
    assert artifacts.check_files(render, pages) == 0
    (pages / "stale.md").write_text("# a page no render writes\n")
    assert artifacts.check_files(render, pages) == 1


# ---------------------------------------------------------------- rules that read the whole sentence

TSVM = [0.20 + 0.01 * k for k in range(10)]


def curve(tmp_path, frames, folder="learning_curve"):
    """Records of ``frames`` ({dataset: frame}) under results/<folder>_<dataset>/results.csv."""
    (tmp_path / "experiments").mkdir(exist_ok=True)
    shutil.copy(ROOT / "experiments" / "paper_numbers.json", tmp_path / "experiments")
    for dataset, frame in frames.items():
        where = tmp_path / "results" / f"{folder}_{registry.DATASETS[dataset].folder}"
        where.mkdir(parents=True, exist_ok=True)
        frame.to_csv(where / "results.csv", index=False)
    return Records(tmp_path / "results", tmp_path)


def test_only_slight_improvements_need_a_slightly_lower_error():
    def gain(points):
        return claims.compare(cell({"da": [t - points for t in TSVM], "tsvm-Smax": TSVM}, metric="transductive_error"),
                              "da", "tsvm-Smax", "transductive_error")
    big, slight, none = gain(0.05), gain(0.01), gain(0.0)        # 5 points (20% of 25%), 1 point, equal
    assert (big.band, slight.band, none.band) == ("markedly", "slightly", "equal")
    assert big.evidence_word == "markedly lower" and slight.evidence_word == "slightly lower"
    assert not claims.meets(big, "slightly lower") and claims.meets(big, "lower")
    assert claims.meets(slight, "slightly lower") and not claims.meets(none, "slightly lower")   # equal: no improvement
    assert not claims.meets(gain(-0.05), "slightly lower")  # higher is no improvement at all
    ccat = next(c for c in json.loads((ROOT / "experiments" / "paper_numbers.json").read_text())["claims"]
                if c["id"] == "000-obs2-ccat")
    assert [c["expect"] for c in ccat["test"]["checks"]] == ["significantly lower", "slightly lower"]
    # J: a significantly lower minimum does not read as "slightly"
    j = claims.compare(cell({"da": [t * 0.99 for t in TSVM], "tsvm-Smax": TSVM}), "da", "tsvm-Smax", "objective_eqn18")
    assert j.evidence_word == "significantly lower" and not claims.meets(j, "slightly lower")


def test_a_single_run_equal_says_one_run():
    c = claims.compare(cell({"tsvm-Smax": [0.2], "tsvm-S1": [0.2]}, metric="transductive_error"),
                       "tsvm-Smax", "tsvm-S1", "transductive_error")
    assert c.word == "equal (1 run)" and claims.meets(c, "equal") and verdict(c)[1] == "equal"
    lower = claims.compare(cell({"da": [0.1], "tsvm-Smax": [0.2]}, metric="transductive_error"),
                           "da", "tsvm-Smax", "transductive_error")
    assert lower.word == "lower (1 run)" and lower.evidence_word == "markedly lower (1 run)"


def two_cells(dataset, da, tsvm, svm, **extra):
    """A learning curve of two (or three) label counts: per-split transductive errors of each method per cell."""
    parts = []
    for l, (d, t, s) in zip((10, 20, 30), zip(da, tsvm, svm)):
        errors = {"da": d, "tsvm-Smax": t, "svm": s}
        parts.append(cell(errors, metric="transductive_error", dataset=dataset, l=l).assign(**extra))
    return pd.concat(parts, ignore_index=True)


def test_a_per_dataset_claim_is_judged_per_dataset(tmp_path):
    lower = [t - 0.05 for t in TSVM]
    # pcmac: TSVM below SVM in two of three cells and equal in the other; DA below in all
    records = curve(tmp_path, {"pcmac": two_cells("pcmac", [lower] * 3, [lower, TSVM, lower], [TSVM] * 3)})
    claim = next(c for c in records.papers["claims"] if c["id"] == "000-obs1")
    assert claim["test"]["per"] == "dataset"
    v = claims.evaluate(claim, records)
    assert v.word == verdicts.HOLDS and "pcmac: lower per dataset (met in 2 of 3, 3 of 3, " in v.evidence
    per_cell = claims.evaluate(dict(claim, test={**claim["test"], "per": "cell"}), records)
    assert per_cell.category == verdicts.MIXED and per_cell.word == "mixed on pcmac (real)"   # every cell asked
    higher = [t + 0.05 for t in TSVM]                       # TSVM above SVM in a cell: reversed, fails
    records = curve(tmp_path, {"pcmac": two_cells("pcmac", [lower] * 3, [lower, higher, lower], [TSVM] * 3)})
    v = claims.evaluate(claim, records)
    assert v.word == verdicts.FAILS and "reversed in 1" in v.evidence


def test_non_converged_runs_are_counted_and_never_decide_a_cell(tmp_path):
    lower = [t - 0.05 for t in TSVM]
    # DA is lower in the second cell only on its non-converged splits (0-5): that cell is left out
    mixed = lower[:6] + TSVM[6:]
    frame = two_cells("pcmac", [lower, mixed], [TSVM, TSVM], [TSVM, TSVM])
    frame["converged"] = ~((frame["method"] == "da") & (frame["n_labeled"] == 20) & (frame["split"] < 6))
    records = curve(tmp_path, {"pcmac": frame})
    claim = next(c for c in records.papers["claims"] if c["id"] == "000-obs2-da")
    v = claims.evaluate(claim, records)
    assert "per dataset (met in 1 of 1 cells" in v.evidence and "6 of 40 runs not converged" in v.evidence
    assert "1 cell left out: the outcome turns on non-converged runs" in v.evidence


def test_one_render_judges_each_claim_once_and_the_next_render_judges_the_changed_records(
        experiment_script, tmp_path, monkeypatch):
    """A render (results/README.md and the docs' Results pages: ``tmp_path`` stands for the repository)
    asks each claim (per claim id and test) and each beyond-the-papers question of the claims' rules once,
    and judges each paper set's cells once (the claim's verdict and its per-set verdicts from one
    judgement); a render after the records change gives the new verdict: nothing outlives a render."""
    artifacts = experiment_script("paper_artifacts")
    monkeypatch.setattr(artifacts, "ROOT", tmp_path)
    asked, judged = Counter(), Counter()
    from ssl_repro.claims import linear_rules, records as claim_records
    from ssl_repro.report import page
    evaluate_by_set, judge_cells = claim_records.evaluate_by_set, linear_rules.judge_cells

    def count_asked(claim, records):
        asked[claim.get("id"), json.dumps(claim["test"])] += 1
        return evaluate_by_set(claim, records)

    def count_judged(frame, test, set_expect, dataset):
        judged[json.dumps(test["checks"]), test.get("per"), set_expect, dataset] += 1
        return judge_cells(frame, test, set_expect, dataset)

    monkeypatch.setattr(claim_records, "evaluate_by_set", count_asked)
    monkeypatch.setattr(linear_rules, "judge_cells", count_judged)

    def records_with(da):
        """pcmac's learning curve (two cells) with DA's errors ``da``, TSVM's and SVM's :data:`TSVM`."""
        return curve(tmp_path, {"pcmac": two_cells("pcmac", [da] * 2, [TSVM] * 2, [TSVM] * 2, seconds=1.0,
                                                   objective_own=0.2, converged=True, cg_iterations=10)})

    def render():
        """The "Verdict:" line of claim 000-obs2-da (DA below TSVM on pcmac) on its page (results/README.md links it)."""
        asked.clear(), judged.clear()
        files = artifacts.rendered_files(tmp_path / "results")
        assert len(files) > 1 + len(tested)                    # the README, a docs page per claim, ...
        assert len(asked) > len(tested) and set(asked.values()) == {1}
        assert judged and set(judged.values()) == {1}
        assert f"]({page.DOCS}/{page.claim_file(claim)})" in files[tmp_path / "results" / "README.md"]
        body = files[artifacts.DOCS_RESULTS / page.claim_file(claim)]
        return next(line for line in body.splitlines() if line.startswith("**Verdict:"))

    tested = claim_pages.tested(records_with([t - 0.05 for t in TSVM]))
    number, claim = next((n, c) for n, c in tested if c["id"] == "000-obs2-da")
    assert render().startswith("**Verdict: holds**")
    records_with([t + 0.05 for t in TSVM])
    assert render().startswith(f"**Verdict: {verdicts.FAILS}**")


def test_records_judge_a_claim_with_another_test_anew(tmp_path):
    """Records keep a verdict per claim id and test: the claim with another test is judged anew, and its
    per-set verdicts are those of its test restricted to each set."""
    lower = [t - 0.05 for t in TSVM]
    records = curve(tmp_path, {"pcmac": two_cells("pcmac", [lower] * 2, [TSVM] * 2, [TSVM] * 2)})
    claim = next(c for c in records.papers["claims"] if c.get("id") == "000-obs2-da")
    equal = dict(claim, test=dict(claim["test"], expect={"pcmac": "equal"}))
    assert records.verdict(claim).word == verdicts.HOLDS and records.verdict(equal).word == verdicts.FAILS
    assert records.verdict(claim) is records.verdict(claim)               # judged once
    assert [name for name, _ in records.named_verdicts(claim)] == ["aut-avn", "pcmac"]
    assert records.named_verdicts(claim) == [(s, claims.evaluate(dict(claim, test=dict(claim["test"], expect={s: e})),
                                                               records)) for s, e in claim["test"]["expect"].items()]
