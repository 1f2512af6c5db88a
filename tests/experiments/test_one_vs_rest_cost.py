"""benchmarks/one_vs_rest_cost.py: its record times the K-class fit against the K binary fits and says whether
the two paths solve the same K problems (every class's J within 1e-9 relative, the same predictions)."""
import json

import pytest

from ssl_repro.data import load_dataset
from ssl_repro.data.keys import dataset_key
from tests.experiments.test_careless_benchmarks import script


def test_the_record_gives_both_paths_j_per_class_the_ratio_of_medians_and_the_digits_key(tmp_path, capsys):
    out = tmp_path / "cost.json"
    script("one_vs_rest_cost").main(["--methods", "LinearSVM,LinearTSVM", "--data", "digits", "--repeats", "2",
                                     "--labeled", "40", "--out", str(out)])
    record = json.loads(out.read_text())
    assert record["data_keys"] == {"digits": dataset_key(load_dataset("digits"))}
    assert record["provenance"]["git_commit"] and record["settings"]["repeats"] == 2
    assert record["settings"]["data"] == {"digits": {"rows": 1797, "features": 64, "labeled": 40}}
    assert [r["estimator"] for r in record["rows"]] == ["LinearSVM", "LinearTSVM"]
    svm, tsvm = record["rows"]
    for row in record["rows"]:
        assert row["classes"] == 10 and row["data"] == "digits" and row["same_predictions"] is True
        assert row["j_agreement"]["max_relative"] < 1e-9 and len(row["j_agreement"]["per_class"]) == 10
        together, apart = row["k_class"], row["k_binary"]
        for path in (together, apart):
            wall = path["wall_seconds"]
            assert len(wall["all"]) == 2 and wall["min"] <= wall["median"] <= wall["max"]
            assert len(path["cg_iterations"]) == 1 and path["cg_iterations"][0] > 0
        assert row["ratio_wall"] == pytest.approx(together["wall_seconds"]["median"] / apart["wall_seconds"]["median"])
    # TSVM's K-class path is its K binary fits: the same bits and work; the SVM's shares its products
    assert tsvm["j_agreement"]["max_relative"] == 0.0 and tsvm["k_class"]["work"] == tsvm["k_binary"]["work"]
    shown = capsys.readouterr().out
    assert "LinearTSVM" in shown and f"{tsvm['ratio_wall']:6.2f}" in shown


def test_a_record_of_the_older_form_is_refused_with_the_fix(tmp_path):
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"settings": {"rows": 1797, "labeled": 100, "repeats": 5, "seed": 0}, "rows": []}))
    with pytest.raises(SystemExit, match=r"^Error: the record at .*old\.json is of the form before --data .*remake"):
        script("one_vs_rest_cost").main(["--show", "--out", str(old)])
