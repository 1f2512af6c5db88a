"""The estimators' guide's block "Which estimator for which data" (:mod:`ssl_repro.report.readme_blocks`): per kind
of data, the estimators to pick and the committed numbers behind the advice, beside scikit-learn's own
semi-supervised estimators where a record has them.

- sparse text and dense low-dimensional images: ``results/sklearn_examples/<example>.json`` (scikit-learn's two
  gallery examples on their protocol, :mod:`.beyond_multiclass`'s :func:`~.beyond_multiclass.sklearn_lines`):
  the mean micro-F1 of each of our methods, of scikit-learn's best and of its label spreading;
- K classes: ``results/potts_vs_ovr/<set>.json``: the mean test error of one-vs-rest DA, the Potts DA and the
  SVM on the labeled rows.

The advice (which estimator) is the guide's; each number beside it is rendered here from its record, with the
record's path, so that a re-run record changes the page through ``paper_artifacts.py report``.
"""
from ssl_repro.report.sections.beyond_multiclass import (EXAMPLES, METHOD_NAMES, OURS, POTTS, POTTS_SETS, _found,
                                                         _frame, best_sklearn)

#: The advice per example of scikit-learn's (the kind of data it stands for, what to pick).
ADVICE = {
    "newsgroups": ("**Sparse text** (TF-IDF rows, thousands of features, l << d)",
                   "the linear methods: `LinearTSVM(switches=\"max\")` or `LinearDA`, sparse CSR "
                   "input used without a copy; tune lambda and lambda' on the labeled rows "
                   "(`labeled_accuracy`, `LabeledKFold`)"),
    "digits": ("**Dense low-dimensional images** (a few dozen pixel features)",
               "a graph or kernel method, not our linear ones: scikit-learn's `LabelSpreading` (rbf), or "
               "`LabelSpreadingKNN`; the RBF kernel machines (`KernelDA`, `KernelCCCPTSVM`) for up to 10,000 / "
               "20,000 training rows (not in this record)")}


def _f1(frame, method):
    return f"{100 * frame[frame['method'] == method]['micro_f1'].mean():.1f}%"


def example_lines(records):
    """One line per scikit-learn example found: its kind of data, the advice, and the record's micro-F1."""
    lines = []
    for name, record in _found(records, EXAMPLES, ADVICE):
        frame, s = _frame(record), record["settings"]
        best = best_sklearn(frame)
        ours = ", ".join(f"{METHOD_NAMES[m].replace(' (ours)', '')} {_f1(frame, m)}" for m in OURS
                         if (frame["method"] == m).any())
        theirs = [m for m in (best, "label_spreading") if m is not None and (frame["method"] == m).any()]
        kind, advice = ADVICE[name]
        lines.append(f"- {kind}: {advice}. On scikit-learn's example (`results/{EXAMPLES}/{name}.json`, mean micro-F1 "
                     f"over {frame['draw'].nunique()} draws, scored on the {s['scored']}): ours {ours}; "
                     + ", ".join(f"{METHOD_NAMES[m].replace(' (sklearn)', '')} {_f1(frame, m)}"
                                 for m in dict.fromkeys(theirs)) + " (scikit-learn's).")
    return lines


#: The K-class record's methods, in the guide's words.
K_NAMES = {"ovr": "one-vs-rest DA", "potts": "Potts DA", "svm": "LinearSVM on the labeled rows"}


def multiclass_line(records):
    """The K-class advice with the Potts record's mean test errors per set, and the lowest of each."""
    found = _found(records, POTTS, POTTS_SETS)
    if not found:
        return []
    parts = []
    for name, record in found:
        errors = _frame(record).groupby("method")["test_error"].mean()
        shown = [m for m in K_NAMES if m in errors]
        parts.append(f"{name} (K = {record['settings']['classes']}): " + ", ".join(
            f"{K_NAMES[m]} {100 * errors[m]:.1f}%" for m in shown) + f", lowest {K_NAMES[errors[shown].idxmin()]}")
    return ["- **K classes**: every estimator trains one-vs-rest; `LinearDA(multiclass=\"potts\")` is one DA over "
            "the K classes. Which is better depends on the data, and neither need beat the supervised SVM: mean "
            f"test error over the splits of `results/{POTTS}/` ({'; '.join(parts)})."]


def choice_lines(records):
    """The block's lines; a line saying what is missing when no record is there."""
    lines = example_lines(records) + multiclass_line(records)
    if not lines:
        return [f"(Not measured yet: `results/{EXAMPLES}/` and `results/{POTTS}/` are absent; "
                "`python experiments/sklearn_examples.py` and `python experiments/potts_vs_ovr.py` make them.)"]
    return lines + ["", "(Rendered from those records by `experiments/paper_artifacts.py report`.)"]
