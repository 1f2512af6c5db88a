"""Our semi-supervised linear SVMs beside scikit-learn's own semi-supervised examples, on their data and protocol.

    python experiments/sklearn_examples.py [--examples newsgroups digits] [--draws 10] [--out results/sklearn_examples]

Two examples of scikit-learn's gallery (``examples/semi_supervised/``), their protocol as their pages state it
(read from the pages, not copied: every step below is composed here from scikit-learn's public estimators):

- **newsgroups**, "Semi-supervised Classification on a Text Dataset" (``plot_semi_supervised_newsgroups.py``):
  the training part of 20 Newsgroups (bydate) in its five categories (:data:`CATEGORIES`), the messages
  whole (headers, footers and quotes kept), in ``fetch_20newsgroups``' default order; each draw splits them
  into training and test rows (``train_test_split``'s default: a quarter for test), labels a random 20% of
  the training rows and scores the micro-averaged F1 on the test rows.  Features: counts of words and word
  pairs (:data:`VECTORIZER`), then TF-IDF, fitted on the rows a method trains on (every training row for
  the semi-supervised methods, the labeled ones for the supervised pipeline).  Its methods: an
  ``SGDClassifier`` (:data:`SGD`) on the labeled rows, ``SelfTrainingClassifier`` around it,
  ``LabelSpreading`` (its defaults) on the dense rows; and its ceiling, the SGD with every training row
  labeled (not a competitor: it sees all the labels).
- **digits**, "Label Propagation digits: Demonstrating performance" (``plot_label_propagation_digits.py``):
  scikit-learn's digits, 340 rows drawn at random, the first 40 of them labeled; ``LabelSpreading(gamma=0.25,
  max_iter=20)`` on the pixels as loaded (0..16); scored on the 300 unlabeled rows (transduction).  The
  example runs label spreading alone: the text example's SGD pipeline and self-training join it on the same
  rows, so that both tables have the same three scikit-learn methods.

Ours on the same rows and features (the text example's TF-IDF rows; the digits' pixels scaled to [0, 1], as
:func:`ssl_repro.data.multiclass.load_digits_k` loads them), each K-class: TSVM (S = max switches), DA one-vs-rest
and Potts (:class:`~ssl_repro.estimators.LinearDA`) and CCCP-TSVM (:class:`~ssl_repro.estimators.LinearCCCPTSVM`),
at the papers' lambda = 0.001, lambda' = 1, r the labeled rows' class shares.  Draw d seeds every random step
with d (the examples fix one draw: the text one unseeded, the digits one at 2).

Writes ``OUT/<example>.json`` per example run, anew after each draw (a rerun replaces it; a run cut short
leaves the draws it finished, ``settings``' ``draws`` of ``draws_asked``): ``provenance``, ``data_keys``
(``20ng-sklearn-5``: the example's word counts of all its rows, :func:`keyed_rows`; ``digits``),
``settings`` and ``rows`` (example, draw, method, micro-F1 and error = 1 - micro-F1 on the scored rows, CPU
seconds of the fit).  The "Beyond the papers" page renders them with paired tests against the best
scikit-learn method (:mod:`ssl_repro.report.sections.beyond_multiclass`).
"""
import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ssl_repro.data.cache import data_root  # noqa: E402
from ssl_repro.data.keys import data_keys  # noqa: E402
from ssl_repro.utils.provenance import provenance  # noqa: E402

from potts_vs_ovr import write_records  # noqa: E402

OUT = ROOT / "results" / "sklearn_examples"
#: The text example's five categories.
CATEGORIES = ("alt.atheism", "comp.graphics", "comp.os.ms-windows.misc", "comp.sys.ibm.pc.hardware",
              "comp.sys.mac.hardware")
#: The text example's word counts and its SGD classifier.
VECTORIZER = dict(ngram_range=(1, 2), min_df=5, max_df=0.8)
SGD = dict(alpha=1e-5, penalty="l2", loss="log_loss")
#: The text example's labeled share of the training rows; the digits example's rows and labeled rows.
LABELED_SHARE, DIGITS_ROWS, DIGITS_LABELED = 0.2, 340, 40
#: The digits example's label spreading.
DIGITS_SPREADING = dict(gamma=0.25, max_iter=20)
LAM, LAM_U = 1e-3, 1.0
#: Record names: scikit-learn's methods (the first two compete; the ceiling does not) and ours.
SKLEARN = ("sgd_supervised", "self_training_sgd", "label_spreading")
CEILING = "sgd_all_labels"
OURS = ("tsvm", "da_ovr", "da_potts", "cccp_tsvm")


def load_newsgroups():
    """(messages, class numbers) of the text example: bydate's training part in :data:`CATEGORIES`, from the
    20 Newsgroups cache the project's tasks read (:func:`ssl_repro.data.text.newsgroups_cache`)."""
    from sklearn.datasets import fetch_20newsgroups
    from ssl_repro.data.cache import missing
    from ssl_repro.data.text import NEWSGROUPS_URL, newsgroups_cache
    pkz = newsgroups_cache(data_root())
    if not pkz.exists():
        raise missing("20ng-sklearn-5", pkz, NEWSGROUPS_URL)
    bunch = fetch_20newsgroups(data_home=str(pkz.parent), subset="train", categories=list(CATEGORIES),
                               download_if_missing=False)
    return list(bunch.data), np.asarray(bunch.target, dtype=np.int64)


def keyed_rows():
    """The (X, y) ``20ng-sklearn-5``'s key is of: the example's word counts (:data:`VECTORIZER`) of all its
    messages, and their classes (what a change of the data or of the settings changes)."""
    from sklearn.feature_extraction.text import CountVectorizer
    texts, y = load_newsgroups()
    return CountVectorizer(**VECTORIZER).fit_transform(texts).astype(np.float64), y


def ours():
    """{record name: a fresh estimator} of our methods (module doc)."""
    from ssl_repro.estimators import LinearCCCPTSVM, LinearDA, LinearTSVM
    return {"tsvm": LinearTSVM(lam=LAM, lam_u=LAM_U, switches="max"),
            "da_ovr": LinearDA(lam=LAM, lam_u=LAM_U, multiclass="ovr"),
            "da_potts": LinearDA(lam=LAM, lam_u=LAM_U, multiclass="potts"),
            "cccp_tsvm": LinearCCCPTSVM(lam=LAM, lam_u=LAM_U)}


def timed_fit(model, X, y):
    """``model`` fitted on (X, y) and the CPU seconds of the fit (the process's, every thread)."""
    start = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")         # capped solves and scikit-learn's convergence notes
        model.fit(X, y)
    return model, time.process_time() - start


def score(method, predicted, truth, seconds):
    from sklearn.metrics import f1_score
    f1 = float(f1_score(truth, predicted, average="micro"))
    return {"method": method, "micro_f1": f1, "error": 1.0 - f1, "cpu_seconds": seconds}


def newsgroups_draw(texts, y, draw):
    """[row] of every method on draw ``draw`` of the text example (module doc)."""
    from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer
    from sklearn.linear_model import SGDClassifier
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.semi_supervised import LabelSpreading, SelfTrainingClassifier
    rows = np.arange(y.size)
    train, test = train_test_split(rows, random_state=draw)
    labeled = np.random.RandomState(draw).rand(train.size) < LABELED_SHARE
    texts = np.asarray(texts, dtype=object)
    found = []

    def features():
        return make_pipeline(CountVectorizer(**VECTORIZER), TfidfTransformer())
    for method, fit_rows in ((CEILING, train), ("sgd_supervised", train[labeled])):
        model, seconds = timed_fit(make_pipeline(features(), SGDClassifier(random_state=draw, **SGD)),
                                   texts[fit_rows], y[fit_rows])
        found.append(score(method, model.predict(texts[test]), y[test], seconds))
    tf = features().fit(texts[train])
    X_train, X_test = tf.transform(texts[train]), tf.transform(texts[test])
    y_train = np.where(labeled, y[train], -1)
    for method, model in (("self_training_sgd", SelfTrainingClassifier(SGDClassifier(random_state=draw, **SGD))),
                          ("label_spreading", LabelSpreading()), *ours().items()):
        dense = method == "label_spreading"         # scikit-learn's label spreading takes dense rows
        model, seconds = timed_fit(model, X_train.toarray() if dense else X_train, y_train)
        found.append(score(method, model.predict(X_test.toarray() if dense else X_test), y[test], seconds))
    return found


def digits_draw(X, y, draw):
    """[row] of every method on draw ``draw`` of the digits example (module doc); ``X`` in [0, 1]."""
    from sklearn.linear_model import SGDClassifier
    from sklearn.semi_supervised import LabelSpreading, SelfTrainingClassifier
    order = np.random.RandomState(draw).permutation(y.size)[:DIGITS_ROWS]
    X, truth = X[order], y[order]
    y_fit = truth.copy()
    y_fit[DIGITS_LABELED:] = -1
    unlabeled = slice(DIGITS_LABELED, None)
    found = []
    model, seconds = timed_fit(SGDClassifier(random_state=draw, **SGD), X[:DIGITS_LABELED], truth[:DIGITS_LABELED])
    found.append(score("sgd_supervised", model.predict(X[unlabeled]), truth[unlabeled], seconds))
    for method, model, rows in (("self_training_sgd", SelfTrainingClassifier(SGDClassifier(random_state=draw, **SGD)), X),
                                ("label_spreading", LabelSpreading(**DIGITS_SPREADING), 16.0 * X.toarray()),
                                *((m, e, X) for m, e in ours().items())):
        model, seconds = timed_fit(model, rows, y_fit)
        found.append(score(method, model.transduction_[unlabeled], truth[unlabeled], seconds))
    return found


def run(example, draws):
    """The record of ``example`` over ``draws`` draws (module doc), yielded after each draw (the draws so far)."""
    from ssl_repro.data.multiclass import load_digits_k
    if example == "newsgroups":
        texts, y = load_newsgroups()
        used, draw_rows = {"20ng-sklearn-5": keyed_rows()}, lambda d: newsgroups_draw(texts, y, d)
        settings = {"categories": list(CATEGORIES), "documents": len(texts), "vectorizer": VECTORIZER, "sgd": SGD,
                    "labeled_share": LABELED_SHARE, "test_share": 0.25, "scored": "test rows"}
    else:
        X, y = load_digits_k()
        used, draw_rows = {"digits": (X, y)}, lambda d: digits_draw(X, y, d)
        settings = {"rows": DIGITS_ROWS, "labeled": DIGITS_LABELED, "label_spreading": DIGITS_SPREADING, "sgd": SGD,
                    "scored": "unlabeled rows"}
    rows, keys = [], data_keys(used)
    for draw in range(draws):
        for row in draw_rows(draw):
            rows.append({"example": example, "draw": draw, **row})
            print(f"  {example} draw {draw} {row['method']:18s} micro-F1 {row['micro_f1']:.4f} "
                  f"{row['cpu_seconds']:.1f} CPU s", flush=True)
        yield {"provenance": provenance(), "data_keys": keys,
               "settings": {**settings, "draws": draw + 1, "draws_asked": draws, "lam": LAM, "lam_u": LAM_U},
               "rows": rows}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", nargs="+", default=["newsgroups", "digits"], choices=["newsgroups", "digits"])
    ap.add_argument("--draws", type=int, default=10)
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args(argv)
    write_records(args.out, args.examples, lambda example: run(example, args.draws))
    return 0


if __name__ == "__main__":
    sys.exit(main())
