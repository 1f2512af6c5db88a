"""The report's "Beyond the papers" section: do TSVM and DA beat today's baselines (the questions and their
verdicts: :mod:`ssl_repro.claims.beyond_rules`)?"""
from ssl_repro.claims.beyond_rules import verdicts
from ssl_repro.harness.methods import LABELS
from ssl_repro.report.tables import table


def section(records):
    """The report's "Beyond the papers" lines: the questions' verdicts as a table."""
    where = {"learning_curve": "", "transductive": " (large transductive table)"}
    rows = [[f"does {LABELS.get(m, m)} beat {LABELS.get(b, b)}?{where[f]}", v.data, f"**{v.word}**", v.evidence]
            for m, b, f, v in verdicts(records)]
    return ["## Beyond the papers", "",
            "Do TSVM and DA beat a supervised model tuned with the same labels (cross-validation on the labeled "
            "rows only: `ssl_repro/estimators/baselines.py` states the budget), self-training and label spreading? Paired "
            "per cell of `learning_curve_*` on the error on the unlabeled rows and on the test rows, judged per "
            "dataset (lower in more than half of the cells on both errors, higher in none) by the claims' rules; "
            "in the large transductive table (`transductive_*`, no test rows, no label spreading) on the error "
            "on the unlabeled rows.",
            "", table(["question", "data", "verdict", "evidence"],
                      [[str(c).replace("|", "\\|") for c in row] for row in rows])]
