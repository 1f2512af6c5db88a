"""The ``compare`` test: the linear papers' claims (000, 003, 004) judged on paired comparisons per cell.

A cell is one (labels, unlabeled rows) point of a sweep; each check ``{metric, a, b, expect}`` of the test
is a :func:`~ssl_repro.claims.rules.compare` in every cell, met or not by
:func:`~ssl_repro.claims.rules.meets`; cells whose outcome turns on non-converged runs are left out and
counted.  **One rule per form of sentence** (:mod:`ssl_repro.claims.rules`): a sentence about a set ("A is
lower than B on S", "much lower", "about equal") is judged per dataset, each check (a *part* of the
sentence) by :func:`part_status`, the parts by :func:`conjunction`; a sentence that says "over the entire
range" or "consistently" (the test's ``"per": "cell"``, or its sets ``every_cell``) needs every cell, a
conjunction over the cells: it holds when met in every cell, does not hold when reversed in some cell (or met
in none), and is mixed otherwise -- never softer than the per-dataset reading of the same records; a trend
"particularly striking towards the lower end" (``"trend": "fewer"``) needs each check's gain at the fewest
labels above its median and above the gain at the most (:func:`ssl_repro.claims.verdicts.trend_status`).
Which data a paper set's verdict rests on is :mod:`ssl_repro.claims.verdicts`'s.
"""
from ssl_repro.claims.registry import register
from ssl_repro.claims.rules import compare, meets, reversed_
from ssl_repro.claims.verdicts import (CORNERS_PREFIX, MET, REVERSED, UNMET, UNTESTABLE, Verdict, combined, conjunction,
                                      edge_note, frames, judge_set, part_status, trend_status)


def _converged(rows):
    """The rows of runs that converged (all rows when the column is absent)."""
    return rows[rows["converged"].astype(bool)] if "converged" in rows else rows


def turns_on_unconverged(cell, check, expect, ok):
    """Whether a cell's outcome ``ok`` on ``check`` changes (or the cell empties) when its non-converged runs are
    left out (:mod:`ssl_repro.claims.rules`: such a cell is left out, never decided by them)."""
    settled = _converged(cell)
    if len(settled) == len(cell):
        return False
    again = compare(settled, check["a"], check["b"], check["metric"])
    return again is None or meets(again, expect) != ok


def judge_cells(frame, test, set_expect, dataset):
    """The verdict of one dataset's records on a ``compare`` test (module doc: cells, non-converged runs,
    per-dataset sentences)."""
    checks = test["checks"]
    per_dataset = test.get("per", "dataset") == "dataset"
    words = [{} for _ in checks]
    met_k, cells_k, against_k = [0] * len(checks), [0] * len(checks), [0] * len(checks)
    met = total = undecided = against_cells = 0
    edges = []
    runs = frame[frame["method"].isin({m for c in checks for m in (c["a"], c["b"])})]
    unconverged = len(runs) - len(_converged(runs))
    for _, cell in frame.groupby(["n_labeled", "n_unlabeled"]):
        settled = _converged(cell) if unconverged else None
        outcomes, doubtful = [], False
        for k, check in enumerate(checks):
            expect = check.get("expect", set_expect)
            c = compare(cell, check["a"], check["b"], check["metric"])
            if c is None:
                continue
            ok = meets(c, expect)
            words[k][c.evidence_word] = words[k].get(c.evidence_word, 0) + 1
            metric = "J" if check["metric"].startswith("objective") else check["metric"]
            edges += c.edges(f"l = {cell['n_labeled'].iloc[0]} {check['a']} vs {check['b']} ({metric}): "
                             f"{c.evidence_word}")
            if settled is not None:
                doubtful |= turns_on_unconverged(cell, check, expect, ok)
            outcomes.append((k, ok, reversed_(c)))
        if not outcomes:
            continue
        if doubtful:
            undecided += 1
            continue
        total += 1
        met += all(ok for _, ok, _ in outcomes)
        against_cells += any(against for _, _, against in outcomes)
        for k, ok, against in outcomes:
            cells_k[k] += 1
            met_k[k] += ok
            against_k[k] += against
    counts = "; ".join(f"{c['a']} vs {c['b']} ({c['metric']}{', ' + c['expect'] if 'expect' in c else ''}): " + ", ".join(f"{w} {n}" for w, n in words[k].items())
                       for k, c in enumerate(checks) if words[k])
    notes = (f"; {unconverged} of {len(runs)} runs not converged" if unconverged else "") + (
        f"; {undecided} cell{'s' * (undecided != 1)} left out: the outcome turns on non-converged runs"
        if undecided else "") + edge_note(edges)
    if total == 0:
        why = "no cell decided" if undecided else "no cell with both methods"
        return Verdict(UNTESTABLE, "", f"{dataset}: {why}{notes}")
    if per_dataset:
        parts = [part_status(met_k[k], cells_k[k], against_k[k]) for k in range(len(checks)) if cells_k[k]]
        if test.get("trend") == "fewer" and all(p == MET for p in parts):      # qualifies a met headline
            trends = gains_by_labels(frame, checks)
            parts += [trend_status(g) for g in trends.values()]
            counts += "; trend (gain at the fewest labels, median, most): " + ", ".join(
                f"{k} {g.iloc[0]:.3g}, {g.median():.3g}, {g.iloc[-1]:.3g} ({trend_status(g)})" for k, g in trends.items())
        tallies = ", ".join(f"{met_k[k]} of {cells_k[k]}" + (f" (reversed in {against_k[k]})" if against_k[k] else "")
                            for k in range(len(checks)) if cells_k[k])
        return Verdict(conjunction(parts), "", f"{dataset}: {set_expect} per dataset (met in {tallies} cells; "
                                               f"{counts}){notes}", edges=tuple(edges))
    cells = [MET] * met + [REVERSED] * against_cells + [UNMET] * (total - met - against_cells)
    reversed_in = f" (reversed in {against_cells})" if against_cells else ""
    return Verdict(conjunction(cells), "", f"{dataset}: {set_expect} in {met} of {total} cells{reversed_in} ({counts})"
                                           f"{notes}", edges=tuple(edges))


def gains_by_labels(frame, checks):
    """{"a vs b": mean of b - a per label count, fewest first} of each check with two or more label counts (the
    gain a trend "particularly striking towards the lower end" is about)."""
    out = {}
    for c in checks:
        rows = frame[frame["method"].isin([c["a"], c["b"]])]
        means = rows.groupby(["n_labeled", "method"])[c["metric"]].mean().unstack()
        if c["a"] in means and c["b"] in means and len(means) > 1:
            out[f"{c['a']} vs {c['b']}"] = (means[c["b"]] - means[c["a"]]).sort_index()
    return out


def compare_sets(records, test):
    """[(paper set, Verdict)] of a ``compare`` test: paired comparisons in every cell (labels, unlabeled
    rows) of each set ``test["expect"]`` names; each of ``test["checks"]`` ({metric, a, b, expect}) and of the
    set's ``test["set_checks"]`` (:func:`for_set`) must be met in a cell for the cell to count;
    judged per dataset unless ``test["per"] == "cell"`` or the set is in ``test["every_cell"]`` (module doc)."""
    found = frames(records, test["folder"] + "_")
    if test["folder"] == "learning_curve":                      # an analog's runs at its other lambda' (corners)
        for name, options in frames(records, CORNERS_PREFIX).items():
            found.setdefault(name, []).extend(options)
    return [(name, judge_set(name, found.get(name, []), True,
                             lambda kind, dataset, frame, e=set_expect, t=for_set(test, name): judge_cells(frame, t, e, dataset)))
            for name, set_expect in test["expect"].items()]


def for_set(test, name):
    """``test`` with the checks of paper set ``name``: ``checks`` and, where a sentence says something else of
    each set (000's "the observations in the previous section", one per set), ``set_checks[name]``."""
    extra = test.get("set_checks", {}).get(name, [])
    test = {**test, "checks": test["checks"] + extra} if extra else test
    return {**test, "per": "cell"} if name in test.get("every_cell", ()) else test


#: The verdict of a ``compare`` test: its sets' (:func:`compare_sets`) combined.
check_compare = register("compare", by_set=compare_sets)(combined(compare_sets))
