"""The project's local launcher (hydra_plugins/ssl_repro_launcher/local_launcher.py): what one job leaves in
its folder and what the sweep is told; the sweeps through it are in test_harness_sweep.py."""
import json

import pytest
from hydra.core.utils import JobStatus
from omegaconf import OmegaConf

from hydra_plugins.ssl_repro_launcher.local_launcher import JOB_LOG, _job_return, run_one
from hydra_plugins.ssl_repro_sweeper.job_configs import JobConfig
from ssl_repro.harness.app import FOUND, RAN

TASK = {"dataset": {"name": "text-like"}, "method": {"name": "svm", "variant": "svm"}, "split": 0,
        "n_labeled": 16, "n_unlabeled": 300, "solver_threads": 1}


def test_a_job_keeps_its_settings_overrides_and_log_and_runs_once(tmp_path):
    folder = tmp_path / "job"
    overrides = ["method=svm", "split=0"]
    assert run_one(overrides, folder, TASK, tmp_path, 1) == (True, RAN)
    assert OmegaConf.to_container(OmegaConf.load(folder / ".hydra" / "config.yaml")) == TASK
    assert list(OmegaConf.load(folder / ".hydra" / "overrides.yaml")) == overrides
    log = (folder / JOB_LOG).read_text()
    assert "text-like svm split=0 l=16: running (1 solver thread)" in log and "result.json" in log
    assert (folder / "result.json").exists()
    assert run_one(overrides, folder, TASK, tmp_path, 1) == (True, FOUND)       # its record is found, not re-run
    log = (folder / JOB_LOG).read_text()
    assert log.count(": running") == 1 and "already done, skipped" in log


def test_a_job_that_raises_is_a_failed_job_of_the_sweep(tmp_path):
    error = RuntimeError("boom")
    job = _job_return(["split=0"], JobConfig(tmp_path, TASK), (False, error))
    assert job.status == JobStatus.FAILED and job.working_dir == str(tmp_path)
    with pytest.raises(RuntimeError, match="boom"):
        job.return_value
    assert _job_return(["split=0"], JobConfig(tmp_path, TASK), (True, RAN)).return_value == RAN


def test_a_sweep_copies_the_same_job_from_another_sweeps_folder_and_checks_its_settings(tmp_path):
    from ssl_repro.harness.app import REUSED, run_or_skip
    from ssl_repro.harness.jobkey import job_key
    from ssl_repro.harness.result_files import REUSED_FROM

    def folder(sweep, task):
        return tmp_path / sweep / "text-like" / "svm" / "split=0" / "l=16" / job_key(task)

    first = {**TASK, "sweep_name": "learning_curve"}
    status, computed = run_or_skip(first, folder("learning_curve", first), sweep_dir=tmp_path / "learning_curve")
    assert status == RAN
    second = {**TASK, "sweep_name": "ablation"}               # where the job runs: not what it computes
    status, copied = run_or_skip(second, folder("ablation", second), sweep_dir=tmp_path / "ablation")
    assert status == REUSED and copied[REUSED_FROM] == str(folder("learning_curve", first).resolve())
    stored = [json.loads((folder(*job) / "result.json").read_text()) for job in (("learning_curve", first),
                                                                                ("ablation", second))]
    assert stored[1].pop(REUSED_FROM) == copied[REUSED_FROM] and stored[1] == stored[0]
    assert copied["test_error"] == computed["test_error"]
    assert run_or_skip(second, folder("ablation", second), sweep_dir=tmp_path / "ablation")[0] == FOUND
    other = {**TASK, "sweep_name": "other", "method": {"name": "svm", "variant": "svm", "lam": 0.5}}
    same_place = tmp_path / "other" / folder("learning_curve", first).relative_to(tmp_path / "learning_curve")
    assert run_or_skip(other, same_place, sweep_dir=tmp_path / "other")[0] == RAN    # other settings: computed


def test_an_untimed_job_takes_the_first_repeat_of_the_timing_job_that_fits_the_same(tmp_path, monkeypatch):
    """The learning curve's DA at a timing cell is read from the timing sweep's repeat 0 (issue 72): the copy
    equals a refit of the same job (errors, J, CG iterations), names the timing job, keeps its seconds and
    leaves the timing protocol's measurement and settings in the timing record."""
    from ssl_repro.harness import timing_protocol
    from ssl_repro.harness.aggregate import collect
    from ssl_repro.harness.app import REUSED, run_or_skip
    from ssl_repro.harness.jobkey import job_key
    from ssl_repro.harness.result_files import REUSED_FROM

    monkeypatch.setattr(timing_protocol, "wait_until_idle", lambda idle_cores, max_wait: (0.01, 0.0))
    monkeypatch.setattr(timing_protocol, "WINDOW", 0.0)
    task = {**TASK, "method": {"name": "da", "variant": "da"}}

    def folder(sweep, cfg):
        return tmp_path / sweep / "text-like" / "da" / "split=0" / "l=16" / job_key(cfg)

    timed = [{**task, "sweep_name": "timing", "repeat": k, "timing": {"idle_cores": 0.25, "max_wait": 300}}
             for k in (1, 0)]
    for cfg in timed:
        assert run_or_skip(cfg, folder("timing", cfg), sweep_dir=tmp_path / "timing")[0] == RAN  # never copied
    curve = {**task, "sweep_name": "learning_curve"}
    status, copied = run_or_skip(curve, folder("learning_curve", curve), sweep_dir=tmp_path / "learning_curve")
    assert status == REUSED and copied[REUSED_FROM] == str(folder("timing", timed[1]).resolve())
    timing_record = json.loads((folder("timing", timed[1]) / "result.json").read_text())
    assert "timing" not in copied and copied["seconds"] == timing_record["seconds"]
    assert copied["config"] == curve
    refit = run_or_skip(curve, tmp_path / "alone" / "job")[1]           # the same job computed, nothing beside it
    for key in ("test_error", "transductive_error", "objective_own", "objective_eqn18"):
        assert copied[key] == refit[key]
    assert copied["diagnostics"]["cg_iterations"] == refit["diagnostics"]["cg_iterations"] > 0
    assert run_or_skip(curve, folder("learning_curve", curve), sweep_dir=tmp_path / "learning_curve")[0] == FOUND
    row = collect(tmp_path / "learning_curve")
    assert "repeat" not in row and row["cg_iterations"].tolist() == [refit["diagnostics"]["cg_iterations"]]
    other = {**task, "sweep_name": "other", "method": {"name": "da", "variant": "da", "lam_u": 0.5}}
    assert run_or_skip(other, folder("other", other), sweep_dir=tmp_path / "other")[0] == RAN   # other settings
    third = {**timed[1], "repeat": 2}          # a timing job is timed anew, never taken from another repeat
    assert run_or_skip(third, folder("timing", third), sweep_dir=tmp_path / "timing")[0] == RAN
