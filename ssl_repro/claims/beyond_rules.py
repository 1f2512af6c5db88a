"""Beyond the papers: do TSVM and DA beat the baselines a reader would pick today?

The papers judge the benefit of unlabeled data against an SVM at their fixed lambda.  The questions
here put the papers' TSVM (S=max) and DA beside the four baselines of :mod:`ssl_repro.estimators.baselines` (an
L2-SVM and a logistic regression tuned by cross-validation on the labeled rows, self-training and
label spreading), run by the learning-curve recipe on the same splits, and answer each by the rules
of the claims table (:mod:`ssl_repro.claims.rules`): paired per cell on the error on the unlabeled
rows and on the test rows, judged per dataset ("beats" = lower in more than half of the cells on both
errors and higher in none), per data kind, an analog's constructions merged.  The large transductive
table (004 Tables 1.2-1.7: kdd99-10 on ten labeled draws) asks the same of the three baselines its recipe
runs (label spreading's neighbour search is too slow there: :mod:`ssl_repro.harness.methods`), on the error on the
unlabeled rows alone (it has no test rows).
"""
from ssl_repro.claims.verdicts import frames

#: The papers' semi-supervised methods asked about, by record name.
PAPERS_METHODS = ("tsvm-Smax", "da")
#: Today's baselines (ssl_repro/estimators/baselines.py), by record name.
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
    """[(method, baseline, folder, :class:`~ssl_repro.claims.verdicts.Verdict`)] over every paper set with
    a learning curve, then over every set of the large transductive table; each question judged as a claim
    without an id, once per render (:meth:`ssl_repro.claims.records.Records.verdict`)."""
    found = []
    for folder, baselines, metrics in SWEEPS:
        sets = sorted(frames(records, folder + "_"))
        found += [(m, b, folder, records.verdict({"test": question(m, b, sets, folder, metrics)}))
                  for m in PAPERS_METHODS for b in baselines if sets]
    return found
