"""002 Sec. 4.3 (Fig 5), claim 75: "SVMLight-TSVM is particularly slow for small gamma and C, taking up to 2250
seconds, whereas the other two algorithms are relatively more stable" (test ``kind: cccp_002_fig5``).

Read on Table 2's grid record (``cccp_002/grid.csv``, :mod:`ssl_repro.claims.cccp_002_rules`) on g50c, Fig 5's
set: SVM-light's TSVM fitted at nabla-TSVM's grid points (RBF width factor x C, each split), nabla-TSVM, and
CCCP-TSVM at s = 0, UC* = LC (:data:`CCCP_ROW`: Fig 3's setting, the same free parameters, C and gamma, as the
two peers: 002's "most fair comparison").  Fig 5 is one split; each of our splits is one Fig 5, and the
sentence is judged paired over the splits.  Both halves are tested, each a part of a conjunction
(:func:`ssl_repro.claims.verdicts.conjunction`):

- **"particularly slow for small gamma and C"**: per split, SVM-light's mean seconds over the grid's small corner
  (C below the grid's median C and gamma below its median gamma: the widest RBF widths) over its mean seconds
  over the large corner (both above); the geometric mean of this ratio over the splits at least the test's
  ``slow`` (2: 002's "large values of C and gamma are much faster", read as at least twice as fast) and the
  signed-rank test of its logarithms (:func:`ssl_repro.claims.signed_rank.signed_rank_p`) p < 0.05;
- **"the other two algorithms are relatively more stable"**: per split, each method's range over the grid (its
  slowest grid point's seconds minus its fastest's); SVM-light's range over CCCP-TSVM's and over nabla-TSVM's,
  each with geometric mean over the splits at least the test's ``margin`` (10: an order of magnitude, "far more")
  and p < 0.05 as above.  A part is **reversed** where the ratio's geometric mean is below 1 with p < 0.05.

Every part at the sentence's size and direction, some with p >= 0.05 (too few splits), is **not significant**, as
the house's paired verdicts read (:data:`ssl_repro.claims.verdicts.NOT_SIGNIFICANT`); otherwise the conjunction's
word.  One split (002's own Fig 5) gets no test: "1 run".

Decisions.  *The range in seconds, not the ratio slowest / fastest*: 002 calls the peers stable by the seconds
a parameter choice can cost ("even the slowest time is still only around 20 seconds", CCCP-TSVM "around 1
second for all parameter choices"), what a grid search pays; on one machine the ratio of two ranges is unit-free,
and the paper's own numbers fix it where a ratio slowest / fastest they leave to the plot.  *CPU seconds, work
beside*: the grid's ``seconds`` are CPU seconds of the fit (``time.process_time`` for ours, the child's user +
system for SVM-light), not wall seconds, so the step running beside another job on the second core adds no
waiting to them (shared caches slow all of a method's fits alike, which the ratios within a method cancel);
the work counts are shown beside (slowest / fastest grid point: CCCP-TSVM's and SVM-light's kernel evaluations,
nabla-TSVM's L-BFGS iterations, where the record has them), with the seconds' slowest / fastest, not judged, as
they count different steps in the three programs and the sentence is about time.  Only the splits SVM-light ran
are read, for every method.  *Fits stopped short*: an SVM-light fit killed at its CPU cap (``capped``), or ended
by SVM-light itself for slow progress without labels (``svmlight_gave_up``), is recorded with the seconds it
spent, a lower bound (:data:`SHORT`); its true seconds could only raise the ratios above (outside the large corner
and not a split's fastest point), so a part met on bounds is met, and one not met is not testable; a split whose
large corner, or fastest point, stopped short has no bound and is left out.  The others' fits
stopped on an iteration cap (``converged`` False) are counted in the evidence, their seconds as they ran.
"Taking up to 2250 seconds" is a time on 002's machine: not tested (the test's ``untested``).
"""
import numpy as np

from ssl_repro.claims import verdicts
from ssl_repro.claims.cccp_002_rules import FOLDER, SVMLIGHT, SVMLIGHT_HOW, kind_of, labelled
from ssl_repro.claims.registry import register
from ssl_repro.claims.rules import ALPHA, knife_edges
from ssl_repro.claims.signed_rank import signed_rank_p
from ssl_repro.claims.verdicts import MET, NOT_SIGNIFICANT, REVERSED, UNMET, UNTESTABLE, Verdict, edge_note

#: Fig 5's set.
FIG5_SET = "g50c"
#: CCCP-TSVM's row of the grid Fig 5 times: s = 0, UC* = LC (module doc).
CCCP_ROW = {"s": 0.0, "lam_u": 1.0}
#: The two others of the sentence: (label, method, fixed settings).
OTHERS = (("CCCP-TSVM", "cccp-tsvm", CCCP_ROW), ("nabla-TSVM", "nabla-tsvm", None))
#: The work count shown beside each method's seconds, where the record has it.
WORK = {SVMLIGHT: "kernel_evaluations", "cccp-tsvm": "kernel_evaluations", "nabla-tsvm": "lbfgs_iterations"}


def method_rows(grid, method, fixed=None, splits=None):
    """``method``'s rows of Fig 5's set in ``grid`` with ``fixed`` settings (and of ``splits``, if given), one per
    (split, factor, C)."""
    rows = grid[(grid["dataset"] == FIG5_SET) & (grid["method"] == method)]
    if splits is not None:
        rows = rows[rows["split"].isin(splits)]
    for key, value in (fixed or {}).items():
        rows = rows[np.isclose(rows[key].astype(float), value)]
    return rows.drop_duplicates(["split", "factor", "C"])


#: The record's flags of an SVM-light fit that stopped short: killed at its CPU cap, or ended by SVM-light itself
#: for slow progress without labels (``experiments/cccp_002_peers.py``); either's seconds are a lower bound.
SHORT = ("capped", "svmlight_gave_up")


def capped(rows):
    """Boolean array: which of ``rows`` stopped short (:data:`SHORT`; a flag the record lacks: none)."""
    flags = [rows[c].fillna(False).astype(bool).to_numpy() for c in SHORT if c in rows]
    return np.logical_or.reduce(flags) if flags else np.zeros(len(rows), bool)


def corner_ratios(rows):
    """{split: (SVM-light's mean seconds over the small corner / over the large corner, a lower bound)} (module
    doc); a split whose large corner holds a capped fit is left out."""
    factor_mid, c_mid = np.median(np.unique(rows["factor"])), np.median(np.unique(rows["C"]))
    small = (rows["factor"] > factor_mid) & (rows["C"] < c_mid)      # a wider RBF is a smaller gamma
    large = (rows["factor"] < factor_mid) & (rows["C"] > c_mid)
    rows = rows.assign(small=small, large=large, capped=capped(rows))
    out = {}
    for split, part in rows.groupby("split"):
        low, high = part[part["small"]], part[part["large"]]
        if low.empty or high.empty or high["capped"].any():
            continue
        out[split] = (low["seconds"].mean() / high["seconds"].mean(), bool(low["capped"].any()))
    return out


def ranges(rows):
    """{split: (slowest minus fastest grid point's seconds, a lower bound)}; a split whose fastest point is a
    capped fit is left out."""
    rows = rows.assign(capped=capped(rows))
    out = {}
    for split, part in rows.groupby("split"):
        fastest = part.loc[part["seconds"].idxmin()]
        if not fastest["capped"]:
            out[split] = (part["seconds"].max() - fastest["seconds"], bool(part["capped"].any()))
    return out


def part_of(ratios, least):
    """One part of the sentence on per-split ``ratios`` ({split: (ratio, lower bound)}): (status -- :data:`MET`,
    :data:`REVERSED`, :data:`UNMET`, ``NOT_SIGNIFICANT`` (the size reached, p >= 0.05), or None (not testable: a
    bound below ``least``), geometric mean, p (None for one split), splits)."""
    logs = np.log([r for r, _ in ratios.values()])
    mean, bound = float(np.exp(logs.mean())), any(b for _, b in ratios.values())
    p = signed_rank_p(logs) if len(logs) > 1 else None
    significant = p is None or p < ALPHA
    if mean >= least:
        return (MET if significant else NOT_SIGNIFICANT), mean, p, len(logs)
    if bound:
        return None, mean, p, len(logs)
    return (REVERSED if mean < 1 and significant else UNMET), mean, p, len(logs)


def _words(status, mean, p, n, least, bound):
    said = {MET: "met", REVERSED: "reversed", UNMET: "not met", NOT_SIGNIFICANT: NOT_SIGNIFICANT,
            None: "not testable: a lower bound below it"}[status]
    return (f"{'>= ' if bound else ''}{mean:.3g}x (geometric mean over {n} split{'s' if n > 1 else ''}"
            + (f", p = {p:.2g}" if p is not None else ", 1 run") + f"; needed >= {least:g}x: {said})")


def spread(rows, column):
    """Slowest / fastest grid point of ``rows``' ``column`` (medians over the splits), or None without it."""
    if column not in rows or rows[column].isna().all():
        return None
    cells = rows.groupby(["factor", "C"])[column].median()
    return float(cells.max() / cells.min())


def spreads(methods):
    """The evidence's note (shown, not judged): each method's :func:`spread` of its seconds and of its work count
    (:data:`WORK`), ``methods`` [(method, rows)]."""
    seconds = ", ".join(f"{m} {spread(r, 'seconds'):.3g}x" for m, r in methods)
    work = ", ".join(f"{m} {WORK[m].replace('_', ' ')} {spread(r, WORK[m]):.3g}x" for m, r in methods
                     if spread(r, WORK[m]) is not None)
    return f"; slowest / fastest grid point (medians over the splits; shown, not judged): seconds {seconds}" + (
        f"; work {work}" if work else "")


@register("cccp_002_fig5")
def check(records, test):
    """Claim 75's verdict on ``cccp_002/grid.csv`` (module doc): SVM-light's small-corner slowness (``slow``) and
    its range over the grid against each other method's (``margin``)."""
    name = f"{FOLDER}/grid.csv"
    grid = records.csv(name)
    if grid is None:
        return Verdict(UNTESTABLE, "-", f"{name} absent")
    light = method_rows(grid, SVMLIGHT)
    if light.empty:
        return Verdict(UNTESTABLE, "-", f"{FIG5_SET}: {name} has no SVM-light TSVM rows (its TSVM not run over Fig 5's "
                                        f"grid of C and gamma yet: {SVMLIGHT_HOW})")
    others = [(label, method_rows(grid, method, fixed, splits=light["split"])) for label, method, fixed in OTHERS]
    if any(rows.empty for _, rows in others):
        return Verdict(UNTESTABLE, "-", f"{FIG5_SET}: {name} lacks " + ", ".join(l for l, r in others if r.empty))
    corners = corner_ratios(light)
    if not corners:
        return Verdict(UNTESTABLE, "-", f"{FIG5_SET}: no split with SVM-light's small and large corners uncapped")
    parts, texts, edges = [], [], []
    status, mean, p, n = part_of(corners, test["slow"])
    parts.append(status)
    edges += knife_edges(f"{FIG5_SET} SVM-light small / large corner", p, [(mean, test["slow"])])
    texts.append("SVM-light TSVM's CPU seconds at small C and gamma over large: "
                 + _words(status, mean, p, n, test["slow"], any(b for _, b in corners.values())))
    light_ranges = ranges(light)
    for label, rows in others:
        theirs = ranges(rows)
        paired = {s: (light_ranges[s][0] / theirs[s][0], light_ranges[s][1])
                  for s in light_ranges.keys() & theirs.keys() if theirs[s][0] > 0}
        if not paired:
            parts.append(None)
            texts.append(f"range vs {label}: no split with both")
            continue
        status, mean, p, n = part_of(paired, test["margin"])
        parts.append(status)
        edges += knife_edges(f"{FIG5_SET} SVM-light's range / {label}'s", p, [(mean, test["margin"])])
        texts.append(f"range over the grid (slowest - fastest point) SVM-light {_median(light_ranges):.3g} s vs "
                     f"{label} {_median(theirs):.3g} s (medians over splits): "
                     + _words(status, mean, p, n, test["margin"], any(b for _, b in paired.values())))
    stopped = int(capped(light).sum())
    unconverged = [f"{int((~r['converged'].astype(bool)).sum())} of {len(r)} {label} fits stopped on an iteration cap "
                   "(timed as they ran)" for label, r in others if "converged" in r and not r["converged"].all()]
    text = (f"{FIG5_SET}: " + "; ".join(texts)
            + (f"; {stopped} of {len(light)} SVM-light fits capped or given up for slow progress (their seconds "
               "lower bounds)" if stopped else "")
            + "".join(f"; {u}" for u in unconverged)
            + spreads([(SVMLIGHT, light), *((m, r) for (_, r), (_, m, _) in zip(others, OTHERS))]) + edge_note(edges))
    if REVERSED not in parts and None in parts:
        return Verdict(UNTESTABLE, labelled(FIG5_SET), text)
    known = [s for s in parts if s is not None]
    if NOT_SIGNIFICANT in known and set(known) <= {MET, NOT_SIGNIFICANT}:
        word = NOT_SIGNIFICANT
    else:
        word = verdicts.conjunction([UNMET if s == NOT_SIGNIFICANT else s for s in known])
    return Verdict(word, labelled(FIG5_SET), text, kind=kind_of(FIG5_SET), edges=tuple(edges))


def _median(per_split):
    return float(np.median([v for v, _ in per_split.values()]))

