"""The name of a job's result folder: a short hash of everything that changes its result.

A sweep puts each job under ``<dataset>/<variant>/split=S/l=N/cfg-<hash>``
(``conf/config.yaml``): the readable prefix says what ran, the last folder
is a hash of the job's whole resolved configuration less the settings of
:data:`PLACEMENT_KEYS` (where or how a job runs, not what it computes).
So jobs that differ in any parameter (``method.lam=0.01,0.1``, two
``dataset.path=`` files, ``n_unlabeled``, ...) never share a folder, and a
re-run finds the job's previous result exactly where it left it.  The
record itself (``result.json``) holds the configuration and the values
actually used.

:func:`register` makes the hash available to Hydra as the resolver
``${job_key:}`` (``run.py`` and the sweeper register it).
"""
import hashlib
import json

from omegaconf import OmegaConf

from ..data import generator_key

#: Settings that say where or how a job runs, not what it computes.
PLACEMENT_KEYS = ("data_root", "download", "solver_threads", "results_dir", "sweep_name", "backend")
RESOLVER = "job_key"
DIGITS = 10


def identity(config):
    """The part of a job configuration that determines its result; for a generated SYNTHETIC
    stand-in also its generator's parameters, for a 20 Newsgroups task its definition
    (:func:`ssl_repro.data.generator_key`), so a result of data made otherwise is never taken
    for this one's."""
    if not isinstance(config, dict):
        return config
    kept = {k: v for k, v in config.items() if k not in PLACEMENT_KEYS and k != "hydra"}
    dataset = kept.get("dataset")
    generator = generator_key(dataset.get("name", "")) if isinstance(dataset, dict) else None
    return kept if generator is None else {**kept, "generator": generator}


def job_key(config):
    """``cfg-`` and the first digits of the SHA-256 of the job's identity (JSON, sorted keys)."""
    text = json.dumps(identity(config), sort_keys=True, default=str)
    return "cfg-" + hashlib.sha256(text.encode()).hexdigest()[:DIGITS]


def _resolve(_root_):
    task = {k: OmegaConf.to_container(_root_[k], resolve=True) if OmegaConf.is_config(_root_[k]) else _root_[k]
            for k in _root_ if k not in PLACEMENT_KEYS and k != "hydra"}
    return job_key(task)


def register():
    """Make ``${job_key:}`` resolve to :func:`job_key` of the configuration it sits in."""
    if not OmegaConf.has_resolver(RESOLVER):
        OmegaConf.register_new_resolver(RESOLVER, _resolve)
