"""Claim 75 (002 Sec. 4.3, Fig 5): SVM-light's TSVM slow at small C and gamma, the other two more stable
(ssl_repro/claims/cccp_002_fig5_rules.py), on made-up grid records and on 002's own numbers."""
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ssl_repro import claims
from ssl_repro.claims import cccp_002_fig5_rules as fig5, paper_evidence
from ssl_repro.claims.records import Records
from ssl_repro.claims.verdicts import FAILS, HOLDS, MIXED, NOT_SIGNIFICANT, UNTESTABLE

ROOT = Path(__file__).resolve().parents[2]
CLAIM = next(c for c in json.loads((ROOT / "experiments" / "paper_numbers.json").read_text())["claims"]
             if c.get("id") == "002-fig5-svmlight")
TEST = CLAIM["test"]
FACTORS, CS = (0.5, 1.0, 2.0, 4.0), (0.1, 1.0, 10.0, 100.0)


class Stub:
    """What the check reads of :class:`ssl_repro.claims.records.Records`: csv files by name."""

    def __init__(self, grid):
        self.grid = grid

    def csv(self, relative):
        return self.grid if relative == "cccp_002/grid.csv" else None


def grid(light, nabla, cccp, splits=10, capped=None):
    """A g50c grid: ``light(factor, C)``, ``nabla`` and ``cccp`` give each fit's seconds (times a per-split jitter
    of a few percent); ``capped(factor, C)`` marks SVM-light fits stopped on the cap.  CCCP-TSVM has its s = 0,
    UC* = LC row and another (s = -0.2) that the rule must not read."""
    rng = np.random.default_rng(0)
    rows = []
    for split in range(splits):
        for factor in FACTORS:
            for C in CS:
                jitter = lambda: float(np.exp(0.03 * rng.normal()))      # noqa: E731
                base = {"dataset": "g50c", "split": split, "factor": factor, "C": C}
                rows.append({**base, "method": "svmlight-tsvm", "s": np.nan, "lam_u": np.nan,
                             "seconds": light(factor, C) * jitter(), "kernel_evaluations": 1e5 * light(factor, C),
                             "capped": bool(capped and capped(factor, C))})
                rows.append({**base, "method": "nabla-tsvm", "s": np.nan, "lam_u": np.nan,
                             "seconds": nabla(factor, C) * jitter(), "lbfgs_iterations": 100.0})
                rows.append({**base, "method": "cccp-tsvm", "s": 0.0, "lam_u": 1.0,
                             "seconds": cccp(factor, C) * jitter(),
                             "kernel_evaluations": 5e5})
                rows.append({**base, "method": "cccp-tsvm", "s": -0.2, "lam_u": 1.0, "seconds": 1e4})
        rows.append({"dataset": "text", "split": split, "factor": 1.0, "C": 10.0, "method": "svmlight-tsvm",
                     "s": np.nan, "lam_u": np.nan, "seconds": 1e6, "capped": False})    # another set: not read
    return pd.DataFrame(rows)


def slow_small(factor, C):
    """Fig 5's SVM-light: slowest at small C and gamma (wide widths), about 40x faster at the other corner."""
    return 2.0 * (factor / 0.5) * (0.1 / C) ** 0.5 + 0.5


def nabla(factor, C):
    return 0.1 + 0.02 * np.log10(C / 0.1) + 0.02 / factor


def cccp(factor, C):
    return 0.04 + 0.005 * factor


def check(frame):
    return claims.evaluate(CLAIM, Stub(frame))


def test_the_claim_is_judged_by_this_rule_with_its_thresholds_stated_in_its_test():
    assert TEST["kind"] == "cccp_002_fig5" and claims.TESTS["cccp_002_fig5"] is fig5.check
    assert (TEST["slow"], TEST["margin"]) == (2, 10) and "2250 seconds" in TEST["untested"]
    assert f"at least {TEST['slow']}x" in TEST["says"] and f"at least {TEST['margin']}x" in TEST["says"]  # its page


def test_holds_when_svmlight_is_slow_at_small_c_and_gamma_and_its_range_dwarfs_the_others():
    verdict = check(grid(slow_small, nabla, cccp))
    assert verdict.word == HOLDS and verdict.data == "g50c (generated)"
    # the corner ratio, recomputed here: small corner (factor 2, 4; C 0.1, 1) over large (factor 0.5, 1; C 10, 100)
    small = np.mean([slow_small(f, C) for f in (2.0, 4.0) for C in (0.1, 1.0)])
    large = np.mean([slow_small(f, C) for f in (0.5, 1.0) for C in (10.0, 100.0)])
    ratio = float(verdict.evidence.split("over large: ")[1].split("x")[0])
    assert ratio == pytest.approx(small / large, rel=0.03)
    assert "p = 0.002" in verdict.evidence                    # 10 splits, every one the same way: the smallest p
    assert "; work svmlight-tsvm kernel evaluations" in verdict.evidence
    light = [slow_small(f, C) for f in FACTORS for C in CS]
    assert f"seconds svmlight-tsvm {max(light) / min(light):.2g}" in verdict.evidence     # jitter: 2 digits
    frame = grid(slow_small, nabla, cccp).assign(converged=True)
    frame.loc[(frame["method"] == "nabla-tsvm") & (frame["C"] == 100.0), "converged"] = False
    assert "40 of 160 nabla-TSVM fits stopped on an iteration cap" in check(frame).evidence


def test_the_range_is_read_on_cccps_s0_uc_lc_row_only_on_g50c_only_and_on_the_splits_svmlight_ran():
    frame = grid(slow_small, nabla, cccp)
    late = (frame["method"] != "svmlight-tsvm") & (frame["split"] >= 5) & (frame["seconds"] < 1e3)
    frame.loc[late, "seconds"] *= 100.0                      # the others' splits 5-9, which SVM-light did not run
    frame = frame[(frame["method"] != "svmlight-tsvm") | (frame["split"] < 5)]
    verdict = check(frame)
    assert "over 5 splits" in verdict.evidence
    printed = float(verdict.evidence.split("vs CCCP-TSVM ")[1].split(" s (medians")[0])
    assert printed == pytest.approx(cccp(4.0, 1) - cccp(0.5, 1), rel=0.5)   # jittered; splits 5-9 would be ~1 s
    verdict = check(grid(slow_small, nabla, cccp))
    light = [slow_small(f, C) for f in FACTORS for C in CS]
    expected = (max(light) - min(light)) / ((cccp(4.0, 1) - cccp(0.5, 1)))
    shown = float(verdict.evidence.split("CCCP-TSVM ")[1].split("(medians over splits): ")[1].split("x")[0])
    assert shown == pytest.approx(expected, rel=0.15)          # the s = -0.2 row's 1e4 s and text's 1e6 s left out


def test_three_splits_of_the_sentences_size_are_not_significant_and_one_split_is_judged_without_a_test():
    few = check(grid(slow_small, nabla, cccp, splits=3))          # 3 splits the same way: p = 0.25 at best
    assert few.word == NOT_SIGNIFICANT and "p = 0.25" in few.evidence
    one = check(grid(slow_small, nabla, cccp, splits=1))
    assert one.word == HOLDS and "1 run" in one.evidence


def test_does_not_hold_when_svmlight_is_slow_at_large_c_and_gamma_instead():
    verdict = check(grid(lambda f, C: slow_small(4.5 - f, 10.0 / C), nabla, cccp))
    assert verdict.word == FAILS and "reversed" in verdict.evidence


def test_a_stable_svmlight_is_not_particularly_slow_anywhere_and_its_range_not_far_more():
    verdict = check(grid(lambda f, C: 3.0, nabla, cccp))        # flat: only the jitter varies
    assert verdict.category in (FAILS, MIXED)
    assert verdict.word != HOLDS and "not met" in verdict.evidence
    assert check(grid(slow_small, lambda f, C: slow_small(f, C) / 2, cccp)).category == MIXED   # nabla as unstable


def test_not_testable_without_svmlight_rows_or_without_the_record():
    frame = grid(slow_small, nabla, cccp)
    verdict = check(frame[frame["method"] != "svmlight-tsvm"])
    assert verdict.word == UNTESTABLE and "no SVM-light TSVM rows" in verdict.evidence
    assert "python -m ssl_repro.peers build svm-light" in verdict.evidence
    assert claims.evaluate(CLAIM, Stub(None)).word == UNTESTABLE


def test_a_capped_fit_is_a_lower_bound_holding_past_the_threshold_and_not_testable_below_it():
    cap = 8.0      # the two widest widths at C = 0.1 capped: the small corner's mean a bound, still past 2x
    at_cap = grid(lambda f, C: min(slow_small(f, C), cap), nabla, cccp, capped=lambda f, C: slow_small(f, C) > cap)
    verdict = check(at_cap)
    assert verdict.word == HOLDS and ">= " in verdict.evidence and "fits capped or given up" in verdict.evidence
    gave_up = at_cap.rename(columns={"capped": "svmlight_gave_up"})        # SVM-light's own stop: a bound too
    assert check(gave_up).word == HOLDS and ">= " in check(gave_up).evidence
    low = 1.0      # a cap so low that the small corner's bound stays below 2x: no verdict on the first half
    bound = check(grid(lambda f, C: min(slow_small(f, C), low), nabla, cccp,
                       capped=lambda f, C: slow_small(f, C) > low))
    assert bound.word == UNTESTABLE and "not testable: a lower bound below it" in bound.evidence
    # a capped fit in the large corner leaves its split out (no bound on the ratio)
    some = grid(slow_small, nabla, cccp, capped=lambda f, C: (f, C) == (0.5, 100.0))
    assert check(some).word == UNTESTABLE and "no split with SVM-light's small and large corners uncapped" in \
        check(some).evidence


def test_the_papers_own_numbers_pass_the_rule():
    """002's Fig 5 on one split: SVM-light up to 2250 s at small C and gamma, "much faster" at large; nabla-TSVM
    the opposite, up to 20 s; CCCP-TSVM around 1 s everywhere -- holds on one run; and paper_evidence's bounds."""
    def light(f, C):
        return 2250.0 * (f / 4.0) * (0.1 / C) ** 0.25

    verdict = check(grid(light, lambda f, C: 2.0 + 18.0 * (C / 100.0) / f * 0.5, lambda f, C: 1.0, splits=1))
    assert verdict.word == HOLDS and "1 run" in verdict.evidence
    records = Records(ROOT / "results", ROOT)
    found = paper_evidence.evidence(records, CLAIM)
    assert len(found) == 2 and all(ok for _, ok, _ in found)
    assert "vs nabla-TSVM's <= 20 s: >= 56.2x" in found[0][2]
