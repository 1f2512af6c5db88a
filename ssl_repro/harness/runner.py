"""One job = (dataset, split, n_labeled, method, parameters) -> a result record.

:func:`run_job` takes the job's configuration as a plain dict (what Hydra
composes from ``conf/``), trains the method on the split and returns the
record that goes into ``result.json``:

dataset, method (the variant, e.g. ``tsvm-Smax``, ``kernel_da-l1``), split,
n_labeled, n_unlabeled, n_test, r, lam, lam_u, test_error (NaN without test
rows), transductive_error (on the unlabeled rows, against their true
labels), objective (``diagnostics.own_objective``, the objective the method
itself minimizes: Eqn 18 for TSVM/DA, DA's minimum along its path; J with
lambda' = 0 for svm; the least-squares objective for rls; J_nabla for
nabla-TSVM; J_ramp for CCCP-TSVM; 001's Eqn 1 in their loss V for the
kernel methods, DA's minimum along its path), objective_eqn18 (J of Eqn 18
with the dataset's lambda and lambda', for every method: the common
yardstick),
seconds (training wall time), diagnostics (the solver's record) and config.

Linear methods (``coef_``): outputs w.x + b on the rows of the dataset's
matrix without copying it, Eqn 18 from w.  Kernel methods (``kernel_da``,
``kernel_jtsvm``: ``dual_coef_``, f = K alpha + b): outputs from the
estimator's ``decision_function`` on the rows, Eqn 18 in its kernel form
(||w||^2 becomes the RKHS norm alpha' K alpha, the bias unregularized; see
:mod:`ssl_repro.kernel.diagnostics`), with K alpha = f - b on the training
rows.  A kernel method on more training rows than its ``max_rows`` (dense
n x n Gram matrix) is refused before anything is copied.

Unset (null) ``lam``/``lam_u`` come from the dataset registry (Table 1.1);
a dataset setting other than :data:`DATASET_SETTINGS` is refused;
an unset ``r`` is the true positive fraction of the split's unlabeled rows,
as in the paper.
"""
import time

import numpy as np

from ..data import load_dataset, make_split
from ..estimators import ESTIMATORS, mask_labels
from ..estimators_beyond import KERNEL_ESTIMATORS, check_kernel_rows
from ..solvers import BiasedRows, transductive_objective

#: Keys of a method's configuration that are not estimator parameters.
METHOD_META = ("name", "variant")

#: What a dataset configuration may set (``conf/dataset/*.yaml``); the rest of a
#: dataset's metadata comes from :data:`ssl_repro.data.DATASETS` only.
DATASET_SETTINGS = ("name", "lam", "lam_u", "path", "examples", "labels")


def check_dataset_settings(ds_cfg):
    """Refuse a dataset setting the harness does not read (e.g. ``+dataset.label_grid=[1,2]``)."""
    for key in ds_cfg:
        if key not in DATASET_SETTINGS:
            raise ValueError(
                f"dataset.{key} is not a setting: a dataset configuration sets only {', '.join(DATASET_SETTINGS)}; "
                f"{key} of {ds_cfg.get('name')!r} comes from ssl_repro/data/registry.py (Table 1.1 of 004). "
                f"Choose labels with n_labeled=N, or sweep e.g. -m n_labeled=1,2")


def estimator_for(method_cfg, lam, lam_u, r):
    """The estimator of a method configuration, with unset lam/lam_u/r filled in."""
    name = method_cfg["name"]
    if name not in ESTIMATORS:
        raise ValueError(f"unknown method {name!r}; known methods: {', '.join(sorted(ESTIMATORS))}")
    params = {k: v for k, v in method_cfg.items() if k not in METHOD_META}
    defaults = {"lam": lam, "lam_u": lam_u, "r": r}
    for key, value in defaults.items():
        if key in params and params[key] is None:
            params[key] = value
    return ESTIMATORS[name](**params)


def _linear_outputs(estimator, X, split, y_l, lam, lam_u):
    """Outputs w.x + b on the labeled, unlabeled and test rows of ``X`` (no copy) and Eqn 18 from w."""
    w = np.r_[estimator.coef_[0], estimator.intercept_]
    op = BiasedRows(X)
    o_l, o_u = op.matvec(w, split.labeled), op.matvec(w, split.unlabeled)
    return o_l, o_u, op.matvec(w, split.test), transductive_objective(w, o_l, y_l, o_u, lam, lam_u)


def _kernel_outputs(estimator, X, X_fit, split, y_l, lam, lam_u):
    """Outputs f = K alpha + b of a kernel estimator and the kernel form of Eqn 18.

    ``X_fit`` holds the training rows in the order of ``dual_coef_``: ``X``
    itself, or the labeled rows then the unlabeled ones.
    """
    f_fit = estimator.decision_function(X_fit)
    if X_fit is X:
        o_l, o_u = f_fit[split.labeled], f_fit[split.unlabeled]
    else:
        o_l, o_u = f_fit[:split.labeled.size], f_fit[split.labeled.size:]
    o_t = estimator.decision_function(X[split.test]) if split.test.size else np.zeros(0)
    alpha, bias = estimator.dual_coef_[0], estimator.intercept_[0]
    # the loss part of Eqn 18 (w = empty) plus lambda/2 alpha' K alpha, K alpha = f - b on the training rows
    rkhs = float(alpha @ (f_fit - bias))
    return o_l, o_u, o_t, transductive_objective(np.zeros(0), o_l, y_l, o_u, lam, lam_u) + 0.5 * lam * rkhs


def run_job(cfg):
    """Train one job and return its result record (see module doc)."""
    ds_cfg = cfg["dataset"]
    check_dataset_settings(ds_cfg)
    paths = {k: ds_cfg[k] for k in ("path", "examples", "labels") if ds_cfg.get(k)}
    dataset = load_dataset(ds_cfg["name"], root=cfg.get("data_root"), download=cfg.get("download", True),
                           **paths)
    split = make_split(dataset, int(cfg["split"]), int(cfg["n_labeled"]), cfg.get("n_unlabeled"))
    lam = dataset.info.lam if ds_cfg.get("lam") is None else ds_cfg["lam"]
    lam_u = dataset.info.lam_u if ds_cfg.get("lam_u") is None else ds_cfg["lam_u"]
    method_cfg = dict(cfg["method"])
    estimator = estimator_for(method_cfg, lam, lam_u, split.r)
    variant = method_cfg.get("variant", method_cfg["name"])
    kernel = isinstance(estimator, tuple(KERNEL_ESTIMATORS.values()))   # dense n x n Gram matrix
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
    start = time.perf_counter()
    estimator.fit(X_fit, y_fit)
    seconds = time.perf_counter() - start

    y_l = y[split.labeled].astype(np.float64)
    if kernel:
        o_l, o_u, o_t, eqn18 = _kernel_outputs(estimator, X, X_fit, split, y_l, lam, lam_u)
    else:
        o_l, o_u, o_t, eqn18 = _linear_outputs(estimator, X, split, y_l, lam, lam_u)

    def error(outputs, rows):
        # mask_labels made +1 the class classes_[1]: a positive output predicts +1.
        # Rows of unknown truth (label 0, from an svmlin labels file) are not scored.
        known = y[rows] != 0
        if not known.any():
            return float("nan")
        return float(np.mean(np.where(outputs[known] > 0, 1, -1) != y[rows][known]))

    return {
        "dataset": dataset.name, "method": variant,
        "split": split.seed, "n_labeled": int(split.labeled.size),
        "n_unlabeled": int(split.unlabeled.size), "n_test": int(split.test.size),
        "r": split.r, "lam": lam, "lam_u": lam_u,
        "test_error": error(o_t, split.test),
        "transductive_error": error(o_u, split.unlabeled),
        "objective": float(estimator.diagnostics_.own_objective),
        "objective_eqn18": float(eqn18),
        "seconds": seconds,
        "diagnostics": estimator.diagnostics_.as_dict(),
        "data_source": dataset.source,
        "config": cfg,
    }
