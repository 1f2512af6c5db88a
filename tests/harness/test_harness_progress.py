"""Sweep progress: the sweeper's job list is the jobs Hydra runs, done and failed jobs are counted.

The sweeps run in this process with Hydra's own in-process launcher
(``hydra/launcher=basic``) and a task that only records where Hydra put the
job (``HydraConfig``'s output directory) and writes a result there, so the
directories the sweeper lists are checked against Hydra's, not against a
copy of its logic.
"""
import json
from pathlib import Path

import pytest
from hydra import initialize_config_dir
from hydra._internal.callbacks import Callbacks
from hydra.core.global_hydra import GlobalHydra
from hydra.core.hydra_config import HydraConfig
from hydra.core.plugins import Plugins
from hydra.types import HydraContext, RunMode
from omegaconf import OmegaConf

from ssl_repro.harness.progress import HISTORY, MANIFEST, report
from ssl_repro.harness.result_files import ERROR_FILE, write_result

CONF = Path(__file__).resolve().parents[2] / "conf"
GRID = ["method=svm,rls", "split=0,1", "n_labeled=16"]


class Task:
    """The job: note Hydra's output directory; write a result there, or an error for ``fail``."""

    def __init__(self, fail=()):
        self.directories, self.fail = [], fail

    def __call__(self, cfg):
        directory = HydraConfig.get().runtime.output_dir
        self.directories.append(str(Path(directory).resolve()))
        if (cfg.method.name, cfg.split) in self.fail:
            (Path(directory) / ERROR_FILE).write_text("Traceback: failed on purpose\n")
        else:
            write_result(directory, complete_record(OmegaConf.to_container(cfg, resolve=True)))


def complete_record(config):
    """A record holding the keys of a complete one (result_files.RECORD_KEYS) and ``config``."""
    return {"dataset": "text-like", "method": "svm", "split": 0, "n_labeled": 16, "n_unlabeled": 0, "test_error": 0.1,
            "diagnostics": {},
            "config": config}


def run_sweep(results_dir, task, arguments=GRID):
    """One multirun of ``arguments``, in this process, through the sweeper Hydra instantiates from the config."""
    with initialize_config_dir(config_dir=str(CONF), version_base=None):
        loader = GlobalHydra.instance().config_loader()
        master = loader.load_configuration(   # as `python run.py -m ...` composes it
            "config", ["dataset=text-like", f"results_dir={results_dir}", "sweep_name=test", "hydra/launcher=basic",
                       "hydra/hydra_logging=none", "hydra/job_logging=none", *arguments], RunMode.MULTIRUN)
        sweeper = Plugins.instance().instantiate_sweeper(
            hydra_context=HydraContext(config_loader=loader, callbacks=Callbacks(master)), task_function=task,
            config=master)
        assert type(sweeper).__name__ == "ProgressSweeper"    # the default of conf/config.yaml
        sweeper.sweep(list(master.hydra.overrides.task))     # what Hydra passes: the task's overrides
    return Path(results_dir) / "test"


def history(sweep_dir):
    return [json.loads(line) for line in (sweep_dir / HISTORY).read_text().splitlines()]


def test_manifest_lists_the_directories_hydra_runs_and_a_rerun_counts_the_finished_ones(tmp_path):
    task = Task()
    sweep_dir = run_sweep(tmp_path, task)
    jobs = json.loads((sweep_dir / MANIFEST).read_text())["jobs"]
    assert len(task.directories) == 4 and jobs == task.directories     # same jobs, same order
    assert len(set(jobs)) == 4
    entry = history(sweep_dir)[-1]
    assert (entry["jobs"], entry["done_before"], entry["done_after"], entry["failed"]) == (4, 0, 4, 0)
    assert entry["command_line"][-3:] == GRID and entry["seconds"] > 0
    assert report(sweep_dir, jobs[2]) == (4, 4)
    assert report(sweep_dir, tmp_path / "elsewhere") is None

    (Path(jobs[0]) / "result.json").unlink()
    write_result(jobs[1], complete_record({"dataset": {"name": "pcmac"}}))   # a record of another configuration
    rerun = Task()
    run_sweep(tmp_path, rerun)
    assert rerun.directories == jobs      # the task skips nothing itself: the counts are the sweeper's
    entry = history(sweep_dir)[-1]
    assert (entry["done_before"], entry["done_after"]) == (2, 4) and len(history(sweep_dir)) == 2


def test_failed_jobs_are_counted_and_end_the_sweep_with_their_error_files(tmp_path):
    task = Task(fail={("rls", 1)})
    with pytest.raises(SystemExit, match=r"1 job\(s\) failed; see .*rls/split=1/.*error.txt"):
        run_sweep(tmp_path, task)
    entry = history(tmp_path / "test")[-1]
    assert (entry["jobs"], entry["done_after"], entry["failed"]) == (4, 3, 1)


def test_an_unwritable_results_dir_stops_the_sweep_with_one_error_line(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    task = Task()
    with pytest.raises(SystemExit, match=rf"^Error: cannot write the sweep folder {tmp_path / 'file' / 'x' / 'test'} "
                                         rf"\({tmp_path / 'file'} is not a folder\); set results_dir=DIR"):
        run_sweep(tmp_path / "file" / "x", task)
    assert task.directories == []


def test_a_job_folder_that_cannot_be_written_is_a_failed_job_of_the_summary(tmp_path):
    (tmp_path / "test" / "text-like").mkdir(parents=True)
    (tmp_path / "test" / "text-like" / "rls").write_text("a file where the method's folder goes")
    task = Task()
    with pytest.raises(SystemExit, match=r"2 job\(s\) failed; see .*rls/split=0/l=16/cfg-\w+: cannot write it "
                                         r"\(.*text-like/rls is not a folder\)"):
        run_sweep(tmp_path, task)
    assert len(task.directories) == 2 and all("/svm/" in d for d in task.directories)   # the others ran
    entry = history(tmp_path / "test")[-1]
    assert (entry["jobs"], entry["done_after"], entry["failed"]) == (4, 2, 2)


class ReportingTask(Task):
    """The job as the app runs it: its result (or none, when ``skip``: found done), then the sweep's progress."""

    def __init__(self, skip=False):
        super().__init__()
        self.skip = skip

    def __call__(self, cfg):
        if not self.skip:
            super().__call__(cfg)
        directory = HydraConfig.get().runtime.output_dir
        report(HydraConfig.get().sweep.dir, directory)


def test_a_sweep_logs_its_progress_once_per_change_and_a_resumed_finished_sweep_not_per_job(tmp_path, caplog):
    grid = ["method=svm,rls", "split=0,1,2", "n_labeled=16"]
    with caplog.at_level("INFO", logger="ssl_repro"):
        run_sweep(tmp_path, ReportingTask(), grid)
    first = [r.getMessage() for r in caplog.records if "jobs done," in r.getMessage()]
    assert [m.split(": ")[1] for m in first] == [f"{k}/6 jobs done, {6 - k} remaining" for k in range(1, 7)]
    caplog.clear()
    with caplog.at_level("INFO", logger="ssl_repro"):
        run_sweep(tmp_path, ReportingTask(skip=True), grid)          # every job found done: no count changes
    assert [r.getMessage() for r in caplog.records if "jobs done," in r.getMessage()] == []
    assert any("6 jobs, 6 already done, 0 to run" in r.getMessage() for r in caplog.records)
