"""OmegaConf resolvers that let the experiment recipes read the dataset registry.

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
from omegaconf import OmegaConf

from ..data.registry import dataset_info

#: Registry fields a recipe may read.
FIELDS = ("label_grid", "transductive_labels", "transductive_unlabeled", "folder")


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
