"""
Ten classes: one-vs-rest with each class's balance
===================================================

Every estimator takes K >= 3 classes (``-1`` still marks an unlabeled row).  As 002
does for uspst and MNIST, it trains one binary problem per class, class k against the
rest, with the balance constraint r of that problem set to class k's fraction (here
estimated from the labeled rows, ``r=None``; an array or a mapping per class also works);
``decision_function`` has one column per class and ``predict`` takes the largest.

Here: scikit-learn's digits (1,797 rows, 8x8 pixels, 10 classes, the analog of 002's
uspst), 100 rows labeled; the SVM on the labeled rows beside the multi-switch TSVM
(000 Table 4) on all of them.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_digits
from sklearn.metrics import confusion_matrix

from ssl_repro.estimators import LinearSVM, LinearTSVM

X, y = load_digits(return_X_y=True)
X = X / 16.0
rng = np.random.default_rng(0)
labeled = rng.choice(y.size, 100, replace=False)
y_fit = np.full(y.size, -1)                   # -1: unlabeled
y_fit[labeled] = y[labeled]
unlabeled = y_fit == -1

svm = LinearSVM(lam=1e-3).fit(X, y_fit)
tsvm = LinearTSVM(lam=1e-3, lam_u=1.0, switches="max").fit(X, y_fit)
print("classes_", tsvm.classes_, " decision_function", tsvm.decision_function(X).shape)
print("r per class (the labeled rows' shares):", [round(e.r, 2) for e in tsvm.estimators_])
for name, est in [("SVM (labeled rows only)", svm), ("TSVM one-vs-rest", tsvm)]:
    error = np.mean(est.predict(X[unlabeled]) != y[unlabeled])
    print(f"{name:24s} error on the 1,697 unlabeled rows {error:.3f}")

# %%
# Where the TSVM's labels of the unlabeled rows (``transduction_``) go wrong.
fig, ax = plt.subplots(figsize=(5, 4.5))
matrix = confusion_matrix(y[unlabeled], tsvm.transduction_[unlabeled])
ax.imshow(matrix, cmap="Blues")
for (i, j), count in np.ndenumerate(matrix):
    if count:
        ax.text(j, i, count, ha="center", va="center", fontsize=7, color="white" if count > 100 else "black")
ax.set_xticks(range(10))
ax.set_yticks(range(10))
ax.set_xlabel("TSVM's label")
ax.set_ylabel("true digit")
fig.tight_layout()
