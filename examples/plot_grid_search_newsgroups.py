"""
Tuning lambda and lambda' with GridSearchCV on partially labeled text
=====================================================================

scikit-learn's ``score`` and ``scoring="accuracy"`` count a row marked ``-1`` (unlabeled) as an error,
and a plain ``KFold`` puts unlabeled rows in the held-out folds, where there is nothing to score, and
takes them from the training folds, where a semi-supervised method reads them.  Model selection on
partially labeled y takes :data:`~ssl_repro.estimators.labeled_accuracy` (the accuracy over the
held-out rows whose label is known) and :class:`~ssl_repro.estimators.LabeledKFold` (folds of the
labeled rows, every unlabeled row in every training fold).

Here: a scikit-learn pipeline, ``TfidfVectorizer`` then the multi-switch TSVM
(:class:`~ssl_repro.estimators.LinearTSVM`, 000 Table 4; :class:`~ssl_repro.estimators.LinearDA` is tuned
the same way), on 500 training documents of two groups of 20 Newsgroups (the papers' "mac or windows"
task, pcmac), 40 of them labeled; lambda and lambda' are chosen over a small grid (three folds of the
labeled documents), then the chosen model is scored on the test documents; a choice on the grid's edge
says the grid should go further that way.
The documents are read from ``SSL_REPRO_DATA`` (``20newsgroups/20news-bydate_py3.pkz``, the file
scikit-learn's ``fetch_20newsgroups`` keeps), else from the default data root, where
``fetch_20newsgroups`` downloads them once; offline and without that file, the example stops with one
line naming it.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import fetch_20newsgroups
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline

from ssl_repro.data.cache import data_root, folders_kept_only_on_success
from ssl_repro.data.text import newsgroups_cache
from ssl_repro.estimators import LabeledKFold, LinearTSVM, labeled_accuracy

corpus = newsgroups_cache(data_root())
groups = ["comp.os.ms-windows.misc", "comp.sys.mac.hardware"]
try:      # offline without the corpus: one line naming the file, and no empty folder left behind
    with folders_kept_only_on_success(corpus.parent), warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Retry downloading")   # scikit-learn's note between two attempts
        train, test = (fetch_20newsgroups(data_home=str(corpus.parent), subset=subset, categories=groups,
                                          remove=("footers",)) for subset in ("train", "test"))
except OSError as exc:
    raise SystemExit(f"Error: 20 Newsgroups is not at {corpus} and could not be downloaded ({exc}): put "
                     "scikit-learn's 20news-bydate_py3.pkz there, or set SSL_REPRO_DATA to a folder holding "
                     "20newsgroups/20news-bydate_py3.pkz") from None

rng = np.random.default_rng(0)
rows = rng.choice(len(train.target), 500, replace=False)     # 500 of the training documents, 40 labeled
documents = [train.data[i] for i in rows]
y_fit = np.full(rows.size, -1)                                # -1: unlabeled
y_fit[:40] = train.target[rows[:40]]
print(f"{len(documents)} training documents, {np.sum(y_fit != -1)} labeled; {len(test.data)} test documents")

pipeline = make_pipeline(TfidfVectorizer(sublinear_tf=True, min_df=2, stop_words="english"),
                         LinearTSVM(switches="max"))
grid = {"lineartsvm__lam": [1e-4, 1e-3, 1e-2], "lineartsvm__lam_u": [0.1, 1.0]}
search = GridSearchCV(pipeline, grid, scoring=labeled_accuracy, cv=LabeledKFold(3, shuffle=True, random_state=0))
search.fit(documents, y_fit)
chosen = search.best_params_
print(f"chosen: lambda = {chosen['lineartsvm__lam']:g}, lambda' = {chosen['lineartsvm__lam_u']:g} "
      f"(mean held-out labeled accuracy {search.best_score_:.3f})")
print(f"test accuracy of the chosen model: {search.score(test.data, test.target):.3f}")

# %%
# The mean held-out accuracy of every (lambda, lambda') on the grid.
scores = search.cv_results_["mean_test_score"].reshape(len(grid["lineartsvm__lam"]), len(grid["lineartsvm__lam_u"]))
fig, ax = plt.subplots(figsize=(5, 3.5))
for j, lam_u in enumerate(grid["lineartsvm__lam_u"]):
    ax.plot(grid["lineartsvm__lam"], scores[:, j], marker="o", label=f"lambda' = {lam_u:g}")
ax.set_xscale("log")
ax.set_xlabel("lambda")
ax.set_ylabel("held-out labeled accuracy")
ax.legend()
fig.tight_layout()
