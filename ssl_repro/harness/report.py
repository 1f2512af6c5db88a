"""results/README.md, rendered from the committed records: every number and comparative word.

    python experiments/paper_artifacts.py report [--check]

:func:`render` reads the records under ``results/`` (each sweep folder's
``results.csv``, the scripts' JSON and CSV records, the peers' and the
calibration's records when present) and the papers' numbers and claims of
``experiments/paper_numbers.json`` (each with its paper, table and a quote
of the text that gives it), and writes one table per artifact of the
papers: the paper's number where its text gives one, ours, the data (real
or a SYNTHETIC stand-in), and whether the claim holds, decided here by code.

How a comparison is decided is :mod:`ssl_repro.harness.claims`'s alone
(thresholds, the paired signed-rank test, one-class runs, which data a
verdict rests on); here :func:`verdict` words it ("A below B": ``yes`` /
``equal`` / ``not significant`` / ``no`` / ``one-class: not counted``) and
:func:`claims_table` renders the claims table that opens the page.  Runs
that stopped on an iteration cap are counted in their cell ("3 of 10 not
converged"); a record without the column says "convergence not recorded".
Timing tables name the code commit of their records (results.csv
``git_commit``), or "code commit not recorded".  :func:`docs_pages` renders
the same sections as the documentation's Results pages, figures inline.
"""
import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from . import cccp_002, claims, plots
from .aggregate import read_results, summarize
from ..methods import LABELS

#: Record names of the methods, as the papers call them: ours from :data:`ssl_repro.methods.LABELS`,
#: then the peers' records (``peers/``).
NAMES = {**LABELS, "svmlight-tsvm": "SVM-light TSVM", "universvm-cccp": "UniverSVM CCCP-TSVM",
         "cccp-tsvm": "CCCP-TSVM (ours)"}
#: The datasets whose J the papers call "significantly" lower with DA (000 Sec. 4, 003 Table 2); else "slightly".
SIGNIFICANT_J = ("aut-avn", "ccat", "pcmac")
NOT_YET = "not measured yet"


real_name = claims.paper_set
data_kind = claims.data_kind


def pct(x, digits=2):
    return "-" if x is None or not np.isfinite(x) else f"{100 * x:.{digits}f}%"


def num(x, digits=4):
    return "-" if x is None or not np.isfinite(x) else f"{x:.{digits}g}"


def table(header, rows):
    """A markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


# ---------------------------------------------------------------- records

class Records:
    """The records under ``results`` and the repository ``repo`` they are committed in."""

    def __init__(self, results, repo):
        self.results, self.repo = Path(results), Path(repo)
        self.papers = json.loads((self.repo / "experiments" / "paper_numbers.json").read_text())

    def runs(self, folder):
        """``folder``'s results.csv, or None when absent."""
        f = self.results / folder / "results.csv"
        return read_results(f) if f.exists() else None

    def json(self, relative):
        f = self.results / relative
        return json.loads(f.read_text()) if f.exists() else None

    def csv(self, relative):
        f = self.results / relative
        return pd.read_csv(f) if f.exists() else None

    def folders(self, prefix):
        """The sweep folders under results/ whose name starts with ``prefix``, sorted."""
        return sorted(p.name for p in self.results.glob(f"{prefix}*") if (p / "results.csv").exists())


    def paper_numbers(self, **match):
        """The paper_numbers.json entries whose fields equal ``match``."""
        return [n for n in self.papers["numbers"] if all(n.get(k) == v for k, v in match.items())]

    def paper_value(self, **match):
        found = self.paper_numbers(**match)
        return found[0]["value"] if found else None

    def claims(self, artifact):
        return [c for c in self.papers["claims"] if c["artifact"] == artifact]


def commit_note(frame):
    """The code commit of the jobs in ``frame`` (results.csv ``git_commit`` and ``date``), for timing
    tables and figures; jobs run before the harness recorded a commit are counted as "code commit not
    recorded". Read from the record alone (never from git history), so a render does not change when
    the record is committed."""
    recorded = frame["git_commit"].notna() if "git_commit" in frame else pd.Series(False, index=frame.index)
    unrecorded = "code commit not recorded"
    if not recorded.any():
        return unrecorded
    commits = sorted({str(c)[:7] + ("+uncommitted" if "uncommitted" in str(c) else "")
                      for c in frame.loc[recorded, "git_commit"]})
    dates = sorted({str(d)[:10] for d in frame.loc[recorded, "date"].dropna()}) if "date" in frame else []
    note = f"code commit {', '.join(commits)}" + (f" ({', '.join(dates)})" if dates else "")
    return note if recorded.all() else f"{note}; {int((~recorded).sum())} jobs: {unrecorded}"


def claim_lines(records, artifact, where=""):
    """The papers' claims of ``artifact`` (those whose place contains ``where``) as quotes."""
    return [f"> {c['paper']} {c['where']}: \"{c['quote']}\"" for c in records.claims(artifact) if where in c["where"]]


# ---------------------------------------------------------------- comparisons

def paired(rows, a, b, metric):
    """``a`` vs ``b`` on ``metric`` in one cell: :func:`ssl_repro.harness.claims.compare`."""
    return claims.compare(rows, a, b, metric)


#: The report's word for "a below b" from :attr:`ssl_repro.harness.claims.Comparison.word`.
BELOW_WORDS = {"lower": "yes", "higher": "no", "equal": "equal", "not significant": "not significant",
               "lower (1 run)": "yes (1 split)", "higher (1 run)": "no (1 split)"}


def verdict(c, scale=1.0, unit=""):
    """(the comparison's numbers, ``yes`` / ``equal`` / ``not significant`` / ``no`` / ``one-class``) for
    "a below b" by the rules of :mod:`ssl_repro.harness.claims` (thresholds, test, one-class runs)."""
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
    word = c.word
    if word == "not significant" and c.mean > 0:
        word = "higher"
    if word == "one-class":
        return text + flags, "one-class: not counted"
    return text + flags, BELOW_WORDS[word] + (f" ({c.band})" if word == "lower" and c.band else "")


def cell_text(rows, method, metric, fmt):
    """Mean ± std of ``metric`` over the splits of ``method`` in the cell ``rows``, with the not-converged
    count, and the splits it ran when fewer than the cell's (e.g. TSVM S=1 on split 0 only)."""
    splits = rows["split"].nunique()
    rows = rows[rows["method"] == method]
    if rows.empty:
        return "-"
    values = rows[metric].to_numpy(float)
    text = fmt(np.nanmean(values)) + (f" ± {fmt(np.nanstd(values, ddof=1))}" if len(values) > 1 else "")
    fewer = f" ({len(values)} of {splits} splits)" if len(values) < splits else ""
    return text + fewer + not_converged(rows) + one_class_note(rows)


def one_class_note(rows):
    """`` (one-class on k of n)`` when some runs of ``rows`` label (nearly) every unlabeled row one class
    (:func:`ssl_repro.harness.claims.one_class`)."""
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
    return f"{k} of {len(frame)} runs stopped on an iteration cap (counted in their cells)."


def folder_line(records, folder, frame):
    """One line on a sweep folder's records: jobs, splits, code commit, convergence, the commands recorded."""
    commands = sorted(set(frame["command"].dropna())) if "command" in frame else []
    return (f"- `{folder}`: {len(frame)} jobs, {frame['split'].nunique()} split(s), "
            f"{frame['seconds'].sum() / 3600:.2g} h of fits (one solver thread each); "
            f"{commit_note(frame)}; {convergence_line(frame)}"
            + (f" Command{'s' if len(commands) > 1 else ''}: " + "; ".join(f"`{c}`" for c in commands) + "."
               if commands else " Command not recorded."))


def cells(frame):
    """(n_labeled, n_unlabeled, rows) of one dataset's sweep, in order of labels then unlabeled rows."""
    for (l, u), rows in frame.groupby(["n_labeled", "n_unlabeled"], sort=True):
        yield int(l), int(u), rows


def tally(words):
    """How many rows get each verdict: ``yes 11, no (1 split) 4 (of 15 rows)``."""
    words = [w for w in words if w != "not run"]
    counts = {w: words.count(w) for w in dict.fromkeys(words)}
    return "; ".join(f"{w} {k}" for w, k in counts.items()) + f" (of {len(words)} rows)"


# ---------------------------------------------------------------- artifact sections

def sweep_frames(records, prefix):
    """(folder, dataset, frame) of every sweep folder starting with ``prefix``: real sets first, then
    real-text analogs, then stand-ins (:data:`ssl_repro.harness.claims.KIND_ORDER`), by name within each."""
    found = [(folder, dataset, frame[frame["dataset"] == dataset])
             for folder in records.folders(prefix) for frame in [records.runs(folder)]
             for dataset in sorted(frame["dataset"].unique())]
    yield from sorted(found, key=lambda t: (claims.KIND_ORDER.index(data_kind(t[1])), t[1]))


def section_drawings(records):
    """tsvm-loss, da-loss, balance-root: properties of the drawn functions, computed."""
    o = np.linspace(-2.5, 2.5, 501)
    a, b = np.maximum(0.0, 1.0 - o) ** 2, np.maximum(0.0, 1.0 + o) ** 2
    tsvm = np.maximum(0.0, 1.0 - np.abs(o)) ** 2
    low = np.max(np.abs(plots.da_effective_loss(o, 0.01) - np.minimum(a, b)))
    high = np.max(np.abs(plots.da_effective_loss(o, 1000.0) - (a + b) / 2) / np.max((a + b) / 2))
    g = np.linspace(-5.0, 5.0, 200)
    nus = np.linspace(-15.0, 15.0, 601)
    from ..solvers.balance import balance_function
    B = np.array([balance_function(g, nu, 1.0, 0.15)[0] for nu in nus])
    increasing = bool(np.all(np.diff(B) >= 0))
    roots = int(np.sum(np.diff(np.sign(B)) != 0))
    rows = [["tsvm-loss", "Fig 1 (000): max(0, 1 - |o|)^2", "min over y' of Eqn 7's max(0, 1 - y'o)^2: largest "
             f"difference from the drawn curve {np.max(np.abs(tsvm - np.minimum(a, b))):.1g}",
             "-", "yes" if np.allclose(tsvm, np.minimum(a, b)) else "no"],
            ["da-loss", "Fig 2 (000): squared-loss shape at high T, the TSVM loss as T -> 0",
             f"at T = 0.01 the drawn loss is within {low:.2g} of the TSVM loss; at T = 1000 within "
             f"{100 * high:.2g}% of the squared loss (a + b)/2", "-", "yes" if low < 0.01 and high < 0.01 else "no"],
            ["balance-root", "Fig 3 (000): B(nu) increasing, one root (T = 1, r = 0.15, g in [-5, 5])",
             f"increasing on the {len(nus)} drawn points: {'yes' if increasing else 'no'}; sign changes: {roots}; "
             f"limits {B[0]:+.3g}, {B[-1]:+.3g} (-r, 1 - r)", "-", "yes" if increasing and roots == 1 else "no"]]
    return ["## Loss shapes and B(nu) (tsvm-loss, da-loss, balance-root)", "",
            *claim_lines(records, "tsvm-loss"), *claim_lines(records, "da-loss"),
            *claim_lines(records, "balance-root"), "",
            table(["artifact", "the paper", "ours (computed from the drawn functions)", "data", "holds"], rows),
            "", "Figures: `figures/fig_tsvm_loss.png`, `figures/fig_da_loss.png`, `figures/fig_balance_B_nu.png`."]


def section_dataset_table(records):
    return with_record(records, "## Datasets (dataset-table: 000 Table 8, 003 Table 1, 004 Table 1.1)",
                       "dataset_table/table.json", lambda record: _dataset_table(records, record))


def _dataset_table(records, record):
    """One row per set of the papers' dataset tables: the paper's d, n0, l+u, t (000 Table 8, else 004
    Table 1.1 for the large sets) beside ours: the real set's, or the stand-in's, whose d, l+u and t are
    the paper's by construction (not a check)."""
    rows = []
    for r in record["rows"]:
        ours = r.get("ours") or r.get("stand_in") or {}
        kind = (claims.data_kind(r["dataset"]) if r.get("ours")
                else claims.STAND_IN if r.get("stand_in") else "not here")
        paper, source = {}, {}
        for k in ("d", "n0", "l+u", "t"):
            for where in ("000 Table 8", "004 Table 1.1"):
                value = records.paper_value(paper=where[:3], where=where[4:], dataset=r["dataset"], quantity=k)
                if value is not None:
                    paper[k], source[k] = value, where
                    break
        checked = [k for k in ("d", "l+u", "t") if paper.get(k) is not None and ours.get(k) is not None]
        same = [k for k in checked if ours.get(k) == paper[k]]
        n0 = (f"{100 * (ours['n0'] / paper['n0'] - 1):+.1f}%" if paper.get("n0") and ours.get("n0") else "-")
        equal = "-" if not checked else f"{len(same)} of {len(checked)}" + (
            " (by construction)" if kind == claims.STAND_IN else "")
        rows.append([r["dataset"], kind, ", ".join(sorted(set(source.values()))) or "-",
                     *(f"{_fmt(paper.get(k))} / {_fmt(ours.get(k))}" for k in ("d", "n0", "l+u", "t")), n0, equal])
        rows += [[r["dataset"], f"{claims.data_kind(a['dataset'])}: {a['dataset']}",
                  ", ".join(sorted(set(source.values()))) or "-",
                  *(f"{_fmt(paper.get(k))} / {_fmt((a['figures'] or {}).get(k))}" for k in ("d", "n0", "l+u", "t")),
                  "-", "-"] for a in r.get("analogs", [])]
    return [f"From `dataset_table/table.json` ({_provenance(record)}); the paper's columns from "
            "`experiments/paper_numbers.json` (000 Table 8; 004 Table 1.1 for full-ccat, full-gcat and kdd99, "
            "which 000 does not list). A stand-in's d, l+u and t are set to the paper's, so their equality is "
            "no check; its n0 is generated.", "",
            table(["dataset", "data", "paper", "d: paper / ours", "n0: paper / ours", "l+u: paper / ours",
                   "t: paper / ours", "n0 ours vs paper", "d, l+u, t equal"], rows)]


def _fmt(x):
    if x is None:
        return "-"
    return f"{x:,.0f}" if float(x).is_integer() else f"{x:.4g}"


def _provenance(record):
    """The command, date and code commit of a record, then those of the earlier runs merged into it."""
    def one(p):
        commit = str(p.get("git_commit") or p.get("code") or "")[:7]
        return f"command `{p.get('command', '?')}`, {str(p.get('date', p.get('date_utc', '?')))[:10]}" + (
            f", code commit {commit}" if commit else "")
    earlier = record.get("earlier", []) if "provenance" in record else []
    return one(record.get("provenance", record)) + "".join(
        f"; merged with the runs of {one(p)}" for p in earlier)


def section_objective(records):
    rows, words = [], []
    for folder, dataset, frame in sweep_frames(records, "learning_curve_"):
        for l, u, cell in cells(frame):
            numbers, word = verdict(paired(cell, "da", "tsvm-Smax", "objective_eqn18"))
            words.append(word)
            claim = "significantly lower" if real_name(dataset) in SIGNIFICANT_J else "slightly lower"
            rows.append([dataset, data_kind(dataset), l, claim,
                         cell_text(cell, "da", "objective_eqn18", num),
                         cell_text(cell, "tsvm-Smax", "objective_eqn18", num), numbers, word])
    return ["## Objective minima (objective-minima: 000 Fig 4, 003 Table 2, 004 Fig 1.3; aut-avn-fig5: 001 Fig 5, "
            "top)", "",
            *claim_lines(records, "objective-minima"), *claim_lines(records, "aut-avn-fig5", "top"), "",
            *(folder_line(records, folder, frame) for folder, _, frame in sweep_frames(records, "learning_curve_")),
            "", "The papers give these minima only as plots (003's Table 2 is not legible in its text): the claim, "
            "not a number, is compared. DA's J (Eqn 18) below TSVM S=max's, paired over splits "
            f"(`learning_curve_*/results.csv`): {tally(words)}.", "",
            table(["dataset", "data", "labels", "the paper (DA vs TSVM)", "J DA", "J TSVM S=max",
                   "DA - TSVM: wins, mean ± std, Wilcoxon p", "DA lower"], rows),
            *svmlin_agreement_lines(records)]


def svmlin_agreement_lines(records):
    """What the papers' C++ reference (SVMlin) finds on the same jobs as the records
    (``reference_agreement/svmlin_*.csv``, ``experiments/svmlin_agreement.py``): how far the two
    objectives are apart, and on how many jobs each has DA's J above TSVM S=max's."""
    lines = []
    for path in sorted((records.results / "reference_agreement").glob("svmlin_*.csv")):
        frame = records.csv(path.relative_to(records.results))
        gap = frame["objective_relative_difference"].abs()
        pairs = frame.pivot_table(index=["split", "n_labeled"], columns="method",
                                  values=["objective_svmlin", "objective_record"])
        both = pairs.dropna()
        above = {side: int((both[(side, "da")] > both[(side, "tsvm-Smax")]).sum())
                 for side in ("objective_svmlin", "objective_record")}
        labels = ", ".join(str(n) for n in sorted(frame["n_labeled"].unique()))
        lines.append(f"- `reference_agreement/{path.name}`: SVMlin on {len(frame)} of the same jobs "
                     f"({', '.join(sorted(frame['dataset'].unique()))}, l = {labels}, "
                     f"{frame['split'].nunique()} splits, the record's lambda, lambda' and r): J of the record "
                     f"within {100 * gap.max():.2g}% of SVMlin's (median {100 * gap.median():.2g}%); DA's J above "
                     f"TSVM S=max's on {above['objective_svmlin']} of {len(both)} jobs for SVMlin, "
                     f"{above['objective_record']} of {len(both)} in the record.")
    if not lines:
        return []
    return ["", "The papers' C++ reference on the same jobs (`python experiments/svmlin_agreement.py`): both are "
                "non-convex searches, so J agrees closely, not to the bit; where the record's DA ends above "
                "TSVM's J, SVMlin's does too when these counts match.", "", *lines]


def section_learning_curves(records):
    rows, words = [], {"da": [], "svm": [], "s1": []}
    for folder, dataset, frame in sweep_frames(records, "learning_curve_"):
        for l, u, cell in cells(_with_timing_s1(records, dataset, frame)):
            da_numbers, da = verdict(paired(cell, "da", "tsvm-Smax", "test_error"), 100, " pt")
            _, svm = verdict(paired(cell, "tsvm-Smax", "svm", "test_error"))
            s1 = paired(cell, "tsvm-S1", "tsvm-Smax", "test_error")
            s1_text = ("-" if s1 is None else f"{100 * s1.mean:+.2f} pt"
                       + (f" ± {100 * s1.std:.2f} pt" if s1.n > 1 else " (1 split)"))
            for key, word in (("da", da), ("svm", svm)):
                words[key].append(word)
            rows.append([dataset, data_kind(dataset), l,
                         *(cell_text(cell, m, "test_error", pct) for m in ("svm", "tsvm-S1", "tsvm-Smax", "da")),
                         da_numbers, da, svm, s1_text])
    return ["## Learning curves (learning-curves: 000 Figs 5-10, 003 Table 3, 004 Figs 1.4-1.5; aut-avn-fig5: 001 "
            "Fig 5, middle)", "",
            *claim_lines(records, "learning-curves"), *claim_lines(records, "aut-avn-fig5", "middle"), "",
            "Test error, mean ± std over splits (`learning_curve_*/results.csv`). DA below TSVM S=max: "
            f"{tally(words['da'])}; TSVM S=max below the SVM (the benefit of unlabeled data): "
            f"{tally(words['svm'])}. S=1 - S=max is the mean ± std of the paired difference "
            "(\"nearly identical\"); where a learning curve has no TSVM S=1 runs, its S=1 column is the timing "
            "sweep's (`timing_*/results.csv`, split 0).", "",
            table(["dataset", "data", "labels", "SVM", "TSVM S=1", "TSVM S=max", "DA",
                   "DA - TSVM S=max: wins, mean ± std, p", "DA lower", "TSVM S=max below SVM", "S=1 - S=max"], rows),
            "", "Where DA's error equals the SVM's on a stand-in with few positives, DA returned the weights of its "
            "first temperature, which label every unlabeled row negative: the paper's rule returns the lowest J "
            "on the annealing path, and Eqn 18 has no balance term, so those weights can have the lowest J. The "
            "C++ reference returns the same J and error (`reference_agreement/`); the path is in `da_path/`. "
            "How hard each stand-in is, against the paper's set, is in the calibration section.",
            *svm_bias_lines(records)]


def svm_bias_lines(records):
    """Why the SVM's pcmac error peaks at 7 labels, from ``svm_bias/pcmac.json``
    (``experiments/svm_bias.py``)."""
    record = records.json("svm_bias/pcmac.json")
    if record is None:
        return []
    r = record["rows"]
    rows = [[l, f"{v['labeled_positives']:.0f} of {l}",
             f"{v['bias']:+.3f} ({v['bias_min']:+.3f} to {v['bias_max']:+.3f})",
             *(pct(v[k], 1) for k in ("wx_zero", "bias_decides", "predicted_positive", "test_error", "negative_share"))]
            for l, v in r.items()]
    seven = r.get("7")
    why = "" if seven is None else (
        f" At 7 labels every split labels 4 positives and 3 negatives (the stratified order of the split rule: "
        f"000's footnote 14, \"The class ratios are maintained in these splits\", asks no more), the fitted bias "
        f"is positive on every split ({seven['bias_min']:+.3f} to {seven['bias_max']:+.3f}), and on "
        f"{pct(seven['bias_decides'], 1)} of the test rows |w.x| is below it: with 7 short documents w is small "
        f"on most test rows (no test row has w.x = 0: {pct(seven['wx_zero'], 1)}), so the bias decides, "
        f"{pct(seven['predicted_positive'], 1)} are predicted positive and the error ({pct(seven['test_error'], 1)}) "
        f"is nearly the negative share ({pct(seven['negative_share'], 1)}). With 2 or 4 labels the classes are "
        "balanced and the bias is near 0; at 15 (8 of 15) it is smaller than at 7.")
    return ["", f"**The SVM at 7 pcmac labels** (`svm_bias/pcmac.json`, {_provenance(record['provenance'])}: "
            f"the SVM refitted on the learning curve's splits, means over {seven['splits'] if seven else '?'} splits)."
            + why, "", table(["labels", "labeled positives", "bias b", "w.x = 0", "abs(w.x) < abs(b)",
                              "predicted positive", "test error", "negatives in test"], rows)]


def _with_timing_s1(records, dataset, frame):
    """A learning curve's rows plus TSVM S=1's from the same dataset's timing sweep (split 0) when the curve
    has none: the stand-ins run S=1, the slowest method, in the timing sweep only."""
    if (frame["method"] == "tsvm-S1").any():
        return frame
    for _, timing_dataset, timing in sweep_frames(records, "timing_"):
        if timing_dataset == dataset:
            s1 = timing[(timing["method"] == "tsvm-S1") & timing["n_labeled"].isin(frame["n_labeled"])]
            return pd.concat([frame, s1], ignore_index=True)
    return frame


def section_timing(records):
    lines = ["## Training time (timing: 000 Fig 11, 003 Fig 3, 004 Fig 1.6)", "", *claim_lines(records, "timing"), ""]
    rows, tenfold, sixfold, between = [], [], [], []
    for folder, dataset, frame in sweep_frames(records, "timing_"):
        lines.append(folder_line(records, folder, frame))
        for l, u, cell in cells(frame):
            mean = cell.groupby("method")["seconds"].mean()
            s1, smax, da = (mean.get(k, np.nan) for k in ("tsvm-S1", "tsvm-Smax", "da"))
            ratio = s1 / smax
            tenfold.append("yes" if ratio >= 10 else "no")
            sixfold.append("yes" if ratio >= 6 else "no")
            between.append("yes" if smax < da < s1 else "no")
            rows.append([dataset, data_kind(dataset), l, cell["split"].nunique(),
                         *(cell_text(cell, m, "seconds", lambda x: f"{x:.3g}")
                           for m in ("tsvm-S1", "tsvm-S10", "tsvm-S100", "tsvm-Smax", "da")),
                         f"{ratio:.3g}", f"{da / smax:.3g}", tenfold[-1], sixfold[-1], between[-1]])
    return lines + ["", "Seconds of training, mean over the splits run (`timing_*/results.csv`). S=1 at least ten "
                    f"times S=max (003: \"an order of magnitude\"): {tally(tenfold)}; at least six times "
                    f"(004: \"six to seven times\"): {tally(sixfold)}; DA between S=max and S=1 "
                    f"(003): {tally(between)}.", "",
                    table(["dataset", "data", "labels", "splits", "S=1 (s)", "S=10 (s)", "S=100 (s)", "S=max (s)",
                           "DA (s)", "S=1 / S=max", "DA / S=max", "S=1 >= 10 x S=max", "S=1 >= 6 x S=max",
                           "S=max < DA < S=1"], rows)]


def section_svmlight(records):
    """000 Table 9 / 003 Table 4: the paper's seconds and errors beside SVM-light's (``peers/table9.csv``)
    and ours (the timing sweeps' split 0 at the lowest label count, else the learning curves')."""
    peers = records.csv("peers/table9.csv")
    lines = ["## Speed beside SVM-light (svmlight-speed: 000 Table 9, 003 Table 4)", "",
             *claim_lines(records, "svmlight-speed"), "",
             "The first split at the lowest label count. 003's Table 4 has the same rows but its numbers are not "
             "legible in its text; 000 Table 9's are (MATLAB, error rate not said to be test or transductive). "
             "Ours: the timing sweep's split 0 at the lowest label count (else the learning curve's), one "
             "solver thread, seconds of the fit; SVM-light: its printed CPU seconds, killed past a CPU-time cap "
             "(\"> cap\")."]
    ours = _our_table9_rows(records)
    if peers is None:
        lines.append("SVM-light: " + NOT_YET + " (`peers/table9.csv` absent).")
        svmlight = ours.iloc[0:0]
    else:
        svmlight = peers[peers["method"] == "svmlight-tsvm"].assign(
            code=lambda f: [f"`peers/table9.csv`: {str(c)[:7]}, {str(d)[:10]}" for c, d in zip(f["git_commit"],
                                                                                               f["date"])])
        lines.append("SVM-light from `peers/table9.csv` (its binary, command, machine and load in "
                     "`peers/table9.json`).")
    both = pd.concat([svmlight, ours], ignore_index=True)
    order = {m: i for i, m in enumerate(("svmlight-tsvm", "tsvm-S1", "tsvm-Smax", "da"))}
    both = both.sort_values(["dataset", "method"], key=lambda c: c.map(order) if c.name == "method" else c,
                            kind="stable")
    rows, faster = [], []
    for _, r in both.iterrows():
        paper_s = records.paper_value(paper="000", where="Table 9", dataset=real_name(r["dataset"]),
                                      method=r["method"], quantity="seconds")
        paper_e = records.paper_value(paper="000", where="Table 9", dataset=real_name(r["dataset"]),
                                      method=r["method"], quantity="error")
        seconds = (f"> {r['cap_seconds']:g}" if bool(r.get("capped", False)) else num(r["seconds"], 3))
        rows.append([r["dataset"], data_kind(r["dataset"]), r["n_labeled"], NAMES.get(r["method"], r["method"]),
                     _fmt(paper_s), seconds, pct(paper_e), pct(r["test_error"]), pct(r["transductive_error"]),
                     r["code"]])
    for dataset, part in both.groupby("dataset"):
        by_method = part.set_index("method")
        if {"svmlight-tsvm", "tsvm-Smax"} <= set(by_method.index):
            capped = bool(by_method.loc["svmlight-tsvm"].get("capped", False))
            faster.append(f"{dataset}: {by_method.loc['svmlight-tsvm', 'seconds'] / by_method.loc['tsvm-Smax', 'seconds']:.3g}x"
                          + (" (SVM-light capped: at least)" if capped else ""))
    lines += ["", table(["dataset", "data", "labels", "method", "000 seconds", "ours seconds", "000 error",
                         "ours test error", "ours transductive error", "record"], rows)]
    if faster:
        lines += ["", "SVM-light's seconds over TSVM S=max's: " + "; ".join(faster) + "."]
    return lines


def _our_table9_rows(records):
    """Our S=1, S=max, DA rows at the lowest label count, split 0, from the timing (else learning-curve) folders."""
    rows = []
    for prefix in ("timing_", "learning_curve_"):
        for folder, dataset, frame in sweep_frames(records, prefix):
            if any(r["dataset"] == dataset for r in rows):
                continue
            low = frame[(frame["split"] == 0) & (frame["n_labeled"] == frame["n_labeled"].min())]
            for method in ("tsvm-S1", "tsvm-Smax", "da"):
                part = low[low["method"] == method]
                if not part.empty:
                    r = part.iloc[0]
                    rows.append({"dataset": dataset, "n_labeled": int(r["n_labeled"]), "method": method,
                                 "seconds": r["seconds"], "capped": False, "test_error": r["test_error"],
                                 "transductive_error": r["transductive_error"],
                                 "code": f"`{folder}`: {commit_note(part)}"})
    return pd.DataFrame(rows, columns=["dataset", "n_labeled", "method", "seconds", "capped", "test_error",
                                       "transductive_error", "code"])


def section_ablation(records):
    rows, words = [], []
    fixed = ("da-T1", "da-T0.1", "da-T0.001")
    for folder, dataset, frame in sweep_frames(records, "ablation_"):
        for l, u, cell in cells(frame):
            row = [dataset, data_kind(dataset), l, cell_text(cell, "da", "objective_eqn18", num)]
            for t in fixed:
                numbers, word = verdict(paired(cell, "da", t, "objective_eqn18"))
                words.append(word)
                row.append(f"{cell_text(cell, t, 'objective_eqn18', num)}: DA {numbers}, **{word}**")
            row += [cell_text(cell, m, "test_error", pct) for m in ("da",) + fixed]
            rows.append(row)
    notes = [folder_line(records, folder, frame) for folder, _, frame in sweep_frames(records, "ablation_")]
    return ["## Annealing vs fixed temperature (annealing-ablation: 000 Figs 12-13, 004 Sec. 1.5; 001 Fig 5, "
            "bottom)", "",
            *claim_lines(records, "annealing-ablation"), *claim_lines(records, "aut-avn-fig5", "bottom"), "",
            *notes, "",
            "J (Eqn 18) of DA and of DA held at a fixed T; each fixed-T cell says whether DA's J is below it, paired "
            f"over splits: {tally(words)}. Test errors beside (Fig 13).", "",
            table(["dataset", "data", "labels", "J DA", "J fixed T=1", "J fixed T=0.1", "J fixed T=0.001",
                   "test error DA", "T=1", "T=0.1", "T=0.001"], rows)]


def section_transductive(records):
    rows, doubling = [], []
    lines = ["## Large transductive sets (large-transductive: 004 Tables 1.2-1.7)", "",
             *claim_lines(records, "large-transductive"), ""]
    for folder, dataset, frame in sweep_frames(records, "transductive_"):
        lines.append(folder_line(records, folder, frame))
        paper_set = real_name(dataset)
        for l in sorted(frame["n_labeled"].unique()):
            us = sorted(frame.loc[frame["n_labeled"] == l, "n_unlabeled"].unique())
            for rank, u in enumerate(us):
                cell = frame[(frame["n_labeled"] == l) & (frame["n_unlabeled"] == u)]
                value = {r["method"]: r for _, r in cell.iterrows()}
                key = _paper_row(paper_set, l, rank)
                pj = [records.paper_value(paper="004", dataset=paper_set, method=m, quantity=f"objective_eqn18 {key}")
                      for m in ("tsvm-Smax", "da")]
                pe = [records.paper_value(paper="004", dataset=paper_set, method=m,
                                          quantity=f"transductive_error {key}") for m in ("svm", "tsvm-Smax", "da")]
                pm = [records.paper_value(paper="004", dataset=paper_set, method=m, quantity=f"minutes {key}")
                      for m in ("tsvm-Smax", "da")]
                j = [value[m]["objective_eqn18"] if m in value else np.nan for m in ("tsvm-Smax", "da")]
                e = [value[m]["transductive_error"] if m in value else np.nan for m in ("svm", "tsvm-Smax", "da")]
                s = [value[m]["seconds"] if m in value else np.nan for m in ("tsvm-Smax", "da")]
                lower = verdict(paired(cell, "da", "tsvm-Smax", "objective_eqn18"))[1]
                below_svm = ", ".join(f"{NAMES[m]} {verdict(paired(cell, m, 'svm', 'transductive_error'))[1]}"
                                      for m in ("tsvm-Smax", "da"))
                stopped = ", ".join(NAMES.get(m, m) for m, r in value.items()
                                    if "converged" in r and not bool(r["converged"])) or (
                    "none" if "converged" in cell else "not recorded")
                rows.append([dataset, data_kind(dataset), f"{l:,}, {u:,}", " / ".join(_fmt(x) for x in pj),
                             " / ".join(num(x, 6) for x in j), lower,
                             " / ".join(_fmt(x) for x in pe), " / ".join(pct(x) for x in e), below_svm,
                             " / ".join(_fmt(x) for x in pm), " / ".join(f"{x:.3g}" for x in s), stopped])
            if len(us) == 2:
                for m in ("tsvm-Smax", "da"):
                    pair = [frame[(frame["n_labeled"] == l) & (frame["n_unlabeled"] == u) & (frame["method"] == m)]
                            for u in us]
                    if all(len(p) for p in pair):
                        s0, s1 = (p.iloc[0] for p in pair)
                        doubling.append([dataset, l, NAMES[m], f"{us[1] / us[0]:.3g}",
                                         f"{s1['seconds'] / s0['seconds']:.3g}",
                                         f"{s1['cg_iterations'] / s0['cg_iterations']:.3g}"
                                         if "cg_iterations" in s0 and s0["cg_iterations"] else "-"])
    lines += ["", "Absolute errors and times are not comparable across the columns: the paper ran the full sets in "
              "MATLAB, ours are the 10% kdd file and stand-ins, on a shared machine. "
              "One run per row (no test). Paper columns: full-ccat, full-gcat and kdd99 (the full file) of "
              "004; ours: the 10% kdd file and SYNTHETIC stand-ins of full-ccat's shape. The paper's error rates "
              "are in %, its times in minutes.", "",
              table(["dataset", "data", "l, u", "004 J TSVM / DA", "ours J TSVM / DA", "DA's J lower",
                     "004 error SVM / TSVM / DA (%)", "ours error SVM / TSVM / DA", "below SVM",
                     "004 minutes TSVM / DA", "ours seconds TSVM / DA", "not converged"], rows)]
    if doubling:
        lines += ["", "Table 1.6's \"doubling the amount of data roughly doubles the training time\": ours when u "
                  "grows (seconds measured on a shared machine; CG iterations times rows is the work).", "",
                  table(["dataset", "l", "method", "u ratio", "seconds ratio", "CG iterations ratio"], doubling)]
    return lines


def _paper_row(paper_set, l, rank):
    """004's (l, u) key of our row: the rank-th u at ``l`` (402107 then 804314 on RCV1; kdd99's one row)."""
    if paper_set.startswith("kdd99"):
        return "l=1000 u=4897431"
    return f"l={l} u={(402107, 804314)[rank]}"


def section_kernel_toy(records):
    grid = records.json("kernel_toy_table/grid.json")
    lines = ["## 2MOONS, 2CIRCLES (kernel-toy-table: 001 Table 2)", "", *claim_lines(records, "kernel-toy-table"), ""]
    if grid is None:
        return lines + [NOT_YET]
    frame = pd.DataFrame(grid)
    best = frame.groupby(["method", "dataset"])["successes"].max().unstack()
    rows, order = [], {}
    for method, r in best.iterrows():
        paper = [records.paper_value(paper="001", where="Table 2", dataset=d, method=method)
                 for d in ("2MOONS", "2CIRCLES")]
        rows.append([method, *(f"{_fmt(p)} / {int(r[d])}" for p, d in zip(paper, ("2MOONS", "2CIRCLES")))])
    for d in ("2MOONS", "2CIRCLES"):
        da = best.loc["DA (l1)", d]
        nabla = best.loc["nabla-TSVM", d] if "nabla-TSVM" in best.index else np.nan
        jtsvm = best.loc[[m for m in best.index if m.startswith("JTSVM")], d].max()
        order[d] = (f"DA (l1) {int(da)} {'>' if da > nabla else '=' if da == nabla else '<'} nabla-TSVM {int(nabla)} "
                    f"{'>' if nabla > jtsvm else '=' if nabla == jtsvm else '<'} best JTSVM {int(jtsvm)}: "
                    + ("holds" if da > nabla > jtsvm else "does not hold"))
    prov = records.json("kernel_toy_table/provenance.json")
    return lines + [f"Successes of 10 draws, best over the grid (`kernel_toy_table/grid.json`; "
                    f"{_provenance(prov) if prov else 'provenance not recorded'}). Data: ours (001's sets are not "
                    "published).", "", table(["method", "2MOONS: 001 / ours", "2CIRCLES: 001 / ours"], rows), "",
                    *(f"- {d}: {text}" for d, text in order.items())]


def section_kernel_benchmarks(records):
    return with_record(records, "## PC-MAC, kernel methods (kernel-benchmarks: 001 Tables 4-5)",
                       "kernel_benchmarks/table.json", lambda record: _kernel_benchmarks(records, record))


def _kernel_benchmarks(records, record):
    rows = []
    for method, r in record["rows"].items():
        where = "Table 5" if method.startswith("T=") else "Table 4"
        paper = {f"{w} {p}": records.paper_value(paper="001", where=where, dataset="PC-MAC", method=method,
                                                 quantity=f"error {w} {p}")
                 for w in ("selected", "best") for p in ("u", "t")}
        rows.append([method, f"{_fmt(paper['selected u'])}/{_fmt(paper['selected t'])}",
                     f"{r['selected'][0]:.1f}/{r['selected'][1]:.1f}",
                     f"{_fmt(paper['best u'])}/{_fmt(paper['best t'])}", f"{r['best'][0]:.1f}/{r['best'][1]:.1f}",
                     r["splits"], r["grid_points"]])
    sel = {m: r["selected"][0] for m, r in record["rows"].items()}
    best = {m: r["best"][0] for m, r in record["rows"].items()}
    checks = [f"DA below JTSVM on u (selected / best): {_below(sel, 'DA', 'JTSVM')} / {_below(best, 'DA', 'JTSVM')}"]
    if "nabla-TSVM" in sel:
        checks.append(f"nabla-TSVM below JTSVM: {_below(sel, 'nabla-TSVM', 'JTSVM')} / "
                      f"{_below(best, 'nabla-TSVM', 'JTSVM')}")
    fixed = [m for m in sel if m.startswith("T=")]
    checks.append(f"every fixed T above DA on u (beyond the error threshold), selected: "
                  f"{sum(_below(sel, 'DA', m) == 'yes' for m in fixed)} of {len(fixed)}; "
                  f"best: {sum(_below(best, 'DA', m) == 'yes' for m in fixed)} of {len(fixed)}")
    return [*claim_lines(records, "kernel-benchmarks"), "",
            f"Error % on the unlabeled / test rows, means over splits, model selection on the validation "
                    f"rows and at the best grid point (`kernel_benchmarks/table.json`; {_provenance(record)}). "
                    "Data: real pcmac (our vectorization), a reduced grid (columns). Comparisons are of means "
                    "(the record keeps no per-split errors of the selected point).", "",
                    table(["method", "001 selected u/t", "ours selected u/t", "001 best u/t", "ours best u/t",
                           "splits", "grid points"], rows), "", *(f"- {c}" for c in checks)]


def _yes(flag):
    return "yes" if flag else "no"


def _below(errors, a, b):
    """``yes`` / ``equal`` / ``no``: mean error % ``errors[a]`` below ``errors[b]`` by the error threshold
    (means only: no paired test)."""
    x, y = errors[a] / 100, errors[b] / 100
    return "equal" if claims.equal_within("transductive_error", x - y, x, y) else _yes(x < y)


# ---------------------------------------------------------------- other records

def section_calibration(records):
    return with_record(records, "## Calibration of the SYNTHETIC stand-ins", "calibration/calibration.json",
                       _calibration)


def _calibration(record):
    """The calibration rows; ``paper_error`` and ``reached_error`` share a unit: percent when the paper's
    error is above 1 (Table 9's 20.81), else fractions."""
    rows = []
    for r in record["rows"]:
        scale = 100.0 if r["paper_error"] > 1 else 1.0
        paper, reached = r["paper_error"] / scale, r["reached_error"] / scale
        gap = 100 * (reached - paper)
        rows.append([r["dataset"], pct(paper), r["paper_source"], r["matched"], pct(reached), f"{gap:+.2f} pt",
                     _yes(abs(gap) <= 2), ", ".join(f"{k}={v}" for k, v in r.get("generator", {}).items())])
    return [f"`calibration/calibration.json` ({_provenance(record)}): TSVM S=max's error on split 0 at the "
            "lowest label count against the paper's; within 2 points is the target.", "",
            table(["stand-in", "paper error", "source", "matched", "reached", "difference", "within 2 pt",
                   "generator"], rows)]


def section_universvm(records):
    return with_record(records, "## CCCP-TSVM beside UniverSVM (002)", "peers/universvm.csv", _universvm,
                       load=Records.csv)


def _universvm(frame):
    rows = []
    for (dataset, l), cell in frame.groupby(["dataset", "n_labeled"]):
        numbers, word = verdict(paired(cell, "cccp-tsvm", "universvm-cccp", "transductive_error"), 100, " pt")
        peer = cell[cell["method"] == "universvm-cccp"]
        if "capped" in peer and peer["capped"].fillna(False).astype(bool).any():
            numbers, word = f"UniverSVM capped on {int(peer['capped'].fillna(False).astype(bool).sum())} of " \
                            f"{len(peer)} splits", "not compared"
        for method, part in cell.groupby("method"):
            rows.append([dataset, data_kind(dataset), l, NAMES.get(method, method), part["split"].nunique(),
                         _seconds_text(part), pct(part["transductive_error"].mean()),
                         pct(part["test_error"].mean()), "; ".join(sorted(set(map(str, part["parameters"])))),
                         ", ".join(sorted({str(c)[:7] for c in part["git_commit"].dropna()})),
                         f"{numbers}: **{word}**" if method == "cccp-tsvm" else ""])
    return ["`peers/universvm.csv`: means over the splits run; UniverSVM's seconds are its process's CPU "
            "seconds, \"> cap\" when it was killed at its CPU-time cap; the last column: ours "
            "(`LinearCCCPTSVM`) minus UniverSVM's transductive error, paired over splits, and whether ours is "
            "lower.", "",
            table(["dataset", "data", "labels", "method", "splits", "seconds", "transductive error",
                   "test error", "parameters", "code", "ours - UniverSVM"], rows)]


def _seconds_text(part):
    """Mean seconds of ``part``'s runs, or "> cap" when every run was killed at its cap."""
    capped = part["capped"].fillna(False).astype(bool) if "capped" in part else pd.Series(False, part.index)
    if capped.all():
        return f"> {part['cap_seconds'].max():g}"
    return f"{part.loc[~capped, 'seconds'].mean():.3g}" + (f" ({capped.sum()} capped)" if capped.any() else "")


def section_side_by_side(records):
    lines = ["## Speed and agreement with the C++ reference (SVMlin)", ""]
    for folder, what in (("benchmarks", "speed"), ("reference_agreement", "agreement")):
        frame = records.csv(f"{folder}/side_by_side.csv")
        if frame is None:
            lines += [f"`{folder}/`: {NOT_YET}.", ""]
            continue
        meta = records.json(f"{folder}/side_by_side.json") or []
        codes = sorted({str(m.get("code", ""))[:7] + ("+uncommitted" if "uncommitted" in str(m.get("code")) else "")
                        for m in meta})
        rows = [[r["label"], r["method"], r["date_utc"], f"{r['ours_s']:.3g}", f"{r['reference_s']:.3g}",
                 f"{r['ratio']:.3g}", r["J_ours"], r["J_reference"], f"{r['J_rel_diff']:.1e}", r["err_ours"],
                 r["err_reference"]] for _, r in frame.iterrows()]
        lines += [f"`{folder}/side_by_side.csv` ({what}; code commits {', '.join(codes) or 'not recorded'}; "
                  "commands in the record): seconds ours / the reference's (ratio below 1: ours faster).", "",
                  table(["label", "method", "date", "ours (s)", "reference (s)", "ratio", "J ours", "J reference",
                         "J relative difference", "error ours", "error reference"], rows), ""]
    return lines


def with_record(records, title, relative, body, load=Records.json):
    """A section: ``title``, then ``body(record)`` of the record ``results/relative`` (read by ``load``:
    JSON, or :meth:`Records.csv`), or "not measured yet" when it is absent."""
    record = load(records, relative)
    return [title, ""] + ([f"{NOT_YET} (`{relative}` absent)."] if record is None else body(record))


def section_text20k(records):
    return with_record(records, "## text20k: every linear method", "text20k_linear_methods/bench.json",
                       lambda record: _text20k(records, record))


def _text20k(records, record):
    rows = [[NAMES.get({"tsvm-1": "tsvm-S1", "tsvm-max": "tsvm-Smax", "nabla": "nabla_tsvm",
                        "cccp": "cccp_tsvm"}.get(m, m), m), f"{r['objective']:.6f}", pct(r["transductive_error"]),
             f"{r['seconds']:.3g}", r["cg_iterations"]] for m, r in record.items()]
    return ["nabla-TSVM and CCCP-TSVM constrain the mean unlabeled output, TSVM and DA the fraction of positive "
            "labels: different feasible sets, so their J values are not ranked against each other.", "",
            f"`text20k_linear_methods/bench.json` (median of the runs per method; code commit and date "
            "not recorded).", "",
            table(["method", "J (Eqn 18)", "transductive error", "seconds", "CG iterations"], rows)]


def section_da_path(records):
    lines = ["## DA's path (da_path)", ""]
    files = sorted((records.results / "da_path").glob("*.json"))
    if not files:
        return lines + [NOT_YET]
    for f in files:
        record = json.loads(f.read_text())
        path = record["path"]
        returned = next(i for i, step in enumerate(path) if step["returned"])
        lines += [f"`da_path/{f.name}` ({record['dataset']}, {record['n_labeled']} labels, split {record['split']}; "
                  f"{_provenance(record)}): {len(path)} OPTIMIZE-W steps, T from {path[0]['T']:.3g} to "
                  f"{path[-1]['T']:.3g}; the returned weights (lowest J, {path[returned]['J']:.4f}) are step "
                  f"{returned + 1}, with {pct(path[returned]['positive_fraction'])} positive outputs; the last step's "
                  f"J {path[-1]['J']:.4f} with {pct(path[-1]['positive_fraction'])} positive outputs.", ""]
    return lines


def section_distributed(records):
    return with_record(records, "## Distributed backend (distributed)", "distributed/scaling.json",
                       lambda record: _distributed(records, record))


def _distributed(records, record):
    rows = [["single process", f"{1000 * record['single_process']['cg_iteration_s']:.1f}", "-"]]
    rows += [[d["workers"], f"{1000 * d['cg_iteration_s']:.1f}", f"{1000 * d['overhead_s']:.1f}"]
             for d in record["distributed"]]
    return [f"`distributed/scaling.json` (command `{record['command']}`, {record['date'][:10]}; code commit "
                    "not recorded); "
                    "the model of larger clusters and the solves are in `distributed/scaling.md`.", "",
                    table(["workers", "CG iteration (ms)", "engine overhead (ms)"], rows)]


# ---------------------------------------------------------------- figures

def figure_notes(records):
    """One line per figure: what it shows (methods, metric, splits, commit of timing records), or why not drawn."""
    lines = ["## Figures", "", "One line per figure of the sweep folders (`<folder>/figures/<stem>.png`), from the "
             "same rules that draw them (`ssl_repro/harness/plots.py`: no figure of one method alone, no flat "
             "figure, log axes over a decade); a refused figure is the folder's `summary.md` table instead.", "",
             "- `figures/fig_tsvm_loss.png`: the TSVM loss on an unlabeled example (Fig 1).",
             "- `figures/fig_da_loss.png`: the DA loss as T falls (Fig 2).",
             "- `figures/fig_balance_B_nu.png`: B(nu) and its root (Fig 3)."]
    for folder in records.folders(""):
        frame = records.runs(folder)
        if "converged" not in frame:
            frame = frame.assign(converged=True)
        summary = summarize(frame)
        note = commit_note(frame)
        for dataset in sorted(summary["dataset"].unique()):
            splits = int(summary.loc[summary["dataset"] == dataset, "n_splits"].max())
            for stem, (metric, methods, _, refused) in plots.figure_plan(summary, dataset).items():
                what = f"{plots.LABELS[metric]} vs labels, {', '.join(NAMES.get(m, m) for m in methods)}"
                if refused:
                    lines.append(f"- `{folder}/figures/{stem}`: not drawn ({refused}); {what} in `summary.md`.")
                else:
                    lines.append(f"- `{folder}/figures/{stem}.png`: {what}; {splits} split(s); "
                                 f"{lowest_curve(plots.curves_of(summary, dataset, metric, methods), metric)}"
                                 + (f"; {note}" if metric == "seconds" else "") + ".")
    return lines


def lowest_curve(curves, metric):
    """What a figure shows, in one phrase: the method lowest at most label counts, and at how many.
    A method is lowest at a label count only when every other curve is above it by more than the
    threshold of ``metric`` (:func:`ssl_repro.harness.claims.equal_within`): ties and differences below
    the thresholds are counted as "no single lowest", never as wins."""
    counts = sorted({int(x) for xs, _ in curves.values() for x in xs})
    lowest, tied = {}, 0
    for n in counts:
        at_n = {m: y[list(xs).index(n)] for m, (xs, y) in curves.items() if n in list(xs)}
        best = min(at_n, key=at_n.get)
        others = [v for m, v in at_n.items() if m != best]
        if others and all(not claims.equal_within(metric, at_n[best] - v, at_n[best], v) for v in others):
            lowest[best] = lowest.get(best, 0) + 1
        else:
            tied += 1
    ties = f"; no single lowest (within the thresholds) at {tied}" if tied else ""
    if not lowest:
        return f"no single lowest at any of {len(counts)} label counts"
    top = max(lowest.values())
    leaders = [NAMES.get(m, m) for m, k in lowest.items() if k == top]
    return f"lowest: {' and '.join(leaders)} at {top} of {len(counts)} label counts{ties}"


# ---------------------------------------------------------------- the page

HEADER = """# Results

This file is generated: `python experiments/paper_artifacts.py report` writes it (and the documentation's
Results pages, `docs/results/`) from the committed records under `results/` and the papers' numbers and claims
in `experiments/paper_numbers.json` (each with its paper, place and a verbatim quote); `report --check` fails
when either differs from a fresh render. Do not edit it by hand. Figures and summaries are re-rendered from the
committed `results.csv` files by `python experiments/paper_artifacts.py render`; everything is re-run by
`python experiments/paper_artifacts.py run all`.

Papers: 000 = Sindhwani & Keerthi, tech report 2006 (the spec; experiments in its Sec. 4), 001 = Sindhwani,
Keerthi & Chapelle, ICML 2006 (kernel DA), 002 = Collobert, Sinz, Weston & Bottou, JMLR 2006 (CCCP-TSVM),
003 = Sindhwani & Keerthi, SIGIR 2006, 004 = Sindhwani & Keerthi, book chapter 2006 (experiments in its Sec. 1.5)."""


RULES = """Data: `real` is the paper's set (our copy; kdd99-10 is kdd99's 10% file), `real-text analog` a 20 Newsgroups
set standing for a paper set that is not here, `SYNTHETIC stand-in` a generated set of the paper set's shape
(`ssl_repro/data/registry.py`). A verdict uses the real set, else its analog, else (timing only) its stand-in:
error and optimization verdicts never rest on a stand-in.

How comparisons are decided (`ssl_repro/harness/claims.py`, where the rules are stated once): "A below B" is
paired over the splits both ran: wins k/n, the mean ± std of A - B and the two-sided Wilcoxon signed-rank p
(exact over the sign flips with average ranks for tied sizes; differences equal up to float noise, within
{tie:g} of the values, are ties, and zeros are dropped). `yes` needs p < {alpha} *and* a difference beyond the
thresholds: for J (Eqn 18) a relative gap of {j_equal:g}% (from {j_sig:g}% it is "significantly", below "slightly":
bands read off 004 Table 1.2's minima), for errors {e_pts:g} points and {e_share:g}% of the larger error. Below the
thresholds the two are `equal` however small p is; beyond them with p >= {alpha} `not significant`; `no` when A is
above B. One split or one run has no test: `yes (1 split)` / `no (1 split)`. A run is one-class when its
unlabeled predictions are (nearly) all one class ({one:g}% of r's minority share or less, r's minority share at
least {inside:g}%; derived from the error and r for records without the predicted share): it is counted in its
cell ("one-class on k of n") and a comparison it would win says `one-class: not counted`. Runs that stopped on an
iteration cap are counted in their cells ("k of n not converged")."""


def rules_text():
    return RULES.format(tie=claims.TIE_RTOL, alpha=claims.ALPHA, j_equal=100 * claims.J_EQUAL,
                        j_sig=100 * claims.J_SIGNIFICANT, e_pts=100 * claims.ERROR_EQUAL_POINTS,
                        e_share=100 * claims.ERROR_EQUAL_SHARE, one=100 * claims.ONE_CLASS_SHARE,
                        inside=100 * claims.R_INSIDE)


#: The sections of the report, in order: (key: the docs page and the claims' ``sections``, title, renderer,
#: the figures shown on its docs page as globs under results/).
SECTIONS = (
    ("calibration", "Calibration of the stand-ins", section_calibration, ()),
    ("loss-shapes", "Loss shapes and B(nu)", section_drawings, ("figures/*.png",)),
    ("dataset-table", "Datasets", section_dataset_table, ()),
    ("objective-minima", "Objective minima", section_objective, ("learning_curve_*/figures/*_objective.png",)),
    ("learning-curves", "Learning curves", section_learning_curves, ("learning_curve_*/figures/*_error.png",)),
    ("timing", "Training time", section_timing, ("timing_*/figures/*.png",)),
    ("svmlight-speed", "Speed beside SVM-light", section_svmlight, ()),
    ("annealing-ablation", "Annealing vs fixed temperature", section_ablation, ("ablation_*/figures/*.png",)),
    ("large-transductive", "Large transductive sets", section_transductive, ("transductive_*/figures/*.png",)),
    ("kernel-toy-table", "2MOONS and 2CIRCLES", section_kernel_toy, ()),
    ("kernel-benchmarks", "PC-MAC with kernels", section_kernel_benchmarks, ()),
    ("universvm", "CCCP-TSVM beside UniverSVM", section_universvm, ()),
    ("cccp-002", "002's kernel CCCP-TSVM", cccp_002.section, ()),
    ("side-by-side", "Speed and agreement with SVMlin", section_side_by_side, ()),
    ("text20k", "text20k", section_text20k, ()),
    ("da-path", "DA's path", section_da_path, ()),
    ("distributed", "Distributed backend", section_distributed, ()),
    ("figures", "Figures", figure_notes, ()),
)
TITLES = {key: title for key, title, _, _ in SECTIONS}


def slug(title):
    """The anchor GitHub and MyST give a heading."""
    return re.sub(r"\s+", "-", re.sub(r"[^\w\s-]", "", title.lower()).strip())


def section_body(records, key, render_section):
    """A section's lines under ``## <title>``: the renderer's own heading becomes the title, what it named
    in parentheses a line of its own."""
    lines = render_section(records)
    named = re.match(r"## [^(]*\((.*)\)$", lines[0])
    return [f"## {TITLES[key]}", ""] + ([f"Artifacts: {named.group(1)}.", ""] if named else []) + lines[1:]


def claims_table(records, link):
    """The claims table: one row per claim of ``paper_numbers.json`` with a test; ``link(key)`` is the
    target of a section (an anchor in README.md, a page in the docs)."""
    rows, counts = [], {}
    for k, claim in enumerate((c for c in records.papers["claims"] if "test" in c), 1):
        v = claims.evaluate(claim, records)
        counts[v.word] = counts.get(v.word, 0) + 1
        see = ", ".join(f"[{TITLES[key]}]({link(key)})" for key in claim["sections"])
        rows.append([k, f"{claim['paper']} {claim['where']}: \"{claim['quote']}\"",
                     claims.describe(claim["test"]), v.data, f"**{v.word}**", v.evidence, see])
    summary = "; ".join(f"{w}: {n}" for w, n in counts.items())
    return [f"Every claim the papers make about their experiments, tested on our records ({summary}).", "",
            table(["#", "the paper's words", "test", "data", "verdict", "evidence", "see"],
                  [[str(c).replace("|", "\\|") for c in row] for row in rows])]


def render_sections(records):
    """{key: the section's markdown lines} in :data:`SECTIONS` order."""
    return {key: section_body(records, key, f) for key, _, f, _ in SECTIONS}


def render(results, repo, listing):
    """The text of results/README.md from the records under ``results`` (committed in ``repo``);
    ``listing`` is the artifact listing (``paper_artifacts.py list --markdown``)."""
    records = Records(results, repo)
    parts = [HEADER, "## Claims", "", rules_text(), "", *claims_table(records, lambda key: f"#{slug(TITLES[key])}"),
             "", "## Every table and figure of the papers", "", listing]
    parts += ["\n".join(lines) for lines in render_sections(records).values()]
    return tidy("\n\n".join(parts))


def tidy(text):
    return re.sub(r"\n{3,}", "\n\n", text).rstrip() + "\n"


def figure_caption(path):
    """``pcmac (real): learning_curve_pcmac/figures/pcmac_objective.png``: the data a sweep figure shows
    (its file name starts with the dataset), then its path under results/."""
    folder, name = path.split("/")[0], path.rsplit("/", 1)[-1]
    return path if folder == "figures" else f"{name.split('_')[0]} ({data_kind(name.split('_')[0])}): {path}"


def docs_pages(results, repo, listing, relative="../.."):
    """{file name: text} of the documentation's Results section (``docs/results/``): ``index.md`` (the
    rules, the claims table, the artifact list, the pages' table of contents), then one page per section
    with the papers' words and our verdicts first and its figures inline (``relative``: from the page's
    folder to the repository root, so the images are the committed ones)."""
    records = Records(results, repo)
    bodies = render_sections(records)
    verdicts = {}
    for claim in (c for c in records.papers["claims"] if "test" in c):
        v = claims.evaluate(claim, records)
        for key in claim["sections"]:
            verdicts.setdefault(key, []).append(
                f"- {claim['paper']} {claim['where']}: \"{claim['quote']}\" -- **{v.word}** ({v.data}): {v.evidence}")
    pages = {"index.md": tidy("\n".join([
        "# Results", "", "Rendered from the committed records by `python experiments/paper_artifacts.py report` "
        "(the same render as the repository's `results/README.md`).", "", rules_text(), "", "## Claims", "",
        *claims_table(records, lambda key: f"{key}.md"), "", "## Every table and figure of the papers", "", listing,
        "", "```{toctree}", ":maxdepth: 1", "", *(key for key, *_ in SECTIONS), "```"]))}
    for key, title, _, globs in SECTIONS:
        figures = sorted({f.relative_to(records.results).as_posix() for g in globs
                          for f in records.results.glob(g)})
        quoted = [c["quote"] for c in records.papers["claims"] if "test" in c and key in c["sections"]]
        body = [line for line in bodies[key][1:] if not (line.startswith("> ") and any(q in line for q in quoted))]
        lines = [f"# {title}", ""]
        if verdicts.get(key):
            lines += ["The papers' words and our verdicts (rules and the whole table: [Results](index.md)):", "",
                      *verdicts[key], ""]
        lines += [f"![{figure_caption(f)}]({relative}/results/{f})\n" for f in figures]
        pages[f"{key}.md"] = tidy("\n".join(lines + [re.sub(r"^##", "###", line) for line in body]))
    return pages
