"""Sweep progress: the jobs a sweep expands to, and their directories and configurations."""
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from hydra.core.global_hydra import GlobalHydra
from omegaconf import OmegaConf, open_dict

from ssl_repro.data import DATASETS
from ssl_repro.harness.progress import expand_sweep, job_configs

CONF = Path(__file__).resolve().parents[1] / "conf"


@pytest.fixture(scope="module")
def loader():
    with initialize_config_dir(config_dir=str(CONF), version_base=None):
        yield GlobalHydra.instance().config_loader()


class CountingLoader:
    """The config loader, counting its compositions."""

    def __init__(self, loader):
        self.loader, self.compositions = loader, 0

    def load_sweep_config(self, master, overrides):
        self.compositions += 1
        return self.loader.load_sweep_config(master, overrides)

    def get_group_options(self, *args, **kwargs):
        return self.loader.get_group_options(*args, **kwargs)


def test_expansion_is_the_product_with_the_command_line_taking_precedence():
    jobs = expand_sweep({"method": "svm,da", "split": "range(3)"}, ["split=5,6", "dataset=pcmac"])
    assert jobs == [["method=svm", "split=5", "dataset=pcmac"], ["method=svm", "split=6", "dataset=pcmac"],
                    ["method=da", "split=5", "dataset=pcmac"], ["method=da", "split=6", "dataset=pcmac"]]
    with pytest.raises(ValueError, match="only discrete sweeps"):
        expand_sweep({"lam": "interval(0, 1)"}, [])


def test_job_directories_and_configurations_equal_hydras_own(loader):
    arguments = ["+experiment=learning_curve", "dataset=pcmac", "results_dir=/r"]
    master = compose("config", overrides=arguments, return_hydra_config=True)
    counts = len(DATASETS["pcmac"].curve_labels)       # 11: the grid and 001's label counts
    assert len(expand_sweep(master.hydra.sweeper.params, arguments)) == 7 * 10 * counts
    jobs = expand_sweep(master.hydra.sweeper.params,
                        arguments + ["method=tsvm_s1,tsvm_smax", "+method.lam_u_growth=2"])
    counting = CountingLoader(loader)
    entries = list(job_configs(master, jobs, counting))
    assert len(entries) == 2 * 10 * counts and counting.compositions == 2    # one per method, not per job
    directories = {str(d) for d, _ in entries}
    assert len(directories) == 2 * 10 * counts and all(d.startswith("/r/learning_curve_pcmac/pcmac/tsvm-S")
                                           for d in directories)
    for index in (0, 17, 59, 60, 2 * 10 * counts - 1):    # the shortcut equals a full composition of the job
        full = loader.load_sweep_config(master, jobs[index])
        expected_dir = Path(full.hydra.sweep.dir) / full.hydra.sweep.subdir
        with open_dict(full):
            del full["hydra"]
        assert entries[index][0] == expected_dir
        assert entries[index][1] == OmegaConf.to_container(full, resolve=True)
        assert entries[index][1]["method"]["lam_u_growth"] == 2
