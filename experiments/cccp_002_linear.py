"""``linear-diagnosis``: why the linear CCCP-TSVM (LinearCCCPTSVM, squared-hinge ramp) returns one-sided
solutions on 20ng-aut-avn-like with few labels (:mod:`ssl_repro.solvers.cccp`): per setting the
supervised start's and the result's positive share of the unlabeled outputs, CCCP steps, J_ramp, and J_ramp
of TSVM S=max's solution with its bias shifted onto the same balance constraint; beside them 002's own
form at the same lam, lam_u and r (KernelCCCPTSVM: hinge, s = -0.3, linear kernel, unregularized bias).

    python experiments/cccp_002.py linear-diagnosis      (record: results/cccp_002/linear_diagnosis.csv)
"""
import warnings

import numpy as np

from ssl_repro.data import load_dataset, make_split
from ssl_repro.estimators import LinearSVM, LinearTSVM, mask_labels
from ssl_repro.estimators.comparison import LinearCCCPTSVM
from ssl_repro.estimators.kernel_cccp import KernelCCCPTSVM

from cccp_002_data import OUT, error, note, write


#: 002's ramp plateau for the hinge form run beside each diagnosis setting (KernelCCCPTSVM, linear kernel).
HINGE_S = -0.3
#: (labels, split, lam_u, s, r given) of the linear diagnosis; r given: the split's r, else the labeled rows'.
DIAGNOSIS = ((4, 0, 10.0, 0.0, True), (4, 0, 1.0, 0.0, True), (4, 0, 10.0, -0.3, True), (4, 0, 10.0, 0.0, False),
             (16, 1, 10.0, 0.0, True), (45, 0, 10.0, 0.0, True), (45, 0, 1.0, 0.0, True))


def linear_diagnosis():
    dataset = load_dataset("20ng-aut-avn-like")
    X, y = dataset.X, np.asarray(dataset.y)
    rows = []
    for n_labeled, seed, lam_u, s, given in DIAGNOSIS:
        split = make_split(dataset, seed, n_labeled)
        train = np.concatenate([split.labeled, split.unlabeled])
        y_fit = mask_labels(y[train], np.arange(n_labeled))
        r = split.r if given else None
        target = 2 * split.r - 1 if given else float(np.mean(y[split.labeled]))
        start = LinearSVM(lam=1e-3).fit(X[split.labeled], mask_labels(y[split.labeled], np.arange(n_labeled)))
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            cccp = LinearCCCPTSVM(lam=1e-3, lam_u=lam_u, r=r, s=s).fit(X[train], y_fit)
            tsvm = LinearTSVM(lam=1e-3, lam_u=lam_u, r=split.r, switches="max").fit(X[train], y_fit)
            hinge = KernelCCCPTSVM(lam=1e-3, lam_u=lam_u, r=r, s=HINGE_S, kernel="linear").fit(X[train], y_fit)
        o_start = start.decision_function(X[split.unlabeled])
        rows.append({"dataset": dataset.name, "n_labeled": n_labeled, "split": seed, "lam_u": lam_u, "s": s,
                     "r": r, "target_mean": target, "start_positive": float(np.mean(o_start > 0)),
                     "start_mean": float(o_start.mean()), "start_std": float(o_start.std()),
                     "positive": float(np.mean(cccp.decision_function(X[split.unlabeled]) > 0)),
                     "cccp_iterations": cccp.diagnostics_.cccp_iterations, "converged": cccp.diagnostics_.converged,
                     "J_ramp": cccp.diagnostics_.own_objective,
                     "J_ramp_tsvm_shifted": shifted_ramp(tsvm, X, y, split, lam_u, s, target),
                     "error": error(cccp.decision_function(X[split.unlabeled]), y[split.unlabeled]),
                     "error_tsvm": error(tsvm.decision_function(X[split.unlabeled]), y[split.unlabeled]),
                     "hinge_positive": float(np.mean(hinge.decision_function(X[split.unlabeled]) > 0)),
                     "hinge_error": error(hinge.decision_function(X[split.unlabeled]), y[split.unlabeled]),
                     "hinge_iterations": hinge.diagnostics_.cccp_iterations})
        print(rows[-1], flush=True)
    write(OUT / "linear_diagnosis.csv", rows, ("dataset", "n_labeled", "split", "lam_u", "s", "r"))
    note(None, "linear-diagnosis", {dataset.name: dataset})


def shifted_ramp(model, X, y, split, lam_u, s, target, lam=1e-3):
    """J_ramp (:func:`ssl_repro.solvers.cccp.ramp_objective`'s, the bias a regularized weight) of ``model``'s
    weights with the bias shifted so that the mean unlabeled output is ``target``."""
    w, b = model.coef_.ravel(), float(model.intercept_[0])
    b += target - float(np.mean(X[split.unlabeled] @ w + b))
    o_l, o_u = X[split.labeled] @ w + b, X[split.unlabeled] @ w + b
    hinge = lambda t: np.maximum(0.0, 1.0 - t) ** 2     # noqa: E731
    plateau = (1.0 - s) ** 2
    return float(0.5 * lam * (w @ w + b * b) + hinge(y[split.labeled] * o_l).mean() / 2 + lam_u / (2 * o_u.size)
                 * (np.minimum(hinge(o_u), plateau) + np.minimum(hinge(-o_u), plateau)).sum())
