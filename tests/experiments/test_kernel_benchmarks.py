"""experiments/kernel_benchmarks.py (001 Tables 4-5 on PC-MAC): its splits, distances, selection and table."""
import numpy as np
import pytest
from scipy.spatial.distance import cdist

from ssl_repro.data import DATASETS, Dataset, make_split
from ssl_repro.data.embedded import text_like, two_moons
from ssl_repro.kernel import default_sigma, kernel_da, rbf_gram


@pytest.fixture(scope="module")
def bench(experiment_script):
    return experiment_script("kernel_benchmarks")


@pytest.fixture(scope="module")
def small_pcmac():
    X, y = text_like(n_rows=400, n_features=300, seed=3)
    return Dataset("pcmac", X, y, "test", DATASETS["pcmac"])


def test_splits_have_001s_labeled_and_validation_sizes_and_partition_the_rows(bench, small_pcmac):
    labeled, validation, unlabeled, test = bench.split_rows(small_pcmac, 4)
    assert (labeled.size, validation.size) == (37, 13)
    parts = np.concatenate([labeled, validation, unlabeled, test])
    assert np.array_equal(np.sort(parts), np.arange(400))
    assert np.array_equal(labeled, make_split(small_pcmac, 4, 37).labeled)     # nested in the harness's split
    assert np.array_equal(test, make_split(small_pcmac, 4, 37).test)


def test_squared_distances_of_sparse_rows_match_scipy(bench, small_pcmac):
    A, B = small_pcmac.X[:20], small_pcmac.X[50:65]
    np.testing.assert_allclose(bench.squared_distances(A, B), cdist(A.toarray(), B.toarray(), "sqeuclidean"),
                               atol=1e-12)


def record(method, split, lam, width, u, v, t):
    return {"method": method, "split": split, "lam": lam, "width": width, "u_error": u, "v_error": v,
            "t_error": t, "objective_eqn1": 1.0, "seconds": 1.0}


def test_selection_takes_each_splits_best_validation_point_and_best_the_lowest_mean_u_error(bench):
    records = [record("DA", 0, 1e-3, 1, u=0.30, v=0.1, t=0.32), record("DA", 0, 1e-3, 2, u=0.10, v=0.2, t=0.12),
               record("DA", 1, 1e-3, 1, u=0.20, v=0.3, t=0.22), record("DA", 1, 1e-3, 2, u=0.12, v=0.2, t=0.14),
               record("DA", 0, 1e-2, 1, u=0.01, v=0.0, t=0.01)]      # split 1 missing: not a complete point
    row = bench.summarize(records)["DA"]
    np.testing.assert_allclose(row["selected"], [21.0, 23.0])      # split 0: width 1; split 1: width 2
    np.testing.assert_allclose(row["best"], [11.0, 13.0])
    assert row["best_point"] == [1e-3, 2] and (row["splits"], row["grid_points"]) == (2, 2)
    assert row["J_0_above_da"] is None
    records.append(record("JTSVM", 0, 1e-3, 1, u=0.3, v=0.3, t=0.3) | {"objective_eqn1": 2.0})
    assert bench.summarize(records)["JTSVM"]["J_0_above_da"] == (1, 1)
    text = bench.table(bench.summarize(records))
    assert "| DA | 21.0/23.0 | 11.8/9.4 | 11.0/13.0 (0.001, 2) | 5.3/4.8 | 1.0000 | - | 2 x 2 |" in text
    assert "| JTSVM | 30.0/30.0 | 14.1/11.9 | 30.0/30.0 (0.001, 1) | 10.4/7.0 | 2.0000 | 1 of 1 | 1 x 1 |" in text
    assert "| nabla-TSVM | not run |" in text


def test_fixed_temperature_da_runs_one_temperature_and_returns_its_best_point():
    X, y = two_moons(n_rows=60, seed=1)
    K = rbf_gram(X, default_sigma(X) / 4)
    labeled, unlabeled = np.array([0, 1]), np.arange(2, 60)
    _, _, info = kernel_da(K, labeled, y[labeled].astype(float), unlabeled, 1e-2, 1.0, 0.5, loss="l2",
                           fixed_temperature=0.01)
    assert info.temperatures == [0.01] and {T for T, _ in info.objective_path} == {0.01}
    assert info.stop_reason == "tolerance" and info.own_objective == min(v for _, v in info.objective_path)
    with pytest.raises(ValueError, match="fixed_temperature"):
        kernel_da(K, labeled, y[labeled].astype(float), unlabeled, 1e-2, fixed_temperature=0.0)


def test_fresh_re_runs_every_fit_where_a_plain_run_keeps_the_runs_of_earlier_commands(bench, small_pcmac, tmp_path,
                                                                                     monkeypatch):
    import json
    monkeypatch.setattr(bench, "load_dataset", lambda *args, **kwargs: small_pcmac)
    out = tmp_path / "kernel_benchmarks"
    argv = ["--splits", "1", "--lambdas", "1e-3", "--widths", "1", "--methods", "SVM", "--out", str(out)]
    bench.main(argv)
    runs = out / "runs.jsonl"
    (record,) = [json.loads(line) for line in runs.read_text().splitlines()]
    runs.write_text(json.dumps({**record, "u_error": 0.99}) + "\n")      # an earlier command's run
    bench.main(argv)
    assert [json.loads(line)["u_error"] for line in runs.read_text().splitlines()] == [0.99]
    assert len(json.loads((out / "table.json").read_text())["earlier"]) == 1     # the table merges both commands
    bench.main(argv + ["--fresh"])
    assert [json.loads(line)["u_error"] for line in runs.read_text().splitlines()] == [record["u_error"]]
    assert not (out / "runs.partial.jsonl").exists()
    assert json.loads((out / "table.json").read_text())["earlier"] == []       # no earlier command's run is in it
