"""
TSVM, DA and SVM on a learning curve
====================================

The papers' learning curves (000 Figs 5-10, 004 Figs 1.4-1.5) plot the test
error of each method against the number of labeled rows. Here: the embedded
``text-like`` set, split 0 of the harness's splits
(:func:`ssl_repro.data.make_split`, nested labeled subsets), 1,000 of the
unlabeled rows, lambda and lambda' from the dataset's registry entry, and r
the true positive fraction of the unlabeled rows, as in the paper. The
harness runs the same thing over 10 splits with
``python run.py +experiment=learning_curve dataset=text-like``.
A fit that stops on an iteration cap is reported from its diagnostics (as the
harness records ``converged`` and ``stop_reason``) instead of by a warning.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ssl_repro.data import load_dataset, make_split
from ssl_repro.estimators import LinearDA, LinearSVM, LinearTSVM

data = load_dataset("text-like")
lam, lam_u = data.info.lam, data.info.lam_u
label_counts = data.info.label_grid[:3]

errors = {"SVM": [], "TSVM S=max": [], "DA": []}
capped = []
for n_labeled in label_counts:
    split = make_split(data, 0, n_labeled, n_unlabeled=1000)
    rows = np.r_[split.labeled, split.unlabeled]
    y_fit = data.fit_labels(split.labeled)[rows]
    r = split.r
    truth = (data.y[split.test] > 0).astype(int)
    for name, est in [("SVM", LinearSVM(lam=lam)),
                      ("TSVM S=max", LinearTSVM(lam=lam, lam_u=lam_u, r=r, switches="max")),
                      ("DA", LinearDA(lam=lam, lam_u=lam_u, r=r))]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)   # reported below from the diagnostics
            est.fit(data.X[rows], y_fit)
        if not est.diagnostics_.converged:
            capped.append(f"{name} at l = {n_labeled}: stopped on {est.diagnostics_.stop_reason} "
                          f"(caps {est.diagnostics_.capped})")
        errors[name].append(float(np.mean(est.predict(data.X[split.test]) != truth)))
    print(f"l = {n_labeled:3d}: " + ", ".join(f"{name} {errs[-1]:.3f}" for name, errs in errors.items()))
print("not converged:", "; ".join(capped) if capped else "none")

# %%
fig, ax = plt.subplots(figsize=(6, 3.5))
for (name, errs), marker in zip(errors.items(), "osD"):
    ax.plot(label_counts, errs, marker=marker, label=name)
ax.set_xscale("log", base=2)
ax.set_xlabel("labeled rows")
ax.set_ylabel("test error")
ax.set_title("text-like, split 0")
ax.legend()
fig.tight_layout()
