"""Two sets of records side by side: the verdicts they give, and each sweep's rows (issue 72).

A regeneration of ``results/`` (on a new commit, or the same code on another processor) should leave every
verdict as it was, and on one processor every error, objective and work count of the sweeps.
:func:`verdict_changes` judges every claim of ``experiments/paper_numbers.json`` on both record trees with
this checkout's rules and lists the claims whose verdict changed; :func:`row_changes` matches the rows of a
sweep's two ``results.csv`` on the job's settings (:data:`ssl_repro.harness.aggregate.JOB_IDENTITY`) and
counts, per outcome, the rows that differ: the errors, ``converged`` and the work counts exactly, the
objectives J beyond :data:`J_EQUAL` relative (issue 72's bound for "J equal"), with the largest relative
change of J and of the CG count.  Seconds are not compared: they are measurements, never equal.
``experiments/compare_records.py`` prints both.
"""
from pathlib import Path

import numpy as np

from ssl_repro.claims.records import Records
from ssl_repro.harness.aggregate import DIAGNOSTIC_COLUMNS, JOB_IDENTITY, identity_text, read_results

#: Relative change of J up to which two fits count as reaching the same objective (issue 72: "J within 1e-6").
J_EQUAL = 1e-6
#: Outcomes compared exactly: a test or transductive error is a count of rows over a fixed total.
EXACT = ("test_error", "transductive_error", "converged") + DIAGNOSTIC_COLUMNS
OBJECTIVES = ("objective_own", "objective_eqn18")


def verdict_changes(before, after, repo):
    """[(claim id, paper set, verdict before, verdict after)] of every claim whose verdict word differs
    between the records under ``before`` and ``after`` (a claim judged per paper set: one row per set that
    changed), and the number of claims judged.  Both are judged with the rules of the checkout ``repo``."""
    old, new = Records(before, repo), Records(after, repo)
    claims = [c for c in new.papers["claims"] if "test" in c]
    changed = []
    for claim in claims:
        was = dict(old.named_verdicts(claim))
        for paper_set, verdict in new.named_verdicts(claim):
            earlier = was.get(paper_set)
            if earlier is None or earlier.word != verdict.word:
                changed.append((claim["id"], paper_set, earlier.word if earlier else "(not judged)", verdict.word))
    return changed, len(claims)


def _relative(a, b):
    """|a - b| / |a|, 0 where both are equal (NaN and infinity included)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.abs(a - b) / np.abs(a)
    return np.where((a == b) | (np.isnan(a) & np.isnan(b)), 0.0, np.nan_to_num(rel, nan=np.inf))


def _outcomes(both):
    """Per outcome, how the matched rows ``both`` (columns ``<outcome>_before`` and ``_after``) differ."""
    found = {"rows": len(both)}
    for column in EXACT:
        if f"{column}_before" in both:
            a, b = both[f"{column}_before"], both[f"{column}_after"]
            found[column] = int((~((a == b) | (a.isna() & b.isna()))).sum())
    moved = [_relative(both[f"{c}_before"], both[f"{c}_after"]) for c in OBJECTIVES if f"{c}_before" in both]
    if moved:
        worst = np.max(moved, axis=0)
        found["J"], found["J_max"] = int((worst > J_EQUAL).sum()), float(worst.max(initial=0.0))
    if "cg_iterations_before" in both:
        found["cg_max"] = float(_relative(both["cg_iterations_before"], both["cg_iterations_after"]).max(initial=0.0))
    return found


def row_changes(before_csv, after_csv, by=None):
    """How the rows of one sweep's ``results.csv`` changed: a dict with ``rows`` (matched), ``only_before``
    and ``only_after`` (jobs one record lacks), per outcome of :data:`EXACT` the number of matched rows that
    differ, ``J`` (rows whose J of either kind moved beyond :data:`J_EQUAL` relative), ``J_max`` (largest
    relative change of J) and ``cg_max`` (largest relative change of the CG count); with ``by`` (a job
    setting, e.g. ``"method"``), ``by`` also holds the same counts per value of that setting."""
    old, new = read_results(before_csv), read_results(after_csv)
    keys = [c for c in JOB_IDENTITY if c in old and c in new]
    for table, name in ((old, before_csv), (new, after_csv)):
        if table.duplicated(keys).any():
            raise ValueError(f"{name}: two rows of one job ({', '.join(keys)}): not one sweep's results.csv")
    old, new = (table.assign(_job=identity_text(table[keys]).agg("|".join, axis=1)) for table in (old, new))
    both = old.merge(new, on="_job", suffixes=("_before", "_after"))
    found = {**_outcomes(both), "only_before": int((~old["_job"].isin(new["_job"])).sum()),
             "only_after": int((~new["_job"].isin(old["_job"])).sum())}
    if by is not None:
        found["by"] = {value: _outcomes(rows) for value, rows in both.groupby(f"{by}_before")}
    return found


def differs(found):
    """Whether :func:`row_changes`'s counts ``found`` show any changed row (seconds aside)."""
    return any(found.get(k) for k in EXACT + ("J", "only_before", "only_after"))


def sweep_folders(before, after):
    """The sweep folders (those holding a ``results.csv``) present under both ``before`` and ``after``, sorted."""
    def folders(root):
        return {p.parent.name for p in Path(root).glob("*/results.csv")}
    return sorted(folders(before) & folders(after))


def row_line(name, found, changed_only=False):
    """One line of :func:`row_changes`'s counts ``found`` for ``name`` (a folder, or a method of one); with
    ``changed_only``, only the outcomes that changed."""
    parts = [f"{found['rows']} rows"]
    if found.get("only_before") or found.get("only_after"):
        parts.append(f"{found['only_before']} only before, {found['only_after']} only after")
    parts += [f"{column} {found[column]} differ" for column in EXACT
              if column in found and (found[column] or not changed_only)]
    if "J" in found and (found["J"] or not changed_only):
        parts.append(f"J beyond {J_EQUAL:g} {found['J']} (largest {found['J_max']:.1e})")
    if "cg_max" in found and (found["cg_max"] or not changed_only):
        parts.append(f"CG largest change {100 * found['cg_max']:.2f}%")
    return f"{name}: " + "; ".join(parts)
