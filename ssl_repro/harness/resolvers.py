"""What Hydra learns from the package's tables: the ``registry`` resolver and default method configs.

Every method of :data:`ssl_repro.methods.METHODS` is also registered in
Hydra's ConfigStore as ``method=<name>`` (``{name, variant}``: every
parameter at the estimator's default), so a new method needs no YAML file;
a method with a ``conf/method/<name>.yaml`` (variants, comments) is not
registered, so the file is its only config.

``conf/experiment/*.yaml`` are one recipe per artifact kind; what differs
between datasets (the label grid, the transductive settings, the sweep
folder's name) comes from :data:`ssl_repro.data.DATASETS`::

    n_labeled: ${registry:${dataset.name},label_grid}     # "44,87,174,348,695,1389" for ccat
    sweep_name: learning_curve_${registry:${dataset.name},folder}   # learning_curve_33_vs_36

A list field becomes Hydra's sweep syntax (values joined by commas, None
as ``null``); an empty list is refused with the dataset and the field named.
Importing this module registers the resolver (``ssl_repro.harness`` does,
so ``run.py``, Hydra's launchers' workers and the tests all have it).
"""
from pathlib import Path

from hydra.core.config_store import ConfigStore
from omegaconf import OmegaConf

from ..data.registry import dataset_info
from ..methods import METHODS

#: Registry fields a recipe may read.
FIELDS = ("label_grid", "curve_labels", "transductive_labels", "transductive_unlabeled", "folder")


def registry(name, field):
    """The registry's ``field`` of dataset ``name``, as a sweep value string."""
    if field not in FIELDS:
        raise ValueError(f"registry resolver: unknown field {field!r}; known fields: {', '.join(FIELDS)}")
    value = getattr(dataset_info(name), field)
    if isinstance(value, str):
        return value
    if not value:
        raise ValueError(f"dataset {name!r} has no {field} in ssl_repro/data/registry.py, so this experiment "
                         f"does not apply to it (transductive-only datasets: +experiment=transductive)")
    return ",".join("null" if v is None else str(v) for v in value)


if not OmegaConf.has_resolver("registry"):
    OmegaConf.register_new_resolver("registry", registry)

#: The project's method configs (``conf/method/`` beside the package, where ``run.py`` reads them).
METHOD_CONFIGS = Path(__file__).resolve().parents[2] / "conf" / "method"

def register_methods(config_dir=METHOD_CONFIGS):
    """Store ``{name, variant}`` as ``method=<name>`` for each method without ``config_dir/<name>.yaml``
    (Hydra would otherwise take the stored node as the file's schema); returns their names."""
    names = [name for name in METHODS if not (Path(config_dir) / f"{name}.yaml").exists()]
    for name in names:
        ConfigStore.instance().store(group="method", name=name, node={"name": name, "variant": name})
    return names


register_methods()
