"""The sweeper's job configurations from templates equal Hydra's own composition of every job.

:mod:`hydra_plugins.ssl_repro_sweeper.job_configs` composes one configuration per distinct choice of
config groups and applies each job's value overrides to it; here every job of small sweeps is
also composed by Hydra itself (``load_sweep_config``, what the launcher does) and the folders and
task configurations must be equal, with Hydra composing only one job per template.
"""
import itertools
from pathlib import Path

import pytest
from hydra import initialize_config_dir
from hydra.core.global_hydra import GlobalHydra
from hydra.errors import ConfigCompositionException
from hydra.types import RunMode

from hydra_plugins.ssl_repro_sweeper.job_configs import JobConfigs, _job_config
from ssl_repro.harness import jobkey

CONF = Path(__file__).resolve().parents[2] / "conf"
jobkey.register()


def composer(tmp_path, *common):
    """(JobConfigs, Hydra's own composition) for sweeps with the ``common`` overrides."""
    loader = GlobalHydra.instance().config_loader()
    master = loader.load_configuration("config", [f"results_dir={tmp_path}", "hydra/launcher=basic", *common],
                                       RunMode.MULTIRUN)
    return JobConfigs(loader, master), lambda overrides: _job_config(
        loader.load_sweep_config(master_config=master, sweep_overrides=list(overrides)))


@pytest.mark.parametrize("common, grid", [
    (["+experiment=learning_curve", "dataset=text-like"],
     [["method=svm", "method=da", "method=tsvm_smax"], ["split=0", "split=7"], ["n_labeled=16", "n_labeled=64"]]),
    (["dataset=text-like"],
     [["method=da"], ["method.lam=0.1", "method.lam=0.01"], ["dataset.lam_u=2", "dataset.lam_u=null"],
      ["n_unlabeled=100", "n_unlabeled=null"]]),
    (["dataset=text-like", "sweep_name=grid"],
     [["dataset=text-like", "dataset=g50c"], ["method=svm", "method=rls"], ["split=3"], ["n_labeled=all", "n_labeled=8"]]),
    # a dict or list value (merged by OmegaConf: a copy of the template) between plain ones (applied in place)
    (["dataset=text-like"],
     [["method=svm"], ["n_unlabeled=5", "n_unlabeled={a:1,b:[2]}", "n_unlabeled=[3]", "n_unlabeled={c:4}", "n_unlabeled=6"],
      ["split=1", "split=2"]]),
])
def test_every_job_equals_hydras_composition_with_one_composition_per_template(tmp_path, common, grid):
    with initialize_config_dir(config_dir=str(CONF), version_base=None):
        compose, hydra_compose = composer(tmp_path, *common)
        jobs = [list(common) + list(job) for job in itertools.product(*grid)]
        for overrides in jobs:
            assert compose(overrides) == hydra_compose(overrides), overrides
        groups = {tuple(o for o in job if o.startswith(("method=", "dataset=", "+"))) for job in jobs}
        assert len(compose.templates) == len(groups)
        assert compose.composed_in_full == len(groups)       # the template's first job, checked in full
        directories = {compose(job).directory for job in jobs}
        assert len(directories) == len(jobs)                 # no two jobs share a folder


def test_a_key_the_configuration_lacks_gets_hydras_own_error(tmp_path):
    with initialize_config_dir(config_dir=str(CONF), version_base=None):
        compose, _ = composer(tmp_path, "dataset=text-like")
        compose(["dataset=text-like", "method=svm", "split=0"])          # the template of method=svm
        with pytest.raises(ConfigCompositionException, match="lamm"):
            compose(["dataset=text-like", "method=svm", "lamm=1"])
