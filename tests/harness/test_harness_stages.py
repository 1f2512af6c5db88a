"""Each stage of a job (resolve, load, split, fit, record) on its own."""
import numpy as np
import pytest

from ssl_repro.data import DATASETS, load_dataset, make_split
from ssl_repro.harness.runner import (FittedJob, JobSettings, fit_estimator, load_data, make_record, resolve_job,
                                      split_rows, train_job, training_rows)

CFG = {"dataset": {"name": "g50c", "lam": None, "lam_u": 0.5}, "method": {"name": "da", "variant": "da"},
       "split": 1, "n_labeled": 10, "n_unlabeled": None}


@pytest.fixture(scope="module")
def g50c():
    return load_dataset("g50c")


def settings(method=None, backend=None):
    return JobSettings(dataset="g50c", paths={}, root=None, download=True, lam=1e-3, lam_u=0.5,
                       method=method or {"name": "da"}, variant="da", backend=backend or {"name": "local"})


def test_resolve_fills_lam_from_the_registry_and_keeps_the_configured_lam_u():
    job = resolve_job({**CFG, "dataset": {**CFG["dataset"], "path": None}})
    assert (job.dataset, job.lam, job.lam_u) == ("g50c", DATASETS["g50c"].lam, 0.5)
    assert job.paths == {} and job.variant == "da" and job.backend == {"name": "local"}


def test_resolve_refuses_a_setting_the_harness_does_not_read():
    with pytest.raises(ValueError, match="dataset.label_grid is not a setting"):
        resolve_job({**CFG, "dataset": {"name": "g50c", "label_grid": [1]}})


def test_load_reads_the_named_dataset(g50c):
    data = load_data(settings())
    assert data.name == "g50c" and (data.X != g50c.X).nnz == 0


def test_split_is_the_papers_split_and_refuses_one_class_unlabeled_rows(g50c):
    split = split_rows(CFG, settings(), g50c)
    assert np.array_equal(split.labeled, make_split(g50c, 1, 10).labeled)
    tiny = {**CFG, "n_labeled": 499}      # one unlabeled row left
    with pytest.raises(ValueError, match="all of one class"):
        split_rows(tiny, settings(), g50c)
    assert split_rows(tiny, settings({"name": "da", "r": 0.5}), g50c).unlabeled.size == 1


def test_training_rows_copy_only_the_split_rows(g50c):
    X, y, all_rows = training_rows(g50c, make_split(g50c, 0, 10))
    assert X.shape[0] == 500 and not all_rows and (y != -1).sum() == 10


def test_fit_trains_the_method_and_refuses_a_kernel_method_on_a_distributed_backend(g50c):
    split = make_split(g50c, 0, 10)
    fitted = fit_estimator(settings(), g50c, split)
    assert fitted.estimator.coef_.shape == (1, 50) and not fitted.kernel and fitted.seconds > 0
    with pytest.raises(ValueError, match="is a kernel method"):
        fit_estimator(settings({"name": "kernel_da"}, {"name": "ray"}), g50c, split)


def test_record_scores_the_outputs_and_reports_the_values_used(g50c):
    split = make_split(g50c, 0, 10)
    fitted = fit_estimator(settings(), g50c, split)
    record, arrays = make_record(CFG, settings(), g50c, split, fitted)
    predicted = np.where(fitted.estimator.decision_function(g50c.X[split.test]) > 0, 1, -1)
    assert record["test_error"] == pytest.approx(np.mean(predicted != g50c.y[split.test]))
    on_unlabeled = fitted.estimator.decision_function(g50c.X[split.unlabeled]) > 0
    assert record["unlabeled_positive_fraction"] == pytest.approx(np.mean(on_unlabeled))    # the one-class flag's input
    assert (record["lam"], record["lam_u"], record["r"]) == (1e-3, 0.5, split.r) and arrays == {}
    assert isinstance(fitted, FittedJob)


def test_the_job_is_its_stages():
    record, _ = train_job(CFG)
    assert (record["dataset"], record["split"], record["n_labeled"], record["lam_u"]) == ("g50c", 1, 10, 0.5)


def test_a_label_count_off_the_datasets_grid_runs_with_a_warning_naming_the_grid(g50c, caplog):
    with caplog.at_level("WARNING", logger="ssl_repro"):
        split_rows({**CFG, "n_labeled": 10}, settings(), g50c)       # on g50c's grid (10, 25, 50)
        assert not caplog.records
        split = split_rows({**CFG, "n_labeled": 12}, settings(), g50c)
    assert split.labeled.size == 12
    (warning,) = [r.getMessage() for r in caplog.records]
    assert "n_labeled=12 is off the label counts of g50c (10, 25, 50)" in warning
