"""Every setting of a job checked before its data are loaded, a refusal naming the fix.

A job's configuration (``conf/config.yaml`` with a user's overrides) is
checked here, in a few milliseconds and without reading any data, by
``run.py`` before a single run and by the sweep before it launches any job
(:func:`check_settings`): a setting the harness does not read (``+lamm=1``,
the ``+`` Hydra suggests after a misspelt ``lamm=1``) is refused with the
settings of that name nearby (``method.lam``, ``dataset.lam``); so are a
``solver_threads`` that is not a whole number >= 1 or null, a ``download``
that is not true or false, a ``split`` off 0..9, an ``n_labeled`` below 2
or an ``n_unlabeled`` below 1, an unknown dataset setting and any method
parameter the estimator refuses.  Before Hydra composes anything,
:func:`check_choices` refuses a ``dataset=``/``method=`` that names no config,
with the close name (``dataset=pcmak``: did you mean ``pcmac``?).

Decision: a refused setting is a ``ValueError`` whose message is one line
(``run.py`` prints it after ``Error:``); the checks that need the data (an
``n_labeled`` above the training rows, a one-class split) stay with the
stages that have the data (:mod:`.runner`).
"""
import difflib
import logging
import numbers
from pathlib import Path

from ssl_repro.data import dataset_info
from ssl_repro.data.splits import ALL, N_SPLITS
from ssl_repro.harness.methods import METHODS, VARIANTS, estimator_for, method
from ssl_repro.harness import timing_protocol

log = logging.getLogger("ssl_repro")

#: The top-level settings of a job (``conf/config.yaml``); ``hydra`` is Hydra's own.
JOB_SETTINGS = ("dataset", "method", "backend", "split", "n_labeled", "n_unlabeled", "data_root", "download",
                "results_dir", "sweep_name", "solver_threads", "repeat", "timing")   # the last two: timing sweeps
#: The config groups whose choice ``run.py`` checks before Hydra composes (:func:`check_choices`).
GROUPS = ("dataset", "method")


#: What a dataset configuration may set (``conf/dataset/*.yaml``); the rest of a
#: dataset's metadata comes from :data:`ssl_repro.data.DATASETS` only.  ``n_labeled``
#: is the dataset's default for the job's top-level ``n_labeled`` (``conf/config.yaml``
#: reads it; own files: ``all``, the rows the file labels).
DATASET_SETTINGS = ("name", "lam", "lam_u", "path", "examples", "labels", "n_labeled")


def check_dataset_settings(ds_cfg):
    """Refuse a dataset setting the harness does not read (e.g. ``+dataset.label_grid=[1,2]``)."""
    for key in ds_cfg:
        if key not in DATASET_SETTINGS:
            raise ValueError(
                f"dataset.{key} is not a setting: a dataset configuration sets only {', '.join(DATASET_SETTINGS)}; "
                f"{key} of {ds_cfg.get('name')!r} comes from ssl_repro/data/registry.py (Table 1.1 of 004). "
                f"Choose labels with n_labeled=N, or sweep e.g. -m n_labeled=1,2")


def job_split(value):
    """The job's ``split``, an integer 0..:data:`~ssl_repro.data.splits.N_SPLITS` - 1, else refused with that range."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool) and 0 <= value < N_SPLITS:
        return int(value)
    raise ValueError(f"split={value!r} is not one of the paper's {N_SPLITS} splits: give split=0..{N_SPLITS - 1} "
                     "(the seed of the stratified train/test split and labeled subset, Sec. 1.5 of 004)")


def job_labels_value(value, info):
    """The job's ``n_labeled`` as a value: a whole number (its range is :func:`~ssl_repro.data.make_split`'s)
    or ``all``, else refused naming the accepted values (``info``: the dataset's
    :class:`~ssl_repro.data.DatasetInfo`, for its label grid)."""
    if value == ALL:
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    grid = ", ".join(map(str, info.label_grid))
    raise ValueError(f"n_labeled={value!r} is not a number of labeled rows: give a whole number"
                     + (f" (the label grid of {info.name}: {grid})" if grid else "")
                     + f" or n_labeled={ALL} (a file's own labels: the rows it labels)")


def job_labels(value, dataset):
    """The job's ``n_labeled`` (:func:`job_labels_value`).  A number off the dataset's label counts (its
    learning curve's and its transductive table's) runs, with a logged warning naming them: the papers
    report no result there to compare with (e.g. pcmac at the default ``n_labeled=64``)."""
    value = job_labels_value(value, dataset.info)
    counts = sorted(set(dataset.info.curve_labels) | set(dataset.info.transductive_labels))
    if value != ALL and counts and value not in counts:
        log.warning("n_labeled=%d is off the label counts of %s (%s): the papers report no result at it; "
                    "give one of them for a result to compare", value, dataset.name, ", ".join(map(str, counts)))
    return value


def close_names(word, names, n=3):
    """The names of ``names`` closest to ``word`` (difflib, case ignored: ``dA`` finds ``da``), as
    " (did you mean a or b?)", or ""."""
    by_lower = {}
    for name in sorted(names):
        by_lower.setdefault(str(name).lower(), name)
    close = [by_lower[c] for c in difflib.get_close_matches(str(word).lower(), list(by_lower), n=n, cutoff=0.6)]
    return f" (did you mean {' or '.join(close)}?)" if close else ""


def nested_settings(cfg):
    """Every setting name a job takes, dotted (``method.lam``, ``dataset.path``, ``split``), for suggestions."""
    names = [k for k in JOB_SETTINGS if k not in GROUPS]
    names += [f"dataset.{k}" for k in DATASET_SETTINGS]
    name = (cfg.get("method") or {}).get("name") if isinstance(cfg.get("method"), dict) else None
    if name in METHODS:
        names += [f"method.{k}" for k in method(name).estimator_class().get_params()]
    return names


def check_top_level(cfg):
    """Refuse a top-level setting the harness does not read, naming the settings nearest to it."""
    for key in cfg:
        if key in JOB_SETTINGS or key == "hydra":
            continue
        names = nested_settings(cfg)
        by_last = {}
        for dotted in names:
            by_last.setdefault(dotted.split(".")[-1], []).append(dotted)
        close = difflib.get_close_matches(key, list(by_last), n=2, cutoff=0.6)
        hint = " or ".join(f"{d}=VALUE" for c in close for d in by_last[c])
        raise ValueError(f"{key} is not a setting of a job, so +{key}= would change nothing but the job's folder"
                         + (f": did you mean {hint}?" if hint else "")
                         + f" (the settings: {', '.join(JOB_SETTINGS)}; a method's parameters are method.NAME)")


def check_solver_threads(value):
    """``solver_threads``: null (the job's share of the cores) or a whole number >= 1."""
    if value is None or (isinstance(value, numbers.Integral) and not isinstance(value, bool) and value >= 1):
        return value
    raise ValueError(f"solver_threads={value} is not a number of threads: give a whole number >= 1, or "
                     "solver_threads=null for the job's share of the machine's cores")


def check_download(value):
    """``download``: true or false."""
    if isinstance(value, bool):
        return value
    raise ValueError(f"download={value} is neither true nor false: download=true lets a missing public file be "
                     "downloaded, download=false never downloads")


def check_count(cfg):
    """``n_labeled`` (``all`` or a whole number >= 2) and ``n_unlabeled`` (null or a whole number >= 1),
    as far as they can be told without the data (the upper bounds need the training rows)."""
    n_labeled = job_labels_value(cfg.get("n_labeled"), dataset_info(cfg["dataset"]["name"]))
    if n_labeled != ALL and n_labeled < 2:
        raise ValueError(f"n_labeled={n_labeled}: a split needs at least 2 labeled rows (one of each class); "
                         "give n_labeled=2 or more")
    n_unlabeled = cfg.get("n_unlabeled")
    if n_unlabeled is not None and not (isinstance(n_unlabeled, numbers.Integral) and not isinstance(n_unlabeled, bool)
                                        and n_unlabeled >= 1):
        raise ValueError(f"n_unlabeled={n_unlabeled} is not a number of unlabeled rows: give a whole number >= 1, "
                         "or n_unlabeled=null for every remaining training row")


def check_settings(cfg):
    """Check every setting of the job configuration ``cfg`` (a plain dict) that can be checked without its
    data; a refused one raises ValueError with a one-line message naming the fix."""
    check_top_level(cfg)
    ds_cfg = cfg["dataset"]
    check_dataset_settings(ds_cfg)
    info = dataset_info(ds_cfg["name"])
    job_split(cfg.get("split"))
    check_count(cfg)
    check_solver_threads(cfg.get("solver_threads"))
    check_download(cfg.get("download", True))
    if cfg.get("timing") is not None:
        timing_protocol.settings(cfg["timing"])        # the timing protocol's settings, unknown ones refused
    method_name = cfg["method"]["name"]
    if method_name not in METHODS:
        raise ValueError(f"unknown method {method_name!r}{close_names(method_name, METHODS)}; known methods: "
                         f"{', '.join(sorted(METHODS))}")
    lam = info.lam if ds_cfg.get("lam") is None else ds_cfg["lam"]
    lam_u = info.lam_u if ds_cfg.get("lam_u") is None else ds_cfg["lam_u"]
    estimator_for(cfg["method"], lam, lam_u, 0.5 if cfg["method"].get("r") is None else cfg["method"]["r"])


def config_choices(group, conf_dir):
    """The names ``group=NAME`` may take: ``conf/<group>/*.yaml`` and, for methods, the configs stored from
    :mod:`ssl_repro.harness.methods` (:mod:`.resolvers`)."""
    names = {p.stem for p in (Path(conf_dir) / group).glob("*.yaml")}
    if group == "method":
        names |= set(METHODS) | set(VARIANTS)
    return names


def check_choices(overrides, conf_dir):
    """Refuse a ``dataset=NAME`` or ``method=NAME`` (a sweep's ``a,b,c`` too) on the command line
    ``overrides`` that names no config, with the close names, before Hydra composes (and, for a
    sweep, writes) anything.  Values with Hydra's sweep functions (``range(...)``, ...) or
    interpolations are left to Hydra."""
    for override in overrides:
        key, sep, value = override.lstrip("~+").partition("=")
        if not sep or key not in GROUPS or any(c in value for c in "()[]{}$*"):
            continue
        known = config_choices(key, conf_dir)
        for name in value.split(","):
            if name.strip() and name.strip() not in known:
                raise ValueError(f"{key}={name.strip()}: no such {key} config{close_names(name.strip(), known)}; "
                                 f"known: {', '.join(sorted(known))}")
