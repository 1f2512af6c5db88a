"""Verdicts on the papers' timing claims, from records measured by the timing protocol.

A timing verdict rests only on runs of the timing protocol (:mod:`ssl_repro.harness.timing_protocol`:
one job at a time on an idle machine, 3 repeats on 3 splits); a record without it (one run per cell,
jobs in parallel: a learning curve's sweep throughput, or a timing record made before the protocol)
is "not testable" with the command that re-records it.  Runs that other processes disturbed
are left out.  A cell's seconds are the **median** over its runs; each ratio of median seconds
stands beside the ratio of median CG iterations (the work the papers' arguments are about), and
where the two differ by more than the factor :data:`WORK_DISAGREEMENT` the evidence says so: the
seconds then answer for per-iteration cost (or noise), not for the work.  The verdict follows the
seconds (the claims are about time).  A cell resting on one run says "(1 run)".  Each paper set is
judged as every claim's (:func:`ssl_repro.claims.verdicts.judge_set`: an analog's constructions merged).
"""
import numpy as np

from ssl_repro.claims.registry import register
from ssl_repro.claims.rules import knife_edges
from ssl_repro.claims.verdicts import (FAILS, HOLDS, MET, REVERSED, SHORT_KIND, UNMET, UNTESTABLE, Verdict, combine,
                                      combined, conjunction, data_kind, edge_note, trend_status, frames, judge_set,
                                      paper_set, part_status, tally_word)

#: Factor by which a ratio of median seconds and the same ratio of median CG iterations may differ
#: before the evidence says that time and work part ways (1.5: half again).
WORK_DISAGREEMENT = 1.5


def protocol_runs(frame):
    """The undisturbed timing-protocol runs of ``frame``, or None when it was not timed by the protocol."""
    if "repeat" not in frame or frame["repeat"].isna().all():
        return None
    return frame[~frame["disturbed"].astype(bool)]


def not_by_protocol(dataset, experiment):
    """The verdict of a set whose records were not timed by the protocol (``experiment``: the one
    that times them by it)."""
    return Verdict(UNTESTABLE, "", f"{dataset}: not timed by the protocol (one run a cell, jobs in parallel): "
                                   f"re-record with `python run.py +experiment={experiment} dataset={dataset}`")


def medians(runs, by):
    """Median seconds and CG iterations, and the number of runs, per ``by`` x method (methods as columns)."""
    grouped = runs.groupby([by, "method"])
    return (grouped["seconds"].median().unstack(), grouped["cg_iterations"].median().unstack(),
            grouped.size().unstack())


def work_note(seconds_ratio, work_ratio, name):
    """Where the seconds ratio and the CG-iteration ratio part ways past :data:`WORK_DISAGREEMENT`."""
    apart = [(k, s, w) for k, s, w in zip(seconds_ratio.index, seconds_ratio, work_ratio)
             if w > 0 and not 1 / WORK_DISAGREEMENT <= s / w <= WORK_DISAGREEMENT]
    return "".join(f"; seconds and CG iterations part ways at {name} = {k} ({s:.3g} vs {w:.3g})" for k, s, w in apart)


def runs_note(counts):
    """'(1 run)' where a cell rests on one run, else the fewest runs of a cell."""
    fewest = int(counts.min()) if len(counts) else 0
    return " (1 run)" if fewest == 1 else f" (medians of {fewest}+ runs a cell)"


def capped_note(runs, methods):
    """'; k of n runs of ``methods`` stopped on a cap' where any did (their seconds are those of a capped run)."""
    if "converged" not in runs:
        return ""
    part = runs[runs["method"].isin(methods)]
    stopped = int((~part["converged"].astype(bool)).sum())
    return f"; {stopped} of {len(part)} runs stopped on an iteration cap (timed as they ran)" if stopped else ""


def by_protocol(experiment, judge):
    """``judge(dataset, runs)`` on a dataset's protocol runs, for :func:`~ssl_repro.claims.verdicts.judge_set`;
    a dataset without them is not testable (:func:`not_by_protocol`)."""
    def judged(kind, dataset, frame):
        runs = protocol_runs(frame)
        return not_by_protocol(dataset, experiment) if runs is None else judge(dataset, runs)
    return judged


def largest_u(runs):
    """The runs at each label count's largest u (a doubling record's whole u, not its half; a medium set's
    timing record has one u per label count)."""
    if "n_unlabeled" not in runs:
        return runs
    return runs[runs["n_unlabeled"] == runs.groupby("n_labeled")["n_unlabeled"].transform("max")]


def ratio_part(check, ratio):
    """(status, in range at how many label counts) of one ratio check (a part of the sentence) on one set's ratios
    per label count (:func:`ssl_repro.claims.verdicts.part_status`).  ``at``: ``all`` or ``most`` (a sentence
    about the set, "an order of magnitude slower", "typically slower": met at more than half of the label counts,
    reversed at none), ``lowest`` ("when labels are relatively few": the fewest labels alone), ``some`` ("can
    be k times": met at some label count; reversed only where the ratio is on the other side of 1 at all).  A
    label count is **reversed** where the ratio is on the other side of 1 from the claim (``min`` >= 1: below 1)."""
    ok = (ratio >= check.get("min", 0)) & (ratio <= check.get("max", np.inf))
    against = ratio < 1 if check.get("min", 0) >= 1 else ratio > 1 if check.get("max", np.inf) <= 1 else ratio < 0
    at = check.get("at", "all")
    if at == "lowest":
        ok, against = ok.iloc[:1], against.iloc[:1]
    if at == "some":
        return (MET if ok.any() else REVERSED if against.all() else UNMET), ok
    return part_status(int(ok.sum()), len(ok), int(against.sum())), ok


def other_u_note(runs, num, den):
    """Where a label count was timed at more than one u (kdd99-10's doubling record): the ratio at each smaller u,
    named beside the verdict's, which rests on the largest u (all unlabeled rows, as the paper's table)."""
    if "n_unlabeled" not in runs:
        return ""
    smaller = runs[runs["n_unlabeled"] < runs.groupby("n_labeled")["n_unlabeled"].transform("max")]
    if smaller.empty:
        return ""
    seconds = smaller.groupby(["n_unlabeled", "method"])["seconds"].median().unstack()
    if num not in seconds or den not in seconds:
        return ""
    largest = int(runs["n_unlabeled"].max())
    return f"; the verdict's u = {largest:,} (all unlabeled rows)" + "".join(
        f"; at u = {int(u):,}: {r:.3g}" for u, r in (seconds[num] / seconds[den]).dropna().items())


def _ratio(test, dataset, runs):
    every_u = runs
    runs = largest_u(runs)
    seconds, work, counts = medians(runs, "n_labeled")
    texts, parts, edges = [], [], []
    for check in test["checks"]:
        num, den = check["num"], check["den"]
        if num not in seconds or den not in seconds:
            continue
        ratio = (seconds[num] / seconds[den]).dropna()
        work_ratio = (work[num] / work[den]).reindex(ratio.index)
        status, ok = ratio_part(check, ratio)
        parts.append(status)
        bounds = [b for b in (check.get("min"), check.get("max")) if b]
        edge = [e for k, r in ratio.items()
                for e in knife_edges(f"l = {k}: {num} / {den}", against=[(r, b) for b in bounds])]
        edges += edge
        texts.append(f"{num} / {den} median seconds {ratio.min():.3g}-{ratio.max():.3g} (CG iterations "
                     f"{work_ratio.min():.3g}-{work_ratio.max():.3g}), in range at {int(ok.sum())} of {len(ok)}"
                     f" ({status})" + work_note(ratio, work_ratio, "l")
                     + runs_note(counts[[num, den]].loc[ratio.index].min(axis=1)) + capped_note(runs, (num, den))
                     + other_u_note(every_u, num, den) + edge_note(edge))
        if check.get("trend") == "fewer" and len(ratio) > 1 and status == MET:     # qualifies a met headline
            parts.append(trend_status(ratio))
            texts.append(f"trend: {num} / {den} at the fewest labels {ratio.iloc[0]:.3g}, median {ratio.median():.3g}, "
                         f"at the most {ratio.iloc[-1]:.3g} ({parts[-1]})")
    if not parts:
        return Verdict(UNTESTABLE, "", f"{dataset}: the methods were not timed")
    return Verdict(conjunction(parts), "", f"{dataset}: " + "; ".join(texts), edges=tuple(edges))


def ratio_sets(records, test):
    """[(paper set, Verdict)] of a ``ratio`` test on each of ``test["sets"]`` (default: every set with
    records): median seconds of ``num`` over ``den`` per label count against ``min`` (and ``max``) at
    ``at``: every label count (``all``), most of them (``most``) or the lowest one (``lowest``); the
    CG-iteration ratio beside it."""
    found = frames(records, test["folder"] + "_")
    judge = by_protocol(test["folder"], lambda dataset, runs: _ratio(test, dataset, runs))
    return [(name, judge_set(name, found.get(name, []), False, judge)) for name in test.get("sets") or sorted(found)]


#: The verdict of a ``ratio`` test: its sets' (:func:`ratio_sets`) combined.
check_ratio = register("ratio", by_set=ratio_sets)(combined(ratio_sets))


def _label_dependence(test, dataset, runs):
    seconds, work, counts = medians(runs, "n_labeled")
    stronger, weaker = np.atleast_1d(test["stronger"]).tolist(), test["weaker"]
    methods = [*stronger, weaker]
    if not all(m in seconds for m in methods):
        return Verdict(UNTESTABLE, "", f"{dataset}: the methods were not timed")
    spread = {m: seconds[m].max() / seconds[m].min() for m in methods}
    work_spread = {m: work[m].max() / work[m].min() for m in methods}
    ok = all(spread[m] > test.get("margin", 1.0) * spread[weaker] for m in stronger)
    edges = [e for m in stronger for e in knife_edges(f"{m}'s spread against {test.get('margin', 1.0):g} x {weaker}'s",
                                                     against=[(spread[m], test.get("margin", 1.0) * spread[weaker])])]
    return Verdict(HOLDS if ok else FAILS, "",
                   f"{dataset}: largest/smallest median seconds " + ", ".join(f"{m} {spread[m]:.3g}" for m in methods)
                   + " (CG iterations " + ", ".join(f"{work_spread[m]:.3g}" for m in methods) + ")"
                   + f"; needed: each of {', '.join(stronger)} above {test.get('margin', 1.0):g} x {weaker}'s"
                   + runs_note(counts[methods].min(axis=1)) + edge_note(edges), edges=tuple(edges))


@register("label_dependence")
def check_label_dependence(records, test):
    """Whether each of ``stronger``'s (both TSVMs: the claim says "the TSVM") median seconds vary over the
    label counts (largest / smallest) at least ``margin`` times as much as ``weaker``'s ("more strongly
    dependent": a spread beyond the run-to-run noise of a median, stated in the claim's test); the same for
    CG iterations beside it."""
    found = frames(records, test["folder"] + "_")
    judge = by_protocol(test["folder"], lambda dataset, runs: _label_dependence(test, dataset, runs))
    return combine([judge_set(name, found[name], False, judge) for name in sorted(found)])


def doubling_ratios(runs):
    """Per labeled count and method timed at two u: ``(l, method, u ratio, ratio of median seconds, ratio of
    median CG iterations, fewest runs of the two cells)`` (004 Table 1.6's doubling)."""
    out = []
    for (l, m), part in runs.groupby(["n_labeled", "method"]):
        grouped = part.groupby("n_unlabeled")
        cells = grouped[["seconds", "cg_iterations"]].median().sort_index()
        if len(cells) == 2:
            out.append((l, m, cells.index[1] / cells.index[0], cells["seconds"].iloc[1] / cells["seconds"].iloc[0],
                        cells["cg_iterations"].iloc[1] / cells["cg_iterations"].iloc[0], int(grouped.size().min())))
    return out


def _doubling(test, dataset, runs):
    found = [r for r in doubling_ratios(runs) if r[1] in test["methods"]]
    if not found:
        return Verdict(UNTESTABLE, "", f"{dataset}: u was not doubled")
    ratios = [s / u for _, _, u, s, _, _ in found]
    work = [w for _, _, _, _, w, _ in found]
    ok = sum(1 / test["tolerance"] <= r <= test["tolerance"] for r in ratios)
    edges = [e for (l, m, *_), r in zip(found, ratios)
             for e in knife_edges(f"l = {l} {m}: seconds ratio over u ratio",
                                  against=[(r, test["tolerance"]), (r, 1 / test["tolerance"])])]
    return Verdict(tally_word(ok, len(ratios)), "",
                   f"{dataset}: median seconds ratio over u ratio {min(ratios):.2g}-{max(ratios):.2g} (the CG "
                   f"iterations' ratio {min(work):.2g}-{max(work):.2g}, each a pass over all l + u rows), within a "
                   f"factor {test['tolerance']:g} in {ok} of {len(ratios)}"
                   + runs_note(np.array([r[5] for r in found])) + capped_note(runs, test["methods"]) + edge_note(edges),
                   edges=tuple(edges))


@register("doubling")
def check_doubling(records, test):
    """004 Table 1.6: median seconds when u doubles, within a factor ``tolerance`` of the u ratio; the
    CG-iteration ratio beside it."""
    found = frames(records, "scale_timing_")
    if not found:
        return Verdict(UNTESTABLE, "-", "no run timed by the protocol: `python run.py +experiment=scale_timing "
                                        "dataset=kdd99-10` (minutes a job)")
    judge = by_protocol("scale_timing", lambda dataset, runs: _doubling(test, dataset, runs))
    return combine([judge_set(name, found[name], False, judge) for name in sorted(found)])


def svmlight_ratios(records, method="tsvm-Smax"):
    """000 Table 9's ratios, SVM-light's seconds over ours, per dataset of ``peers/table9.csv`` with our
    protocol runs: [(dataset, ratio, capped, basis)]; ours are ``method``'s (TSVM S=max's by default) median over the timing protocol's
    runs of the first split at the fewest labels, SVM-light's its one recorded run, taken under the load
    ``peers/table9.json`` names -- the basis says so ("one loaded run"; re-timing it by the protocol is the
    fix).  A dataset whose seconds are not the protocol's (a learning curve's: jobs in parallel) gives no ratio
    (basis "not timed by the protocol")."""
    peers = records.csv("peers/table9.csv")
    if peers is None:
        return []
    meta = records.json("peers/table9.json") or {}
    machine = meta.get("provenance", {}).get("machine", {})
    load = (machine.get("load_average") or [None])[0]
    peer_basis = ("SVM-light: one loaded run" + (f" (load {load:g} on {machine.get('cores')} cores)" if load else "")
                  + ", not by the protocol; ours: the protocol's median")
    found = frames(records, "timing_")
    out = []
    for _, row in peers[peers["method"] == "svmlight-tsvm"].iterrows():
        ours = [f for k, d, f in found.get(paper_set(row["dataset"]), []) if d == row["dataset"]]
        frame = protocol_runs(ours[0]) if ours else None
        if frame is None:
            out.append((row["dataset"], None, False, "ours not timed by the protocol"))
            continue
        first = frame[(frame["split"] == frame["split"].min()) & (frame["n_labeled"] == frame["n_labeled"].min())
                      & (frame["method"] == method)]
        if not first.empty:
            out.append((row["dataset"], row["seconds"] / first["seconds"].median(), bool(row.get("capped", False)),
                        peer_basis))
    return out


@register("svmlight")
def check_svmlight(records, test):
    """000 Table 9 / 003 Table 4: SVM-light's seconds over each of ``test["methods"]``'s ("our methods": every
    method of the table; :func:`svmlight_ratios`) at least ``min`` (SVM-light killed at its cap: at least the
    cap); each ratio says what its two sides are ("one loaded run")."""
    if records.csv("peers/table9.csv") is None:
        return Verdict(UNTESTABLE, "-", "peers/table9.csv absent (SVM-light was not run)")
    parts = []
    for method in test.get("methods", ["tsvm-Smax"]):
        for dataset, ratio, capped, basis in svmlight_ratios(records, method):
            if ratio is None:
                parts.append(not_by_protocol(dataset, "timing"))
                continue
            edges = knife_edges(f"{dataset}: SVM-light / {method}", against=[(ratio, test["min"])])
            parts.append(Verdict(HOLDS if ratio >= test["min"] else (UNTESTABLE if capped else FAILS),
                                 f"{dataset} ({SHORT_KIND[data_kind(dataset)]})",
                                 f"{dataset}: SVM-light / {method} {'>= ' if capped else ''}{ratio:.3g}x ({basis})"
                                 + edge_note(edges), kind=SHORT_KIND[data_kind(dataset)], edges=tuple(edges)))
    return combine(parts)
