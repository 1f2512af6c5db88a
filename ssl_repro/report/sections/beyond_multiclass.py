"""The sections of "Beyond the papers" on K classes: the Potts DA beside one-vs-rest DA, our methods beside
scikit-learn's own semi-supervised examples, UniverSVM's K-class mode beside ours; and the cost lines of the
estimators' guide page.

- :func:`potts_lines`: ``results/potts_vs_ovr/<set>.json`` (``experiments/potts_vs_ovr.py``): per set the means
  over its splits of each method's errors, J over K classes, CPU seconds and iterations, and the paired
  test of Potts minus one-vs-rest per metric (:func:`ssl_repro.claims.rules.compare` through
  :func:`~ssl_repro.report.tables.verdict`: p < 0.05 and beyond the equal threshold).
- :func:`sklearn_lines`: ``results/sklearn_examples/<example>.json`` (``experiments/sklearn_examples.py``): per
  example the mean micro-F1 of every method over the draws, and each of ours against the best scikit-learn
  method (the highest mean micro-F1 among those that see only the labeled share), paired over the draws on
  the error 1 - micro-F1 by the same rules.
- :func:`universvm_lines`: ``results/peers/universvm_multiclass.json`` (``experiments/universvm_multiclass.py``):
  UniverSVM's ``-M k`` beside our K-class CCCP-TSVM on digits, when that record is there.
- :func:`cost_lines`: what each K-class option of ``LinearDA`` costs, from the Potts record (the guide's block,
  :mod:`ssl_repro.report.readme_blocks`).

These are no claims of the papers (000 and 004 name the Potts extension in a footnote and run nothing;
scikit-learn's examples are not in the papers): no verdict joins the claims table.
"""
import pandas as pd

from ssl_repro.report.tables import paired, pct, table, verdict

#: The record folders under results/ and the files they hold, in the order shown.
POTTS, POTTS_SETS = "potts_vs_ovr", ("digits", "mnist-5k", "20ng-all")
UNIVERSVM = "peers/universvm_multiclass"
EXAMPLES, EXAMPLE_NAMES = "sklearn_examples", {
    "newsgroups": "Semi-supervised Classification on a Text Dataset (20 Newsgroups, five categories)",
    "digits": "Label Propagation digits: Demonstrating performance"}
#: The methods' names in the tables.
POTTS_NAMES = {"ovr": "DA one-vs-rest", "potts": "DA Potts", "svm": "SVM, labeled rows only (reference)"}
METHOD_NAMES = {"sgd_all_labels": "SGD, every training row labeled (the example's ceiling)",
                "sgd_supervised": "SGD on the labeled rows (sklearn)", "self_training_sgd": "SelfTraining(SGD) (sklearn)",
                "label_spreading": "LabelSpreading (sklearn)", "tsvm": "TSVM S=max (ours)",
                "da_ovr": "DA one-vs-rest (ours)", "da_potts": "DA Potts (ours)", "cccp_tsvm": "CCCP-TSVM (ours)",
                "cccp-tsvm": "CCCP-TSVM one-vs-rest (ours)", "universvm-cccp-M": "UniverSVM -M 10"}
SKLEARN = ("sgd_supervised", "self_training_sgd", "label_spreading")
OURS = ("tsvm", "da_ovr", "da_potts", "cccp_tsvm")
#: The paired metrics of the Potts record: (column, its name, the scale and unit of its difference).
POTTS_METRICS = (("transductive_error", "transductive error", 100, " pt"), ("test_error", "test error", 100, " pt"),
                 ("objective_k", "J over K classes", 1, ""))


def _frame(record):
    return pd.DataFrame(record["rows"])


def _done(n, settings, asked="splits_asked"):
    """``n`` (splits or draws run), with ``of N asked`` when the run that wrote the record stopped before them."""
    wanted = settings.get(asked, n)
    return f"{n}" if n >= wanted else f"{n} of {wanted} asked"


def _count(n, noun):
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _found(records, folder, names):
    """[(name, record)] of the records ``folder/<name>.json`` under results/ that are there."""
    return [(name, rec) for name in names for rec in [records.json(f"{folder}/{name}.json")] if rec]


def _opening(records, folder, names, title, command):
    """(the records found, the section's first lines): its heading, and "not measured yet" naming ``command``
    when none of ``folder``'s records is there."""
    found = _found(records, folder, names)
    lines = [f"### {title}", ""]
    return found, lines + ([] if found else [f"not measured yet (`{folder}/` absent: `{command}`)."])


def _mean(part, column, fmt):
    values = part[column].astype(float)
    return "-" if values.isna().all() else fmt(values.mean())


def potts_lines(records):
    """The Potts section's lines (module doc); "not measured yet" when no record is there."""
    found, lines = _opening(records, POTTS, POTTS_SETS, "The Potts DA beside one-vs-rest DA (K classes)",
                            "python experiments/potts_vs_ovr.py")
    if not found:
        return lines
    lines += ["The multi-class DA of 000's and 004's footnote (\"a multiclass extension would use the Potts glass "
              "model\"; `LinearDA(multiclass=\"potts\")`) beside 002's one-vs-rest scheme run with DA "
              "(`multiclass=\"ovr\"`), on the same random splits, at lambda = 0.001, lambda' = 1, r the labeled rows' "
              "class shares. J over K classes is one function of the K weight vectors for both (the sum over the "
              "classes of Eqn 18's terms). CPU seconds are the process's during the fit, every thread; the machine "
              "was shared, so they are rough, and the wall seconds the record also holds are not a timing.", ""]
    rows, tests = [], []
    for name, record in found:
        s, frame = record["settings"], _frame(record)
        for method, part in frame.groupby("method", sort=False):
            bad = int((~part["converged"].astype(bool)).sum())
            rows.append([name, f"{s['rows']:,} x {s['features']:,}, K = {s['classes']}",
                         f"{s['n_labeled']:,} / {s['n_unlabeled']:,} / {s['n_test']:,}", _done(part["split"].nunique(), s),
                         POTTS_NAMES.get(method, method), _mean(part, "transductive_error", pct),
                         _mean(part, "test_error", pct), _mean(part, "objective_k", lambda x: f"{x:.5g}"),
                         _mean(part, "cpu_seconds", lambda x: f"{x:.3g}"), _mean(part, "iterations", lambda x: f"{x:.3g}"),
                         f"{bad} of {len(part)}"])
        for column, label, scale, unit in POTTS_METRICS:
            numbers, word = verdict(paired(frame, "potts", "ovr", column), scale, unit)
            tests.append([name, label, numbers, word])
    return lines + [table(["data", "rows x features", "labeled / unlabeled / test", "splits", "method",
                           "transductive error", "test error", "J over K", "CPU s", "iterations", "not converged"],
                          rows), "",
                    "Potts minus one-vs-rest, paired over the splits (lower on k/n splits, mean ± sd of the "
                    "difference, the signed-rank p; the word: is Potts lower, by the rules of the comparisons):", "",
                    table(["data", "metric", "Potts - one-vs-rest", "Potts lower?"], tests), "",
                    f"Records: {', '.join(f'`{POTTS}/{n}.json`' for n, _ in found)} "
                    f"(`python experiments/potts_vs_ovr.py`)."]


def best_sklearn(frame):
    """The scikit-learn method (of :data:`SKLEARN`) with the highest mean micro-F1 in ``frame``."""
    means = frame[frame["method"].isin(SKLEARN)].groupby("method")["micro_f1"].mean()
    return means.idxmax() if len(means) else None


def sklearn_lines(records):
    """The scikit-learn examples' section (module doc); "not measured yet" when no record is there."""
    found, lines = _opening(records, EXAMPLES, EXAMPLE_NAMES, "Beside scikit-learn's own semi-supervised examples",
                            "python experiments/sklearn_examples.py")
    if not found:
        return lines
    lines += ["Two examples of scikit-learn's gallery on their data and protocol (`experiments/sklearn_examples.py` "
              "states each step): the text example scores micro-F1 on its test rows with 20% of the training rows "
              "labeled; the digits example on the 300 unlabeled of 340 rows, 40 labeled. Our methods are linear, "
              "K classes (one-vs-rest, or the Potts DA), at the papers' lambda = 0.001, lambda' = 1, untuned; "
              "scikit-learn's at the examples' settings. Each of ours is paired over the draws with the best "
              "scikit-learn method (highest mean micro-F1) on the error 1 - micro-F1.", ""]
    for name, record in found:
        frame = _frame(record).rename(columns={"draw": "split"})
        best = best_sklearn(frame)
        rows = []
        for method, part in frame.groupby("method", sort=False):
            mean_f1 = part["micro_f1"].mean()
            sd = part["micro_f1"].std(ddof=1) if len(part) > 1 else float("nan")
            numbers, word = verdict(paired(frame, method, best, "error"), 100, " pt") if method in OURS else ("", "")
            rows.append([METHOD_NAMES.get(method, method), _done(part["split"].nunique(), record["settings"], "draws_asked"),
                         f"{100 * mean_f1:.2f}" + (f" ± {100 * sd:.2f}" if sd == sd else ""),
                         _mean(part, "cpu_seconds", lambda x: f"{x:.3g}"),
                         "(best sklearn)" if method == best else f"{numbers}: {word}" if numbers else ""])
        lines += [f"**{EXAMPLE_NAMES[name]}** (`{EXAMPLES}/{name}.json`; scored on the {record['settings']['scored']}):", "",
                  table(["method", "draws", "micro-F1 (%)", "CPU s", f"error vs {METHOD_NAMES.get(best, best)}: lower?"],
                        rows), ""]
    return lines + ["CPU seconds: the process's during the fit, on a shared machine (rough). A `yes` is an error "
                    "lower by the claims' rules (p < 0.05 and beyond the equal threshold), a `no` a higher one."]


def universvm_lines(records):
    """UniverSVM's ``-M k`` beside our K-class CCCP-TSVM on digits (``peers/universvm_multiclass.json``, written
    by ``experiments/universvm_multiclass.py --universvm PATH``): means over the splits and ours minus
    UniverSVM's errors, paired; nothing when the record is absent (it needs the GPL binary, built by the user)."""
    record = records.json(f"{UNIVERSVM}.json")
    if record is None:
        return []
    frame = _frame(record)
    rows = []
    for method, part in frame.groupby("method", sort=False):
        capped = int(part["capped"].astype(bool).sum())
        rows.append([METHOD_NAMES.get(method, method), part["split"].nunique(), _mean(part, "transductive_error", pct),
                     _mean(part, "test_error", pct), _mean(part, "seconds", lambda x: f"{x:.3g}")
                     + (f" ({capped} capped)" if capped else "")])
    tests = [[label, *verdict(paired(frame, "cccp-tsvm", "universvm-cccp-M", column), 100, " pt")]
             for column, label, *_ in POTTS_METRICS[:2]]
    return ["", "### UniverSVM's K-class mode beside our K-class CCCP-TSVM", "",
            "002's authors' program trains K classes with `-M k`; ours is `LinearCCCPTSVM` one-vs-rest. Both on "
            "digits, the same random splits, linear, lambda = 0.001 mapped to UniverSVM's C as "
            "`experiments/universvm_compare.py` maps it (losses differ: hinge and ramp s = -0.3 there, squared "
            "hinge and s = 0 here). Seconds are CPU seconds (UniverSVM's process, reading its input included; "
            f"ours the fit's, one solver thread) on a shared machine. `{UNIVERSVM}.json`:", "",
            table(["method", "splits", "transductive error", "test error", "CPU s"], rows), "",
            table(["error", "ours - UniverSVM", "ours lower?"], tests)]


def cost_lines(records):
    """The guide's lines on what each K-class option of ``LinearDA`` costs, from the Potts record: per set the
    mean CPU seconds and iterations of each, and Potts' share of one-vs-rest's seconds."""
    found = _found(records, POTTS, POTTS_SETS)
    if not found:
        return [f"(Not measured yet: `results/{POTTS}/` is absent; `python experiments/potts_vs_ovr.py` makes it.)"]
    lines = []
    for name, record in found:
        s, frame = record["settings"], _frame(record)
        by = frame.groupby("method")[["cpu_seconds", "iterations"]].mean()
        ratio = by.at["potts", "cpu_seconds"] / by.at["ovr", "cpu_seconds"]
        lines.append(f"- {name} (K = {s['classes']}, {s['n_labeled']} labeled and {s['n_unlabeled']:,} unlabeled rows, "
                     f"{_count(frame['split'].nunique(), 'split')}): one-vs-rest {by.at['ovr', 'cpu_seconds']:.3g} CPU s "
                     f"({by.at['ovr', 'iterations']:.3g} temperatures over its K fits), Potts "
                     f"{by.at['potts', 'cpu_seconds']:.3g} CPU s ({by.at['potts', 'iterations']:.3g} temperatures), "
                     f"{ratio:.2g} times one-vs-rest's;")
    lines[-1] = lines[-1][:-1] + "."
    return lines + ["", f"(Means per fit from `results/{POTTS}/`, rendered by `experiments/paper_artifacts.py report`; "
                    "CPU seconds of a shared machine, rough: the ratio is the figure to read.)"]


def section(records):
    """The sections' lines, for the "Beyond the papers" page."""
    return [*potts_lines(records), "", *sklearn_lines(records), *universvm_lines(records)]
