"""The estimators' guide's block on which estimator to pick (:mod:`ssl_repro.report.sections.estimator_choice`):
its numbers are the records' means, recomputed here, and the committed page holds its rendering."""
import json
from pathlib import Path

import numpy as np

from ssl_repro.claims.records import Records
from ssl_repro.report.readme_blocks import CHOICE
from ssl_repro.report.sections.estimator_choice import choice_lines

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "user_guide" / "03_methods.md"


def write(path, rows, settings):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"provenance": {"command": "made by a test"}, "settings": settings, "rows": rows}))


def test_the_block_gives_each_records_means_and_names_the_lowest_k_class_error(tmp_path):
    f1 = {"label_spreading": 0.851, "self_training_sgd": 0.69, "tsvm": 0.724, "da_ovr": 0.692}
    write(tmp_path / "sklearn_examples" / "digits.json",
          [{"draw": d, "method": m, "micro_f1": v + (0.002 if d else -0.002)} for d in range(2) for m, v in f1.items()],
          {"scored": "unlabeled rows"})
    errors = {"ovr": 0.134, "potts": 0.156, "svm": 0.111}
    write(tmp_path / "potts_vs_ovr" / "digits.json",
          [{"split": s, "method": m, "test_error": e} for s in range(3) for m, e in errors.items()], {"classes": 10})
    text = "\n".join(choice_lines(Records(tmp_path, ROOT)))
    assert "`results/sklearn_examples/digits.json`, mean micro-F1 over 2 draws, scored on the unlabeled rows" in text
    assert "ours TSVM S=max 72.4%, DA one-vs-rest 69.2%; LabelSpreading 85.1% (scikit-learn's)" in text
    assert ("digits (K = 10): one-vs-rest DA 13.4%, Potts DA 15.6%, LinearSVM on the labeled rows 11.1%, lowest "
            "LinearSVM on the labeled rows") in text
    assert "Sparse text" not in text                        # no newsgroups record, no line


def test_without_records_the_block_says_what_makes_them(tmp_path):
    assert "Not measured yet" in choice_lines(Records(tmp_path, ROOT))[0]


def test_the_guide_holds_the_block_rendered_from_the_committed_records():
    text = GUIDE.read_text()
    block = text.split(CHOICE[0] + "\n", 1)[1].split(CHOICE[1], 1)[0]
    assert block == "\n".join(choice_lines(Records(ROOT / "results", ROOT))) + "\n"
    newsgroups = json.loads((ROOT / "results" / "sklearn_examples" / "newsgroups.json").read_text())["rows"]
    spreading = np.mean([r["micro_f1"] for r in newsgroups if r["method"] == "label_spreading"])
    assert f"LabelSpreading {100 * spreading:.1f}% (scikit-learn's)" in block
