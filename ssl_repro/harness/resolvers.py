"""What Hydra learns from the package's tables: the ``registry`` and ``methods`` resolvers and the method configs.

Every method and variant of :mod:`ssl_repro.harness.methods` is registered in
Hydra's ConfigStore as ``method=<config>`` (:func:`ssl_repro.harness.methods.config_nodes`),
so there is no ``conf/method/`` folder; a user's ``conf/method/<name>.yaml``
is not overwritten (that file is then the config of ``<name>``).

``conf/experiment/*.yaml`` are one recipe per artifact kind; what differs
between datasets (the label grid, the transductive settings, the sweep
folder's name) comes from :data:`ssl_repro.data.DATASETS`::

    n_labeled: ${registry:${dataset.name},label_grid}     # "44,87,174,348,695,1389" for ccat
    sweep_name: learning_curve_${registry:${dataset.name},folder}   # learning_curve_33_vs_36

and a recipe's methods are the variants tagged with it
(:func:`ssl_repro.harness.methods.recipe_variants`)::

    method: ${methods:timing}     # "tsvm_s1,tsvm_s10,tsvm_s100,tsvm_smax,da"
    method: ${methods:learning_curve,${dataset.name}}   # the dataset's curve_methods where it has them

A list field becomes Hydra's sweep syntax (values joined by commas, None
as ``null``); an empty list is refused with the dataset and the field named.
Importing this module registers the resolvers and the configs (``ssl_repro.harness`` does,
so ``run.py``, Hydra's launchers' workers and the tests all have it).
"""
from pathlib import Path

from hydra.core.config_store import ConfigStore
from omegaconf import OmegaConf

from ssl_repro.data.registry import dataset_info
from ssl_repro.harness.methods import config_nodes, recipe_variants

#: The registry field that says whether each recipe (``conf/experiment/<recipe>.yaml``) applies to a dataset.
RECIPE_FIELDS = {"learning_curve": ("curve_labels",), "ablation": ("ablation_grid",), "timing": ("timing_grid",),
                 "transductive": ("transductive_labels",), "scale_timing": ("transductive_labels", "scale_unlabeled")}
#: Registry fields a recipe may read.
FIELDS = ("label_grid", "curve_labels", "ablation_grid", "timing_grid", "transductive_labels",
          "transductive_unlabeled", "transductive_splits", "scale_unlabeled", "folder")


def registry(name, field):
    """The registry's ``field`` of dataset ``name``, as a sweep value string."""
    if field not in FIELDS:
        raise ValueError(f"registry resolver: unknown field {field!r}; known fields: {', '.join(FIELDS)}")
    value = getattr(dataset_info(name), field)
    if isinstance(value, str):
        return value
    if not value:
        raise ValueError(f"dataset {name!r} has no {field} in ssl_repro/data/registry.py, so this experiment "
                         f"does not apply to it ({applicable(name)})")
    return ",".join("null" if v is None else str(v) for v in value)


def applicable(name):
    """The recipes that apply to dataset ``name`` (their registry field is set), in words for a refusal."""
    info = dataset_info(name)
    found = [f"+experiment={recipe}" for recipe, fields in RECIPE_FIELDS.items()
             if all(getattr(info, field) for field in fields)]
    return (f"the recipes that do: {', '.join(found)}" if found else
            f"no recipe does: run single jobs, python run.py dataset={name} n_labeled=L split=S")


def methods(recipe, dataset=None):
    """The config names of the variants tagged ``recipe``, as a sweep value string; with ``dataset``, the
    learning curve's are the dataset's ``curve_methods`` where the registry narrows them (the large analogs,
    the SYNTHETIC stand-ins)."""
    chosen = [v.config for v in recipe_variants(recipe)]
    if dataset is not None and recipe == "learning_curve" and dataset_info(dataset).curve_methods:
        chosen = [c for c in chosen if c in dataset_info(dataset).curve_methods]
    return ",".join(chosen)


for _name, _resolver in (("registry", registry), ("methods", methods)):
    if not OmegaConf.has_resolver(_name):
        OmegaConf.register_new_resolver(_name, _resolver)

#: A user's own method configs (``conf/method/`` beside the package, where ``run.py`` reads them).
METHOD_CONFIGS = Path(__file__).resolve().parents[2] / "conf" / "method"


def register_methods(config_dir=METHOD_CONFIGS):
    """Store each config of :func:`ssl_repro.harness.methods.config_nodes` as ``method=<config>``, except those with
    a ``config_dir/<config>.yaml`` (Hydra would otherwise take the stored node as the file's schema);
    returns the names stored."""
    nodes = {name: node for name, node in config_nodes().items() if not (Path(config_dir) / f"{name}.yaml").exists()}
    for name, node in nodes.items():
        ConfigStore.instance().store(group="method", name=name, node=node)
    return list(nodes)


register_methods()


def check_recipe(overrides, conf_dir):
    """Refuse ``+experiment=NAME dataset=D`` on the command line ``overrides`` when the recipe's sweep
    values do not resolve for ``D`` (:func:`registry`'s refusal, e.g. a learning curve on a
    transductive-only dataset), with that refusal's message alone (ValueError), before Hydra composes:
    Hydra would resolve them while making the sweeper and print its traceback.  Only the recipe's own
    ``hydra.sweeper.params`` are resolved, with ``dataset.name`` set; a recipe or dataset Hydra cannot
    find, or a sweep over datasets, is left to Hydra."""
    chosen = dict(o.lstrip("+").split("=", 1) for o in overrides if "=" in o)
    recipe = Path(conf_dir) / "experiment" / f"{chosen.get('experiment', '')}.yaml"
    dataset = chosen.get("dataset")
    if "experiment" not in chosen or not dataset or "," in dataset or not recipe.is_file():
        return
    params = OmegaConf.load(recipe).get("hydra", {}).get("sweeper", {}).get("params", {})
    node = OmegaConf.create({"dataset": {"name": dataset}, "params": params})
    try:
        OmegaConf.to_container(node.params, resolve=True)
    except Exception as error:      # omegaconf wraps the resolver's ValueError, once per nested interpolation
        while error.__context__ is not None:
            error = error.__context__
        if type(error) is ValueError:
            raise error from None
