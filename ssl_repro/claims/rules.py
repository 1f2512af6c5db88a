"""The rules that turn records into verdicts on the papers' claims: thresholds, the paired test, flags.

Everything a verdict on one dataset's records depends on is stated here; the tests that apply these rules
to a claim register themselves in :mod:`ssl_repro.claims.registry` (the linear papers' paired comparisons
:mod:`ssl_repro.claims.linear_rules`, the timing claims :mod:`ssl_repro.claims.timing_rules`, 001's kernel
claims :mod:`ssl_repro.claims.kernel_001_rules`, 002's :mod:`ssl_repro.claims.cccp_002_rules`), and which
data a paper set's verdict rests on and how the datasets' verdicts combine (data kinds, an analog's
constructions) is :mod:`ssl_repro.claims.verdicts`'s.  Nothing here renders (:mod:`ssl_repro.report`).

**Thresholds** (stated once, applied to every comparison of the report and the claims table).
Two objective minima (J, Eqn 18 of Sindhwani & Keerthi, *Large Scale Semi-supervised Linear SVMs*,
tech report 2006, "000") are **equal** when their mean paired difference is below
:data:`J_EQUAL` (0.05%) of the second one's mean.  The papers' words are mapped to bands read off
the only minima they print as numbers, Table 1.2 of the book chapter (Sindhwani & Keerthi, *Newton
Methods for Fast Solution of Semi-supervised Linear SVMs*, 2007, "004"): it calls DA's optimization
"slightly, but consistently" better on full-gcat, where its four-digit minima differ by 0 to 0.07%,
and says the "significantly better" of ccat "continues to hold" on full-ccat, where they differ by
0.08% to 0.36% (0.26% and 0.36% at 100 labels).  Hence: **slightly** better is a relative gap from
:data:`J_EQUAL` up to :data:`J_SIGNIFICANT` (0.25%), **significantly** better a gap of at least
:data:`J_SIGNIFICANT` (a reading of four-digit numbers: 0.05% is about the rounding step of 0.15).
Two error rates are **equal** when the size of their mean paired difference is below
:data:`ERROR_EQUAL_POINTS` (0.5 points) *and* below :data:`ERROR_EQUAL_SHARE` (10%) of the larger mean
error -- below the smaller of the two bounds; a difference that reaches either bound is beyond the
threshold.  Half a point is what a reader of 10-split learning curves would not act on, and the relative
part keeps differences such as kdd99's 0.22% vs 0.29% (004 Table 1.5) from being "equal" merely because
errors are small.  **A value on a threshold up to float noise** (within :data:`TIE_RTOL` of the larger
compared mean, the tolerance by which the paired test ties two differences) is *on* it, and on a bound
counts as reaching it (:func:`reaches`): pcmac's gap of 0.0039909 at 584 labels, 10% of its 3.99%, is
beyond the equal threshold whichever way the last bit falls.  The same holds for every bound below (J's
bands, the error's slight band).
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

**Rules that read the whole sentence** (:data:`SENTENCE_RULES` says them in the report's words).

- *Bands of an error gap*, as of a J gap: **slightly** lower is beyond the equal threshold and below
  :data:`ERROR_SLIGHT_POINTS` (1.5 points) *and* :data:`ERROR_SLIGHT_SHARE` (20%) of the larger
  mean error -- three times the equal band's points, twice its share; **markedly** lower is beyond
  either.  Every "lower" in the evidence carries its band ("significantly lower" J, "slightly lower"
  error), so the evidence's words are the band's, not the claim's.
- *"Only slight"* (000 on ccat: better optimization "only translates into slight error rate
  improvements") is met by a slightly lower error (p < :data:`ALPHA`, in the slight band): an equal or
  not significant error is no improvement, a markedly lower one more than slight.  *"Slightly"* better optimization (000 Fig 4,
  004 Fig 1.3) is met only by a slightly-lower J: a significantly lower J does not read as
  "slightly".
- *One rule per form of sentence* (:func:`ssl_repro.claims.verdicts.part_status`,
  :func:`~ssl_repro.claims.verdicts.conjunction`): a sentence about a set ("lower on S", "much lower",
  "about equal", "the benefit ... is evident on all datasets") is judged per dataset, not per cell: each
  part is met when met in more than half of the dataset's cells and reversed (significantly the other
  way) in none; "over the entire range" and "consistently" need every cell (the test's ``"per": "cell"``
  or ``every_cell``), a conjunction over the cells (reversed in a cell: does not hold); a conjunction holds when every part is met, does not hold when any part is reversed
  or none is met, and is mixed otherwise.  Timing sentences read the same way over the label counts
  (:mod:`ssl_repro.claims.timing_rules`: "can be k times" an existence, "particularly when labels are few"
  a trend), and so does 002's "unlabeled data can improve the results ... especially true in the case of few
  training examples" (:mod:`ssl_repro.claims.cccp_002_large_rules`).
- *One run*: every word that rests on one split says "(1 run)", "equal (1 run)" included.
- *Runs that stopped on a cap* (``converged`` False) are counted in the evidence ("k of n runs not
  converged"), and never decide a cell silently: a cell whose outcome changes when its
  non-converged splits are left out is not counted, and the evidence says how many such cells.
- *The verdict per data kind* and *an analog's constructions*: stated in :mod:`ssl_repro.claims.verdicts`.
- *No paired test* where a claim is not about paired errors or minima (seconds, success counts, CCCP steps,
  a fitted exponent, one run): :data:`SENTENCE_RULES` names each exception; a part of a sentence no record
  can test is named on the claim's page (its test's ``untested``).
"""
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ssl_repro.claims.signed_rank import signed_rank_p


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
#: An error gap beyond equal is "slightly" lower below 1.5 points ...
ERROR_SLIGHT_POINTS = 0.015
#: ... and below 20% of the larger of the two errors; beyond either, "markedly".
ERROR_SLIGHT_SHARE = 0.20
#: Differences (and gaps between |differences|) up to this share of the largest value compared are float noise.
TIE_RTOL = 1e-12
#: A knife edge: a p within this of :data:`ALPHA` (the p read as the pages print it, to two significant digits:
#: 001 Table 5's exact p = 46/1024 = 0.0449 reads 0.045, on the edge; 0.056 and 0.044 are not) ...
KNIFE_P = 0.005
#: ... or a gap (or ratio) within this share of the bound it is read against.
KNIFE_SHARE = 0.01
#: "In the order of k": within this factor of k either way (half an order of magnitude, sqrt(10)) ...
ORDER_FACTOR = 10 ** 0.5
#: ... and "around k" / "approximately k": within this factor (004 Table 1.6's "roughly", claim 30's tolerance).
AROUND_FACTOR = 1.5
#: A run is one-class when its predicted minority share is below this share of r's minority share ...
ONE_CLASS_SHARE = 0.10
#: ... and r's minority share is at least this.
R_INSIDE = 0.05
#: The record column of the predicted positive share on the unlabeled rows (runs made after it existed).
POSITIVE_FRACTION = "unlabeled_positive_fraction"


# ---------------------------------------------------------------- degenerate runs

def one_class(rows):
    """Boolean Series over ``rows`` (records of runs): whether each run is one-class (module doc),
    from ``unlabeled_positive_fraction`` where recorded, else derived from the transductive error and r."""
    r = rows["r"].astype(float).to_numpy()
    minority = np.minimum(r, 1 - r)
    inside = minority >= R_INSIDE
    derived = rows["transductive_error"].astype(float).to_numpy() > (1 - ONE_CLASS_SHARE) * minority
    if POSITIVE_FRACTION in rows:
        p = rows[POSITIVE_FRACTION].astype(float).to_numpy()
        exact = np.minimum(p, 1 - p) < ONE_CLASS_SHARE * minority
        derived = np.where(np.isnan(p), derived, exact)
    return pd.Series(inside & derived, index=rows.index)


# ---------------------------------------------------------------- paired comparisons

def is_objective(metric):
    return metric.startswith("objective")


def reaches(gap, bound, scale):
    """Whether ``gap`` (>= 0) reaches ``bound``: at or above it, a gap within :data:`TIE_RTOL` x ``scale`` (the
    larger compared mean) of the bound counting as on it (module doc: the threshold sentence)."""
    return gap >= bound - TIE_RTOL * abs(scale)


def near(value, bound):
    """Whether ``value`` lies within :data:`KNIFE_SHARE` of ``bound`` (a knife edge)."""
    return bound > 0 and abs(value - bound) <= KNIFE_SHARE * bound


@dataclass(frozen=True)
class Edge:
    """A knife edge a verdict rests on, whatever rule judged it: ``what`` read ``value`` against ``bound`` --
    a p against :data:`ALPHA` (``kind`` ``"p"``), or a gap or ratio against the bound of its rule (``"bound"``)."""

    what: str
    kind: str
    value: float
    bound: float

    def __str__(self):
        if self.kind == "p":
            return f"{self.what} (p = {self.value:.2g}, within {KNIFE_P:g} of {self.bound:g})"
        return f"{self.what} ({self.value:.4g} against its bound {self.bound:.4g}, within {100 * KNIFE_SHARE:g}%)"


def knife_edges(what, p=None, against=()):
    """The knife edges (:class:`Edge`) of one judgement ``what``: its p within :data:`KNIFE_P` of :data:`ALPHA`
    (read to two significant digits, as printed), and each (value, bound) of ``against`` (a ratio, a gap, an
    exponent against the bound its rule reads it against) with the value within :data:`KNIFE_SHARE` of the bound;
    [] when none is.  Counts (success counts, CCCP steps) are exact and have no knife edge."""
    on_edge = p is not None and abs(float(f"{p:.2g}") - ALPHA) <= KNIFE_P + TIE_RTOL
    found = [Edge(what, "p", p, ALPHA)] if on_edge else []
    return found + [Edge(what, "bound", v, b) for v, b in against if near(abs(v), b)]


def error_bound(points, share, a_mean, b_mean):
    """The error bound ``min(points, share x the larger mean error)``: a gap reaches it when it reaches either."""
    return min(points, share * max(abs(a_mean), abs(b_mean)))


def equal_within(metric, mean_diff, a_mean, b_mean):
    """Whether a mean difference is below the threshold of ``metric`` (module doc: below both error bounds;
    a value on a bound up to float noise reaches it)."""
    scale = max(abs(a_mean), abs(b_mean))
    if is_objective(metric):
        return not reaches(abs(mean_diff), J_EQUAL * abs(b_mean), scale)
    if metric == "seconds":
        return mean_diff == 0
    return not reaches(abs(mean_diff), error_bound(ERROR_EQUAL_POINTS, ERROR_EQUAL_SHARE, a_mean, b_mean), scale)


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
    def outcome(self):
        """``lower`` / ``higher`` (p < ALPHA, beyond the threshold; one split: no test), ``equal``,
        ``not significant``, ``one-class`` (the lower one is one-class on some split)."""
        if self.equal:
            return "equal"
        lower = self.mean < 0
        if (self.one_class_a if lower else self.one_class_b):
            return "one-class"
        if self.n > 1 and self.p >= ALPHA:
            return "not significant"
        return "lower" if lower else "higher"

    def edges(self, what):
        """The knife edges (:func:`knife_edges`) of this comparison, named ``what``: p within :data:`KNIFE_P` of
        :data:`ALPHA`, or the gap within :data:`KNIFE_SHARE` of the equal threshold or of the slight band's bound
        (errors) / J's bands; seconds have no gap bound."""
        if self.metric == "seconds" or not max(abs(self.a_mean), abs(self.b_mean)) > 0:
            return knife_edges(what, self.p)
        if is_objective(self.metric):
            gap, bounds = abs(self.relative), (J_EQUAL, J_SIGNIFICANT)
        else:
            gap = abs(self.mean)
            bounds = (error_bound(ERROR_EQUAL_POINTS, ERROR_EQUAL_SHARE, self.a_mean, self.b_mean),
                      error_bound(ERROR_SLIGHT_POINTS, ERROR_SLIGHT_SHARE, self.a_mean, self.b_mean))
        return knife_edges(what, self.p, [(gap, b) for b in bounds])

    @property
    def knife_edge(self):
        """Whether the outcome rests on a knife edge (:meth:`edges`)."""
        return bool(self.edges(""))

    @property
    def word(self):
        """:attr:`outcome`, with `` (1 run)`` when it rests on one split (``equal (1 run)`` too)."""
        return self.outcome + (" (1 run)" if self.n == 1 else "")

    @property
    def band(self):
        """The size of the gap: for J ``significantly`` (>= J_SIGNIFICANT), ``slightly`` or ``equal``; for
        errors ``markedly`` (beyond ERROR_SLIGHT_*), ``slightly`` or ``equal``; None for seconds."""
        if is_objective(self.metric):
            gap = abs(self.relative)
            return "equal" if not reaches(gap, J_EQUAL, 1) else "significantly" if reaches(gap, J_SIGNIFICANT, 1) \
                else "slightly"
        if self.metric == "seconds":
            return None
        if self.equal:
            return "equal"
        slight = error_bound(ERROR_SLIGHT_POINTS, ERROR_SLIGHT_SHARE, self.a_mean, self.b_mean)
        return "markedly" if reaches(abs(self.mean), slight, max(abs(self.a_mean), abs(self.b_mean))) else "slightly"

    @property
    def evidence_word(self):
        """:attr:`word` with the band of a lower or higher gap: ``significantly lower``, ``slightly
        higher (1 run)``, ``equal``, ``not significant``."""
        if self.outcome in ("lower", "higher") and self.band:
            return f"{self.band} {self.word}"
        return self.word


def compare(rows, a, b, metric):
    """:class:`Comparison` of methods ``a`` and ``b`` on ``metric`` over the splits both ran in
    ``rows`` (one cell: dataset, labels, unlabeled rows); None when they share no split."""
    method = rows["method"].to_numpy()
    rows = rows[[c for c in dict.fromkeys(("split", metric, "r", "transductive_error", POSITIVE_FRACTION)) if c in rows]]
    by = {m: rows[method == m].drop_duplicates("split").set_index("split") for m in (a, b)}
    common = by[a].index.intersection(by[b].index)
    finite = np.isfinite(by[a][metric].reindex(common).to_numpy(float)) & \
        np.isfinite(by[b][metric].reindex(common).to_numpy(float))
    if not finite.any():
        return None
    common = common[finite]
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


def meets(c, expect):
    """Whether :class:`Comparison` ``c`` meets an expectation of a claim (module doc: the whole sentence):
    ``lower``, ``slightly lower`` (the slight band), ``significantly lower`` (beyond it), ``equal``,
    ``not higher`` and ``not markedly lower`` (003/004's "does not translate into major error rate
    improvements": any outcome but a markedly lower error, an equal one included)."""
    if c is None:
        return None
    lower = c.outcome == "lower"
    return {"lower": lower, "slightly lower": lower and c.band == "slightly",
            "significantly lower": lower and c.band in (None, "significantly", "markedly"),
            "equal": c.outcome == "equal",
            "not higher": c.outcome in ("lower", "equal", "not significant"),
            "not markedly lower": not (lower and c.band == "markedly")}[expect]


def within_factor(value, about, form):
    """Whether ``value`` is "in the order of" ``about`` (``form`` ``order``: within :data:`ORDER_FACTOR` of it)
    or "around" it (``around``: within :data:`AROUND_FACTOR`), and the range ``(low, high)`` it is read against."""
    factor = {"order": ORDER_FACTOR, "around": AROUND_FACTOR}[form]
    low, high = about / factor, about * factor
    return low <= value <= high, (low, high)


def reversed_(c):
    """Whether ``c`` says the opposite of "a below b": a significantly (or, on one run, plainly) higher."""
    return c is not None and c.outcome == "higher"


#: The whole-sentence rules of the module doc, as the report states them under its comparison rules.
SENTENCE_RULES = (
    "Rules that read the whole sentence: an error gap beyond equal is \"slightly\" lower below {e_slight_pts:g} "
    "points and {e_slight_share:g}% of the larger error, \"markedly\" beyond; every lower or higher in the "
    "evidence carries its band (J: significantly / slightly; errors: markedly / slightly). \"Slightly\" better "
    "optimization needs a J gap in the slight band; \"only slight\" error improvements need a slightly lower "
    "error (an equal one is no improvement, a markedly lower one more than slight), \"does not translate into major\" "
    "ones an error not markedly lower (an equal one included); \"in the order of k\" is within a factor sqrt(10) of "
    "k, \"around k\" within a factor 1.5 (claim 30's tolerance); \"never\" lagging behind needs an error not higher "
    "in every cell; \"significantly\" or \"well "
    "below\" an error needs it markedly lower. One rule per form of sentence: a sentence about a set (\"lower on S\", "
    "\"much lower\", \"about equal\", \"evident on all datasets\", \"an order of magnitude slower\") is met on a "
    "dataset when met in more than half of its cells (label counts) and reversed in none; \"over the entire range\" "
    "and \"consistently\" need every cell (a conjunction over the cells); a conjunction holds when every part is met, does not hold when any part "
    "is reversed (or none is met), and is mixed otherwise; \"can be k times\" and \"can improve\" are "
    "existences (some label count); "
    "a trend \"particularly when labels are few\" needs the ratio at the fewest labels above its median and above "
    "the ratio at the most, and qualifies a met headline. A word resting on one split says \"(1 run)\", "
    "\"equal\" included. Runs stopped on an iteration cap are counted (\"k of n runs not converged\"), and a "
    "cell whose outcome turns on them is left out and counted. A claim whose sets disagree gives its verdict "
    "per data kind (real first). An analog's verdict is the one at the paper's own lambda' (10 for aut-avn "
    "and ccat, 1 for gcat) with construction a's preprocessing (ssl_repro/data/registry.py: the paper set's "
    "train : test proportion, the whole message); the records at the other lambda' are a robustness check named "
    "beside it, never in its place (where the records at the paper's lambda' decide no cell, the analog is not "
    "testable), and the verdict is construction-dependent only where the two preprocessings, both run at the "
    "paper's lambda' (aut-avn's corners), disagree. "
    "Every error or objective claim that holds rests on the paired test above (p < {alpha:g} and a gap beyond "
    "the thresholds; \"approximately the same\" is equal, or lower), 001's and 002's kernel tables included. "
    "The exceptions, where the claim is not about paired errors: timing claims compare ratios of median seconds "
    "of the timing protocol with the factor the claim states (\"can be six to seven times\": a ratio that "
    "rounds to 6 or more at some label count; \"more strongly dependent\": a spread at least 1.1 times the other's); 001 Table 2 compares success "
    "counts of 10 draws; 002 Fig 4 counts CCCP steps; 002's \"quadratic trend\" needs the 95% interval of the "
    "fitted exponent inside [1.5, 2.5]; 004's large sets have one run a cell (\"(1 run)\"). A claim's page says "
    "which part of its sentence, if any, is not tested, and why. Wherever experiments/paper_numbers.json holds "
    "the paper's own numbers for a claim, its page applies the rule to them too (ssl_repro/claims/paper_evidence.py): "
    "\"massive\" speed-ups are at least 5x for every method (000 Table 9's smallest, 5.8x), \"orders of "
    "magnitude\" at least 10x (002's own 50x), \"slightly better\" a lower error inside the slight band (002's own "
    "0.48 points), and a result of that size and direction with p >= 0.05 is \"not significant\"; a rule the "
    "paper's numbers fail reads stricter only for a reason stated on the page."
).format(e_slight_pts=100 * ERROR_SLIGHT_POINTS, e_slight_share=100 * ERROR_SLIGHT_SHARE, alpha=ALPHA)
