"""Beyond the papers: do TSVM and DA beat the baselines a reader would pick today?

The papers judge the benefit of unlabeled data against an SVM at their fixed lambda.  The questions
here put the papers' TSVM (S=max) and DA beside the four baselines of :mod:`ssl_repro.baselines` (an
L2-SVM and a logistic regression tuned by cross-validation on the labeled rows, self-training and
label spreading), run by the learning-curve recipe on the same splits, and answer each by the rules
of the claims table (:mod:`ssl_repro.harness.claims`): paired per cell on the error on the unlabeled
rows and on the test rows, judged per dataset ("beats" = lower in more than half of the cells on both
errors and higher in none), per data kind, an analog's constructions merged.  The large transductive
table (004 Tables 1.2-1.7: kdd99-10 on ten labeled draws) asks the same of the three baselines its recipe
runs (label spreading's neighbour search is too slow there: :mod:`ssl_repro.methods`), on the error on the
unlabeled rows alone (it has no test rows).
"""
from .verdicts import frames
from ..methods import LABELS

#: The papers' semi-supervised methods asked about, by record name.
PAPERS_METHODS = ("tsvm-Smax", "da")
#: Today's baselines (ssl_repro/baselines.py), by record name.
BASELINES = ("svm_cv", "logreg_cv", "self_training", "label_spreading")
#: The errors a method must be lower on to "beat" a baseline: (the records' folder, its baselines, the errors).
SWEEPS = (("learning_curve", BASELINES, ("transductive_error", "test_error")),
          ("transductive", BASELINES[:3], ("transductive_error",)))


def question(method, baseline, sets, folder="learning_curve", metrics=SWEEPS[0][2]):
    """The ``compare`` test of "does ``method`` beat ``baseline``" on the paper sets ``sets``."""
    return {"kind": "compare", "folder": folder, "per": "dataset",
            "checks": [{"a": method, "b": baseline, "metric": metric} for metric in metrics],
            "expect": {name: "lower" for name in sets}}


def verdicts(records):
    """[(method, baseline, folder, :class:`~ssl_repro.harness.verdicts.Verdict`)] over every paper set with
    a learning curve, then over every set of the large transductive table; each question judged as a claim
    without an id, once per render (:meth:`ssl_repro.harness.report.Records.verdict`)."""
    found = []
    for folder, baselines, metrics in SWEEPS:
        sets = sorted(frames(records, folder + "_"))
        found += [(m, b, folder, records.verdict({"test": question(m, b, sets, folder, metrics)}))
                  for m in PAPERS_METHODS for b in baselines if sets]
    return found


def section(records):
    """The report's "Beyond the papers" lines: the questions' verdicts as a table."""
    from .report.tables import table
    where = {"learning_curve": "", "transductive": " (large transductive table)"}
    rows = [[f"does {LABELS.get(m, m)} beat {LABELS.get(b, b)}?{where[f]}", v.data, f"**{v.word}**", v.evidence]
            for m, b, f, v in verdicts(records)]
    return ["## Beyond the papers", "",
            "Do TSVM and DA beat a supervised model tuned with the same labels (cross-validation on the labeled "
            "rows only: `ssl_repro/baselines.py` states the budget), self-training and label spreading? Paired "
            "per cell of `learning_curve_*` on the error on the unlabeled rows and on the test rows, judged per "
            "dataset (lower in more than half of the cells on both errors, higher in none) by the claims' rules; "
            "in the large transductive table (`transductive_*`, no test rows, no label spreading) on the error "
            "on the unlabeled rows.",
            "", table(["question", "data", "verdict", "evidence"],
                      [[str(c).replace("|", "\\|") for c in row] for row in rows])]
