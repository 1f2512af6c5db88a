"""Every dataset x method configuration composes; dataset metadata comes from the registry only."""
import re
import functools
import os
from pathlib import Path

import pytest
from hydra import compose, initialize_config_dir
from omegaconf import OmegaConf

from ssl_repro.data import DATASETS
from ssl_repro.estimators.kernel import MAX_ROWS, KernelDA, KernelJTSVM, KernelNablaTSVM
from ssl_repro.harness.methods import LABELS, METHODS, VARIANTS, config_nodes, recipe_variants
from ssl_repro.harness.methods import estimator_for
from ssl_repro.harness.runner import DATASET_SETTINGS, run_job

CONF = Path(__file__).resolve().parents[2] / "conf"
DATASET_NAMES = sorted(p.stem for p in (CONF / "dataset").glob("*.yaml"))
METHOD_NAMES = sorted(config_nodes())
EXPERIMENTS = sorted(p.stem for p in (CONF / "experiment").glob("*.yaml"))


@pytest.fixture(scope="module", autouse=True)
def hydra_conf():
    with initialize_config_dir(config_dir=str(CONF), version_base=None):
        yield


def composed(overrides, hydra=False):
    return compose("config", overrides=overrides, return_hydra_config=hydra)


@functools.cache
def group(kind, name):
    """The resolved ``kind`` node ("dataset" or "method") of the config composed with ``kind=name``.

    Hydra takes about 70 ms per composition, and the dataset and method
    groups do not refer to each other (tested below), so a dataset x method
    pair is its two groups' nodes: one composition per config, not per pair.
    """
    return OmegaConf.to_container(composed([f"{kind}={name}"])[kind], resolve=True)


def test_every_registered_dataset_has_a_config_holding_only_user_settings():
    assert DATASET_NAMES == sorted(DATASETS)
    for name in DATASET_NAMES:
        node = group("dataset", name)
        assert node["name"] == name and set(node) <= set(DATASET_SETTINGS), name
        assert node["lam"] is None and node["lam_u"] is None      # null: the registry's


@pytest.mark.parametrize("key, value", [("label_grid", [1, 2]), ("n_test", 5), ("r", 0.2)])
def test_a_dataset_field_the_registry_owns_is_refused_by_name(key, value):
    cfg = OmegaConf.to_container(composed(["dataset=pcmac", f"+dataset.{key}={value}"]), resolve=True)
    with pytest.raises(ValueError, match=rf"dataset\.{key} is not a setting: .*{key} of 'pcmac' comes from "
                                         r"ssl_repro/data/registry\.py"):
        run_job(cfg)
    # without '+', Hydra itself refuses a key the dataset config does not have
    with pytest.raises(Exception, match=f"Could not override 'dataset.{key}'"):
        composed(["dataset=pcmac", f"dataset.{key}={value}"])


def test_a_pair_composes_as_its_two_groups():
    """No dataset config interpolates the method group nor a method config the dataset group, and
    composing a pair gives each group's own node (every dataset and every method in some pair)."""
    for path in (CONF / "dataset").glob("*.yaml"):
        assert "${method" not in path.read_text(), path
    for name, node in config_nodes().items():
        assert not any("${dataset" in str(value) for value in node.values()), name
    n = max(len(DATASET_NAMES), len(METHOD_NAMES))
    for i in range(n):
        dataset, method = DATASET_NAMES[i % len(DATASET_NAMES)], METHOD_NAMES[(3 * i) % len(METHOD_NAMES)]
        cfg = OmegaConf.to_container(composed([f"dataset={dataset}", f"method={method}"]), resolve=True)
        assert cfg["dataset"] == group("dataset", dataset) and cfg["method"] == group("method", method)


@pytest.mark.parametrize("dataset", DATASET_NAMES)
@pytest.mark.parametrize("method", METHOD_NAMES)
def test_dataset_x_method_composes_into_an_estimator(dataset, method):
    cfg = {"dataset": group("dataset", dataset), "method": group("method", method)}
    info = DATASETS[dataset]
    est = estimator_for(cfg["method"], info.lam, info.lam_u, 0.3)
    assert isinstance(est, METHODS[cfg["method"]["name"]].estimator_class)
    params = est.get_params()
    assert params.get("lam", info.lam) == info.lam      # label spreading takes no lambda
    if "lam_u" in params:
        assert params["lam_u"] == info.lam_u and params["r"] == 0.3


def test_method_overrides_and_variants():
    cfg = composed(["method=tsvm", "method.switches=max"])
    assert cfg.method.variant == "tsvm-Smax" and cfg.method.switches == "max"
    assert composed(["method=tsvm_s100"]).method.variant == "tsvm-S100"
    cfg = composed(["method=da_fixed_t0001"])
    assert cfg.method.fixed_temperature == 0.001 and cfg.method.variant == "da-T0.001"
    est = estimator_for(OmegaConf.to_container(cfg.method, resolve=True), 1e-3, 1.0, 0.5)
    assert est.fixed_temperature == 0.001


def test_kernel_method_configs_and_variants():
    """001's kernel methods: one config per loss, distinct variants (result folders), lam/lam_u/r from
    the dataset and split, every other parameter the estimator's default (not repeated in the config)."""
    expected = {"kernel_da": (KernelDA, "l2"), "kernel_da_l1": (KernelDA, "l1"), "kernel_da_l2": (KernelDA, "l2"),
                "kernel_da_sqr": (KernelDA, "sqr"), "kernel_jtsvm": (KernelJTSVM, "l2"),
                "kernel_jtsvm_l1": (KernelJTSVM, "l1"), "kernel_jtsvm_l2": (KernelJTSVM, "l2")}
    fixed_t = ["kernel_da_t01", "kernel_da_t001", "kernel_da_t0001"]
    assert sorted(m for m in METHOD_NAMES if m.startswith("kernel")) == sorted([*expected, "kernel_nabla_tsvm", "kernel_cccp_tsvm", *fixed_t])
    variants = {}
    for method, (cls, loss) in expected.items():
        cfg = group("method", method)
        est = estimator_for(cfg, 1e-2, 2.0, 0.3)
        assert type(est) is cls and est.loss == loss and cfg["variant"] == f"{cfg['name']}-{loss}"
        assert (est.lam, est.lam_u, est.r) == (1e-2, 2.0, 0.3)
        assert est.sigma is None and est.sigma_factor == 1.0 and est.max_rows == MAX_ROWS
        assert set(cfg) - {"name", "variant"} - HARNESS_NULLS == {"loss"}      # only what the variant name shows
        variants.setdefault(cfg["variant"], set()).add(loss)
    assert all(len(losses) == 1 for losses in variants.values()) and len(variants) == 5
    cfg = composed(["method=kernel_da_l1", "+method.sigma_factor=0.125", "+method.max_rows=500"]).method
    est = estimator_for(OmegaConf.to_container(cfg, resolve=True), 1e-3, 1.0, 0.5)
    assert est.sigma_factor == 0.125 and est.max_rows == 500 and cfg.variant == "kernel_da-l1"
    cfg = group("method", "kernel_nabla_tsvm")      # one loss (l2), so no loss setting and no loss in the variant
    est = estimator_for(cfg, 1e-2, 2.0, 0.3)
    assert type(est) is KernelNablaTSVM and cfg["variant"] == "kernel_nabla_tsvm"
    assert set(cfg) == {"name", "variant", *HARNESS_NULLS}
    assert (est.lam, est.lam_u, est.r, est.sigma, est.max_rows) == (1e-2, 2.0, 0.3, None, MAX_ROWS)


#: Method settings the harness fills from the dataset and split when null (methods.estimator_for).
HARNESS_NULLS = {"lam", "lam_u", "r"}


def test_unknown_method_name_is_a_clear_error():
    """The message lists every method of the table (a new row shows up in it without editing this test)."""
    assert {"svm", "tsvm", "da", "kernel_da"} <= set(METHODS)
    with pytest.raises(ValueError, match=re.escape(f"unknown method 'svn'; known methods: {', '.join(sorted(METHODS))}")):
        estimator_for({"name": "svn", "variant": "svn"}, 1e-3, 1.0, 0.5)


def test_method_configs_hold_no_estimator_default_and_unknown_parameters_are_refused():
    """A method config sets only what its variant name shows, plus lam (lam_u, r) as null = the dataset's
    (the split's), so that ``method.lam=...`` overrides them; the defaults live in the estimator's signature."""
    for name in METHOD_NAMES:
        cfg = group("method", name)
        takes_lam = "lam" in METHODS[cfg["name"]].estimator_class().get_params()   # not label spreading
        assert all(cfg[key] is None for key in HARNESS_NULLS & set(cfg)) and ("lam" in cfg) == takes_lam, name
        shown = {key for key in cfg if key not in ("name", "variant") and key not in HARNESS_NULLS}
        assert shown <= {"switches", "loss", "fixed_temperature"}, name     # the keys variant names show
        assert all(str(cfg[key]) in cfg["variant"] for key in shown), name
    with pytest.raises(ValueError, match=r"method 'da': unknown parameter\(s\) anneal; LinearDA takes .*anneal_rate"):
        estimator_for(OmegaConf.to_container(composed(["method=da", "+method.anneal=2"]).method), 1e-3, 1.0, 0.5)


def test_there_is_one_recipe_per_artifact_kind():
    assert EXPERIMENTS == ["ablation", "learning_curve", "scale_timing", "timing", "transductive"]


@pytest.mark.parametrize("experiment, dataset", [(e, d) for e in EXPERIMENTS for d in DATASET_NAMES])
def test_every_recipe_takes_its_grid_from_the_registry(experiment, dataset):
    info = DATASETS[dataset]
    cfg = composed([f"+experiment={experiment}", f"dataset={dataset}"], hydra=True)
    assert cfg.hydra.mode.name == "MULTIRUN"
    grid = {"transductive": info.transductive_labels, "scale_timing": info.transductive_labels,
            "learning_curve": info.curve_labels, "ablation": info.ablation_grid,
            "timing": info.timing_grid}[experiment]
    if not grid:     # e.g. a learning curve on a transductive-only dataset: refused by name
        with pytest.raises(Exception, match=f"dataset '{dataset}' has no"):
            OmegaConf.to_container(cfg.hydra.sweeper.params, resolve=True)
        return
    params = OmegaConf.to_container(cfg.hydra.sweeper.params, resolve=True)
    assert all(m in METHOD_NAMES for m in params["method"].split(","))
    if experiment == "learning_curve" and info.curve_methods:    # the large analogs: the registry's list
        assert sorted(params["method"].split(",")) == sorted(info.curve_methods)
    assert [int(x) for x in str(params["n_labeled"]).split(",")] == list(grid)
    assert cfg.sweep_name == f"{experiment}_{dataset.replace('-', '_')}"
    if experiment in ("transductive", "scale_timing"):
        u = info.transductive_unlabeled if experiment == "transductive" else info.scale_unlabeled
        assert params["n_unlabeled"] == ",".join("null" if v is None else str(v) for v in u)
    if experiment == "scale_timing":     # Table 1.6's methods, at a doubling pair of u where the set has one
        assert sorted(params["method"].split(",")) == ["da", "tsvm_smax"]
        if dataset == "kdd99-10":
            assert str(params["n_unlabeled"]) == "246510,null" and 2 * 246510 + 1 == 494021 - 1000
    if experiment == "transductive":     # the labeled draws: ten on kdd99-10 (a paired test), one elsewhere
        assert [int(x) for x in str(params["split"]).split(",")] == list(info.transductive_splits)
        assert len(info.transductive_splits) == (10 if dataset == "kdd99-10" else 1)


@pytest.mark.parametrize("experiment, dataset", [("timing", "pcmac"), ("scale_timing", "kdd99-10")])
def test_the_timing_recipes_follow_the_protocol(experiment, dataset):
    """One job at a time, one solver thread, 3 repeats as the outermost parameter (interleaved across
    methods), 3 splits, and the protocol's settings (ssl_repro/harness/timing_protocol.py)."""
    cfg = composed([f"+experiment={experiment}", f"dataset={dataset}"], hydra=True)
    params = OmegaConf.to_container(cfg.hydra.sweeper.params, resolve=True)
    assert list(params)[0] == "repeat" and params["repeat"] == "range(3)" and params["split"] == "range(3)"
    assert cfg.hydra.launcher.n_jobs == 1 and cfg.solver_threads == 1
    assert set(cfg.timing) == {"idle_cores", "max_wait"}


def test_the_pcmac_learning_curve_adds_001s_label_counts_and_the_other_recipes_do_not():
    def labels(experiment):
        cfg = composed([f"+experiment={experiment}", "dataset=pcmac"], hydra=True)
        return [int(x) for x in str(OmegaConf.to_container(cfg.hydra.sweeper.params, resolve=True)["n_labeled"])
                .split(",")]
    assert labels("learning_curve") == [2, 4, 7, 15, 29, 37, 58, 74, 147, 294, 584]
    assert labels("ablation") == labels("timing") == [2, 4, 7, 15, 29, 58]


def test_slurm_launcher_config_makes_the_sbatch_script(tmp_path, monkeypatch):
    pytest.importorskip("hydra_plugins.hydra_submitit_launcher")
    import submitit
    from hydra_plugins.hydra_submitit_launcher.config import BaseQueueConf
    cfg = composed(["+experiment=learning_curve", "dataset=ccat", "hydra/launcher=slurm",
                    "hydra.launcher.partition=batch"], hydra=True)
    assert cfg.hydra.launcher._target_.endswith("SlurmLauncher") and cfg.hydra.launcher.partition == "batch"
    # What SlurmLauncher.launch does up to sbatch (its parameter mapping), on a machine without SLURM:
    # a stand-in srun on PATH lets submitit build the job script that would be submitted.
    (tmp_path / "srun").write_text("#!/bin/sh\nexit 0\n")
    (tmp_path / "srun").chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    params = OmegaConf.to_container(cfg.hydra.launcher, resolve=True)
    executor = submitit.AutoExecutor(cluster="slurm", folder=tmp_path / "submitit",
                                     slurm_max_num_timeout=params.pop("max_num_timeout"))
    base = set(OmegaConf.structured(BaseQueueConf).keys())
    executor.update_parameters(**{k if k in base else f"slurm_{k}": v for k, v in params.items()
                                  if k not in ("_target_", "submitit_folder")})
    script = executor._executor._make_submission_file_text("python run.py", "0")
    for line in ("#SBATCH --cpus-per-task=2", "#SBATCH --partition=batch", "#SBATCH --time=240",
                 "#SBATCH --mem=16GB", "export OMP_NUM_THREADS=2"):
        assert line in script


def test_ray_launcher_config_composes():
    pytest.importorskip("hydra_plugins.hydra_ray_launcher")
    cfg = composed(["+experiment=learning_curve", "dataset=ccat", "hydra/launcher=ray_cluster"], hydra=True)
    assert cfg.hydra.launcher._target_.endswith("RayLauncher") and cfg.hydra.launcher.ray.remote.num_cpus == 2


def test_every_method_and_variant_is_a_stored_config_unless_the_user_has_a_yaml(tmp_path, monkeypatch):
    """The configs come from ssl_repro/harness/methods.py (no conf/method/ folder); a user's
    ``conf/method/<name>.yaml`` is left to be that config."""
    from hydra.core.config_store import ConfigStore

    from ssl_repro.harness.resolvers import register_methods
    assert not (CONF / "method").exists()
    store = ConfigStore.instance()
    monkeypatch.setattr(store, "repo", {**store.repo, "method": {}})      # leave the session's store alone
    (tmp_path / "da.yaml").write_text("name: da\nvariant: da-mine\n")
    names = register_methods(tmp_path)
    assert sorted(names) == sorted(set(config_nodes()) - {"da"})
    for name in names:
        assert store.repo["method"][f"{name}.yaml"].node == config_nodes()[name]
    assert set(METHODS) <= set(config_nodes()) and set(VARIANTS) <= set(config_nodes())


#: Each recipe's methods, as 000/004 and 001 list them, and today's baselines beside them (the transductive
#: table without label spreading: its neighbour search is too slow on kdd99-10, ssl_repro/harness/methods.py).
RECIPES = {"learning_curve": ["svm", "rls", "tsvm_s1", "tsvm_smax", "da", "nabla_tsvm", "cccp_tsvm", "svm_cv",
                              "logreg_cv", "self_training", "label_spreading"],
           "timing": ["tsvm_s1", "tsvm_s10", "tsvm_s100", "tsvm_smax", "da"],
           "ablation": ["da", "da_fixed_t1", "da_fixed_t01", "da_fixed_t0001"],
           "transductive": ["svm", "tsvm_smax", "da", "svm_cv", "logreg_cv", "self_training"],
           "svmlight_table9": ["tsvm_s1", "tsvm_smax", "da"],
           "kernel_toy_table": ["kernel_jtsvm_l1", "kernel_jtsvm_l2", "kernel_nabla_tsvm", "kernel_da_l1",
                                "kernel_da_l2", "kernel_da_sqr"],
           "kernel_benchmarks": ["kernel_jtsvm", "kernel_nabla_tsvm", "kernel_da", "kernel_da_sqr", "kernel_da_t01",
                                 "kernel_da_t001", "kernel_da_t0001"]}


@pytest.mark.parametrize("recipe", RECIPES)
def test_a_recipe_runs_the_variants_tagged_with_it(recipe):
    assert [v.config for v in recipe_variants(recipe)] == RECIPES[recipe]
    if recipe in EXPERIMENTS:
        cfg = composed([f"+experiment={recipe}", "dataset=kdd99-10" if recipe == "transductive" else "dataset=pcmac"],
                       hydra=True)
        assert OmegaConf.to_container(cfg.hydra.sweeper.params, resolve=True)["method"] == ",".join(RECIPES[recipe])
    with pytest.raises(ValueError, match="no method variant is tagged 'learning_curves'; known recipes: ablation, "):
        recipe_variants("learning_curves")


def test_record_strings_labels_and_styles_of_the_variants():
    """The records' method strings are the variants' (as the committed results hold them); each linear
    record has one label and one style; the kernel scripts' rows carry 001's row names."""
    records = {name: v.record_name for name, v in VARIANTS.items()}
    assert [records[n] for n in RECIPES["timing"]] == ["tsvm-S1", "tsvm-S10", "tsvm-S100", "tsvm-Smax", "da"]
    assert [records[n] for n in RECIPES["ablation"]] == ["da", "da-T1", "da-T0.1", "da-T0.001"]
    assert records["kernel_da_l1"] == "kernel_da-l1" and records["kernel_da_t001"] == "kernel_da-l2-T0.01"
    for name, v in VARIANTS.items():
        assert records[name] == group("method", name)["variant"], name
    linear = [v for v in VARIANTS.values() if v.label and not METHODS[v.method].kernel]
    assert len({v.record_name for v in linear}) == len(linear) == len(LABELS)
    assert [v.label for v in recipe_variants("kernel_toy_table")] == ["JTSVM (l1)", "JTSVM (l2)", "nabla-TSVM",
                                                                       "DA (l1)", "DA (l2)", "DA (sqr)"]
    assert [v.label for v in recipe_variants("kernel_benchmarks")] == ["JTSVM", "nabla-TSVM", "DA", "DA (sqr)",
                                                                        "T=0.1", "T=0.01", "T=0.001"]
    solver, options = VARIANTS["kernel_da_t01"].kernel_solver
    assert solver.__name__ == "kernel_da" and options == {"loss": "l2", "fixed_temperature": 0.1}


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_every_recipe_puts_each_job_in_its_configuration_hash_folder(experiment):
    from ssl_repro.harness.jobkey import register
    register()

    def subdir(*overrides):
        cfg = composed([f"+experiment={experiment}", "dataset=text-like", *overrides], hydra=True)
        return cfg.hydra.sweep.subdir

    folder = subdir()
    assert folder.startswith("text-like/") and folder.rsplit("/", 1)[1].startswith("cfg-"), folder
    assert subdir("n_unlabeled=100") != subdir("n_unlabeled=200")


@pytest.mark.parametrize("method", ["da", "tsvm_s1", "tsvm_smax"])
def test_a_timing_jobs_first_repeat_is_the_learning_curves_job_less_the_timing_settings(method):
    """The learning curve reads these fits from the timing sweep (result_files.timed_twin): the two recipes' jobs
    at one cell differ only in the timing protocol's settings and the repeat, so the identity (what decides the
    result) of one less those is the other's."""
    from ssl_repro.harness.jobkey import identity
    from ssl_repro.harness.result_files import TIMING_SETTINGS
    cell = ["dataset=pcmac", f"method={method}", "split=1", "n_labeled=4"]
    timed = OmegaConf.to_container(composed(["+experiment=timing", *cell, "repeat=0"]), resolve=True)
    curve = OmegaConf.to_container(composed(["+experiment=learning_curve", *cell]), resolve=True)
    assert set(timed) - set(curve) == set(TIMING_SETTINGS) and timed["timing"] is not None
    assert identity({k: v for k, v in timed.items() if k not in TIMING_SETTINGS}) == identity(curve)
    assert identity(timed) != identity(curve)
