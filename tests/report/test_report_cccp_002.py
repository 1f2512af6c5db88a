"""The 002 section's claim tests (ssl_repro/claims/cccp_002_rules.py) on made-up records."""
import numpy as np
import pandas as pd
import pytest

from ssl_repro.claims import cccp_002_rules as cccp_002, scaling
from ssl_repro.report.sections import cccp_002_tables
from ssl_repro.claims.verdicts import BY_DATA, FAILS, HOLDS, MIXED, UNTESTABLE


class Stub:
    """What the checks read of :class:`ssl_repro.claims.records.Records`: csv files by name."""

    def __init__(self, **frames):
        self.frames = frames

    def csv(self, relative):
        return self.frames.get(relative.split("/")[-1].removesuffix(".csv"))

    def paper_value(self, **where):
        return None


def times(power, noise=0.0, nabla_factor=200.0):
    rng = np.random.default_rng(0)
    u = np.array([200, 400, 800, 1200, 1600, 1898])
    cccp = 1e-6 * (u + 50.0) ** power * np.exp(noise * rng.normal(size=u.size))
    rows = [{"method": "cccp-tsvm", "n_unlabeled": n, "seconds": t, "kernel_evaluations": 3.0 * (n + 50) ** 2}
            for n, t in zip(u, cccp)]
    rows.append({"method": "nabla-tsvm", "n_unlabeled": 1898, "seconds": nabla_factor * cccp[-1]})
    return pd.DataFrame(rows)


def test_exponent_recovers_the_power_and_its_interval_narrows_without_noise():
    n = np.array([100.0, 200, 400, 800])
    p, lo, hi = scaling.exponent(n, 3 * n ** 2)
    assert p == pytest.approx(2.0) and hi - lo < 1e-9
    p, lo, hi = scaling.exponent(n, 3 * n ** 2 * np.array([1.1, 0.9, 1.05, 0.97]))
    assert lo < p < hi and lo < 2 < hi


@pytest.mark.parametrize("power,noise,word", [(2.0, 0.05, HOLDS), (1.85, 0.02, HOLDS), (1.0, 0.05, FAILS),
                                              (3.0, 0.05, FAILS), (2.45, 0.3, MIXED)])
def test_quadratic_trend_holds_when_the_interval_lies_nearer_two_than_linear_or_cubic(power, noise, word):
    verdict = cccp_002.check(Stub(times=times(power, noise=noise)), {"what": "scaling"})
    assert verdict.category == word      # a mixed verdict says where: "mixed on text (real), ..."


@pytest.mark.parametrize("factor,word", [(200.0, HOLDS), (20.0, FAILS)])
def test_orders_of_magnitude_need_100x_over_nabla_and_svmlight_stays_untestable(factor, word):
    verdict = cccp_002.check(Stub(times=times(2.0, nabla_factor=factor)), {"what": "speed", "min": 100})
    assert verdict.word == word and "SVM-light" in verdict.evidence


def test_timing_verdicts_read_the_medians_of_undisturbed_protocol_runs():
    base = times(2.0, nabla_factor=200.0)
    runs = pd.concat([base.assign(repeat=k, disturbed=False) for k in range(3)], ignore_index=True)
    slow = base.assign(repeat=3, disturbed=True, seconds=base["seconds"] * np.where(base["method"] == "cccp-tsvm",
                                                                                      50.0, 1.0))
    cells, basis = cccp_002.fig3_medians(pd.concat([runs, slow], ignore_index=True))
    assert (cells["runs"] == 3).all() and basis.startswith("medians of 3+ runs, one fit at a time on an idle machine")
    verdict = cccp_002.check(Stub(times=pd.concat([runs, slow], ignore_index=True)), {"what": "speed", "min": 100})
    assert verdict.word == HOLDS and "medians of 3+ runs" in verdict.evidence   # the disturbed 50x run left out
    assert "provisional" in cccp_002.fig3_medians(base)[1]                       # a record before the protocol


def test_table2_compares_each_cccp_row_with_nabla():
    rows = []
    for split in range(3):
        rows.append({"dataset": "g50c", "split": split, "method": "nabla-tsvm", "factor": 1.0, "C": 1.0,
                     "s": np.nan, "lam_u": np.nan, "heuristic": None, "transductive_error": 0.06})
        for s, lam_u, err in ((0.0, 1.0, 0.061), (-0.2, 1.0, 0.058), (-0.2, 3.0, 0.20)):
            rows.append({"dataset": "g50c", "split": split, "method": "cccp-tsvm", "factor": 1.0, "C": 1.0, "s": s,
                         "lam_u": lam_u, "heuristic": "UC*=LC" if lam_u == 1 else None, "transductive_error": err})
    verdict = cccp_002.check(Stub(grid=pd.DataFrame(rows)), {"what": "table2"})
    assert verdict.word == HOLDS and verdict.evidence.count("vs nabla-TSVM") == 3
    grid = pd.DataFrame(rows)
    grid.loc[grid["method"] == "nabla-tsvm", "transductive_error"] = 0.03
    assert cccp_002.check(Stub(grid=grid), {"what": "table2"}).word == FAILS
    assert cccp_002.check(Stub(), {"what": "table2"}).word == UNTESTABLE


def test_iterations_per_set():
    path = pd.DataFrame({"dataset": ["g50c"] * 7 + ["text"] * 12, "step": list(range(1, 8)) + list(range(1, 13))})
    verdict = cccp_002.check(Stub(path=path), {"what": "iterations", "min": 5, "max": 10})
    assert verdict.category == BY_DATA     # text's 12 steps fail, g50c's 7 hold: said per data
    assert verdict.word == "does not hold on text (real); holds on g50c (generated)"
    short = pd.DataFrame({"dataset": ["g50c"] * 3, "step": [1, 2, 3]})           # fewer than five: fails too
    assert cccp_002.check(Stub(path=short), {"what": "iterations", "min": 5, "max": 10}).word == FAILS


def test_table6_compares_the_modes_each_at_its_best_c_star():
    rows = []
    for split in range(10):                          # 10 splits: a signed-rank p below 0.05 is possible
        rows.append({"dataset": "text", "split": split, "mode": "svm", "lam_u": np.nan, "error": 0.18})
        for lam_u, semi, trans in ((1.0, 0.075, 0.06), (3.0, 0.07, 0.09)):
            rows += [{"dataset": "text", "split": split, "mode": "semi-supervised", "lam_u": lam_u, "error": semi},
                     {"dataset": "text", "split": split, "mode": "transductive", "lam_u": lam_u, "error": trans}]
    modes = cccp_002.table6_modes(pd.DataFrame(rows))
    assert modes["semi-supervised"].mean() == pytest.approx(0.07) and modes["transductive"].mean() == pytest.approx(0.06)
    verdict = cccp_002.check(Stub(table6=pd.DataFrame(rows)), {"what": "table6"})
    assert verdict.word == HOLDS and "wins 10 of 10" in verdict.evidence


def with_svmlight(factor, sizes=(1898,), capped=False):
    """times(2.0) (nabla-TSVM 200x CCCP-TSVM at 1,898 rows) with SVM-light rows ``factor`` x CCCP-TSVM's seconds."""
    base = times(2.0, nabla_factor=200.0)
    cccp = base[base["method"] == "cccp-tsvm"].set_index("n_unlabeled")["seconds"]
    rows = [{"method": "svmlight-tsvm", "n_unlabeled": n, "seconds": factor * cccp[n], "capped": capped}
            for n in sizes]
    return pd.concat([base, pd.DataFrame(rows)], ignore_index=True)


@pytest.mark.parametrize("factor,word", [(150.0, HOLDS), (20.0, "mixed on text (real)")])
def test_orders_of_magnitude_read_svmlight_rows_and_name_each_peer(factor, word):
    verdict = cccp_002.check(Stub(times=with_svmlight(factor)), {"what": "speed", "min": 100})
    assert verdict.word == word
    assert f"SVM-light TSVM / CCCP-TSVM {factor:.3g}x" in verdict.evidence
    assert "nabla-TSVM / CCCP-TSVM 200x" in verdict.evidence and "not run yet" not in verdict.evidence


def test_a_capped_svmlight_cell_is_a_lower_bound_and_svmlight_elsewhere_is_not_at_the_largest_size():
    bound = cccp_002.check(Stub(times=with_svmlight(50.0, capped=True)), {"what": "speed", "min": 100})
    assert bound.word == HOLDS and "SVM-light TSVM / CCCP-TSVM >= 50x" in bound.evidence   # nabla's part alone
    assert "lower bound below 100x" in bound.evidence
    past = cccp_002.check(Stub(times=with_svmlight(150.0, capped=True)), {"what": "speed", "min": 100})
    assert past.word == HOLDS and ">= 150x" in past.evidence
    small = cccp_002.check(Stub(times=with_svmlight(150.0, sizes=(200, 400))), {"what": "speed", "min": 100})
    assert "SVM-light: not timed at 1898 unlabeled rows" in small.evidence
    cells, _ = cccp_002.fig3_medians(with_svmlight(50.0, capped=True))
    assert cccp_002.speed_ups(cells)["svmlight-tsvm"] == (pytest.approx(50.0), True)
    assert list(cccp_002.speed_ups(cells)) == ["nabla-tsvm", "svmlight-tsvm"]


def test_table2_says_superior_to_svmlight_only_beyond_the_error_thresholds():
    rows = [{"dataset": "text", "split": split, "method": method, "factor": 1.0, "C": 1.0, "s": s, "lam_u": lam_u,
             "heuristic": None, "transductive_error": err}
            for split in range(10) for method, s, lam_u, err in (("nabla-tsvm", np.nan, np.nan, 0.06),
                                                                ("cccp-tsvm", 0.0, 1.0, 0.055),
                                                                ("svmlight-tsvm", np.nan, np.nan, 0.12))]
    verdict = cccp_002.check(Stub(grid=pd.DataFrame(rows)), {"what": "table2"})
    assert verdict.word == HOLDS and "vs SVM-light TSVM 12.00%" in verdict.evidence
    assert "not run yet" not in verdict.evidence
    grid = pd.DataFrame(rows)
    grid.loc[grid["method"] == "svmlight-tsvm", "transductive_error"] = 0.055
    assert cccp_002.check(Stub(grid=grid), {"what": "table2"}).category == MIXED   # a tie is not superior


def test_fig3_section_sets_svmlight_beside_nabla_and_marks_capped_cells():
    from ssl_repro.report.tables import table

    class Paper(Stub):
        def paper_value(self, method, **where):
            return {"svmlight-tsvm": 133.0, "nabla-tsvm": 50.0}.get(method)

    work = dict(transductive_error=0.1, smo_iterations=lambda f: 5.0 * f["n_unlabeled"])
    lines = cccp_002_tables.fig3_lines(Paper(times=with_svmlight(150.0, capped=True).assign(**work)), table)
    assert "- at 1898 unlabeled rows svmlight-tsvm / CCCP-TSVM CPU seconds: >= 150x (002: 133x on text at 2000)" in lines
    assert any("(1 capped)" in line for line in lines) and not any("not run yet" in line for line in lines)
    lines = cccp_002_tables.fig3_lines(Paper(times=times(2.0).assign(**work)), table)
    assert lines[-2] == "- SVM-light's TSVM (002: 133x slower than CCCP-TSVM on text): not run yet (python -m ssl_repro.peers build svm-light, then run all)"
