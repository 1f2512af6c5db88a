"""Shared table, number and wording helpers of the report: formats, cells, verdict words, tallies."""
import numpy as np

from ssl_repro import claims
from ssl_repro.harness.methods import LABELS
from ssl_repro.report.record_text import commit_note, data_kind, published
from ssl_repro.report.words import unbreak


#: Record names of the methods, as the papers call them: ours from :data:`ssl_repro.harness.methods.LABELS`,
#: then the peers' records (``peers/``).
NAMES = {**LABELS, "svmlight-tsvm": "SVM-light TSVM", "universvm-cccp": "UniverSVM CCCP-TSVM",
         "cccp-tsvm": "CCCP-TSVM (ours)"}


def pct(x, digits=2):
    return "-" if x is None or not np.isfinite(x) else f"{100 * x:.{digits}f}%"


def num(x, digits=4):
    return "-" if x is None or not np.isfinite(x) else f"{x:.{digits}g}"


def fmt(x):
    if x is None:
        return "-"
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:.4g}"


def table(header, rows):
    """A markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def claim_lines(records, artifact, where=""):
    """The papers' claims of ``artifact`` (those whose place contains ``where``) as quotes."""
    return [f"> {c['paper']} {c['where']}: \"{unbreak(c['quote'])}\"" for c in records.claims(artifact)
            if where in c["where"]]


def paired(rows, a, b, metric):
    """``a`` vs ``b`` on ``metric`` in one cell: :func:`ssl_repro.claims.rules.compare`."""
    return claims.compare(rows, a, b, metric)


#: The report's word for "a below b" from :attr:`ssl_repro.claims.rules.Comparison.outcome`.
BELOW_WORDS = {"lower": "yes", "higher": "no", "equal": "equal", "not significant": "not significant"}


def verdict(c, scale=1.0, unit=""):
    """(the comparison's numbers, ``yes`` / ``equal`` / ``not significant`` / ``no`` / ``one-class``) for
    "a below b" by the rules of :mod:`ssl_repro.claims.rules` (thresholds, test, one-class runs)."""
    if c is None:
        return "no common split", "not run"
    # rounded to 12 decimals first: a difference of round-off shows as 0, not 2.6e-15
    diff = f"{round(c.mean * scale, 12):+.3g}{unit}" + (f" ± {round(c.std * scale, 12):.2g}{unit}" if c.n > 1 else "")
    flags = "".join(f", {name} one-class on {k} of {c.n}" for name, k in (("A", c.one_class_a), ("B", c.one_class_b))
                    if k)
    if c.ties == c.n:
        return f"equal on {c.n}/{c.n} splits" + flags, "equal"
    if claims.is_objective(c.metric):
        diff += f" ({100 * c.relative:+.2g}%)"
    if c.n == 1:
        text = f"{diff} (1 split, no test)"
    else:
        text = f"lower on {c.wins}/{c.n}" + (f" ({c.ties} ties)" if c.ties else "") + f", {diff}, p = {c.p:.2g}"
    word = c.outcome
    if word == "not significant" and c.mean > 0:
        word = "higher"
    if word == "one-class":
        return text + flags, "one-class: not counted"
    return text + flags, BELOW_WORDS[word] + (" (1 split)" if c.n == 1 else "") + (
        f" ({c.band})" if word == "lower" and c.band else "")


def cell_text(rows, method, metric, fmt):
    """Mean ± std of ``metric`` over the splits of ``method`` in the cell ``rows``, both in the format
    ``fmt`` (the same decimals), and the splits it ran when fewer than the cell's (e.g. TSVM S=1 on split 0
    only); the runs that hit a cap are in their own column (:func:`stopped`)."""
    splits = rows["split"].nunique()
    rows = rows[rows["method"] == method]
    if rows.empty:
        return "-"
    values = rows[metric].to_numpy(float)
    text = fmt(np.nanmean(values)) + (f" ± {fmt(np.nanstd(values, ddof=1))}" if len(values) > 1 else "")
    fewer = f" ({len(values)} of {splits} splits)" if len(values) < splits else ""
    return text + fewer + one_class_note(rows)


def stopped(rows, methods):
    """The not-converged column of a cell: ``DA 6 of 10`` per method of ``methods`` with runs that hit a
    cap, ``none``, or ``not recorded`` for a record without the ``converged`` column."""
    if "converged" not in rows:
        return "not recorded"
    parts = []
    for method in methods:
        runs = rows[rows["method"] == method]
        k = int((~runs["converged"].astype(bool)).sum())
        if k:
            parts.append(f"{NAMES.get(method, method)} {k} of {len(runs)}")
    return ", ".join(parts) or "none"


def objective(x):
    """J (Eqn 18) in the tables: four decimals."""
    return num(x, 4) if x is None or not np.isfinite(x) else f"{x:.4f}"


def seconds(x):
    """Seconds in the tables: two decimals."""
    return num(x) if x is None or not np.isfinite(x) else f"{x:.2f}"


def one_class_note(rows):
    """`` (one-class on k of n)`` when some runs of ``rows`` label (nearly) every unlabeled row one class
    (:func:`ssl_repro.claims.rules.one_class`)."""
    if not {"r", "transductive_error"} <= set(rows):
        return ""
    k = int(claims.one_class(rows).sum())
    return f" (one-class on {k} of {len(rows)})" if k else ""


def not_converged(rows):
    """`` (k of n not converged)`` when some runs of ``rows`` hit a cap; nothing when none did."""
    if "converged" not in rows:
        return ""
    k = int((~rows["converged"].astype(bool)).sum())
    return f" ({k} of {len(rows)} not converged)" if k else ""


def convergence_line(frame):
    if "converged" not in frame:
        return "convergence not recorded (the record predates the `converged` column)."
    k = int((~frame["converged"].astype(bool)).sum())
    return f"{k} of {len(frame)} runs stopped on an iteration cap (the tables' not-converged column)."


def folder_line(records, folder, frame):
    """One line on a sweep folder's records: jobs, splits, code commit, convergence, the commands recorded."""
    commands = sorted({published(c) for c in frame["command"].dropna()}) if "command" in frame else []
    return (f"- `{folder}`: {len(frame)} jobs, {frame['split'].nunique()} split(s), "
            f"{frame['seconds'].sum() / 3600:.2g} h of fits (one solver thread each); "
            f"{commit_note(frame)}; {convergence_line(frame)}"
            + (f" Command{'s' if len(commands) > 1 else ''}: " + "; ".join(f"`{c}`" for c in commands) + "."
               if commands else " Command not recorded."))


def tally(words):
    """How many rows get each verdict: ``yes 11, no (1 split) 4 (of 15 rows)``."""
    words = [w for w in words if w != "not run"]
    counts = {w: words.count(w) for w in dict.fromkeys(words)}
    return "; ".join(f"{w} {k}" for w, k in counts.items()) + f" (of {len(words)} rows)"


def yes_no(flag):
    return "yes" if flag else "no"


def figure_caption(path):
    """``pcmac (real): learning_curve_pcmac/figures/pcmac_objective.png``: the data a sweep figure shows
    (its file name starts with the dataset), then its path under results/."""
    folder, name = path.split("/")[0], path.rsplit("/", 1)[-1]
    return path if folder == "figures" else f"{name.split('_')[0]} ({data_kind(name.split('_')[0])}): {path}"
