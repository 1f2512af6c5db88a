"""The "Beyond the papers" questions: the papers' methods against today's baselines, by the claims' rules,
on the learning curves (both errors) and on the large transductive table (the unlabeled rows' error)."""
from pathlib import Path

import pandas as pd

from ssl_repro.claims import beyond_rules as beyond
from ssl_repro.report import record_text as records
from ssl_repro.report.sections import beyond_table

ROOT = Path(__file__).resolve().parents[2]


def _rows(dataset, l, u, errors, test=True):
    """Ten splits of one cell: ``errors`` maps a record name to its error (split k adds 0.001 k)."""
    return [{"dataset": dataset, "method": m, "split": k, "n_labeled": l, "n_unlabeled": u,
             "transductive_error": e + 0.001 * k + (0.0005 * k * k if m == "da" else 0.0),
             "test_error": (e + 0.001 * k) if test else float("nan"), "converged": True}
            for k in range(10) for m, e in errors.items()]


def _records(tmp_path):
    folders = {
        "learning_curve_pcmac": _rows("pcmac", 37, 1000, {"tsvm-Smax": 0.05, "da": 0.04, "svm_cv": 0.20,
                                                         "logreg_cv": 0.21, "self_training": 0.30,
                                                         "label_spreading": 0.25}),
        "transductive_kdd99_10": _rows("kdd99-10", 1000, 493021, {"tsvm-Smax": 0.010, "da": 0.030, "svm_cv": 0.009,
                                                                  "logreg_cv": 0.011, "self_training": 0.012},
                                       test=False),
    }
    for folder, rows in folders.items():
        (tmp_path / "results" / folder).mkdir(parents=True)
        pd.DataFrame(rows).to_csv(tmp_path / "results" / folder / "results.csv", index=False)
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "paper_numbers.json").write_text((ROOT / "experiments" / "paper_numbers.json").read_text())
    return records.Records(tmp_path / "results", tmp_path)


def test_the_transductive_table_is_asked_on_the_unlabeled_error_without_label_spreading(tmp_path):
    found = {(m, b, f): v for m, b, f, v in beyond.verdicts(_records(tmp_path))}
    assert {b for m, b, f in found if f == "transductive"} == {"svm_cv", "logreg_cv", "self_training"}
    assert found[("tsvm-Smax", "svm_cv", "learning_curve")].word == "holds"          # 5% vs 20% on both errors
    assert found[("da", "label_spreading", "learning_curve")].word == "holds"
    assert found[("da", "svm_cv", "transductive")].word == "does not hold"                  # 3% vs 0.9%
    assert found[("tsvm-Smax", "self_training", "transductive")].word == "holds"      # 1.0% vs 1.2%, no test rows
    assert "kdd99-10" in found[("da", "svm_cv", "transductive")].data


def test_the_section_names_the_large_transductive_rows(tmp_path):
    text = "\n".join(beyond_table.section(_records(tmp_path)))
    assert text.count("(large transductive table)") == 6
    assert "label spreading? (large transductive table)" not in text
