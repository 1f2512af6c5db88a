"""The papers' figures, drawn from the aggregated tables (PNG and PDF).

    python -m ssl_repro.report.plots --summary OUT/summary.csv --out FIGDIR
    python -m ssl_repro.report.plots --loss-shapes --out FIGDIR

draws, for every dataset in the summary, the test and transductive error
learning curves with the SVM baseline (Figs 5-10 of 000, Figs 1.4-1.5 of
004), the Eqn 18 objective minima of the semi-supervised methods (Fig 4 of
000, Fig 1.3 of 004), training time vs labels (Fig 11 of 000, Fig 1.6 of
004) and, where fixed-T runs exist, the annealing ablation with its times
(Figs 12-13 of 000); plus the loss shapes: the TSVM loss (Fig 1 / Fig 1.1),
the DA loss as T falls (Fig 2 / Fig 1.2) and B(nu) with its root (Fig 3 of
000).  Each function returns its Figure, whose plotted values are the
summary's (tested).

Conventions, the same in every figure:

- one colour, marker and line style per method (:func:`method_style`);
- error bars are one standard deviation over splits, drawn only when a
  point has more than one split (a one-split figure says so in its title);
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
- the legend outside the axes, right of the data;
- a timing figure names, in its title, the code commit of its records
  (``note``, from results.csv's ``git_commit``).
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
from scipy.optimize import brentq  # noqa: E402

from ssl_repro.harness.aggregate import METRICS  # noqa: E402
from ssl_repro.harness.methods import STYLES, plot_group  # noqa: E402
from ssl_repro.solvers.balance import balance_function  # noqa: E402
from ssl_repro.harness.result_files import refuse_committed  # noqa: E402

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
    for method in methods:
        part = rows[rows["method"] == method].sort_values("n_labeled")
        mean = part[f"{metric}_mean"].to_numpy(float)
        keep = np.isfinite(mean)
        if keep.any():
            curves[method] = (part["n_labeled"].to_numpy()[keep], mean[keep])
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
    ("rls = svm"), not only in the legend; ``note`` (e.g. the code commit of timing records) is appended
    to the title."""
    rows = summary[summary["dataset"] == dataset]
    one_split = bool((rows["n_splits"] <= 1).all()) if "n_splits" in rows else False
    fig, ax = plt.subplots(figsize=(6.8, 3.8))
    drawn, handles, names, twins = {}, [], [], []
    every = rows[f"{metric}_mean"].to_numpy(float)
    tolerance = COINCIDE * (np.nanmax(np.abs(every)) if np.isfinite(every).any() else 0.0)
    for method in methods or sorted(rows["method"].unique(), key=_draw_order):
        part = rows[rows["method"] == method].sort_values("n_labeled")
        if part.empty:
            continue
        x, mean = part["n_labeled"].to_numpy(), part[f"{metric}_mean"].to_numpy(float)
        std = part[f"{metric}_std"].to_numpy(float)
        twin = next((m for m, (xs, ys) in drawn.items()
                     if np.array_equal(xs, x) and np.allclose(ys, mean, rtol=0.0, atol=tolerance, equal_nan=True)),
                    None)
        colour, marker, style = method_style(method)
        line, = ax.plot(x, mean, color=colour, marker=marker, ms=4, lw=1.2, linestyle="--" if twin else style,
                        zorder=2 if style == "-" and not twin else 3, label=method)
        if not one_split and "n_splits" in part:
            sem = np.nan_to_num(std) / np.sqrt(part["n_splits"].to_numpy(float).clip(min=1))
            ax.fill_between(x, mean - sem, mean + sem, color=colour, alpha=0.15, lw=0, zorder=1)
        drawn[method] = (x, mean)
        handles.append(line)
        names.append(f"{method} (= {twin})" if twin else method)
        if twin:
            twins.append(f"{method} = {twin}")
    ax.set_xscale("log")
    plotted = np.concatenate([y for _, y in drawn.values()]) if drawn else np.array([])
    scale = y_scale(metric, plotted)
    if scale == "symlog":
        ax.set_yscale("symlog", linthresh=float(np.min(plotted[plotted > 0], initial=NEAR_ZERO_ERROR)))
    elif scale == "log":
        ax.set_yscale("log")
        ax.set_ylim(bottom=0.8 * np.min(plotted[plotted > 0]))       # the means set the floor, not the bands
    ticks = sorted(rows["n_labeled"].unique())
    ax.set_xticks(ticks)
    ax.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    if len(ticks) > MAX_LEVEL_TICKS:     # close counts (pcmac's 29 and 37) would print over each other
        ax.tick_params(axis="x", labelrotation=60, labelsize=7)
    ax.set_xlabel("number of labeled examples")
    ax.set_ylabel(LABELS.get(metric, metric))
    text = title or f"{dataset}: {LABELS.get(metric, metric)}"
    if one_split:
        text += " (one split)"
    else:
        text += "; band: ± 1 standard error over splits"
    if twins:
        text += f"; lines that coincide: {', '.join(twins)} (dashed)"
    if note:
        text += f"; {note}"
    ax.set_title("\n".join(textwrap.wrap(text, 56)), fontsize=9)
    ax.legend(handles, names, fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0)
    fig.tight_layout()
    return fig


def _draw_order(method):
    """The order of METHOD_STYLES (baselines first), so that a twin names the baseline it equals."""
    order = list(METHOD_STYLES)
    return (order.index(method) if method in order else len(order), method)


def tsvm_loss_figure():
    """Fig 1 (000) / Fig 1.1 (004): the unlabeled loss max(0, 1 - |o|)^2."""
    o = np.linspace(-2.5, 2.5, 501)
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot(o, np.maximum(0.0, 1.0 - np.abs(o)) ** 2)
    ax.set_xlabel("output o = w.x")
    ax.set_ylabel("loss")
    ax.set_title("L2 TSVM loss on an unlabeled example")
    fig.tight_layout()
    return fig


def da_effective_loss(o, T, lam_u=1.0):
    """Eqn 8's loss of one unlabeled example minimized over its p (no balance constraint),
    shifted by T log 2 so that every T shares the baseline:
    min_p lam_u [p a + (1-p) b] + T [p log p + (1-p) log(1-p)] + T log 2
    = -T log((exp(-lam_u a/T) + exp(-lam_u b/T)) / 2),  a = max(0, 1 - o)^2, b = max(0, 1 + o)^2.
    T -> 0 gives the TSVM loss lam_u min(a, b); large T the squared loss lam_u (a + b) / 2."""
    a = lam_u * np.maximum(0.0, 1.0 - o) ** 2
    b = lam_u * np.maximum(0.0, 1.0 + o) ** 2
    return -T * (np.logaddexp(-a / T, -b / T) - np.log(2.0))


#: The temperatures Fig 2's drawing shows, highest first (the report computes its da-loss row at these).
DA_LOSS_TEMPERATURES = (10.0, 1.0, 0.5, 0.1, 0.01)


def da_loss_figure(temperatures=DA_LOSS_TEMPERATURES):
    """Fig 2 (000) / Fig 1.2 (004): the DA loss deforming into the TSVM loss as T falls."""
    o = np.linspace(-2.5, 2.5, 501)
    fig, ax = plt.subplots(figsize=(4, 3))
    for T in temperatures:
        ax.plot(o, da_effective_loss(o, T), label=f"T = {T:g}")
    ax.set_xlabel("output o = w.x")
    ax.set_ylabel("effective loss")
    ax.set_title("DA loss on an unlabeled example")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def balance_figure(T=1.0, r=0.15, n=200):
    """Fig 3 (000): B(nu) = mean_j 1/(1 + exp((g_j - nu)/T)) - r for g_j in [-5, 5], with its root."""
    g = np.linspace(-5.0, 5.0, n)
    nus = np.linspace(-15.0, 15.0, 601)
    values = [balance_function(g, nu, T, r)[0] for nu in nus]
    root = brentq(lambda nu: balance_function(g, nu, T, r)[0], -50.0, 50.0, xtol=1e-12)
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.plot(nus, values)
    ax.axhline(0.0, color="gray", lw=0.5)
    ax.plot([root], [0.0], "o", color="red", label=f"root nu = {root:.3f}")
    ax.set_xlabel("nu")
    ax.set_ylabel("B(nu)")
    ax.set_title(f"B(nu), T = {T:g}, r = {r:g}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


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
    titles of the timing figures (``seconds``)."""
    return {stem: metric_vs_labels(summary, dataset, metric, methods=chosen, title=title,
                                   note=note if metric == "seconds" else None)
            for stem, (metric, chosen, title, refused) in figure_plan(summary, dataset).items() if refused is None}


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
