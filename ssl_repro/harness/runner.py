"""One job = (dataset, split, n_labeled, method, parameters) -> a result record.

:func:`run_job` takes the job's configuration as a plain dict (what Hydra
composes from ``conf/``), trains the method on the split and returns the
record that goes into ``result.json``:

dataset, method (the variant, e.g. ``tsvm-Smax``, ``kernel_da-l1``), split,
n_labeled, n_unlabeled, n_test, r, lam, lam_u (the values the estimator
used: the method's own setting, else the dataset's; r the method's, else
the split's true positive fraction), converged (False when a solver loop
stopped on a cap, see ``diagnostics``), test_error (NaN without test
rows), transductive_error (on the unlabeled rows, against their true
labels), objective_own (``diagnostics.own_objective``, the objective the
method itself minimizes: Eqn 18 for TSVM/DA, DA's minimum along its path;
the least-squares objective for rls; J_nabla for nabla-TSVM; J_ramp for
CCCP-TSVM; 001's Eqn 1 in their loss V for the kernel methods),
objective_eqn18 (``diagnostics.objective``: J of Eqn 18 of the returned
solution at the lambda and lambda' the method ran with, ``eqn18_lam`` and
``eqn18_lam_u``, as the solver computed it; lambda' = 0, the labeled rows
only, for svm and rls; the kernel form, RKHS norm for ||w||^2, for the
kernel methods),
seconds (the fit's wall time alone; with a distributed ``backend``, sending the rows to the workers
included), compile_seconds (before the fit's timer: compiling the solvers' numba kernels, or
loading them from numba's on-disk cache; about 15 s in a fresh install, well under a second
once cached, 0 after the first job of a process: :func:`~ssl_repro.solvers.warm_up_kernels`),
diagnostics (the solver's record), config and provenance (the command, date, git commit and
machine of the run: :func:`ssl_repro.provenance.provenance`).

The errors need outputs: linear methods (``coef_``) get w.x + b on the rows
of the dataset's matrix without copying it; kernel methods (``kernel_da``,
``kernel_jtsvm``: ``dual_coef_``) take their unlabeled rows' predictions
from ``transduction_`` (no second Gram matrix) and score test rows with
``decision_function``.  The objectives come from the solver's record,
never recomputed here.  A kernel method on more training rows than its ``max_rows`` (dense
n x n Gram matrix) is refused before anything is copied.

Unset (null) ``lam``/``lam_u`` come from the dataset registry (Table 1.1);
a dataset setting other than :data:`DATASET_SETTINGS` is refused;
an unset ``r`` is the true positive fraction of the split's unlabeled rows,
as in the paper.
"""
import numbers
import re
import time

import numpy as np
from sklearn.utils._param_validation import InvalidParameterError

from ..backend import backend_from_settings
from ..data import load_dataset, make_split
from ..data.splits import ALL, N_SPLITS
from ..kernel_estimators import check_kernel_rows
from ..labels import mask_labels
from ..methods import METHODS, method
from ..provenance import provenance
from ..solvers import BiasedRows, warm_up_kernels

#: Keys of a method's configuration that are not estimator parameters.
METHOD_META = ("name", "variant")

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


def job_labels(value, dataset):
    """The job's ``n_labeled``: a whole number (its range is :func:`~ssl_repro.data.make_split`'s) or
    ``all``, else refused naming the accepted values."""
    if value == ALL or (isinstance(value, numbers.Integral) and not isinstance(value, bool)):
        return value if value == ALL else int(value)
    grid = ", ".join(map(str, dataset.info.label_grid))
    raise ValueError(f"n_labeled={value!r} is not a number of labeled rows: give a whole number"
                     + (f" (the label grid of {dataset.name}: {grid})" if grid else "")
                     + f" or n_labeled={ALL} (a file's own labels: the rows it labels)")


def check_fraction_of_split(split, dataset, n_labeled):
    """Refuse a split whose unlabeled rows are all of one class: their true positive fraction r
    is then 0 or 1, which the balance constraint mean(p) = r (Eqn 9) cannot hold with 0 < p < 1."""
    if not 0 < split.r < 1:
        raise ValueError(
            f"n_labeled={n_labeled} leaves {split.unlabeled.size} unlabeled row(s) of {dataset.name}, all of one "
            f"class, so their positive fraction r is {split.r:g}, outside the 0 < r < 1 a semi-supervised method "
            f"needs: label fewer rows (a smaller n_labeled), or set the method's r (method.r=0.5)")


def estimator_for(method_cfg, lam, lam_u, r):
    """The estimator of a method configuration (:data:`ssl_repro.methods.METHODS`).

    Parameters the configuration does not set (or sets to null) take the
    dataset's ``lam``, and for a semi-supervised method its ``lam_u`` and the
    split's ``r``; every other parameter keeps the estimator's default.
    """
    name = method_cfg["name"]
    if name not in METHODS:
        raise ValueError(f"unknown method {name!r}; known methods: {', '.join(sorted(METHODS))}")
    entry = method(name)
    params = {k: v for k, v in method_cfg.items() if k not in METHOD_META}
    defaults = {"lam": lam, "lam_u": lam_u, "r": r} if entry.semi_supervised else {"lam": lam}
    for key, value in defaults.items():
        if params.get(key) is None:
            params[key] = value
    cls = entry.estimator_class
    unknown = sorted(set(params) - set(cls().get_params()))
    if unknown:
        raise ValueError(f"method {name!r}: unknown parameter(s) {', '.join(unknown)}; {cls.__name__} takes "
                         f"{', '.join(sorted(cls().get_params()))}")
    estimator = cls(**params)
    try:
        estimator._validate_params()        # what fit checks first, before the data are loaded
    except InvalidParameterError as error:
        source = "method.{0}=VALUE, or dataset.{0}=VALUE" if re.search(r"'(lam|lam_u)'", str(error)) else \
            "method.{0}=VALUE (+method.{0}=VALUE where the method's config does not declare it)"
        parameter = re.search(r"The '(\w+)' parameter", str(error))
        raise ValueError(f"method {name!r}: {error}"
                         + (f" Set it with {source.format(parameter.group(1))}" if parameter else "")) from None
    return estimator


def _linear_outputs(estimator, X, split):
    """Outputs w.x + b on the unlabeled and test rows of ``X`` (no copy)."""
    w = np.r_[estimator.coef_[0], estimator.intercept_]
    op = BiasedRows(X)
    return op.matvec(w, split.unlabeled), op.matvec(w, split.test)


def _kernel_outputs(estimator, X, split, everything):
    """+1/-1 predictions on the unlabeled rows, from ``transduction_`` (fit order: every row of
    ``X`` if ``everything``, else the labeled rows then the unlabeled ones), and test outputs."""
    positive = estimator.transduction_ == 1          # mask_labels: class 1 is the paper's +1
    o_u = np.where(positive[split.unlabeled] if everything else positive[split.labeled.size:], 1.0, -1.0)
    o_t = estimator.decision_function(X[split.test]) if split.test.size else np.zeros(0)
    return o_u, o_t


#: Datasets read from a user's own files: their jobs also save weights and outputs (:func:`train_job`).
OWN_DATA = ("svmlin", "svmlight")


def run_job(cfg):
    """Train one job and return its result record (see module doc)."""
    return train_job(cfg)[0]


def train_job(cfg):
    """Train one job; return (record, arrays to save beside it).

    The arrays are empty except for a user's own files (:data:`OWN_DATA`):
    ``weights`` (linear methods: w with the bias last) and ``outputs``
    (``unlabeled_rows``/``test_rows``: row numbers in the file, 0-based;
    ``unlabeled_decision``/``test_decision``: the outputs w.x + b (kernel
    methods: f(x)); ``unlabeled_predicted``/``test_predicted``: +1 or -1,
    in the file's labels), which :func:`~ssl_repro.harness.store.write_arrays`
    stores as ``weights.npy`` and ``outputs.npz`` beside ``result.json``.
    """
    ds_cfg = cfg["dataset"]
    check_dataset_settings(ds_cfg)
    paths = {k: ds_cfg[k] for k in ("path", "examples", "labels") if ds_cfg.get(k)}
    dataset = load_dataset(ds_cfg["name"], root=cfg.get("data_root"), download=cfg.get("download", True),
                           **paths)
    n_labeled = job_labels(cfg["n_labeled"], dataset)
    split = make_split(dataset, job_split(cfg["split"]), n_labeled, cfg.get("n_unlabeled"))
    lam = dataset.info.lam if ds_cfg.get("lam") is None else ds_cfg["lam"]
    lam_u = dataset.info.lam_u if ds_cfg.get("lam_u") is None else ds_cfg["lam_u"]
    method_cfg = dict(cfg["method"])
    if method_cfg.get("name") in METHODS and method(method_cfg["name"]).semi_supervised \
            and method_cfg.get("r") is None:
        check_fraction_of_split(split, dataset, n_labeled)
    estimator = estimator_for(method_cfg, lam, lam_u, split.r)
    variant = method_cfg.get("variant", method_cfg["name"])
    kernel = method(method_cfg["name"]).kernel   # dense n x n Gram matrix
    if kernel:
        check_kernel_rows(split.labeled.size + split.unlabeled.size, estimator.max_rows,
                          f"{variant} on {dataset.name} ({split.labeled.size} labeled + "
                          f"{split.unlabeled.size} unlabeled rows)")

    X, y = dataset.X, dataset.y
    everything = split.test.size == 0 and split.labeled.size + split.unlabeled.size == X.shape[0]
    if everything:      # transductive on every row: no copy of a possibly huge matrix
        X_fit, y_fit = X, mask_labels(y, split.labeled)
    else:
        train = np.concatenate([split.labeled, split.unlabeled])
        X_fit = X[train]
        y_fit = mask_labels(y[train], np.arange(split.labeled.size))
    backend = cfg.get("backend") or {"name": "local"}
    if kernel and backend["name"] != "local":
        raise ValueError(f"backend={backend['name']} spreads the rows of a linear model's X; {variant} is a "
                         "kernel method (dense Gram matrix): run it with backend=local")
    start = time.perf_counter()
    warm_up_kernels()       # compilation is not the solve: timed apart
    compile_seconds = time.perf_counter() - start
    with backend_from_settings(backend):
        start = time.perf_counter()
        estimator.fit(X_fit, y_fit)
        seconds = time.perf_counter() - start

    # the values the estimator used (a method's own lam/lam_u/r override the dataset's)
    params = estimator.get_params()
    used_lam, used_lam_u = params.get("lam", lam), params.get("lam_u", 0.0)
    r = params["r"] if params.get("r") is not None else split.r
    if kernel:
        o_u, o_t = _kernel_outputs(estimator, X, split, everything)
    else:
        o_u, o_t = _linear_outputs(estimator, X, split)

    def error(outputs, rows):
        # mask_labels made +1 the class classes_[1]: a positive output predicts +1.
        # Rows of unknown truth (label 0, from an svmlin labels file) are not scored.
        known = y[rows] != 0
        if not known.any():
            return float("nan")
        return float(np.mean(np.where(outputs[known] > 0, 1, -1) != y[rows][known]))

    arrays = {}
    if dataset.name in OWN_DATA:
        def predicted(outputs):
            return np.where(outputs > 0, 1, -1).astype(np.int8)
        arrays["outputs"] = {"unlabeled_rows": split.unlabeled, "unlabeled_decision": o_u,
                             "unlabeled_predicted": predicted(o_u), "test_rows": split.test,
                             "test_decision": o_t, "test_predicted": predicted(o_t)}
        if not kernel:
            arrays["weights"] = np.r_[estimator.coef_[0], estimator.intercept_]
    record = {
        "dataset": dataset.name, "method": variant,
        "split": split.seed, "n_labeled": int(split.labeled.size),
        "n_unlabeled": int(split.unlabeled.size), "n_test": int(split.test.size),
        "r": r, "lam": used_lam, "lam_u": used_lam_u, "eqn18_lam": used_lam, "eqn18_lam_u": used_lam_u,
        "converged": bool(estimator.diagnostics_.converged),
        "test_error": error(o_t, split.test),
        "transductive_error": error(o_u, split.unlabeled),
        "objective_own": float(estimator.diagnostics_.own_objective),
        "objective_eqn18": float(estimator.diagnostics_.objective),
        "seconds": seconds, "compile_seconds": compile_seconds,
        "diagnostics": estimator.diagnostics_.as_dict(),
        "data_source": dataset.source,
        "config": cfg,
        "provenance": provenance(),
    }
    return record, arrays
