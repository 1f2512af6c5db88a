"""
An estimator on your own sparse matrix
======================================

The estimators take any CSR (or CSC, or dense) matrix and labels in
:mod:`sklearn.semi_supervised`'s convention: ``-1`` marks an unlabeled row.
Data labelled +1/-1 goes through :func:`~ssl_repro.estimators.mask_labels`,
which maps the labeled rows to classes 0/1 and marks the rest -1 (raw
+1/-1 labels are refused, since their -1 would read as "unlabeled").

Here: a random sparse matrix whose first feature carries the class, 20
labeled rows and 1,980 unlabeled ones; the multi-switch TSVM (000 Table 4)
labels the unlabeled rows (``transduction_``) under the balance constraint
r, the positive fraction of the unlabeled rows.
"""

import matplotlib.pyplot as plt
import numpy as np
import scipy.sparse as sp

from ssl_repro.estimators import LinearSVM, LinearTSVM, mask_labels

rng = np.random.default_rng(0)
n, d = 2000, 500
y_pm1 = np.where(rng.random(n) < 0.4, 1, -1)
X = sp.random(n, d, density=0.02, random_state=rng, format="csr")
X = (X + sp.csr_matrix(np.outer(0.3 * y_pm1, np.r_[1.0, np.zeros(d - 1)]))).tocsr()

labeled = np.r_[np.flatnonzero(y_pm1 > 0)[:10], np.flatnonzero(y_pm1 < 0)[:10]]
y_fit = mask_labels(y_pm1, labeled)               # 1 / 0 on the labeled rows, -1 elsewhere
unlabeled = y_fit == -1
r = float(np.mean(y_pm1[unlabeled] > 0))

svm = LinearSVM(lam=1e-3).fit(X, y_fit)
tsvm = LinearTSVM(lam=1e-3, lam_u=1.0, r=r, switches="max").fit(X, y_fit)

truth = (y_pm1 > 0).astype(int)
for name, est in [("SVM (labeled rows only)", svm), ("TSVM S=max", tsvm)]:
    error = np.mean(est.predict(X[unlabeled]) != truth[unlabeled])
    print(f"{name:24s} error on the unlabeled rows {error:.3f}  n_iter_={est.n_iter_}  "
          f"J (Eqn 18) {est.diagnostics_.objective:.4f}")
print(f"TSVM's positive fraction {tsvm.diagnostics_.positive_fraction:.3f} (r = {r:.3f})")

# %%
# The outputs on the unlabeled rows: TSVM pushes them out of the margin
# [-1, 1], which is what the unlabeled loss of Eqn 7 rewards.
fig, ax = plt.subplots(figsize=(6, 3.5))
bins = np.linspace(-3, 3, 61)
ax.hist(svm.decision_function(X[unlabeled]), bins=bins, alpha=0.6, label="SVM")
ax.hist(tsvm.decision_function(X[unlabeled]), bins=bins, alpha=0.6, label="TSVM S=max")
ax.axvspan(-1, 1, color="grey", alpha=0.15)
ax.set_xlabel("w.x + b on the unlabeled rows")
ax.set_ylabel("rows")
ax.legend()
fig.tight_layout()
