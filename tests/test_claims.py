"""The claims' rules (ssl_repro.harness.claims): thresholds, tied signed-rank p, one-class runs, data kinds."""
import dataclasses
import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import PermutationMethod, wilcoxon

from ssl_repro.data import registry
from ssl_repro.harness import claims, report

ROOT = Path(__file__).resolve().parents[1]


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
    assert report.verdict(c)[1] == "equal"
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
    text, word = report.verdict(c)
    assert word == "one-class: not counted" and "A one-class on 10 of 10" in text
    assert report.cell_text(frame, "da", "objective_eqn18", report.num).endswith("(one-class on 10 of 10)")
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
    records = report.Records(tmp_path / "results", tmp_path)
    claim = next(c for c in records.papers["claims"] if c["id"] == "001-fig5-top")   # aut-avn only
    ccat = dict(claim, test=dict(claim["test"], expect={"ccat": "significantly lower"}))
    v = claims.evaluate(ccat, records)
    assert v.word == claims.UNTESTABLE and "only a synthetic stand-in" in v.evidence
    real = cell({"da": [t * 0.99 for t in tsvm], "tsvm-Smax": tsvm}, dataset="20ng-ccat-like")    # 1% lower
    (tmp_path / "results" / "learning_curve_20ng_ccat_like").mkdir()
    real.to_csv(tmp_path / "results" / "learning_curve_20ng_ccat_like" / "results.csv", index=False)
    v = claims.evaluate(ccat, records)
    assert (v.word, v.data) == (claims.HOLDS, "20ng-ccat-like (real-text analog)")
    assert claims.data_kind("20ng-ccat-like") == claims.ANALOG and claims.paper_set("20ng-ccat-like") == "ccat"


def test_report_check_covers_the_docs_results_pages(experiment_script, tmp_path, monkeypatch):
    artifacts = experiment_script("paper_artifacts")
    pages = tmp_path / "docs_results"
    shutil.copytree(ROOT / "docs" / "results", pages)
    monkeypatch.setattr(artifacts, "DOCS_RESULTS", pages)
    assert artifacts.write_report(ROOT / "results", check=True) == 0
    page = pages / "objective-minima.md"
    assert "../../results/learning_curve_pcmac/figures/pcmac_objective.png" in page.read_text()
    page.write_text(page.read_text() + "\nedited by hand\n")
    assert artifacts.write_report(ROOT / "results", check=True) == 1
    (pages / "objective-minima.md").write_text((ROOT / "docs" / "results" / "objective-minima.md").read_text())
    (pages / "stale.md").write_text("# a page no render writes\n")
    assert artifacts.write_report(ROOT / "results", check=True) == 1
