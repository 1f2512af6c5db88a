"""An analog's verdict is the one at the paper's own lambda' (ssl_repro/claims/verdicts.py): the other lambda' is
a robustness check beside it, and "construction-dependent" only where the preprocessings differ at the paper's
lambda'."""
from pathlib import Path

from ssl_repro import claims
from ssl_repro.claims import verdicts
from ssl_repro.claims.records import Records
from ssl_repro.report import claim_pages

from tests.claims.test_claims import TSVM, curve, two_cells

ROOT = Path(__file__).resolve().parents[2]
LOWER, HIGHER = [t - 0.05 for t in TSVM], [t + 0.05 for t in TSVM]


def lam(frame, value):
    return frame.assign(lam_u=value)


def test_the_papers_lambda_gives_the_verdict_and_the_other_lambda_is_a_robustness_check(tmp_path):
    records = curve(tmp_path, {
        "pcmac": two_cells("pcmac", [LOWER, LOWER], [TSVM, TSVM], [TSVM, TSVM]),
        "20ng-aut-avn-like": lam(two_cells("20ng-aut-avn-like", [LOWER, LOWER], [TSVM, TSVM], [TSVM, TSVM]), 10.0),
        "20ng-aut-avn-like-b": lam(two_cells("20ng-aut-avn-like-b", [HIGHER, HIGHER], [TSVM, TSVM], [TSVM, TSVM]), 1.0)})
    claim = next(c for c in records.papers["claims"] if c["id"] == "000-obs2-da")      # aut-avn and pcmac
    v = claims.evaluate(claim, records)
    # the old reading: "construction-dependent" (holds with a, does not hold with b), an equal vote of the two
    assert v.word == verdicts.HOLDS and v.category == verdicts.HOLDS
    aut_avn = dict(records.named_verdicts(claim))["aut-avn"]
    assert aut_avn.data == ("20ng-aut-avn-like (analog, at the paper's lambda' = 10, construction a; robustness check "
                            "at lambda' = 1: does not hold with b)")


def test_a_robustness_checks_knife_edge_is_not_the_verdicts():
    """gcat's claim 10 was marked a knife edge by construction b at lambda' = 10 (p = 0.049), a robustness check
    that cannot flip the verdict at the paper's lambda' = 1."""
    from ssl_repro.claims.rules import knife_edges
    edge = tuple(knife_edges("l = 137", p=0.049))
    paper = verdicts.Verdict(verdicts.FAILS, "20ng-gcat-like", "20ng-gcat-like: ...")
    check = verdicts.Verdict(verdicts.MIXED, "20ng-gcat-like-b", "20ng-gcat-like-b: ...", edges=edge)
    merged = verdicts.merge_constructions("gcat", [("20ng-gcat-like", 1.0, paper), ("20ng-gcat-like-b", 10.0, check)])
    assert merged.word == verdicts.FAILS and "robustness check at lambda' = 10: mixed with b" in merged.data
    assert merged.edges == ()                                   # the old merge carried the check's edge
    at_paper = verdicts.Verdict(verdicts.FAILS, "20ng-gcat-like", "20ng-gcat-like: ...", edges=edge)
    merged = verdicts.merge_constructions("gcat", [("20ng-gcat-like", 1.0, at_paper), ("20ng-gcat-like-b", 10.0, check)])
    assert merged.edges == edge


def test_a_robustness_check_never_stands_in_for_a_paper_setting_that_decided_nothing():
    """ccat's annealing claims (round eighteen): at the paper's lambda' = 10 construction a decided no cell (each
    turned on unconverged runs), and construction b at lambda' = 1 did not hold.  The analog is not testable,
    with b named as the check; b gives the verdict only where nothing ran at the paper's lambda'."""
    undecided = verdicts.Verdict(verdicts.UNTESTABLE, "20ng-ccat-like", "20ng-ccat-like: no cell decided; 2 cells "
                                 "left out: the outcome turns on non-converged runs")
    check = verdicts.Verdict(verdicts.FAILS, "20ng-ccat-like-b", "20ng-ccat-like-b: reversed")
    merged = verdicts.merge_constructions("ccat", [("20ng-ccat-like", 10.0, undecided), ("20ng-ccat-like-b", 1.0, check)])
    assert merged.word == verdicts.UNTESTABLE and merged.kind == verdicts.SHORT_KIND[verdicts.ANALOG]
    assert merged.data.startswith("20ng-ccat-like (analog, nothing decided at the paper's lambda' = 10; robustness "
                                  "check at lambda' = 1: does not hold with b; a untested (no cell decided;")
    alone = verdicts.merge_constructions("ccat", [("20ng-ccat-like-b", 1.0, check)])
    assert alone.word == verdicts.FAILS and "at its settings, construction b" in alone.data


def test_construction_dependent_only_where_the_preprocessings_differ_at_the_papers_lambda(tmp_path):
    frames = {"20ng-aut-avn-like": lam(two_cells("20ng-aut-avn-like", [LOWER, LOWER], [TSVM, TSVM], [TSVM, TSVM]), 10.0)}
    records = curve(tmp_path, frames)
    corner = lam(two_cells("20ng-aut-avn-like-b", [HIGHER, HIGHER], [TSVM, TSVM], [TSVM, TSVM]), 10.0)
    where = tmp_path / "results" / f"{verdicts.CORNERS_PREFIX}20ng_aut_avn_like_b_lamu10"
    where.mkdir(parents=True)
    corner.to_csv(where / "results.csv", index=False)
    records = Records(tmp_path / "results", tmp_path)
    claim = next(c for c in records.papers["claims"] if c["id"] == "000-obs2-da")
    aut_avn = dict(records.named_verdicts(claim))["aut-avn"]
    assert aut_avn.category == verdicts.CONSTRUCTION_DEPENDENT
    assert aut_avn.data.startswith("20ng-aut-avn-like (analog: at the paper's lambda' = 10 holds with a, does not "
                                   "hold with b")
    assert "20ng-aut-avn-like-b at lambda' = 10:" in aut_avn.evidence          # the corner named by its lambda'
    label = claim_pages.verdict_label(claim_pages.set_verdicts(claim, records))
    assert label == "analog: **construction-dependent**"


def test_the_committed_records_judge_aut_avn_at_lambda_10_and_gcat_at_lambda_1():
    records = Records(ROOT / "results", ROOT)
    papers = {c["id"]: c for c in records.papers["claims"] if "id" in c}
    assert verdicts.paper_lambda("aut-avn") == 10 and verdicts.paper_lambda("gcat") == 1
    # at lambda' = 10 both preprocessings agree on aut-avn (issue 58's corners): DA's error is not markedly lower
    aut_avn = dict(records.named_verdicts(papers["000-obs2-da"]))["aut-avn"]
    assert aut_avn.category == verdicts.FAILS and "preprocessings a and b agree" in aut_avn.data
    # gcat: the paper's lambda' = 1 is construction a's
    gcat = dict(records.named_verdicts(papers["000-obs2-matched"]))["gcat"]
    assert gcat.data.startswith("20ng-gcat-like (analog, at the paper's lambda' = 1, construction a;")
