"""The 2 x 2 of an analog's construction choices (preprocessing x lambda'): which one flips a verdict."""
from pathlib import Path

import pytest

from ssl_repro import claims
from ssl_repro.claims import corners, verdicts
from ssl_repro.claims.records import Records

ROOT = Path(__file__).resolve().parents[2]
H, F = verdicts.HOLDS, verdicts.FAILS


def grid(a10, a1, b10, b1):
    return {k: verdicts.Verdict(w, "", "") for k, w in
            {("a", 10.0): a10, ("a", 1.0): a1, ("b", 10.0): b10, ("b", 1.0): b1}.items()}


def test_the_factor_that_flips_a_verdict():
    assert corners.flipping_factor(grid(F, H, F, H)) == "lambda'"
    assert corners.flipping_factor(grid(F, F, H, H)) == "the preprocessing"
    assert corners.flipping_factor(grid(F, F, F, H)) == "both"               # only b with lambda' = 1 holds
    assert corners.flipping_factor(grid(H, H, H, H)) == "neither"
    assert corners.flipping_factor({k: v for k, v in grid(F, H, F, H).items() if k != ("b", 1.0)}) is None
    assert corners.flipping_factor(grid(F, verdicts.UNTESTABLE, F, H)) is None


@pytest.fixture(scope="module")
def records():
    return Records(ROOT / "results", ROOT)


def test_the_mixed_corners_are_recorded_with_the_swapped_lambda_and_todays_data(records):
    for folder, dataset, lam_u in (("construction_corners_20ng_aut_avn_like_lamu1", "20ng-aut-avn-like", 1.0),
                                   ("construction_corners_20ng_aut_avn_like_b_lamu10", "20ng-aut-avn-like-b", 10.0)):
        frame = records.runs(folder)
        semi = frame[frame["method"].isin(["da", "tsvm-Smax"])]
        assert set(semi["lam_u"]) == {lam_u} and set(frame["dataset"]) == {dataset}
        assert frame["dataset_key"].nunique() == 1 and frame["split_key"].notna().all()
        assert len(semi) == 2 * 10 * frame["n_labeled"].nunique()            # 10 splits a cell, both methods


def test_the_recorded_corners_give_the_papers_setting_its_verdict_and_the_page_names_the_factor(records):
    claim = next(c for c in records.papers["claims"] if c.get("id") == "000-obs2-da")
    found = corners.corner_verdicts(records, claim["test"])
    _, by_set = claims.evaluate_by_set(claim, records)
    aut_avn = dict(by_set)["aut-avn"]
    # the paper's lambda' = 10 under both preprocessings gives the verdict; lambda' = 1 is the robustness check
    assert found[("a", 10.0)].category == found[("b", 10.0)].category == aut_avn.category
    assert f"robustness check at lambda' = 1: {found[('a', 1.0)].category} with a, {found[('b', 1.0)].category} with b" \
        in aut_avn.data
    factor = corners.flipping_factor(found)
    assert factor is not None
    page = (ROOT / "docs" / "results" / "claims" / "000-obs2-da.md").read_text()
    assert ("the four corners agree" if factor == "neither" else f"it flips with {factor}") in page
