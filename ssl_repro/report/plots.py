"""The papers' figures, drawn from the aggregated tables (PNG and PDF).

    python -m ssl_repro.report.plots --summary OUT/summary.csv --out FIGDIR
    python -m ssl_repro.report.plots --loss-shapes --out FIGDIR

draws, for every dataset in the summary, the test and transductive error
learning curves with the SVM baseline (Figs 5-10 of 000, Figs 1.4-1.5 of
004), the Eqn 18 objective minima of the semi-supervised methods (Fig 4 of
000, Fig 1.3 of 004), training time vs labels (Fig 11 of 000, Fig 1.6 of
004) and, where fixed-T runs exist, the annealing ablation with its times
(Figs 12-13 of 000); plus the loss shapes (:mod:`.loss_shapes`: Figs 1-3 of 000, Figs 1.1-1.2 of 004).
Each function returns its Figure, whose plotted values are the summary's (tested).

Conventions, the same in every figure:

- one colour, marker and line style per method (:func:`method_style`);
- the spread is a band of one standard error over splits, where a point has more than one split;
- a curve equal to one drawn before it (e.g. RLS and SVM make the same
  predictions when every labeled row is a support vector; TSVM S=1 and
  S=max often reach the same labels) is still drawn, dashed over the
  other so that both colours show, and its legend entry names the curve
  it coincides with;
- no figure with fewer than two label counts, without a finite value or
  with several numbers of unlabeled rows per label count: such results
  are tables (``summary.md``), not curves;
- no figure of one method alone and no degenerate figure (:func:`refusal`):
  flat (every plotted mean within :data:`FLAT_SPREAD` of the largest, a
  straight line that says nothing a table would not) or with every curve
  on the first one (one distinguishable curve);
- a log y axis where the means span more than a decade, and for the error
  metrics also where one sits near zero (below :data:`NEAR_ZERO_ERROR`);
  a symmetric-log axis where an error mean is exactly 0 (:func:`y_scale`);
- the methods named as the papers name them (``TSVM S=1``, not the record string ``tsvm-S1``), error rates
  in percent, and the papers' methods apart from today's baselines: an error figure holding both is two
  panels (:data:`PANELS`), each legend below its panel;
- the legend outside the axes, right of the data (below each panel of a two-panel figure);
- a timing figure names, in its title, the code commit of its records (``note``: results.csv's ``git_commit``).
"""
import argparse
import textwrap
import zlib
from pathlib import Path

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from ssl_repro.harness.aggregate import METRICS  # noqa: E402
from ssl_repro.harness.methods import LABELS as METHOD_LABELS  # noqa: E402
from ssl_repro.harness.methods import STYLES, method, plot_group  # noqa: E402
from ssl_repro.harness.result_files import refuse_committed  # noqa: E402
from ssl_repro.report.loss_shapes import (DA_LOSS_TEMPERATURES, balance_figure, da_effective_loss,  # noqa: E402,F401
                                          da_loss_figure, tsvm_loss_figure)

LABELS = {"test_error": "test error", "transductive_error": "transductive error (unlabeled rows)",
          "objective_own": "objective in the method's own loss", "objective_eqn18": "minimum objective J (Eqn 18)",
          "seconds": "training time (s)"}

#: Colour, marker and line style of each method (record ``method`` names), fixed across figures:
#: the variants' styles of :mod:`ssl_repro.harness.methods`, in its order (baselines first).
METHOD_STYLES = STYLES
#: Colours and markers for methods not in METHOD_STYLES, picked by a hash of the name (stable).
FALLBACK_COLOURS = ("darkslateblue", "teal", "maroon", "darkkhaki", "slategray", "indigo", "sienna", "darkcyan")
FALLBACK_MARKERS = ("o", "s", "^", "v", "D", "P", "X", "*")
#: Label counts beyond which the x tick labels are turned, so that neighbours do not overlap.
MAX_LEVEL_TICKS = 7
#: A figure is flat when max - min of all its plotted means is at most this fraction of their largest |mean|.
FLAT_SPREAD = 0.02
#: Two curves coincide when every mean is within this fraction of the figure's largest |mean| (drawn dashed,
#: named in the title).
COINCIDE = 2e-3
#: Error means below this (1%) sit near zero: a linear axis would show them as a line on the floor.
NEAR_ZERO_ERROR = 0.01
#: The metrics that are error rates (fractions), for :func:`y_scale`'s near-zero rule.
ERROR_METRICS = ("test_error", "transductive_error")


def method_style(method):
    """(colour, marker, linestyle) of ``method``, the same in every figure."""
    if method in METHOD_STYLES:
        return METHOD_STYLES[method]
    h = zlib.crc32(method.encode())
    return FALLBACK_COLOURS[h % len(FALLBACK_COLOURS)], FALLBACK_MARKERS[(h // 8) % len(FALLBACK_MARKERS)], "-"


def drawable(summary, dataset, metric, methods=None):
    """Whether ``metric`` of ``dataset`` makes a curve: finite means at two or more label counts,
    and one number of unlabeled rows per label count (a transductive table of several u is a table)."""
    rows = summary[summary["dataset"] == dataset]
    if methods is not None:
        rows = rows[rows["method"].isin(methods)]
    finite = rows[np.isfinite(rows[f"{metric}_mean"].astype(float))]
    one_u = "n_unlabeled" not in finite or (finite.groupby("n_labeled")["n_unlabeled"].nunique() <= 1).all()
    return finite["n_labeled"].nunique() >= 2 and bool(one_u)


def curves_of(summary, dataset, metric, methods):
    """{method: (label counts, means)} of ``metric`` on ``dataset``, finite means only."""
    rows = summary[summary["dataset"] == dataset]
    curves = {}
    for name in methods:
        part = rows[rows["method"] == name].sort_values("n_labeled")
        mean = part[f"{metric}_mean"].to_numpy(float)
        keep = np.isfinite(mean)
        if keep.any():
            curves[name] = (part["n_labeled"].to_numpy()[keep], mean[keep])
    return curves


def refusal(curves):
    """Why the curves ``{method: (x, means)}`` make no figure (a table instead), or None.

    - ``one method``: fewer than two curves;
    - ``flat``: max - min of every plotted mean <= :data:`FLAT_SPREAD` x the largest |mean|
      (all zero counts as flat);
    - ``curves coincide``: every curve equals the first within that same tolerance.
    """
    if len(curves) < 2:
        return "one method"
    values = np.concatenate([y for _, y in curves.values()])
    scale = np.max(np.abs(values))
    if np.ptp(values) <= FLAT_SPREAD * scale:
        return "flat"
    (x0, y0), *rest = curves.values()
    if all(np.array_equal(x, x0) and np.allclose(y, y0, rtol=0.0, atol=FLAT_SPREAD * scale) for x, y in rest):
        return "curves coincide"
    return None


def y_scale(metric, values):
    """``log`` where the positive means span more than a decade, or (error metrics) one sits below
    :data:`NEAR_ZERO_ERROR`; ``symlog`` for such errors where a mean is 0; else ``linear``."""
    values = np.asarray(values, float)
    values = values[np.isfinite(values)]
    if values.size == 0 or (values < 0).any():
        return "linear"
    positive = values[values > 0]
    near_zero = metric in ERROR_METRICS and values.min() < NEAR_ZERO_ERROR
    wide = positive.size > 0 and positive.max() > 10 * positive.min()
    if not (near_zero or wide):
        return "linear"
    return "log" if positive.size == values.size else "symlog"


def metric_vs_labels(summary, dataset, metric, methods=None, title=None, note=None):
    """One line per method: mean of ``metric`` vs number of labels, with a band of one standard error of
    the mean over splits (std / sqrt(splits): narrower than the std bars it replaces, so a log axis shows
    it; where it reaches below zero on a log axis it runs to the axis' floor); a line that coincides with
    one drawn before it (within :data:`COINCIDE` of the plotted range) is dashed and named in the title
    ("RLS = SVM"), not only in the legend; ``note`` (e.g. the code commit of timing records) is appended
    to the title.  Lines keep the record strings as their labels; the legend and the title name the methods
    as the papers do (:func:`method_label`); error rates are in percent."""
    fig, ax = plt.subplots(figsize=(6.8, 3.8))
    _draw(ax, summary[summary["dataset"] == dataset], dataset, metric, methods, title, note)
    ax.legend(*_legend_of(ax), fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    fig.tight_layout()
    return fig


#: The panels of an error figure with today's baselines: (title, which record strings), the papers' methods
#: apart from the baselines, so that neither panel holds more than about six lines; SVM and DA stand in the
#: baselines' panel too, as the references the baselines are read against.
PANELS = (("the papers' methods", lambda m: _is_papers(m)),
          ("today's baselines, beside SVM and DA", lambda m: not _is_papers(m) or m in ("svm", "da")))


def _is_papers(record):
    """Whether a record string is one of the papers' methods (:attr:`~ssl_repro.harness.methods.Method.paper`);
    a method the table does not know counts as the papers'."""
    try:
        return method(record).paper
    except ValueError:
        return True


def method_label(record):
    """How the papers name a record string's method (``tsvm-S1`` -> ``TSVM S=1``), else the string itself."""
    return METHOD_LABELS.get(record, record)


def two_panels(summary, dataset, metric, methods, note=None):
    """An error figure in the two :data:`PANELS` side by side, sharing the y axis, each with its legend
    below it: the papers' methods, and today's baselines beside SVM and DA."""
    fig, axes = plt.subplots(1, 2, figsize=(9.6, 5.0), sharey=True)
    rows = summary[summary["dataset"] == dataset]
    for ax, (heading, member) in zip(axes, PANELS):
        _draw(ax, rows, dataset, metric, [m for m in methods if member(m)], heading, note, wrap=44)
        ax.legend(*_legend_of(ax), fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=2,
                  borderaxespad=0.0)
    axes[1].yaxis.set_tick_params(labelleft=True)
    fig.suptitle(f"{dataset}: {LABELS.get(metric, metric)}", fontsize=11)
    fig.tight_layout()
    return fig


def _legend_of(ax):
    """(lines, legend texts) of ``ax``: each line's papers' name, and the one it coincides with."""
    lines = [line for line in ax.get_lines() if not line.get_label().startswith("_")]
    return lines, [getattr(line, "legend_text", method_label(line.get_label())) for line in lines]


def _draw(ax, rows, dataset, metric, methods, title, note, wrap=56):
    """Draw ``methods``' curves of ``metric`` from ``rows`` (one dataset's summary rows) on ``ax``, with the
    axes' scales, ticks and title (:func:`metric_vs_labels`)."""
    one_split = bool((rows["n_splits"] <= 1).all()) if "n_splits" in rows else False
    drawn, twins = {}, []
    every = rows[f"{metric}_mean"].to_numpy(float)
    tolerance = COINCIDE * (np.nanmax(np.abs(every)) if np.isfinite(every).any() else 0.0)
    for record in methods or sorted(rows["method"].unique(), key=_draw_order):
        part = rows[rows["method"] == record].sort_values("n_labeled")
        if part.empty:
            continue
        x, mean = part["n_labeled"].to_numpy(), part[f"{metric}_mean"].to_numpy(float)
        std = part[f"{metric}_std"].to_numpy(float)
        twin = next((m for m, (xs, ys) in drawn.items()
                     if np.array_equal(xs, x) and np.allclose(ys, mean, rtol=0.0, atol=tolerance, equal_nan=True)),
                    None)
        colour, marker, style = method_style(record)
        line, = ax.plot(x, mean, color=colour, marker=marker, ms=4, lw=1.2, linestyle="--" if twin else style,
                        zorder=2 if style == "-" and not twin else 3, label=record)
        if not one_split and "n_splits" in part:
            sem = np.nan_to_num(std) / np.sqrt(part["n_splits"].to_numpy(float).clip(min=1))
            ax.fill_between(x, mean - sem, mean + sem, color=colour, alpha=0.15, lw=0, zorder=1)
        drawn[record] = (x, mean)
        if twin:
            line.legend_text = f"{method_label(record)} (= {method_label(twin)})"
            twins.append(f"{method_label(record)} = {method_label(twin)}")
    ax.set_xscale("log")
    plotted = np.concatenate([y for _, y in drawn.values()]) if drawn else np.array([])
    scale = y_scale(metric, plotted)
    if scale == "symlog":
        ax.set_yscale("symlog", linthresh=float(np.min(plotted[plotted > 0], initial=NEAR_ZERO_ERROR)))
    elif scale == "log":
        ax.set_yscale("log")
        ax.set_ylim(bottom=0.8 * np.min(plotted[plotted > 0]))       # the means set the floor, not the bands
    if metric in ERROR_METRICS:           # error rates read as percent: 0.04 -> 4%; on a log axis 1-2-3-5 ticks
        if scale == "log":
            ax.yaxis.set_major_locator(matplotlib.ticker.LogLocator(subs=(1.0, 2.0, 3.0, 5.0)))
        ax.yaxis.set_major_formatter(PERCENT)
        ax.yaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ticks = sorted(rows["n_labeled"].unique())
    ax.set_xticks(ticks)
    ax.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    if len(ticks) > MAX_LEVEL_TICKS:     # close counts (pcmac's 29 and 37) would print over each other
        ax.tick_params(axis="x", labelrotation=60, labelsize=7)
    ax.set_xlabel("number of labeled examples")
    ax.set_ylabel(LABELS.get(metric, metric) + (" (%)" if metric in ERROR_METRICS else ""))
    text = title or f"{dataset}: {LABELS.get(metric, metric)}"
    if one_split:
        text += " (one split)"
    else:
        text += "; band: ± 1 standard error over splits"
    if twins:
        text += f"; lines that coincide: {', '.join(twins)} (dashed)"
    if note:
        text += f"; {note}"
    ax.set_title("\n".join(textwrap.wrap(text, wrap)), fontsize=9)


def _percent(value, _):
    """An error rate as percent, without trailing zeros: 0.04 -> 4%, 0.125 -> 12.5%, 0.0015 -> 0.15%."""
    return f"{100 * value:.3g}%"


#: The y tick labels of the error figures (majors, and on a log axis the minors the locator labels).
PERCENT = matplotlib.ticker.FuncFormatter(_percent)


def _draw_order(method):
    """The order of METHOD_STYLES (baselines first), so that a twin names the baseline it equals."""
    order = list(METHOD_STYLES)
    return (order.index(method) if method in order else len(order), method)


def figure_plan(summary, dataset):
    """The candidate figures of one dataset, by file stem: ``(metric, methods, title, refused)``,
    ``refused`` None for a figure to draw, else why it is a table instead (:func:`refusal`, or
    ``not drawable``: fewer than two label counts, no finite value, several u per label count; or
    ``one split``: an error or objective curve of a single split, whose wiggles a zoomed axis would show
    as differences, is its table; timing figures of one split are drawn).

    Fixed-temperature runs (``da-T...``) appear only in the ablation figures.
    """
    methods = set(summary.loc[summary["dataset"] == dataset, "method"])
    fixed = sorted((m for m in methods if plot_group(m) == "ablation"), key=_draw_order)
    main = sorted((m for m in methods if m not in fixed), key=_draw_order)
    # Fig 4 (000) / Fig 1.3 (004) compare the Eqn 18 minima of the semi-supervised methods
    semi = [m for m in main if plot_group(m) in ("semi-supervised", "kernel")]
    panels = {
        "test_error": ("test_error", main, None),
        "transductive_error": ("transductive_error", main, None),
        "seconds": ("seconds", semi or main, None),
        "objective": ("objective_eqn18", semi, None),
    }
    if fixed and "da" in methods:
        for stem, metric in (("objective", "objective_eqn18"), ("test_error", "test_error"),
                             ("seconds", "seconds")):
            panels[f"ablation_{stem}"] = (metric, ["da"] + fixed,
                                          f"{dataset}: annealing vs fixed T, {LABELS[metric]}")
    plan = {}
    one_split = "n_splits" in summary and summary.loc[summary["dataset"] == dataset, "n_splits"].max() == 1
    for stem, (metric, chosen, title) in panels.items():
        if not chosen:
            continue
        refused = (refusal(curves_of(summary, dataset, metric, chosen))
                   if drawable(summary, dataset, metric, chosen) else "not drawable")
        if refused is None and one_split and metric != "seconds":
            refused = "one split: its values are a table, not a curve of means"
        plan[f"{dataset}_{stem}"] = (metric, chosen, title, refused)
    return plan


def dataset_figures(summary, dataset, note=None):
    """The figures of :func:`figure_plan` that are drawn, by file stem; ``note`` goes into the
    titles of the timing figures (``seconds``).  An error figure that holds both the papers' methods and
    today's baselines is drawn in two panels (:func:`two_panels`)."""
    figures = {}
    for stem, (metric, chosen, title, refused) in figure_plan(summary, dataset).items():
        if refused is not None:
            continue
        if metric in ERROR_METRICS and title is None and len({_is_papers(m) for m in chosen}) == 2:
            figures[stem] = two_panels(summary, dataset, metric, chosen)
        else:
            figures[stem] = metric_vs_labels(summary, dataset, metric, methods=chosen, title=title,
                                             note=note if metric == "seconds" else None)
    return figures


#: No creation date in the files, so that drawing a figure again from the same record gives the same bytes.
UNDATED = {"png": {"Software": None}, "pdf": {"CreationDate": None}}


def save(fig, out, stem):
    """Write ``stem.png`` and ``stem.pdf`` into ``out`` (undated: a re-render of a record changes no byte)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for ext in ("png", "pdf"):
        fig.savefig(out / f"{stem}.{ext}", dpi=150, bbox_inches="tight", metadata=UNDATED[ext])
    plt.close(fig)


def read_summary(path):
    """The summary.csv at ``path`` (what :mod:`ssl_repro.harness.aggregate` writes), or SystemExit with one
    ``Error:`` line when it is not a CSV or lacks a column the figures read (the cell's columns and each
    metric's mean, :data:`ssl_repro.harness.aggregate.METRICS`)."""
    try:
        summary = pd.read_csv(path)
    except (OSError, ValueError) as error:      # pandas' parser and decoding errors are ValueErrors
        raise SystemExit(f"Error: --summary {path} cannot be read as a CSV ({' '.join(str(error).split())})") from None
    missing = [c for c in ["dataset", "method", "n_labeled", *(f"{m}_mean" for m in METRICS)] if c not in summary]
    if missing:
        raise SystemExit(f"Error: --summary {path} has no column {', '.join(missing)}: it is not a summary.csv; give "
                         "the summary.csv that python -m ssl_repro.harness.aggregate writes into its --out folder")
    return summary


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m ssl_repro.report.plots", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--summary", help="summary.csv written by ssl_repro.harness.aggregate")
    ap.add_argument("--loss-shapes", action="store_true",
                    help="draw the loss-shape figures (Figs 1-3 of 000), which need no results")
    ap.add_argument("--out", required=True, help="folder for the PNG and PDF files")
    ap.add_argument("--note", help="appended to the timing figures' titles, e.g. 'code commit 1a2b3c4'")
    ap.add_argument("--force", action="store_true", help="write into the repository's committed results/ "
                                                           "(replacing its figures there)")
    args = ap.parse_args(argv)
    if not (args.summary or args.loss_shapes):
        ap.error("give --summary, --loss-shapes or both")
    try:
        refuse_committed(args.out, args.force)
    except ValueError as error:
        raise SystemExit(f"Error: {error}") from None
    if args.summary and not Path(args.summary).is_file():
        raise SystemExit(f"Error: --summary {args.summary}: no such file (the summary.csv that "
                         "python -m ssl_repro.harness.aggregate writes into its --out folder)")
    figures = {}
    if args.loss_shapes:
        figures = {"fig_tsvm_loss": tsvm_loss_figure(), "fig_da_loss": da_loss_figure(),
                   "fig_balance_B_nu": balance_figure()}
    if args.summary:
        summary = read_summary(args.summary)
        for dataset in sorted(summary["dataset"].unique()):
            figures.update(dataset_figures(summary, dataset, note=args.note))
    try:
        for stem, fig in figures.items():
            save(fig, args.out, stem)
    except OSError as error:
        raise SystemExit(f"Error: cannot write the figures into --out {args.out} ({error})") from None
    print(f"{len(figures)} figures -> {args.out}")


if __name__ == "__main__":
    main()
