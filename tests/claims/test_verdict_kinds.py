"""The verdict per data kind, computed per kind from the data each verdict rests on (never read from its text)."""
from pathlib import Path

from ssl_repro import claims
from ssl_repro.claims import verdicts
from ssl_repro.claims.records import Records

ROOT = Path(__file__).resolve().parents[2]


def test_the_label_of_each_data_kind_is_the_verdict_on_that_kinds_data():
    pcmac = verdicts.Verdict(verdicts.FAILS, "pcmac (real)", "pcmac: 1.31 vs 1.5", kind="real")
    analogs = [verdicts.Verdict(verdicts.CONSTRUCTION_DEPENDENT, f"{d} (analog: holds with a, does not hold with b)",
                                d, kind="analog") for d in ("20ng-aut-avn-like", "20ng-ccat-like")]
    merged = verdicts.combine([*analogs, pcmac])                     # the real set listed last: still first
    assert merged.category == verdicts.BY_DATA and merged.word.startswith(f"{verdicts.FAILS} on pcmac (real)")
    assert verdicts.kind_words(merged) == {"real": verdicts.FAILS, "analog": verdicts.CONSTRUCTION_DEPENDENT}
    # a verdict of two datasets of one kind that disagree differs by data on that kind
    other = verdicts.Verdict(verdicts.HOLDS, "text (real)", "", kind="real")
    assert verdicts.kind_words(verdicts.combine([pcmac, other])) == {"real": verdicts.BY_DATA}
    # the same dataset judged twice with two words is mixed there
    assert verdicts.kind_words(verdicts.combine([pcmac, verdicts.Verdict(verdicts.HOLDS, "pcmac (real)", "",
                                                                          kind="real")])) == {"real": verdicts.MIXED}


def test_claim_18_on_the_committed_records_does_not_hold_on_pcmac_the_only_real_set():
    records = Records(ROOT / "results", ROOT)
    claim = next(c for c in records.papers["claims"] if c["id"] == "000-timing-3")
    v = claims.evaluate(claim, records)
    runs = next(records.runs(f) for f in records.folders("timing_") if f == "timing_pcmac")
    runs = runs[~runs["disturbed"].astype(bool)]
    medians = runs.groupby(["method", "n_labeled"])["seconds"].median()
    spread = {m: medians[m].max() / medians[m].min() for m in ("tsvm-Smax", "da")}     # recomputed here
    expected = verdicts.HOLDS if spread["tsvm-Smax"] > spread["da"] else verdicts.FAILS
    assert v.on[("real", "pcmac (real)")] == expected == verdicts.kind_words(v)["real"]


def test_a_claims_page_says_which_data_gives_which_verdict():
    from ssl_repro.report import claim_pages
    records = Records(ROOT / "results", ROOT)
    claim = next(c for c in records.papers["claims"] if c.get("id") == "000-obs2-da")    # real and analog data
    number = next(n for n, c in claim_pages.tested(records) if c["id"] == claim["id"])
    page = "\n".join(claim_pages.claim_body(records, number, claim, lambda key: key, lambda f: f))
    line = next(x for x in page.splitlines() if x.startswith("**Verdict:"))
    words = verdicts.kind_words(claims.evaluate(claim, records))
    assert len(set(words.values())) > 1 and all(f"{k}: **{w}**" in line for k, w in words.items())                # the old line named pcmac without its verdict
