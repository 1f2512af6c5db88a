"""001's kernel methods as harness methods: one job end to end (configs composed as run.py does),
the record's fields against independent evaluations, and the size limit of a dense Gram matrix."""
import json
from pathlib import Path

import numpy as np
import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

import ssl_repro.harness.app as app
import ssl_repro.harness.runner as runner
from ssl_repro.data import load_dataset, make_split
from ssl_repro.kernel import rbf_gram

CONF = Path(__file__).resolve().parents[2] / "conf"


def job(*overrides):
    with initialize_config_dir(config_dir=str(CONF), version_base=None):
        return OmegaConf.to_container(compose("config", overrides=list(overrides)), resolve=True)


@pytest.fixture
def fitted(monkeypatch):
    """run_job's estimators, kept for the test (the last one built is the one trained)."""
    seen = []
    estimator_for = runner.estimator_for
    monkeypatch.setattr(runner, "estimator_for", lambda *a: seen.append(estimator_for(*a)) or seen[-1])
    return seen


def kernel_eqn18(K, alpha, bias, y_l, labeled, unlabeled, lam, lam_u):
    """lambda/2 alpha'K alpha + 1/(2l) sum max(0, 1 - y f)^2 + lambda'/(2u) sum max(0, 1 - |f|)^2, f = K alpha + b."""
    f = K @ alpha + bias
    return (0.5 * lam * alpha @ K @ alpha + 0.5 * np.mean(np.maximum(0, 1 - y_l * f[labeled]) ** 2)
            + 0.5 * lam_u * np.mean(np.maximum(0, 1 - np.abs(f[unlabeled])) ** 2))


def test_kernel_da_job_on_two_circles_has_the_usual_fields_and_both_objectives(fitted, tmp_path, caplog,
                                                                               monkeypatch):
    cfg = job("dataset=2circles", "method=kernel_da_l1", "n_labeled=2")
    monkeypatch.setattr(app, "limit_threads", lambda threads: threads)    # leave this process's pools alone
    with caplog.at_level("INFO", logger="ssl_repro"):
        record = app.run_configured_job(cfg, tmp_path)    # what `python run.py dataset=2circles ...` runs
    est = fitted[-1]                                   # the one trained (the settings check built one too)
    linear = runner.run_job(job("dataset=2circles", "method=svm", "n_labeled=2"))
    assert list(record) == list(linear)                # the same fields, in the same order, as every method
    assert json.loads((tmp_path / "result.json").read_text())["method"] == "kernel_da-l1"
    assert "2circles kernel_da-l1 split=0 l=2: no test rows, transductive error 0.0000" in caplog.text

    dataset = load_dataset("2circles")
    split = make_split(dataset, 0, 2)
    assert split.test.size == 0 and record["n_labeled"] == 2 and record["n_unlabeled"] == 198
    X, y = dataset.X.toarray(), dataset.y
    # independent: the Gram matrix of all rows (the job is transductive on every row) at the fitted width
    K = rbf_gram(X, est.sigma_)
    alpha, bias = est.dual_coef_[0], est.intercept_[0]
    expected = kernel_eqn18(K, alpha, bias, y[split.labeled], split.labeled, split.unlabeled, 1e-3, 1.0)
    assert record["objective_eqn18"] == pytest.approx(expected, rel=1e-10)
    assert record["objective_eqn18"] == pytest.approx(est.diagnostics_.objective, rel=1e-10)
    # the method's own objective: 001's Eqn 1 with the hinge (DA's minimum along its path)
    assert record["objective_own"] == est.diagnostics_.own_objective
    f_u = K[split.unlabeled] @ alpha + bias
    def hinge(t):
        return np.maximum(0, 1 - t)
    own = (0.5 * 1e-3 * alpha @ K @ alpha + hinge(y[split.labeled] * (K[split.labeled] @ alpha + bias)).mean()
           + np.minimum(hinge(f_u), hinge(-f_u)).mean())
    assert record["objective_own"] == pytest.approx(own, rel=1e-10)
    predicted = np.where(est.predict(dataset.X[split.unlabeled]) == 1, 1, -1)
    assert record["transductive_error"] == np.mean(predicted != y[split.unlabeled])
    assert np.isnan(record["test_error"]) and record["seconds"] > 0


def test_kernel_jtsvm_job_with_test_rows_and_an_unlabeled_subset(fitted):
    """text-like: 1000 test rows and 300 of the unlabeled rows, so the job trains on a copy of some rows."""
    record = runner.run_job(job("dataset=text-like", "method=kernel_jtsvm_l2", "n_labeled=16", "n_unlabeled=300"))
    est = fitted[-1]                                   # the one trained (the settings check built one too)
    dataset = load_dataset("text-like")
    split = make_split(dataset, 0, 16, 300)
    y = dataset.y
    for rows, key in ((split.test, "test_error"), (split.unlabeled, "transductive_error")):
        predicted = np.where(est.predict(dataset.X[rows]) == 1, 1, -1)
        assert record[key] == np.mean(predicted != y[rows])
    train = np.r_[split.labeled, split.unlabeled]
    K = rbf_gram(dataset.X[train].toarray(), est.sigma_)
    labeled, unlabeled = np.arange(16), np.arange(16, 316)
    expected = kernel_eqn18(K, est.dual_coef_[0], est.intercept_[0], y[split.labeled], labeled, unlabeled,
                            record["lam"], record["lam_u"])
    assert record["objective_eqn18"] == pytest.approx(expected, rel=1e-10)
    assert record["method"] == "kernel_jtsvm-l2" and record["n_test"] == 1000


def test_eqn18_is_the_solvers_at_the_lambdas_the_method_ran_with(fitted):
    record = runner.run_job(job("dataset=2moons", "method=kernel_da_sqr", "n_labeled=2", "method.lam_u=0.5",
                                "+method.max_outer=4"))
    est = fitted[-1]                                   # the one trained (the settings check built one too)
    # the record holds the lambda' used, and Eqn 18 is the solver's, at that lambda'
    assert est.lam_u == 0.5 and record["lam_u"] == 0.5 and record["eqn18_lam_u"] == 0.5
    X, y = load_dataset("2moons").X.toarray(), load_dataset("2moons").y
    split = make_split(load_dataset("2moons"), 0, 2)
    K = rbf_gram(X, est.sigma_)
    expected = kernel_eqn18(K, est.dual_coef_[0], est.intercept_[0], y[split.labeled], split.labeled,
                            split.unlabeled, 1e-3, 0.5)
    assert record["objective_eqn18"] == pytest.approx(expected, rel=1e-10)
    assert record["objective_eqn18"] == est.diagnostics_.objective


def test_a_kernel_method_refuses_a_dataset_too_large_for_a_dense_gram_matrix(fitted):
    with pytest.raises(ValueError, match=r"kernel_da-l2 on text-like \(16 labeled \+ 2984 unlabeled rows\): 3000 "
                                         r"training rows exceed the kernel methods' limit of max_rows=1000"):
        runner.run_job(job("dataset=text-like", "method=kernel_da", "n_labeled=16", "+method.max_rows=1000"))
    assert not hasattr(fitted[0], "dual_coef_")      # refused before fitting
