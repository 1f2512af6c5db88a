"""Each claim's rule reads its whole sentence: recomputed here from the committed records, apart from the rules."""
import json
from pathlib import Path

import pandas as pd
import pytest

from ssl_repro import claims
from ssl_repro.claims import linear_rules, verdicts
from ssl_repro.claims.records import Records
from ssl_repro.report import claim_pages

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def records():
    return Records(ROOT / "results", ROOT)


def claim(records, cid):
    return next(c for c in records.papers["claims"] if c.get("id") == cid)


def timing_medians(records, folder):
    runs = records.runs(folder)
    runs = runs[~runs["disturbed"].astype(bool)]
    if "n_unlabeled" in runs:
        runs = runs[runs["n_unlabeled"] == runs.groupby("n_labeled")["n_unlabeled"].transform("max")]
    return runs.groupby(["method", "n_labeled"])["seconds"].median()


def test_can_be_six_to_seven_times_is_an_existence_with_its_trend_at_the_papers_setting(records):
    v = claims.evaluate(claim(records, "004-fig1.6"), records)
    expected = {}
    for folder in ("timing_pcmac", "timing_20ng_ccat_like", "timing_20ng_gcat_like"):
        m = timing_medians(records, folder)
        ratio = (m["tsvm-S1"] / m["tsvm-Smax"]).sort_index()
        exists = (ratio >= 5.5).any()                               # "can be": at some label count
        trend = ratio.iloc[0] > ratio.median() and ratio.iloc[0] > ratio.iloc[-1]     # "particularly when few"
        expected[folder] = verdicts.HOLDS if exists and trend else verdicts.MIXED if exists else verdicts.FAILS
    assert v.on[("real", "pcmac (real)")] == expected["timing_pcmac"]
    for folder, name in (("timing_20ng_ccat_like", "20ng-ccat-like "), ("timing_20ng_gcat_like", "20ng-gcat-like ")):
        assert next(w for (_, data), w in v.on.items() if data.startswith(name)) == expected[folder]
    ccat = timing_medians(records, "timing_20ng_ccat_like")
    assert (ccat["tsvm-S1"] / ccat["tsvm-Smax"]).max() > 7.5          # 8.1: the old band [5.5, 7.5) failed it


def test_15_minutes_against_2_hours_20_is_the_papers_ratio_within_the_doubling_tolerance(records):
    m = timing_medians(records, "scale_timing_kdd99_10")
    ratio = (m["da"] / m["tsvm-Smax"]).dropna()
    low, high = 140 / 15 / 1.5, 140 / 15 * 1.5                  # 9.33 within a factor 1.5
    v = claims.evaluate(claim(records, "004-table1.7"), records)
    assert v.word == (verdicts.HOLDS if ((ratio >= low) & (ratio <= high)).all() else verdicts.FAILS)
    assert not ((ratio >= low) & (ratio <= high)).all()          # ours 5.49: the old ">= 2" said holds


def test_five_to_ten_iterations_reads_within_ten_on_fig4_and_over_the_grid(records):
    v = claims.evaluate(claim(records, "002-fig4"), records)
    path, grid = records.csv("cccp_002/path.csv"), records.csv("cccp_002/grid.csv")
    for d, rows in path.groupby("dataset"):
        fits = grid[(grid["dataset"] == d) & (grid["method"] == "cccp-tsvm")]["cccp_iterations"]
        ok = rows["step"].max() <= 10 and (fits <= 10).mean() > 0.5
        words = {w for (_, data), w in v.on.items() if data.startswith(d + " ")}
        assert words == {verdicts.HOLDS if ok else verdicts.FAILS} or (not ok and verdicts.MIXED in words), d
    assert path[path["dataset"] == "g50c"]["step"].max() < 5                # the old "5 <= steps" failed it


def test_more_strongly_dependent_asks_both_tsvms_and_a_margin(records):
    test = claim(records, "000-timing-3")["test"]
    v = claims.evaluate(claim(records, "000-timing-3"), records)
    assert set(test["stronger"]) == {"tsvm-Smax", "tsvm-S1"} and test["margin"] > 1
    m = timing_medians(records, "timing_pcmac")
    spread = {k: m[k].max() / m[k].min() for k in ("tsvm-Smax", "tsvm-S1", "da")}
    ok = all(spread[k] >= test["margin"] * spread["da"] for k in ("tsvm-Smax", "tsvm-S1"))
    assert v.on[("real", "pcmac (real)")] == (verdicts.HOLDS if ok else verdicts.FAILS)


def test_out_of_sample_tests_each_sets_observations_not_only_the_first(records):
    test = claim(records, "000-out-of-sample")["test"]
    for name in test["expect"]:
        pairs = {(c["a"], c["b"]) for c in linear_rules.for_set(test, name)["checks"]}
        assert {("tsvm-Smax", "svm"), ("da", "svm"), ("tsvm-Smax", "tsvm-S1")} <= pairs          # observations 1, 3
        assert ("da", "tsvm-Smax") in pairs or ("tsvm-Smax", "da") in pairs                  # observation 2


def test_words_of_degree_need_their_band():
    numbers = json.loads((ROOT / "experiments" / "paper_numbers.json").read_text())
    by_id = {c["id"]: c["test"] for c in numbers["claims"] if "test" in c}
    for cid in ("000-obs2-da", "003-table3-da"):            # "outperforms significantly", "well below"
        assert set(by_id[cid]["expect"].values()) == {"significantly lower"}
    annealing = by_id["003-fig4"]                            # "higher quality": lower, not "not higher"
    assert {c["expect"] for c in annealing["checks"]} == {"lower"}
    tsvm = [0.20 + 0.01 * k for k in range(10)]
    rows = pd.DataFrame([{"method": m, "split": s, "test_error": e} for s, t in enumerate(tsvm)
                         for m, e in (("da", t - 0.008), ("tsvm-Smax", t))])
    c = claims.compare(rows, "da", "tsvm-Smax", "test_error")
    assert c.evidence_word == "slightly lower" and not claims.meets(c, "significantly lower")


def test_a_claims_untestable_part_is_said_on_its_page(records):
    c = claim(records, "001-fig5-middle")
    number = next(n for n, x in claim_pages.tested(records) if x["id"] == c["id"])
    page = "\n".join(claim_pages.claim_body(records, number, c, lambda key: key, lambda f: f))
    assert "What this test leaves out: \"not as much as one might expect\"" in page
    assert {ch["metric"] for ch in c["test"]["checks"]} == {"test_error", "objective_eqn18"}


def test_orders_of_magnitude_shows_the_papers_own_figures_under_the_rule(records):
    v = claims.evaluate(claim(records, "002-speed"), records)
    assert "002's own Fig 3: 50x, at least 10x" in v.evidence and "002's own Fig 3: 133x, at least 10x" in v.evidence
