"""Figure conventions of ssl_repro.report.plots: fixed styles, twins named, no degenerate figures."""
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from ssl_repro.report import plots


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def summary_of(curves, n_splits=3, dataset="toy"):
    """A summary table with one row per (method, labels); ``curves`` maps method -> {labels: mean}."""
    rows = []
    for method, points in curves.items():
        for n_labeled, mean in points.items():
            row = {"dataset": dataset, "method": method, "n_labeled": n_labeled, "n_splits": n_splits}
            for metric in plots.LABELS:
                row[f"{metric}_mean"] = mean
                row[f"{metric}_std"] = 0.01 if n_splits > 1 else np.nan
            rows.append(row)
    return pd.DataFrame(rows)


def legend_entries(fig):
    legend = fig.axes[0].get_legend()
    return [t.get_text() for t in legend.get_texts()]


def line_of(fig, method):
    return next(line for line in fig.axes[0].get_lines() if line.get_label() == method)


def colour_of(fig, method):
    return line_of(fig, method).get_color()


def test_a_method_keeps_its_colour_and_marker_whatever_else_is_drawn():
    summary = summary_of({"da": {2: 0.3, 4: 0.2}, "svm": {2: 0.5, 4: 0.4}, "tsvm-Smax": {2: 0.35, 4: 0.3},
                          "cccp_tsvm": {2: 0.4, 4: 0.35}})
    alone = plots.metric_vs_labels(summary, "toy", "test_error", methods=["da"])
    crowded = plots.metric_vs_labels(summary, "toy", "test_error")
    assert colour_of(alone, "da") == colour_of(crowded, "da") == plots.method_style("da")[0]
    colours = [colour_of(crowded, m) for m in ("da", "svm", "tsvm-Smax", "cccp_tsvm")]
    assert len(set(colours)) == 4
    assert plots.method_style("some-new-method") == plots.method_style("some-new-method")


def test_a_curve_equal_to_an_earlier_one_is_named_as_its_twin_in_the_legend_and_the_title():
    summary = summary_of({"svm": {2: 0.5, 4: 0.4}, "rls": {2: 0.5, 4: 0.4 + 1e-4}, "da": {2: 0.3, 4: 0.2}})
    fig = plots.metric_vs_labels(summary, "toy", "test_error")
    assert legend_entries(fig) == ["SVM", "RLS (= SVM)", "DA"]          # the papers' names
    rls = line_of(fig, "rls")
    assert rls.get_linestyle() == "--" and rls.get_zorder() > 2
    assert "lines that coincide: RLS = SVM (dashed)" in fig.axes[0].get_title().replace("\n", " ")


def test_the_spread_is_a_band_of_one_standard_error_that_a_log_axis_shows():
    means = {2: 0.004, 4: 0.05, 8: 0.2}                      # a decade apart: a log axis
    summary = summary_of({"self_training": means, "da": {2: 0.3, 4: 0.2, 8: 0.1}}, n_splits=4)
    summary["test_error_std"] = [0.02, 0.02, 0.02, 0.02, 0.02, 0.02]       # std 0.02 over 4 splits: se 0.01
    fig = plots.metric_vs_labels(summary, "toy", "test_error")
    ax = fig.axes[0]
    assert ax.get_yscale() == "log" and not ax.containers                # no error bars
    band = next(c for c in ax.collections if np.allclose(c.get_facecolor()[0][:3],
                                                         plt.matplotlib.colors.to_rgb(colour_of(fig, "da"))))
    top = band.get_paths()[0].vertices[:, 1].max()
    assert top == pytest.approx(0.3 + 0.02 / np.sqrt(4))
    assert ax.get_ylim()[0] == pytest.approx(0.8 * 0.004)                 # the means set the floor
    assert "band: ± 1 standard error over splits" in ax.get_title().replace("\n", " ")


def test_one_split_has_no_error_bars_and_says_so():
    summary = summary_of({"da": {2: 0.3, 4: 0.2}}, n_splits=1)
    fig = plots.metric_vs_labels(summary, "toy", "seconds")
    assert not fig.axes[0].collections and not fig.axes[0].containers        # no band, no bars
    assert "one split" in fig.axes[0].get_title()


def test_single_label_counts_and_missing_values_get_tables_not_figures():
    one_point = summary_of({"svm": {1000: 0.1}, "da": {1000: 0.05}})
    assert plots.dataset_figures(one_point, "toy") == {}
    curves = summary_of({"svm": {2: 0.5, 4: 0.4}, "da": {2: 0.3, 4: 0.2}, "tsvm-Smax": {2: 0.35, 4: 0.25}})
    curves["test_error_mean"] = np.nan       # a transductive data set: no test rows
    stems = set(plots.dataset_figures(curves, "toy"))
    assert "toy_test_error" not in stems and {"toy_transductive_error", "toy_objective"} <= stems


def test_ablation_figures_include_the_fixed_temperature_times():
    summary = summary_of({"da": {2: 0.3, 4: 0.2}, "da-T1": {2: 0.32, 4: 0.25}, "da-T0.1": {2: 0.4, 4: 0.3},
                          "tsvm-Smax": {2: 0.35, 4: 0.3}})
    figures = plots.dataset_figures(summary, "toy")
    assert {"toy_ablation_objective", "toy_ablation_test_error", "toy_ablation_seconds"} <= set(figures)
    assert legend_entries(figures["toy_ablation_seconds"]) == ["DA", "fixed T=1", "fixed T=0.1"]
    assert "da-T1" not in legend_entries(figures["toy_objective"])


def test_a_transductive_table_of_several_unlabeled_sizes_is_summarized_apart_and_not_drawn():
    from ssl_repro.harness.aggregate import markdown, summarize
    jobs = pd.DataFrame([{"dataset": "toy", "method": "da", "split": 0, "n_labeled": l, "n_unlabeled": u,
                          "test_error": np.nan, "transductive_error": e, "objective_own": e, "objective_eqn18": e,
                          "seconds": 1.0, "converged": True}
                         for l, u, e in [(100, 500, 0.2), (100, 1000, 0.1), (1000, 500, 0.05), (1000, 1000, 0.04)]])
    jobs = pd.concat([jobs, jobs.assign(method="tsvm-Smax", transductive_error=jobs["transductive_error"] * 2,
                                        objective_eqn18=jobs["objective_eqn18"] * 2)], ignore_index=True)
    summary = summarize(jobs)
    assert len(summary) == 8 and (summary["n_splits"] == 1).all()
    assert "| toy | 100 | 1000 | 0.1000 |" in markdown(summary, "transductive_error")
    assert plots.dataset_figures(summary, "toy") == {}
    one_u = summary[summary["n_unlabeled"] == 1000]
    plan = plots.figure_plan(one_u, "toy")      # one split: its errors and J are a table, not a zoomed curve
    assert plan["toy_transductive_error"][3] == plan["toy_objective"][3] == (
        "one split: its values are a table, not a curve of means")
    assert set(plots.dataset_figures(one_u.assign(n_splits=2), "toy")) >= {"toy_transductive_error", "toy_objective"}


def test_a_figure_of_one_method_alone_is_refused_as_the_ablation_folders_da_only_panels_were():
    summary = summary_of({"da": {2: 0.3, 4: 0.2}, "da-T1": {2: 0.32, 4: 0.25}})
    plan = plots.figure_plan(summary, "toy")
    assert plan["toy_test_error"][3] == "one method"
    assert plan["toy_ablation_test_error"][3] is None
    assert set(plots.dataset_figures(summary, "toy")) == {"toy_ablation_objective", "toy_ablation_test_error",
                                                          "toy_ablation_seconds"}


def test_flat_and_coinciding_curves_are_refused_and_a_varying_one_is_not():
    flat = {"svm": ([2, 4], np.array([0.2, 0.201])), "da": ([2, 4], np.array([0.2005, 0.2]))}
    assert plots.refusal(flat) == "flat"
    assert plots.refusal({"svm": ([2, 4], np.zeros(2)), "da": ([2, 4], np.zeros(2))}) == "flat"
    same = {"svm": ([2, 4], np.array([0.5, 0.1])), "rls": ([2, 4], np.array([0.5, 0.1]))}
    assert plots.refusal(same) == "curves coincide"
    apart = {"svm": ([2, 4], np.array([0.5, 0.1])), "da": ([2, 4], np.array([0.3, 0.05]))}
    assert plots.refusal(apart) is None


def test_error_axes_are_logarithmic_over_a_decade_or_near_zero_and_symlog_at_zero():
    assert plots.y_scale("test_error", [0.3, 0.2, 0.15]) == "linear"
    assert plots.y_scale("test_error", [0.386, 0.0002]) == "log"          # synthetic-ccat's SVM vs DA
    assert plots.y_scale("test_error", [0.009, 0.005]) == "log"            # near zero, within a decade
    assert plots.y_scale("objective_eqn18", [0.009, 0.005]) == "linear"    # the near-zero rule is for errors
    assert plots.y_scale("test_error", [0.2, 0.0]) == "symlog"
    assert plots.y_scale("seconds", [180.0, 7.1]) == "log"
    assert plots.y_scale("objective_eqn18", [0.14, 0.2]) == "linear"
    summary = summary_of({"svm": {2: 0.386, 4: 0.0085}, "da": {2: 0.0002, 4: 0.0002}})
    assert plots.metric_vs_labels(summary, "toy", "test_error").axes[0].get_yscale() == "log"


def test_the_legend_is_outside_the_axes_and_timing_titles_carry_the_note():
    summary = summary_of({"svm": {2: 0.5, 4: 0.4}, "da": {2: 0.3, 4: 0.2}, "tsvm-Smax": {2: 0.35, 4: 0.25}})
    figures = plots.dataset_figures(summary, "toy", note="code commit abc1234")
    fig = figures["toy_seconds"]
    fig.canvas.draw()
    legend = fig.axes[0].get_legend().get_window_extent()
    axes = fig.axes[0].get_window_extent()
    assert legend.x0 >= axes.x1
    assert "code commit abc1234" in fig.axes[0].get_title().replace("\n", " ")
    assert "abc1234" not in figures["toy_test_error"].axes[0].get_title()


def test_the_plots_command_runs_as_a_module_without_a_warning():
    """``python -m ssl_repro.report.plots`` (the README's command): the report package imports none of its
    modules on its own, so runpy meets no half-imported ``plots`` (a RuntimeWarning, an error here)."""
    import subprocess
    import sys
    proc = subprocess.run([sys.executable, "-W", "error", "-m", "ssl_repro.report.plots", "--help"],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("usage:"), proc.stderr[-2000:]


def test_error_figures_name_the_papers_methods_in_percent_and_keep_the_baselines_in_their_own_panel():
    """The legend uses the methods table's labels (independent of the record strings), the error axis reads
    in percent, and an error figure with today's baselines is two panels: the papers' methods, and the
    baselines beside SVM and DA."""
    papers = {"svm": {2: 0.30, 8: 0.20}, "tsvm-S1": {2: 0.25, 8: 0.15}, "da": {2: 0.22, 8: 0.12}}
    baselines = {"svm_cv": {2: 0.31, 8: 0.21}, "label_spreading": {2: 0.40, 8: 0.33}}
    summary = summary_of({**papers, **baselines})
    fig = plots.dataset_figures(summary, "toy")["toy_test_error"]
    left, right = fig.axes[:2]
    shown = [[t.get_text() for t in ax.get_legend().get_texts()] for ax in (left, right)]
    assert shown == [["SVM", "TSVM S=1", "DA"], ["SVM", "DA", "SVM (tuned)", "label spreading"]]
    fig.canvas.draw()
    ticks = [t.get_text() for t in left.get_yticklabels() if t.get_text()]
    assert ticks and all(t.endswith("%") for t in ticks)
    assert plots.PERCENT(0.04, 0) == "4%" and plots.PERCENT(0.125, 0) == "12.5%"
    only_papers = plots.dataset_figures(summary_of(papers), "toy")["toy_test_error"]
    assert len(only_papers.axes) == 1
