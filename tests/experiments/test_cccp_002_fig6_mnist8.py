"""002's Fig 6 on digits and mnist-5k (``experiments/cccp_002_fig6.py``) and Table 6's MNIST-8 column on mnist-5k
(``experiments/cccp_002.py table6 --dataset mnist-5k``): the rows each fit is given, the records and their
keys, with the fits replaced by fakes (the protocol is what is tested here, not the solver)."""
import json
import sys
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from ssl_repro.data import load_dataset
from ssl_repro.data.keys import TodaysKeys, matrix_key
from ssl_repro.report.key_check import json_problems


@pytest.fixture
def fig6_script(experiment_script, tmp_path, monkeypatch):
    """cccp_002_fig6 writing under ``tmp_path``, its fit_row a fake that keeps what each fit was given."""
    script = experiment_script("cccp_002_fig6")
    monkeypatch.setattr(sys.modules[script.note.__module__], "OUT", tmp_path)      # the module note reads
    monkeypatch.setattr(script, "OUT", tmp_path)
    script.given = []

    def fit_row(method, X, y, labeled, unlabeled, sigma, C, s, lam_u, scored):
        script.given.append((labeled, unlabeled, scored, lam_u))
        script.sigma = sigma
        return {"method": method, "lam_u": unlabeled.size / labeled.size if lam_u == "C*=C" else lam_u,
                "heuristic": {"C*=C": "C*=C", 1.0: "UC*=LC"}[lam_u], "n_unlabeled": unlabeled.size, "seconds": 0.1,
                "transductive_error": float(np.mean(y[scored] == 0))}
    monkeypatch.setattr(script, "fit_row", fit_row)
    return script


def test_fig6_scores_each_split_on_one_test_part_while_rows_are_added(fig6_script, tmp_path):
    fig6_script.fig6("digits", 2, (500, 1000, 1747))
    record = pd.read_csv(tmp_path / "fig6.csv")
    assert len(record) == 2 * 3 * 2 and set(record["heuristic"]) == {"C*=C", "UC*=LC"}
    for split in (0, 1):
        given = fig6_script.given[6 * split:6 * (split + 1)]
        tests = {tuple(scored) for _, _, scored, _ in given}
        assert len(tests) == 1 and len(next(iter(tests))) == 500          # the same test part at every size
        for labeled, unlabeled, scored, _ in given:
            assert labeled.size == 50 and not set(labeled) & set(unlabeled) and set(scored) <= set(unlabeled)
        assert [u.size for _, u, _, _ in given] == [500, 500, 1000, 1000, 1747, 1747]
        assert [lam for *_, lam in given] == ["C*=C", 1.0] * 3
    c_star_c = record[record["heuristic"] == "C*=C"]
    assert np.allclose(c_star_c["lam_u"], c_star_c["n_unlabeled"] / 50)              # C* = C is lam_u = U / L
    assert fig6_script.given[0][2].tolist() != fig6_script.given[6][2].tolist()     # each split draws its own


def test_fig6_keys_its_record_with_digits_and_a_changed_key_is_caught(fig6_script, tmp_path):
    fig6_script.fig6("digits", 1, (500,))
    provenance = json.loads((tmp_path / "provenance.json").read_text())
    digits = load_dataset("digits")
    assert provenance["data_keys"]["digits"] == matrix_key(digits.X, digits.y)
    todays = TodaysKeys(lambda name: load_dataset(name, download=False))
    assert json_problems(provenance, todays) == []
    provenance["data_keys"]["digits"] = "feedface"
    assert json_problems(provenance, todays)[0].startswith("digits made from other data (dataset key feedface")


def test_fig6_on_mnist_5k_reaches_the_larger_sizes_in_its_own_keyed_record(fig6_script, tmp_path):
    """mnist-5k: a 1,000-row test part, then its other rows up to the 4,950 not labeled, at 002's MNIST width
    (Table 5's gamma = 0.0128), into fig6_mnist5k.csv (digits' fig6.csv untouched), keyed with mnist-5k."""
    fig6_script.fig6("mnist-5k", 1, (1000, 4950))
    record = pd.read_csv(tmp_path / "fig6_mnist5k.csv")
    assert not (tmp_path / "fig6.csv").exists() and (record["dataset"] == "mnist-5k").all()
    assert sorted(record["n_unlabeled"]) == [1000, 1000, 4950, 4950] and (record["n_test"] == 1000).all()
    assert record["factor"].isna().all() and np.isclose(fig6_script.sigma ** -2 / 2, 0.0128)
    (labeled, small, test, _), (_, _, _, _), (_, every, test_large, _), _ = fig6_script.given
    assert labeled.size == 50 and np.array_equal(small, test) and np.array_equal(test, test_large)
    assert np.array_equal(np.sort(np.concatenate([labeled, every])), np.arange(5000))     # every row at 4,950
    mnist = load_dataset("mnist-5k")
    provenance = json.loads((tmp_path / "provenance.json").read_text())
    assert provenance["data_keys"]["mnist-5k"] == matrix_key(mnist.X, mnist.y)


@pytest.mark.parametrize("argv,said", [(["--sizes", "400"], "--sizes [400]: each must lie in 500..1747 on digits"),
                                       (["--dataset", "mnist-5k", "--sizes", "500"],
                                        "--sizes [500]: each must lie in 1000..4950 on mnist-5k"),
                                       (["--splits", "0"], "--splits 0: must be positive")])
def test_fig6_refuses_sizes_outside_the_test_part_and_all_rows(experiment_script, capsys, argv, said):
    script = experiment_script("cccp_002_fig6")
    with pytest.raises(SystemExit):
        script.main(argv)
    assert said in capsys.readouterr().err


class FakeTSVM:
    """KernelCCCPTSVM's place: keeps the rows and labels of each fit, outputs +1 on every row."""
    fits = []

    def __init__(self, **params):
        self.params = params

    def fit(self, X, y):
        FakeTSVM.fits.append((self.params, X.shape[0], np.asarray(y)))
        self.diagnostics_ = SimpleNamespace(cccp_iterations=3, converged=True)
        return self

    def decision_function(self, X):
        return np.ones(X.shape[0])


def test_table6_on_mnist_5k_is_8_against_the_rest_in_two_halves_and_keyed(experiment_script, tmp_path,
                                                                          monkeypatch):
    script = experiment_script("cccp_002")
    monkeypatch.setattr(sys.modules[script.note.__module__], "OUT", tmp_path)      # the module note reads
    monkeypatch.setattr(script, "OUT", tmp_path)
    monkeypatch.setattr(script, "KernelCCCPTSVM", FakeTSVM)
    FakeTSVM.fits = []
    script.table6(1, "mnist-5k")
    record = pd.read_csv(tmp_path / "table6_mnist8.csv")
    assert list(record["mode"]) == ["svm"] + ["semi-supervised"] * 3 + ["transductive"] * 3
    assert set(record["lam_u"].dropna()) == {1.0, 3.0, 10.0} and (record["dataset"] == "mnist-5k").all()
    assert {"seconds", "wall_seconds"} <= set(record) and not (tmp_path / "table6.csv").exists()
    mnist = load_dataset("mnist-5k")
    eights = float(np.mean(np.asarray(mnist.y) == 8))
    # +1 on every row: the error on half B is the share of the rest there, about 1 - 8's share
    assert record.loc[record["mode"] != "svm", "error"].between(1 - eights - 0.03, 1 - eights + 0.03).all()
    for params, rows, y in FakeTSVM.fits:
        assert (params["s"], params["max_rows"]) == (-0.1, None) and np.isclose(params["sigma"] ** -2 / 2, 0.0128)
        assert np.isclose(params["lam"], 1 / (10 * 100)) and rows == 100 + 2450          # 100 labeled, half of 4,900
        assert np.sum(y == 1) == round(100 * eights) and np.sum(y >= 0) == 100          # 8's share of the labels
    provenance = json.loads((tmp_path / "provenance.json").read_text())
    assert provenance["data_keys"]["mnist-5k"] == matrix_key(mnist.X, mnist.y)


def test_table6_refuses_a_set_without_its_column(experiment_script, capsys):
    with pytest.raises(SystemExit):
        experiment_script("cccp_002").main(["table6", "--dataset", "digits"])
    assert "--dataset digits: table6 runs on mnist-5k or text" in capsys.readouterr().err
