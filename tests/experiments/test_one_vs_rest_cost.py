"""benchmarks/one_vs_rest_cost.py: its record times the K-class fit against the K binary fits, and both paths
do the same work (the K-class path runs the same K problems, so their summed n_iter_ are equal)."""
import json

import pytest

from ssl_repro.data import load_dataset
from ssl_repro.data.keys import dataset_key
from tests.experiments.test_careless_benchmarks import script


def test_the_record_gives_both_paths_equal_work_the_ratio_of_medians_and_the_digits_key(tmp_path, capsys):
    out = tmp_path / "cost.json"
    script("one_vs_rest_cost").main(["--methods", "LinearSVM,LinearTSVM", "--repeats", "2", "--labeled", "40", "--out", str(out)])
    record = json.loads(out.read_text())
    assert record["data_keys"] == {"digits": dataset_key(load_dataset("digits"))}
    assert record["provenance"]["git_commit"] and record["settings"]["repeats"] == 2
    assert [r["estimator"] for r in record["rows"]] == ["LinearSVM", "LinearTSVM"]
    for row in record["rows"]:
        assert row["classes"] == 10
        together, apart = row["k_class"], row["k_binary"]
        assert len(together["work"]) == 1 and together["work"] == apart["work"] and together["work"][0] > 0
        for path in (together, apart):
            wall = path["wall_seconds"]
            assert len(wall["all"]) == 2 and wall["min"] <= wall["median"] <= wall["max"]
        assert row["ratio_wall"] == pytest.approx(together["wall_seconds"]["median"] / apart["wall_seconds"]["median"])
    shown = capsys.readouterr().out
    assert "LinearTSVM" in shown and f"{record['rows'][1]['ratio_wall']:6.2f}" in shown
