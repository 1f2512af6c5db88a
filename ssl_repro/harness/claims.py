"""The rules that turn records into verdicts on the papers' claims: thresholds, the paired test, flags.

Everything a verdict depends on is here, apart from the rendering (:mod:`ssl_repro.harness.report`):

**Thresholds** (stated once, applied to every comparison of the report and the claims table).
Two objective minima (J, Eqn 18 of Sindhwani & Keerthi, *Large Scale Semi-supervised Linear SVMs*,
tech report 2006, "000") are **equal** when their mean paired difference is below
:data:`J_EQUAL` (0.05%) of the second one's mean.  The papers' words are mapped to bands read off
the only minima they print as numbers, Table 1.2 of the book chapter (Sindhwani & Keerthi, *Newton
Methods for Fast Solution of Semi-supervised Linear SVMs*, 2006, "004"): it calls DA's optimization
"slightly, but consistently" better on full-gcat, where its four-digit minima differ by 0 to 0.07%,
and says the "significantly better" of ccat "continues to hold" on full-ccat, where they differ by
0.08% to 0.36% (0.26% and 0.36% at 100 labels).  Hence: **slightly** better is a relative gap from
:data:`J_EQUAL` up to :data:`J_SIGNIFICANT` (0.25%), **significantly** better a gap of at least
:data:`J_SIGNIFICANT` (a reading of four-digit numbers: 0.05% is about the rounding step of 0.15).
Two error rates are **equal** when their mean paired difference is below :data:`ERROR_EQUAL_POINTS`
(0.5 points) *and* below :data:`ERROR_EQUAL_SHARE` (10%) of the larger mean error: half a point is
what a reader of 10-split learning curves would not act on, and the relative part keeps differences
such as kdd99's 0.22% vs 0.29% (004 Table 1.5) from being "equal" merely because errors are small.
Seconds are compared as ratios against the factor a claim states (no threshold).

**Better** means: the paired two-sided Wilcoxon signed-rank test (:func:`signed_rank_p`) gives
p < :data:`ALPHA` *and* the mean difference is beyond the threshold; below the threshold the two
are "equal" however small p is; beyond it with p >= :data:`ALPHA`, "not significant".  One split
(or one run, as 004's large sets) gets no test: "lower (1 run)".

**Ties** in the signed-rank test: differences whose size is at most :data:`TIE_RTOL` times the
largest compared value are zeros (dropped, as ``scipy.stats.wilcoxon``'s default
``zero_method="wilcox"``), and sizes that differ by at most that much are one tied size (average
ranks): differences equal up to float noise (0.0137 and 0.013699999999999999) are ties.  The p is
exact over the 2^n sign flips of the tied ranks: ``scipy.stats.wilcoxon``'s p on tied data up to 13
differences (its default there, a permutation test over all sign flips; its ``method="exact"`` uses
the table of untied ranks, which is not exact with ties).

**Degenerate solutions.**  A run is *one-class* when the class it predicts least on its unlabeled
rows makes up less than :data:`ONE_CLASS_SHARE` (10%) of the share that class would have at the
ratio r (``min(p, 1 - p) < 0.1 min(r, 1 - r)``, p the predicted positive share), while r is well
inside (0, 1) (``min(r, 1 - r) >= R_INSIDE``, 5%).  Records with the column
``unlabeled_positive_fraction`` (new runs) give p; older records do not, and the flag is derived
from the transductive error e and r: a prediction with positive share p has e >= |p - r|, so the
one-class shares are possible only when e > (1 - :data:`ONE_CLASS_SHARE`) min(r, 1 - r) -- an
error no better than 90% of labelling every row the majority class.  The derived flag can also
catch a run of two classes that is as bad as that; neither kind counts as better.  A comparison
whose winner is one-class on any split is "one-class", never "lower": it is shown with how many
splits, and never counts as better optimization or better error.
"""
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import wilcoxon

from ..data import registry

#: Significance level of the paired test.
ALPHA = 0.05
#: Relative J gap below which two objective minima are equal (0.05%).
J_EQUAL = 5e-4
#: Relative J gap from which an optimization is "significantly" better (0.25%); below it, "slightly".
J_SIGNIFICANT = 2.5e-3
#: Error gap (fraction) below which two error rates are equal: 0.5 points ...
ERROR_EQUAL_POINTS = 0.005
#: ... and 10% of the larger of the two errors.
ERROR_EQUAL_SHARE = 0.10
#: Differences (and gaps between |differences|) up to this share of the largest value compared are float noise.
TIE_RTOL = 1e-12
#: Largest number of nonzero differences whose signed-rank p is computed exactly (2^n sign flips).
EXACT_UP_TO = 16
#: A run is one-class when its predicted minority share is below this share of r's minority share ...
ONE_CLASS_SHARE = 0.10
#: ... and r's minority share is at least this.
R_INSIDE = 0.05
#: The record column of the predicted positive share on the unlabeled rows (runs made after it existed).
POSITIVE_FRACTION = "unlabeled_positive_fraction"


def signed_rank_p(diff, tol=0.0):
    """Two-sided p of the Wilcoxon signed-rank test of the paired differences ``diff``.

    Differences with ``|d| <= tol`` are zeros and dropped; sizes within ``tol`` of each other are
    one tied size with the average rank.  Exact over all 2^n sign flips up to :data:`EXACT_UP_TO`
    nonzero differences (the sign flips of the tied ranks themselves, as scipy's permutation test);
    ``scipy.stats.wilcoxon``'s normal approximation beyond.  1 without a difference."""
    diff = np.asarray(diff, float)
    diff = diff[np.abs(diff) > tol]
    n = len(diff)
    if n == 0:
        return 1.0
    ranks = tied_ranks(np.abs(diff), tol)
    if n > EXACT_UP_TO:
        return float(wilcoxon(np.sign(diff) * ranks, method="approx").pvalue)
    observed = ranks[diff > 0].sum()
    signs = (np.arange(2 ** n)[:, None] >> np.arange(n)) & 1
    null = signs @ ranks
    centre = ranks.sum() / 2
    return float(np.mean(np.abs(null - centre) >= abs(observed - centre) - 1e-9))


def tied_ranks(sizes, tol):
    """Ranks of ``sizes`` (1 = smallest) with every run of sizes within ``tol`` of its neighbour given
    the run's average rank."""
    order = np.argsort(sizes, kind="stable")
    sorted_sizes = sizes[order]
    group = np.concatenate([[0], np.cumsum(np.diff(sorted_sizes) > tol)])
    positions = np.arange(1, len(sizes) + 1, dtype=float)
    average = np.array([positions[group == g].mean() for g in group])
    ranks = np.empty(len(sizes))
    ranks[order] = average
    return ranks


# ---------------------------------------------------------------- degenerate runs

def one_class(rows):
    """Boolean Series over ``rows`` (records of runs): whether each run is one-class (module doc),
    from ``unlabeled_positive_fraction`` where recorded, else derived from the transductive error and r."""
    r = rows["r"].astype(float)
    minority = np.minimum(r, 1 - r)
    inside = minority >= R_INSIDE
    derived = rows["transductive_error"].astype(float) > (1 - ONE_CLASS_SHARE) * minority
    if POSITIVE_FRACTION in rows:
        p = rows[POSITIVE_FRACTION].astype(float)
        exact = np.minimum(p, 1 - p) < ONE_CLASS_SHARE * minority
        derived = exact.where(p.notna(), derived)
    return (inside & derived.fillna(False)).astype(bool)


# ---------------------------------------------------------------- paired comparisons

def is_objective(metric):
    return metric.startswith("objective")


def equal_within(metric, mean_diff, a_mean, b_mean):
    """Whether a mean difference is below the threshold of ``metric`` (module doc)."""
    if is_objective(metric):
        return abs(mean_diff) < J_EQUAL * abs(b_mean)
    if metric == "seconds":
        return mean_diff == 0
    return abs(mean_diff) < min(ERROR_EQUAL_POINTS, ERROR_EQUAL_SHARE * max(abs(a_mean), abs(b_mean)))


@dataclass
class Comparison:
    """``a`` vs ``b`` on ``metric`` paired over the splits both ran.

    n splits; ``wins`` (a below b) and ``ties`` (equal up to float noise); mean and std of a - b;
    ``relative``: the mean difference over b's mean; the Wilcoxon p (None for one split);
    ``one_class_a`` / ``one_class_b``: splits on which each is one-class."""

    metric: str
    n: int
    wins: int
    ties: int
    mean: float
    std: float
    a_mean: float
    b_mean: float
    p: float | None
    one_class_a: int
    one_class_b: int

    @property
    def relative(self):
        return self.mean / abs(self.b_mean) if self.b_mean else float("nan")

    @property
    def equal(self):
        return self.ties == self.n or equal_within(self.metric, self.mean, self.a_mean, self.b_mean)

    @property
    def word(self):
        """``lower`` / ``higher`` (p < ALPHA, beyond the threshold), ``equal``, ``not significant``,
        ``one-class`` (the lower one is one-class on some split), with `` (1 run)`` for one split."""
        if self.equal:
            return "equal"
        lower = self.mean < 0
        if (self.one_class_a if lower else self.one_class_b):
            return "one-class"
        if self.n == 1:
            return ("lower" if lower else "higher") + " (1 run)"
        if self.p >= ALPHA:
            return "not significant"
        return "lower" if lower else "higher"

    @property
    def band(self):
        """For J: ``significantly`` (gap >= J_SIGNIFICANT), ``slightly`` or ``equal``; None otherwise."""
        if not is_objective(self.metric):
            return None
        gap = abs(self.relative)
        return "equal" if gap < J_EQUAL else "significantly" if gap >= J_SIGNIFICANT else "slightly"


def compare(rows, a, b, metric):
    """:class:`Comparison` of methods ``a`` and ``b`` on ``metric`` over the splits both ran in
    ``rows`` (one cell: dataset, labels, unlabeled rows); None when they share no split."""
    by = {m: rows[rows["method"] == m].drop_duplicates("split").set_index("split") for m in (a, b)}
    common = by[a].index.intersection(by[b].index)
    common = [s for s in common if np.isfinite(by[a].at[s, metric]) and np.isfinite(by[b].at[s, metric])]
    if not common:
        return None
    left, right = by[a].loc[common], by[b].loc[common]
    x, y = left[metric].to_numpy(float), right[metric].to_numpy(float)
    diff = x - y
    tol = TIE_RTOL * max(np.max(np.abs(x)), np.max(np.abs(y)), 1e-300)
    tie = np.abs(diff) <= tol
    flags = {m: int(one_class(part).sum()) if {"r", "transductive_error"} <= set(part) else 0
             for m, part in ((a, left), (b, right))}
    return Comparison(metric, len(diff), int(((diff < 0) & ~tie).sum()), int(tie.sum()), float(diff.mean()),
                      float(diff.std(ddof=1)) if len(diff) > 1 else float("nan"), float(x.mean()), float(y.mean()),
                      signed_rank_p(diff, tol) if len(diff) >= 2 else None, flags[a], flags[b])


# ---------------------------------------------------------------- which data a verdict rests on

REAL, ANALOG, STAND_IN = "real", "real-text analog", "SYNTHETIC stand-in"
#: The order in which a paper set's records are used: the real set, else its real-text analog, else its stand-in.
KIND_ORDER = (REAL, ANALOG, STAND_IN)


def _analog_of(dataset):
    info = registry.DATASETS.get(dataset)
    return info.analog_of if info is not None else None


def data_kind(dataset):
    """``real`` (the paper's set, or kdd99's 10% file), ``real-text analog`` (a 20 Newsgroups set
    standing for a paper set: ``DatasetInfo.analog_of``) or ``SYNTHETIC stand-in``."""
    if dataset.startswith("synthetic-"):
        return STAND_IN
    return ANALOG if _analog_of(dataset) else REAL


def paper_set(dataset):
    """The paper's set a record's dataset stands for (``synthetic-full-ccat`` -> ``full-ccat``,
    ``kdd99-10`` -> ``kdd99``, an analog -> its ``analog_of``)."""
    return _analog_of(dataset) or dataset.removeprefix("synthetic-").removesuffix("-10")


def frames(records, prefix):
    """{paper set: [(data kind, dataset, frame)] in :data:`KIND_ORDER`} of the sweep folders starting
    with ``prefix`` (``records``: :class:`ssl_repro.harness.report.Records`)."""
    found = {}
    for folder in records.folders(prefix):
        frame = records.runs(folder)
        for dataset in sorted(frame["dataset"].unique()):
            found.setdefault(paper_set(dataset), []).append(
                (data_kind(dataset), dataset, frame[frame["dataset"] == dataset]))
    return {s: sorted(v, key=lambda t: KIND_ORDER.index(t[0])) for s, v in found.items()}


# ---------------------------------------------------------------- verdicts on claims

HOLDS, FAILS, MIXED, UNTESTABLE = "holds", "does not hold", "mixed", "not testable here"


@dataclass
class Verdict:
    """A claim's verdict (:data:`HOLDS`, :data:`FAILS`, :data:`MIXED` or :data:`UNTESTABLE`), the data it
    rests on and the evidence, one phrase per paper set."""

    word: str
    data: str
    evidence: str


def combine(parts):
    """One verdict from per-set verdicts: untestable sets are left out; all hold -> holds, none -> does
    not hold, else mixed; nothing testable -> not testable here."""
    tested = [p for p in parts if p.word != UNTESTABLE]
    words = {p.word for p in tested}
    if not tested:
        word = UNTESTABLE
    elif words == {HOLDS}:
        word = HOLDS
    elif words == {FAILS}:
        word = FAILS
    else:
        word = MIXED
    ordered = sorted(tested or parts, key=lambda p: next((k for k, kind in enumerate(KIND_ORDER) if kind in p.data),
                                                         len(KIND_ORDER)))
    data = ", ".join(dict.fromkeys(p.data for p in ordered if p.data)) or "-"
    return Verdict(word, data, "; ".join(p.evidence for p in parts))


def tally_word(met, total):
    return UNTESTABLE if total == 0 else HOLDS if met == total else FAILS if met == 0 else MIXED


#: What each expectation of a claim accepts of :attr:`Comparison.word` (and band).
def meets(c, expect):
    if c is None:
        return None
    lower = c.word in ("lower", "lower (1 run)")
    return {"lower": lower, "slightly lower": lower,
            "significantly lower": lower and c.band in (None, "significantly"),
            "equal": c.word == "equal",
            "not higher": c.word in ("lower", "lower (1 run)", "equal", "not significant")}[expect]


def pick(options, real_only):
    """The records a set's verdict rests on: the first of ``options`` in :data:`KIND_ORDER`; for error and
    optimization claims (``real_only``) a stand-in alone is not used."""
    if not options:
        return None, "no record"
    kind, dataset, frame = options[0]
    if real_only and kind == STAND_IN:
        return None, f"only a synthetic stand-in ({dataset})"
    return options[0], ""


def check_compare(records, test):
    """Paired comparisons in every cell (labels, unlabeled rows) of the sets ``test["expect"]`` names:
    each of ``test["checks"]`` ({metric, a, b, expect}) must be met in a cell for the cell to count."""
    found = frames(records, test["folder"] + "_")
    parts = []
    for name, set_expect in test["expect"].items():
        chosen, why = pick(found.get(name, []), real_only=True)
        if chosen is None:
            parts.append(Verdict(UNTESTABLE, "", f"{name}: {why}"))
            continue
        kind, dataset, frame = chosen
        met, total = 0, 0
        words = {k: {} for k in range(len(test["checks"]))}
        for (l, u), cell in frame.groupby(["n_labeled", "n_unlabeled"]):
            results = []
            for k, check in enumerate(test["checks"]):
                c = compare(cell, check["a"], check["b"], check["metric"])
                if c is not None:
                    words[k][c.word] = words[k].get(c.word, 0) + 1
                    results.append(meets(c, check.get("expect", set_expect)))
            if results:
                total += 1
                met += all(results)
        counts = "; ".join(f"{c['a']} vs {c['b']} ({c['metric']}): "
                           + ", ".join(f"{w} {n}" for w, n in words[k].items())
                           for k, c in enumerate(test["checks"]) if words[k])
        parts.append(Verdict(tally_word(met, total), f"{dataset} ({kind})",
                             f"{dataset}: {set_expect} in {met} of {total} cells ({counts})"))
    return combine(parts)


def check_ratio(records, test):
    """Mean seconds of ``num`` over ``den`` per label count against ``min`` (and ``max``) at ``at``: every
    label count (``all``), most of them (``most``) or the lowest one (``lowest``)."""
    found = frames(records, test["folder"] + "_")
    parts = []
    for name in test.get("sets") or sorted(found):
        chosen, why = pick(found.get(name, []), real_only=False)
        if chosen is None:
            parts.append(Verdict(UNTESTABLE, "", f"{name}: {why}"))
            continue
        kind, dataset, frame = chosen
        texts, oks = [], []
        for check in test["checks"]:
            mean = frame.groupby(["n_labeled", "method"])["seconds"].mean().unstack()
            if check["num"] not in mean or check["den"] not in mean:
                continue
            ratio = (mean[check["num"]] / mean[check["den"]]).dropna()
            if check.get("at") == "lowest":
                ratio = ratio.iloc[:1]
            ok = (ratio >= check.get("min", 0)) & (ratio <= check.get("max", np.inf))
            need = len(ok) / 2 if check.get("at") == "most" else len(ok)
            oks.append(ok.sum() > need if check.get("at") == "most" else ok.sum() == need)
            texts.append(f"{check['num']} / {check['den']} {ratio.min():.3g}-{ratio.max():.3g}, "
                         f"in range at {int(ok.sum())} of {len(ok)}")
        if not oks:
            parts.append(Verdict(UNTESTABLE, "", f"{dataset}: the methods were not timed"))
            continue
        parts.append(Verdict(HOLDS if all(oks) else FAILS if not any(oks) else MIXED, f"{dataset} ({kind})",
                             f"{dataset}: " + "; ".join(texts)))
    return combine(parts)


def check_label_dependence(records, test):
    """Whether ``stronger``'s mean seconds vary more over the label counts (largest / smallest) than ``weaker``'s."""
    found = frames(records, test["folder"] + "_")
    parts = []
    for name in sorted(found):
        kind, dataset, frame = found[name][0]
        mean = frame.groupby(["method", "n_labeled"])["seconds"].mean()
        spread = {m: mean[m].max() / mean[m].min() for m in (test["stronger"], test["weaker"]) if m in mean}
        if len(spread) < 2:
            continue
        ok = spread[test["stronger"]] > spread[test["weaker"]]
        parts.append(Verdict(HOLDS if ok else FAILS, f"{dataset} ({kind})",
                             f"{dataset}: largest/smallest {spread[test['stronger']]:.3g} vs "
                             f"{spread[test['weaker']]:.3g}"))
    return combine(parts)


def check_doubling(records, test):
    """004 Table 1.6: seconds when u doubles, within a factor ``tolerance`` of the u ratio."""
    found = frames(records, "transductive_")
    parts = []
    for name in sorted(found):
        kind, dataset, frame = found[name][0]
        ratios = []
        for (l, m), part in frame.groupby(["n_labeled", "method"]):
            part = part.sort_values("n_unlabeled")
            if len(part) == 2 and m in test["methods"]:
                ratios.append((part["seconds"].iloc[1] / part["seconds"].iloc[0])
                              / (part["n_unlabeled"].iloc[1] / part["n_unlabeled"].iloc[0]))
        if not ratios:
            continue
        ok = sum(1 / test["tolerance"] <= r <= test["tolerance"] for r in ratios)
        parts.append(Verdict(tally_word(ok, len(ratios)), f"{dataset} ({kind})",
                             f"{dataset}: seconds ratio over u ratio {min(ratios):.2g}-{max(ratios):.2g}, "
                             f"within a factor {test['tolerance']:g} in {ok} of {len(ratios)}"))
    return combine(parts)


def check_svmlight(records, test):
    """000 Table 9: SVM-light's seconds over ours (TSVM S=max, the first split at the fewest labels) at
    least ``min`` (SVM-light killed at its cap: at least the cap)."""
    peers = records.csv("peers/table9.csv")
    if peers is None:
        return Verdict(UNTESTABLE, "-", "peers/table9.csv absent (SVM-light was not run)")
    found = frames(records, "timing_")
    parts = []
    for _, row in peers[peers["method"] == "svmlight-tsvm"].iterrows():
        options = found.get(paper_set(row["dataset"]), [])
        ours = [f for k, d, f in options if d == row["dataset"]]
        if not ours:
            continue
        frame = ours[0]
        first = frame[(frame["split"] == frame["split"].min()) & (frame["n_labeled"] == frame["n_labeled"].min())
                      & (frame["method"] == "tsvm-Smax")]
        if first.empty:
            continue
        ratio = row["seconds"] / first["seconds"].iloc[0]
        capped = bool(row.get("capped", False))
        parts.append(Verdict(HOLDS if ratio >= test["min"] else (UNTESTABLE if capped else FAILS),
                             f"{row['dataset']} ({data_kind(row['dataset'])})",
                             f"{row['dataset']}: {'>= ' if capped else ''}{ratio:.3g}x"))
    return combine(parts)


def check_kernel_toy(records, test):
    """001 Table 2: per set, DA's successes above nabla-TSVM's, and nabla-TSVM's above the best JTSVM's
    (best over the grid; each "above" a part of its own, so equal counts make the claim mixed)."""
    grid = records.json("kernel_toy_table/grid.json")
    if grid is None:
        return Verdict(UNTESTABLE, "-", "kernel_toy_table/grid.json absent")
    best = pd.DataFrame(grid).groupby(["dataset", "method"])["successes"].max()
    parts = []
    for d in sorted({k[0] for k in best.index}):
        b = best[d]
        counts = {"DA": b.get("DA (l1)", np.nan), "nabla-TSVM": b.get("nabla-TSVM", np.nan),
                  "JTSVM": b[[m for m in b.index if m.startswith("JTSVM")]].max()}
        for high, low in (("DA", "nabla-TSVM"), ("nabla-TSVM", "JTSVM")):
            parts.append(Verdict(HOLDS if counts[high] > counts[low] else FAILS, f"{d} (generated, as the paper's)",
                                 f"{d}: {high} {counts[high]:g} vs {low} {counts[low]:g} of 10"))
    return combine(parts)


def check_kernel_benchmarks(records, test):
    """001 Tables 4-5 on PC-MAC: error on the unlabeled rows (means over splits of the selected and the
    best grid point) of ``a`` below ``b``'s by more than the error threshold (means: the record keeps no
    per-split errors, so no paired test)."""
    record = records.json("kernel_benchmarks/table.json")
    if record is None:
        return Verdict(UNTESTABLE, "-", "kernel_benchmarks/table.json absent")
    rows = record["rows"]
    pairs = [(a, b) for a in test["a"] for b in (test["b"] if isinstance(test["b"], list)
                                                  else [m for m in rows if m.startswith(test["b"])])
             if a in rows and b in rows]
    parts = []
    for a, b in pairs:
        for point in ("selected", "best"):
            x, y = rows[a][point][0] / 100, rows[b][point][0] / 100
            ok = x < y and not equal_within("transductive_error", x - y, x, y)
            parts.append(Verdict(HOLDS if ok else FAILS, "pcmac (real)",
                                 f"{a} {100 * x:.1f}% vs {b} {100 * y:.1f}% ({point})"))
    return combine(parts)


def check_cccp_002(records, test):
    """002's kernel CCCP-TSVM experiments (:func:`ssl_repro.harness.cccp_002.check`)."""
    from .cccp_002 import check
    return check(records, test)


def check_untestable(records, test):
    return Verdict(UNTESTABLE, "-", test["why"])


TESTS = {"compare": check_compare, "ratio": check_ratio, "label_dependence": check_label_dependence,
         "doubling": check_doubling, "svmlight": check_svmlight, "kernel_toy": check_kernel_toy,
         "kernel_benchmarks": check_kernel_benchmarks, "cccp_002": check_cccp_002, "untestable": check_untestable}


def evaluate(claim, records):
    """The :class:`Verdict` of one claim of ``experiments/paper_numbers.json`` (its ``test``) on ``records``."""
    return TESTS[claim["test"]["kind"]](records, claim["test"])


def describe(test):
    """The test applied, in words, for the claims table."""
    kind = test["kind"]
    if kind == "compare":
        checks = "; ".join(f"{c['a']} vs {c['b']} on {c['metric']}" + (f" ({c['expect']})" if "expect" in c else "")
                           for c in test["checks"])
        sets = ", ".join(f"{s}: {e}" for s, e in test["expect"].items())
        return f"paired per cell of `{test['folder']}_*`: {checks}; expected {sets}"
    if kind == "ratio":
        return "; ".join(f"mean seconds {c['num']} / {c['den']} in [{c.get('min', 0):g}, {c.get('max', np.inf):g}] "
                         f"at {c.get('at', 'all')} label counts" for c in test["checks"]) + f" (`{test['folder']}_*`)"
    return test.get("says", kind)
