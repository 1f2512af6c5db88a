"""A claim page's evidence: one row per dataset (not one cell for every set), and the terms the page uses for
our data defined on the page (ssl_repro/report/claim_pages.py)."""
import re
from pathlib import Path

from ssl_repro.claims.verdicts import Verdict
from ssl_repro.report.claim_pages import TERMS, per_dataset

ROOT = Path(__file__).resolve().parents[2]


def test_the_evidence_is_cut_at_each_dataset_it_names_and_each_row_says_its_kind_and_construction():
    verdict = Verdict("differs by data", "pcmac (real), 20ng-gcat-like (analog: does not hold with a, holds with b)",
                      "20ng-gcat-like: ratio 2.73; needed: 1.1; 20ng-gcat-like-b: ratio 2.52; pcmac: ratio 1.31")
    assert per_dataset(verdict) == [("20ng-gcat-like (analog, construction a)", "ratio 2.73; needed: 1.1"),
                                    ("20ng-gcat-like-b (analog, construction b)", "ratio 2.52"),
                                    ("pcmac (real)", "ratio 1.31")]
    whole = Verdict("holds", "pcmac (real)", "DA below TSVM in 9 of 9 cells")       # names no dataset: one row
    assert per_dataset(whole) == [("pcmac (real)", "DA below TSVM in 9 of 9 cells")]


def test_claim_18s_page_has_a_row_per_dataset_and_defines_the_constructions():
    page = (ROOT / "docs" / "results" / "claims" / "000-timing-3.md").read_text()
    rows = [line for line in page.splitlines() if line.startswith("| ") and "largest/smallest" in line]
    assert len(rows) == 7 and all(len(row) < 400 for row in rows)        # seven sets, none in one long cell
    terms = next(line for line in page.splitlines() if line.startswith("Terms: "))
    for term in ("real", "analog", "construction a / b"):
        assert f"*{term}*: {TERMS[term]}" in terms
    assert "stand-in" not in terms and not re.search(r"\| .{1000,} \|", page)


def test_a_robustness_check_has_its_own_row_named_with_its_verdict():
    """An analog's records at the other lambda' are a robustness check: their row says so, with its verdict (the
    old rows left its verdict cell empty, and lumped a's records at the other lambda' into b's row)."""
    verdict = Verdict("does not hold", "20ng-aut-avn-like (analog, at the paper's lambda' = 10, preprocessings a and b "
                                       "agree; robustness check at lambda' = 1: holds with a, holds with b)",
                      "20ng-aut-avn-like: met in 0 of 10; 20ng-aut-avn-like-b: met in 10 of 10; "
                      "20ng-aut-avn-like-b at lambda' = 10: met in 0 of 6; 20ng-aut-avn-like at lambda' = 1: met in 10 of 10")
    assert per_dataset(verdict) == [
        ("20ng-aut-avn-like (analog, construction a)", "met in 0 of 10"),
        ("20ng-aut-avn-like-b (analog, construction b; robustness check at lambda' = 1: **holds**)", "met in 10 of 10"),
        ("20ng-aut-avn-like-b at lambda' = 10 (analog, construction b)", "met in 0 of 6"),
        ("20ng-aut-avn-like at lambda' = 1 (analog, construction a; robustness check: **holds**)", "met in 10 of 10")]
