"""The report's "Beyond the papers" section: do TSVM and DA beat today's baselines (the questions and their
verdicts: :mod:`ssl_repro.claims.beyond_rules`)?

Read at a glance: a matrix, one row per dataset and one column per (method, baseline), each cell a compact
mark: ``wins k/n`` (the cells, i.e. label counts, where the method is lower on every error the question
asks by the rules of :func:`ssl_repro.claims.rules.compare`) and the mean difference in points of the
error on the unlabeled rows (method minus baseline, over the cells: negative = the method is better);
the last row the question's verdict.  A figure (:func:`figure`) draws those differences with their spread
per dataset (the 20-80% range of the per-split differences).  The verdicts' full evidence, question by
question and dataset by dataset, is folded under the matrix (``<details>``).
"""
import re

import numpy as np

from ssl_repro import claims
from ssl_repro.claims.verdicts import KIND_ORDER, SHORT_KIND, STAND_IN
from ssl_repro.claims.beyond_rules import PAPERS_METHODS, SWEEPS, verdicts
from ssl_repro.claims.linear_rules import turns_on_unconverged
from ssl_repro.harness.methods import LABELS
from ssl_repro.report.record_text import data_kind
from ssl_repro.report.sections import beyond_multiclass
from ssl_repro.report.tables import table

#: The figure's file under results/ (drawn by ``paper_artifacts.py render``).
FIGURE = "figures/beyond_differences"
#: The baselines' names in the matrix's header (short, so that eight columns fit a screen).
SHORT = {"svm_cv": "SVM", "logreg_cv": "LogReg", "self_training": "self-train", "label_spreading": "spreading",
         "tsvm-Smax": "TSVM", "da": "DA"}
#: The spread the figure draws: the quantiles of the per-split differences.
SPREAD = (0.2, 0.8)


def cells(frame, method, baseline, metrics):
    """([(cell's per-metric Comparisons)], cells left out) of ``method`` vs ``baseline`` per cell (labels, unlabeled
    rows) of ``frame``: a cell whose outcome turns on non-converged runs is left out, as the verdict leaves it
    (:func:`ssl_repro.claims.linear_rules.turns_on_unconverged`), so the mark counts the cells the verdict counts."""
    found, left_out = [], 0
    for _, cell in frame.groupby(["n_labeled", "n_unlabeled"]):
        pair = [claims.compare(cell, method, baseline, m) for m in metrics]
        if any(c is None for c in pair):
            continue
        if any(turns_on_unconverged(cell, {"a": method, "b": baseline, "metric": m}, "lower", claims.meets(c, "lower"))
               for m, c in zip(metrics, pair)):
            left_out += 1
            continue
        found.append(pair)
    return found, left_out


def mark(judged):
    """``9/11, -4.2`` (a no-break space after the comma): the cells where the method is lower on every metric
    (:func:`ssl_repro.claims.rules.meets`), of the cells the verdict counts, and the mean difference of the first
    metric in points, with ``(k out)`` where cells turned on non-converged runs; ``-`` when no cell is decided."""
    pairs, left_out = judged
    note = f"\u00a0({left_out}\u00a0out)" if left_out else ""
    if not pairs:
        return "-" + note
    wins = sum(all(claims.meets(c, "lower") for c in pair) for pair in pairs)
    points = round(100 * float(np.mean([pair[0].mean for pair in pairs])), 1) or 0.0      # no "-0.0"
    return f"{wins}/{len(pairs)},\u00a0{points:+.1f}{note}"        # a no-break space: the mark stays on one line


def datasets(records, folder):
    """[(dataset, its frame)] of the sweep folders ``folder_*``, real sets first, then analogs (no stand-ins)."""
    found = []
    for name in records.folders(folder + "_"):
        frame = records.runs(name)
        found += [(d, frame[frame["dataset"] == d]) for d in sorted(frame["dataset"].unique())]
    kept = [(d, f) for d, f in found if data_kind(d) != STAND_IN]
    return sorted(kept, key=lambda t: KIND_ORDER.index(data_kind(t[0])))


def matrix(records, folder, baselines, metrics):
    """(header, rows) of one sweep's matrix: a row per dataset, a column per (method, baseline), then the verdicts
    (once per render: the report and the Results page show it)."""
    return records.once(("beyond matrix", folder, tuple(baselines), tuple(metrics)),
                        lambda: _matrix(records, folder, baselines, metrics))


def _matrix(records, folder, baselines, metrics):
    pairs = [(m, b) for m in PAPERS_METHODS for b in baselines]
    header = ["data"] + [f"{SHORT[m]} vs {SHORT[b]}" for m, b in pairs]
    rows = [[f"{d} ({SHORT_KIND[data_kind(d)]})"] + [mark(cells(frame, m, b, metrics)) for m, b in pairs]
            for d, frame in datasets(records, folder)]
    found = {(m, b): v for m, b, f, v in verdicts(records) if f == folder}
    rows.append(["**verdict**"] + [f"**{found[p].category}**" if p in found else "-" for p in pairs])
    return header, rows


def evidence(records):
    """The verdicts' full evidence: per question its verdict and data, then one item per dataset."""
    lines = []
    where = {"learning_curve": "", "transductive": " (large transductive table)"}
    for m, b, f, v in verdicts(records):
        said = v.word if v.word != v.category else f"{v.word} ({v.data})"       # a split verdict names its data
        lines += [f"**Does {LABELS.get(m, m)} beat {LABELS.get(b, b)}?{where[f]}** {said}.", ""]
        items = []
        for piece in split_top(v.evidence):
            if re.match(r"[\w.-]+( at lambda' = [\d.]+)?: ", piece) or not items:     # a dataset, or a corner
                items.append(piece)
            else:
                items[-1] += f"; {piece}"
        lines += [f"- {item}" for item in items] + [""]
    return lines


def split_top(text):
    """``text`` split at the ``; `` outside parentheses."""
    parts, depth, start = [], 0, 0
    for k, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and text.startswith("; ", k):
            parts.append(text[start:k])
            start = k + 2
    return parts + [text[start:]]


def section(records, figure_link=lambda f: f"{f}.png"):
    """The report's "Beyond the papers" lines: the matrices, the figure (``figure_link`` of its path under
    results/), the evidence folded, then K classes (:mod:`.beyond_multiclass`: the Potts DA, scikit-learn's examples)."""
    (lc, lc_baselines, lc_metrics), (tr, tr_baselines, tr_metrics) = SWEEPS
    head, rows = matrix(records, lc, lc_baselines, lc_metrics)
    lines = ["## Beyond the papers", "",
             "Do TSVM and DA beat today's baselines? Each cell: **wins k/n** label counts, and the **mean "
             "difference** of the error on the unlabeled rows in points (negative: the method is better); **(k out)**: "
             "cells left out, as the verdict leaves them, because their outcome turns on runs that did not converge.", "",
             table(head, rows), "",
             "The baselines: a supervised SVM and logistic regression tuned by cross-validation on the labeled rows "
             "only (`ssl_repro/estimators/cross_validation.py` states the budget), self-training and label spreading.\n"
             "A win is a label count where the method's error is lower on the unlabeled rows and on the test rows, "
             "paired over the splits by the claims' rules; a question holds on a dataset when the method wins more "
             "than half of its cells and loses none.", ""]
    head, rows = matrix(records, tr, tr_baselines, tr_metrics)
    if len(rows) > 1:
        lines += ["The large transductive table (`transductive_*`: no test rows, so the error on the unlabeled rows "
                  "alone; no label spreading):", "", table(head, rows), ""]
    lines += [f"![The paired differences per dataset, with their spread]({figure_link(FIGURE)})", "",
              "The figure: per dataset, the method's error on the unlabeled rows minus the baseline's, paired per "
              "split and pooled over the label counts; a dot at the mean, a bar over the 20-80% range.", "",
              "<details><summary>The evidence, question by question</summary>", "", *evidence(records),
              "</details>", "", *beyond_multiclass.section(records)]
    return lines


def differences(records):
    """{(method, baseline): [(dataset, per-split differences of the error on the unlabeled rows, pooled over
    its cells)]} of the learning curves, for :func:`figure`."""
    folder, baselines, _ = SWEEPS[0]
    found = {}
    for d, frame in datasets(records, folder):
        for m in PAPERS_METHODS:
            for b in baselines:
                by = {x: frame[frame["method"] == x].set_index(["n_labeled", "n_unlabeled", "split"])
                      ["transductive_error"] for x in (m, b)}
                common = by[m].index.intersection(by[b].index)
                diff = 100 * (by[m].loc[common] - by[b].loc[common]).to_numpy(float)
                if len(diff):
                    found.setdefault((m, b), []).append((d, diff))
    return found


def figure(records):
    """The paired differences (method minus baseline, error on the unlabeled rows, points) per dataset: a panel
    per method, a marker per baseline at the mean and a bar over the 20-80% range of the per-split
    differences; left of zero the method is better."""
    import matplotlib.pyplot as plt
    found = differences(records)
    names = list(dict.fromkeys(d for v in found.values() for d, _ in v))
    fig, axes = plt.subplots(1, len(PAPERS_METHODS), figsize=(11, 0.45 * len(names) + 1.6), sharey=True)
    folder, baselines, _ = SWEEPS[0]
    for ax, m in zip(np.atleast_1d(axes), PAPERS_METHODS):
        for k, b in enumerate(baselines):
            for d, diff in found.get((m, b), []):
                y = names.index(d) + (k - (len(baselines) - 1) / 2) * 0.18
                low, high = np.quantile(diff, SPREAD)
                ax.plot([low, high], [y, y], color=f"C{k}", lw=2, alpha=0.6)
                ax.plot(diff.mean(), y, "o", color=f"C{k}", ms=4, label=f"vs {LABELS.get(b, b)}" if d == names[0] else None)
        ax.axvline(0, color="0.3", lw=0.8)
        ax.set_title(f"{LABELS.get(m, m)} minus baseline")
        ax.set_xlabel("difference of the error on the unlabeled rows (points; < 0: better)")
        ax.set_yticks(range(len(names)), names)
        ax.grid(axis="x", alpha=0.3)
    np.atleast_1d(axes)[0].invert_yaxis()          # shared: the first dataset on top
    fig.legend(*np.atleast_1d(axes)[0].get_legend_handles_labels(), loc="lower center", ncol=len(baselines),
               fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    return fig
