"""One job = (dataset, split, n_labeled, method, parameters) -> a result record.

:func:`run_job` takes the job's configuration as a plain dict (what Hydra
composes from ``conf/``), trains the method on the split and returns the
record that goes into ``result.json``:

dataset, construction (a real-text analog's, ``a`` or ``b``: :mod:`ssl_repro.data.registry`;
None for any other dataset), method (the variant, e.g. ``tsvm-Smax``, ``kernel_da-l1``), split,
n_labeled, n_unlabeled, n_test, r, lam, lam_u (the values the estimator
used: the method's own setting, else the dataset's; r the method's, else
the split's true positive fraction), converged (False when a solver loop
stopped on a cap, see ``diagnostics``), test_error (NaN without test
rows, stored as JSON null), transductive_error (on the unlabeled rows, against their true
labels), unlabeled_positive_fraction (the share of unlabeled rows predicted
positive; records before it have none: ``harness.claims`` derives its
one-class flag from transductive_error and r there), objective_own (the solver's ``own_objective``, the objective the
method itself minimizes: Eqn 18 for TSVM/DA, DA's minimum along its path;
the least-squares objective for rls; J_nabla for nabla-TSVM; J_ramp for
CCCP-TSVM; 001's Eqn 1 in their loss V for the kernel methods),
objective_eqn18 (the solver's ``objective``: J of Eqn 18 of the returned
solution at the lambda and lambda' the method ran with, ``eqn18_lam`` and
``eqn18_lam_u``, as the solver computed it; lambda' = 0, the labeled rows
only, for svm and rls; the kernel form, RKHS norm for ||w||^2, for the
kernel methods),
seconds (the fit's wall time alone; with a distributed ``backend``, sending the rows to the workers
included), cpu_seconds (the CPU time of this process's threads during the fit: with one solver thread
about ``seconds`` on an idle machine), compile_seconds (before the fit's timer: compiling the linear solvers' numba kernels
for the job's value type, or loading them from numba's on-disk cache; tens of seconds in a fresh
install, said once in the log, well under a second once cached, near 0 after the first job of a
process; for a kernel method its own compiled kernels, if any: :mod:`ssl_repro.harness.compilation`),
diagnostics (the solver's record less what the fields above hold: :func:`stored_diagnostics`),
unreached_rows (label spreading only: the rows it gave no label, which got the labeled rows' majority
class, :mod:`ssl_repro.estimators.label_reach`: ``unlabeled``, of them ``no_path``, ``test``, and the class ``given``, +1/-1),
data_files (a user's own files: the SHA-256 of each, :mod:`.jobkey`), config and provenance (the command, date, git commit and
machine of the run: :func:`ssl_repro.utils.provenance.provenance`; and the keys of the data the job used,
:mod:`ssl_repro.data.keys`: ``dataset_key`` of the loaded X and y, ``split_key`` of its rows).

A K-class dataset's job (digits, mnist-5k, 20ng-all) scores the classes predicted instead of signed
outputs and records the K class fractions for r: :mod:`.classes` says what differs.

The errors need outputs: linear methods (``coef_``) get w.x + b on the rows
of the dataset's matrix without copying it; kernel methods (``kernel_da``,
``kernel_jtsvm``: ``dual_coef_``) take their unlabeled rows' predictions
from ``transduction_`` (no second Gram matrix) and score test rows with
``decision_function``.  The objectives come from the solver's record,
never recomputed here.  A kernel method on more training rows than its ``max_rows`` (the dense-Gram ones: the n x n
Gram matrix's memory; the kernel CCCP-TSVM, which reads kernel rows through a bounded cache: its SMO's
time) is refused before anything is copied.

Unset (null) ``lam``/``lam_u`` come from the dataset registry (Table 1.1);
a dataset setting other than :data:`DATASET_SETTINGS` is refused;
an unset ``r`` is the true positive fraction of the split's unlabeled rows,
as in the paper.
"""
import logging
import time
import warnings
from dataclasses import dataclass, field

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ssl_repro.distributed.backend import backend_from_settings
from ssl_repro.data import dataset_info, load_dataset, make_split
from ssl_repro.data.keys import dataset_key, split_key
from ssl_repro.estimators.kernel import check_kernel_rows
from ssl_repro.estimators.label_reach import UnreachedRowsWarning
from ssl_repro.labels import LabelConventionWarning, mask_classes, mask_labels
from ssl_repro.harness.classes import check_class_fractions, class_fields, class_predictions
from ssl_repro.harness.methods import METHODS, estimator_for, method
from ssl_repro.utils.provenance import provenance
from ssl_repro.solvers import BiasedRows
from ssl_repro.solvers.info import SuspectSolutionWarning
from ssl_repro.harness.compilation import compile_kernel_method, compile_solvers
from ssl_repro.harness.jobkey import data_files
from ssl_repro.harness.settings import DATASET_SETTINGS, check_dataset_settings, check_settings, job_labels, job_split  # noqa: F401  (the stages' checks, public here)

log = logging.getLogger("ssl_repro")

def check_fraction_of_split(split, dataset, n_labeled):
    """Refuse a split whose unlabeled rows are all of one class: their true positive fraction r
    is then 0 or 1, which the balance constraint mean(p) = r (Eqn 9) cannot hold with 0 < p < 1."""
    if not 0 < split.r < 1:
        raise ValueError(
            f"n_labeled={n_labeled} leaves {split.unlabeled.size} unlabeled row(s) of {dataset.name}, all of one "
            f"class, so their positive fraction r is {split.r:g}, outside the 0 < r < 1 a semi-supervised method "
            f"needs: label fewer rows (a smaller n_labeled), or set the method's r (method.r=0.5)")


def _linear_outputs(estimator, X, split):
    """Outputs w.x + b on the unlabeled and test rows of ``X`` (no copy)."""
    w = np.r_[estimator.coef_[0], estimator.intercept_]
    op = BiasedRows(X)
    return op.matvec(w, split.unlabeled), op.matvec(w, split.test)


def _of_unlabeled(values, split, all_rows):
    """The entries of a per-training-row array for the split's unlabeled rows (fit order: every row of
    ``X`` if ``all_rows``, else the labeled rows then the unlabeled ones)."""
    return values[split.unlabeled] if all_rows else values[split.labeled.size:]


def _kernel_outputs(estimator, X, split, all_rows):
    """+1/-1 predictions on the unlabeled rows, from ``transduction_``, and test outputs."""
    o_u = np.where(_of_unlabeled(estimator.transduction_ == 1, split, all_rows), 1.0, -1.0)   # mask_labels: 1 is +1
    o_t = estimator.decision_function(X[split.test]) if split.test.size else np.zeros(0)
    return o_u, o_t


def _graph_outputs(estimator, X, split, all_rows):
    """As :func:`_kernel_outputs`, for label spreading, and the record's ``unreached_rows``: the unlabeled
    rows it gave no label (``no_path``: of those, the ones with no path to a labeled row), the test rows
    none of whose neighbours got one, and the class they were all given (+1/-1; :mod:`ssl_repro.estimators.label_reach`)."""
    o_u = np.where(_of_unlabeled(estimator.transduction_ == 1, split, all_rows), 1.0, -1.0)
    o_t, reached = estimator.spread_outputs(X[split.test]) if split.test.size else (np.zeros(0), np.ones(0, bool))
    missed = _of_unlabeled(estimator.unreached_, split, all_rows)
    hops = _of_unlabeled(estimator.model_.hops_, split, all_rows)
    return o_u, o_t, {"unlabeled": int(missed.sum()), "no_path": int(np.isinf(hops).sum()),
                      "test": int(np.sum(~reached)), "given": 1 if estimator.fallback_class_ == 1 else -1}


def log_unreached(unreached, split, job):
    """One log line for the rows label spreading left without a label, when there are any."""
    if unreached["unlabeled"] or unreached["test"]:
        log.warning("%s: %d of %d unlabeled rows (%d with no path to a labeled row in the kNN graph, %d farther from "
                    "one than the iterations run) and %d of %d test rows got no label from the spreading: given the "
                    "labeled rows' majority class %+d (record: unreached_rows)", job, unreached["unlabeled"],
                    split.unlabeled.size, unreached["no_path"], unreached["unlabeled"] - unreached["no_path"],
                    unreached["test"], split.test.size, unreached["given"])


#: Datasets read from a user's own files: their jobs also save weights and outputs (:func:`train_job`).
OWN_DATA = ("svmlin", "svmlight")


def run_job(cfg):
    """Train one job and return its result record (see module doc)."""
    return train_job(cfg)[0]


@dataclass(frozen=True)
class JobSettings:
    """What a job's configuration says, checked: the dataset to load, its paths, the ``lam``/``lam_u``
    it defaults to (the configuration's, else the registry's: Table 1.1), the method, the backend and
    the digests of a user's own data files, taken before they are read."""

    dataset: str
    paths: dict
    root: object
    download: bool
    lam: float
    lam_u: float
    method: dict
    variant: str
    backend: dict
    data_files: dict = field(default_factory=dict)   # a user's own files' digests (:func:`.jobkey.data_files`)


@dataclass(frozen=True)
class FittedJob:
    """A trained estimator with its fit's wall time and the compile time taken before it."""

    estimator: object
    kernel: bool
    all_rows: bool     # transductive on every row of X: trained on X itself, in its row order
    seconds: float
    cpu_seconds: float
    compile_seconds: float


def train_job(cfg, data_read=None):
    """Train one job; return (record, arrays to save beside it): the stages :func:`resolve_job`,
    :func:`load_data`, :func:`split_rows`, :func:`fit_estimator` and :func:`make_record`.

    ``data_read``, if given, is called with no argument once the data are read and before the split and
    the fit: the harness says "running" then, so a job refused for a missing data file prints its
    ``Error:`` line alone (issue 59).

    The arrays are empty except for a user's own files (:data:`OWN_DATA`):
    ``weights`` (linear methods: w with the bias last) and ``outputs``
    (``unlabeled_rows``/``test_rows``: row numbers in the file, 0-based;
    ``unlabeled_decision``/``test_decision``: the outputs w.x + b (kernel
    methods: f(x)); ``unlabeled_predicted``/``test_predicted``: +1 or -1,
    in the file's labels), which :func:`~ssl_repro.harness.result_files.write_arrays`
    stores as ``weights.npy`` and ``outputs.npz`` beside ``result.json``.
    """
    settings = resolve_job(cfg)
    dataset = load_data(settings)
    if data_read is not None:
        data_read()
    split = split_rows(cfg, settings, dataset)
    fitted = fit_estimator(settings, dataset, split)
    return make_record(cfg, settings, dataset, split, fitted)


def resolve_job(cfg):
    """Stage 1: the :class:`JobSettings` of a configuration, every setting checked before any data
    are read (:func:`ssl_repro.harness.settings.check_settings`: e.g. a dataset setting the harness does
    not read, :func:`check_dataset_settings`)."""
    check_settings(cfg)
    ds_cfg = cfg["dataset"]
    info = dataset_info(ds_cfg["name"])
    method_cfg = dict(cfg["method"])
    return JobSettings(dataset=ds_cfg["name"], paths={k: ds_cfg[k] for k in ("path", "examples", "labels")
                                                      if ds_cfg.get(k)},
                       root=cfg.get("data_root"), download=cfg.get("download", True),
                       lam=info.lam if ds_cfg.get("lam") is None else ds_cfg["lam"],
                       lam_u=info.lam_u if ds_cfg.get("lam_u") is None else ds_cfg["lam_u"],
                       method=method_cfg, variant=method_cfg.get("variant", method_cfg["name"]),
                       backend=cfg.get("backend") or {"name": "local"}, data_files=data_files(ds_cfg))


def load_data(settings):
    """Stage 2: the job's :class:`~ssl_repro.data.Dataset`."""
    return load_dataset(settings.dataset, root=settings.root, download=settings.download, **settings.paths)


def check_job_data(cfg):
    """Load the data of the job ``cfg`` once, as a sweep does before launching its jobs: a missing file
    raises :class:`~ssl_repro.data.DatasetNotAvailable` naming it and where to put it (after one
    download attempt where ``download`` allows it), so the sweep stops with that one message instead
    of every job failing on it.  Data the package generates (``embedded``) is not checked.  Returns the
    data's source, or None when not checked."""
    settings = resolve_job(cfg)
    if dataset_info(settings.dataset).embedded:
        return None
    return load_data(settings).source


def split_rows(cfg, settings, dataset):
    """Stage 3: the job's labeled, unlabeled and test rows (:func:`~ssl_repro.data.make_split`);
    for a semi-supervised method without its own ``r``, refused when the unlabeled rows hold
    one class only (:func:`check_fraction_of_split`)."""
    n_labeled = job_labels(cfg["n_labeled"], dataset)
    split = make_split(dataset, job_split(cfg["split"]), n_labeled, cfg.get("n_unlabeled"))
    name = settings.method.get("name")
    if name in METHODS and method(name).semi_supervised and settings.method.get("r") is None:
        (check_class_fractions if dataset.info.n_classes > 2 else check_fraction_of_split)(split, dataset, n_labeled)
    return split


def training_rows(dataset, split):
    """(X, labels for ``fit``, all_rows) of the split's training rows: the dataset's X itself when
    the job is transductive on every row (no copy of a possibly huge matrix), else its labeled then
    unlabeled rows."""
    X, y = dataset.X, dataset.y
    mask = mask_classes if dataset.info.n_classes > 2 else mask_labels     # K classes: :mod:`.classes`
    all_rows = split.test.size == 0 and split.labeled.size + split.unlabeled.size == X.shape[0]
    if all_rows:
        return X, mask(y, split.labeled), True
    train = np.concatenate([split.labeled, split.unlabeled])
    return X[train], mask(y[train], np.arange(split.labeled.size)), False


def fit_estimator(settings, dataset, split):
    """Stage 4: the method's estimator (:func:`estimator_for`) trained on the split's training rows
    under the job's backend, timed apart from compiling the solvers' kernels.  A kernel method is
    refused on more rows than its ``max_rows`` and on a distributed backend."""
    estimator = estimator_for(settings.method, settings.lam, settings.lam_u, split.r)
    kernel = method(settings.method["name"]).kernel   # dense n x n Gram matrix
    if kernel:
        n_rows = split.labeled.size + split.unlabeled.size
        cost = estimator.rows_cost(n_rows) if hasattr(estimator, "rows_cost") else None   # the default: memory
        check_kernel_rows(n_rows, getattr(estimator, "max_rows", None),
                          f"{settings.variant} on {dataset.name} ({split.labeled.size} labeled + "
                          f"{split.unlabeled.size} unlabeled rows)", cost)
    X_fit, y_fit, all_rows = training_rows(dataset, split)
    if kernel and settings.backend["name"] != "local":
        raise ValueError(f"backend={settings.backend['name']} spreads the rows of a linear model's X; "
                         f"{settings.variant} is a kernel method (dense Gram matrix): run it with backend=local")
    compile_seconds = compile_kernel_method(estimator) if kernel else compile_solvers(X_fit, dataset.X)   # timed apart
    with backend_from_settings(settings.backend), warnings.catch_warnings(record=True) as caught:
        # y_fit is made by mask_labels: its 0s are the negative class, never a guess at the convention
        warnings.simplefilter("ignore", LabelConventionWarning)
        warnings.simplefilter("ignore", UnreachedRowsWarning)      # make_record's line counts the rows
        for category in SOLVER_WARNINGS:
            warnings.simplefilter("always", category)
        start, cpu_start = time.perf_counter(), time.process_time()
        estimator.fit(X_fit, y_fit)
        seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
    log_warnings(caught, f"{settings.variant} on {dataset.name}")
    return FittedJob(estimator, kernel, all_rows, seconds, cpu_seconds, compile_seconds)


#: What a solver says about how it ended: the job's log says it, in the harness's own lines.
SOLVER_WARNINGS = (ConvergenceWarning, SuspectSolutionWarning)


def log_warnings(caught, job):
    """Log the solver's warnings ``caught`` during a fit as the job's own log lines (one each, naming ``job``);
    any other warning goes on to the caller's filters."""
    for w in caught:
        if issubclass(w.category, SOLVER_WARNINGS):
            log.warning("%s: %s", job, w.message)
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


def error_rate(outputs, truth):
    """Share of the rows of known truth (+1/-1; 0, from an svmlin labels file, is not scored) whose
    output has the other sign (``mask_labels`` made +1 the class ``classes_[1]``: a positive output
    predicts +1); NaN without such rows."""
    known = truth != 0
    if not known.any():
        return float("nan")
    return float(np.mean(np.where(outputs[known] > 0, 1, -1) != truth[known]))


def own_data_arrays(fitted, split, o_u, o_t):
    """The weights (linear methods) and outputs a job on a user's own files saves (see :func:`train_job`)."""
    def predicted(outputs):
        return np.where(outputs > 0, 1, -1).astype(np.int8)
    arrays = {"outputs": {"unlabeled_rows": split.unlabeled, "unlabeled_decision": o_u,
                          "unlabeled_predicted": predicted(o_u), "test_rows": split.test,
                          "test_decision": o_t, "test_predicted": predicted(o_t)}}
    if hasattr(fitted.estimator, "coef_"):
        arrays["weights"] = np.r_[fitted.estimator.coef_[0], fitted.estimator.intercept_]
    return arrays


#: Fields of the solver's record that the result record holds once, at its top level: ``objective``
#: (``objective_eqn18``), ``own_objective`` (``objective_own``) and ``seconds`` (the solver's own time,
#: within the fit's ``seconds``).
DIAGNOSTICS_AT_TOP = ("objective", "own_objective", "seconds")


def stored_diagnostics(info):
    """The solver's record as ``result.json`` keeps it: less :data:`DIAGNOSTICS_AT_TOP`."""
    return {k: v for k, v in info.as_dict().items() if k not in DIAGNOSTICS_AT_TOP}


def make_record(cfg, settings, dataset, split, fitted):
    """Stage 5: (the result record, arrays to save) of a fitted job (fields: see module doc); lam,
    lam_u and r are the values the estimator used (a method's own override the dataset's)."""
    estimator, info = fitted.estimator, fitted.estimator.diagnostics_
    params = estimator.get_params()
    used_lam, used_lam_u = params.get("lam", float("nan")), params.get("lam_u", 0.0)
    unreached, arrays = None, {}
    if dataset.info.n_classes > 2:          # K classes: errors over the classes predicted (:mod:`.classes`)
        predicted = class_predictions(estimator, dataset.X, split,
                                      lambda values: _of_unlabeled(values, split, fitted.all_rows))
        scores = class_fields(estimator, dataset, split, predicted, stored_diagnostics)
    else:
        if method(settings.method["name"]).graph:                   # label spreading
            o_u, o_t, unreached = _graph_outputs(estimator, dataset.X, split, fitted.all_rows)
            log_unreached(unreached, split, f"{settings.variant} on {dataset.name}")
        elif fitted.kernel or not hasattr(estimator, "coef_"):      # kernel machines
            o_u, o_t = _kernel_outputs(estimator, dataset.X, split, fitted.all_rows)
        else:
            o_u, o_t = _linear_outputs(estimator, dataset.X, split)
        arrays = own_data_arrays(fitted, split, o_u, o_t) if dataset.name in OWN_DATA else {}
        scores = {
            "r": params["r"] if params.get("r") is not None else split.r, "converged": bool(info.converged),
            "test_error": error_rate(o_t, dataset.y[split.test]),
            "transductive_error": error_rate(o_u, dataset.y[split.unlabeled]),
            # the predicted positive share of the unlabeled rows: flags one-class solutions (harness.claims)
            "unlabeled_positive_fraction": float(np.mean(o_u > 0)) if len(o_u) else float("nan"),
            "objective_own": float(info.own_objective), "objective_eqn18": float(info.objective),
            "diagnostics": stored_diagnostics(info)}
    diagnostics = scores.pop("diagnostics")
    record = {
        "dataset": dataset.name, "construction": dataset.info.construction, "method": settings.variant,
        "split": split.seed, "n_labeled": int(split.labeled.size),
        "n_unlabeled": int(split.unlabeled.size), "n_test": int(split.test.size), "r": None,
        "lam": used_lam, "lam_u": used_lam_u, "eqn18_lam": used_lam, "eqn18_lam_u": used_lam_u, **scores,
        "seconds": fitted.seconds, "cpu_seconds": fitted.cpu_seconds, "compile_seconds": fitted.compile_seconds,
        "diagnostics": diagnostics, "data_source": dataset.source,
        **({"unreached_rows": unreached} if unreached is not None else {}),
        **({"data_files": settings.data_files} if settings.data_files else {}),
        "config": cfg, "provenance": {**provenance(), "dataset_key": dataset_key(dataset), "split_key": split_key(split)},
    }
    return record, arrays
