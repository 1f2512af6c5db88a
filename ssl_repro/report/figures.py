"""One line per figure of the sweep folders: what it shows, or why it is not drawn."""
from ssl_repro import claims
from ssl_repro.report import plots
from ssl_repro.harness.aggregate import summarize
from ssl_repro.report.record_text import commit_note
from ssl_repro.report.tables import NAMES


def figure_notes(records):
    """One line per figure: what it shows (methods, metric, splits, commit of timing records), or why not drawn."""
    lines = ["## Figures", "", "One line per figure of the sweep folders (`<folder>/figures/<stem>.png`), from the "
             "same rules that draw them (`ssl_repro/report/plots.py`: no figure of one method alone, no flat "
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
    threshold of ``metric`` (:func:`ssl_repro.claims.rules.equal_within`): ties and differences below
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
