"""The benchmark matrix ``text20k`` and larger matrices of its model (``benchmarks/make_text_bench.py``).

A bag-of-words model with cluster structure, the kind of data the papers
time (000 Table 8, 004 Table 1.1: sparse TF-IDF text): a vocabulary of
``n`` words with a Zipfian background; each class has a class topic and
``clusters_per_class`` cluster topics (random word subsets with Zipf-like
weights), so each class is a union of clusters and the cluster assumption
holds.  A document draws its class (+1 with probability ``pos_frac``), a
cluster of that class and a length ~ Poisson(``tokens_mean``) (at least
5), then each token from the background, its class topic or its cluster
topic with probabilities ``mix``.  Features are log(1 + tf) * idf, rows
scaled to unit L2 norm, no bias column; ``n_labeled`` random rows
(both classes present) are labeled.

With the defaults it writes ``text20k``: 20,000 rows x 20,000 features,
1,032,620 nonzeros, 100 labeled rows, ``r_true`` = 0.39482: the matrix
of the speed records in ``results/benchmarks/``, with the same column ids,
row pointers, labels and labeled rows, and the same values rounded to
float32 (``tests/data/test_benchfile.py`` checks their digests).  The float64
values are the same to the bit on every processor (:mod:`ssl_repro.utils.tf_idf`:
correctly rounded logarithms, each row's squares added in order); the records'
file, written with numpy's logarithms before 2026-12-07, differs from them in the
last bits of many of its values (a few units in the last place), so figures
that depend on every bit (weight digests) compare only runs on one file.  Deterministic for a seed; the full-ccat-size matrix of
the records is ``m=804414, n=47236, tokens_mean=95, n_labeled=1000,
pos_frac=0.47``.
"""
from dataclasses import asdict, dataclass

import numpy as np

from ssl_repro.utils.tf_idf import tf_idf_rows


@dataclass(frozen=True)
class TextBenchModel:
    """Parameters of the generative model (the defaults make text20k)."""
    m: int = 20000
    n: int = 20000
    tokens_mean: float = 62.0
    n_labeled: int = 100
    pos_frac: float = 0.4
    clusters_per_class: int = 3
    class_topic_size: int = 300
    cluster_topic_size: int = 300
    mix: tuple = (0.90, 0.03, 0.07)
    zipf_bg: float = 1.0
    zipf_topic: float = 0.7
    seed: int = 12345

    def as_dict(self):
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}


def _zipf(k, exponent):
    w = 1.0 / np.arange(1, k + 1) ** exponent
    return w / w.sum()


def _topic(rng, model, size):
    """(words, weights) of one topic: ``size`` distinct words with Zipf-like weights."""
    words = rng.choice(model.n, size=size, replace=False)
    return words, _zipf(size, model.zipf_topic)


def make_text_bench(model=TextBenchModel()):
    """(X CSR float64, y_true int8 +1/-1, labeled bool mask) of ``model``."""
    rng = np.random.default_rng(model.seed)
    m, n = model.m, model.n
    mix = np.asarray(model.mix, dtype=float)
    mix = mix / mix.sum()
    p_background = np.empty(n)
    p_background[rng.permutation(n)] = _zipf(n, model.zipf_bg)
    class_topics = [_topic(rng, model, model.class_topic_size) for _ in range(2)]
    cluster_topics = [[_topic(rng, model, model.cluster_topic_size) for _ in range(model.clusters_per_class)]
                      for _ in range(2)]

    y = np.where(rng.random(m) < model.pos_frac, 1, -1).astype(np.int8)
    cls = (y > 0).astype(np.int64)
    cluster = rng.integers(0, model.clusters_per_class, size=m)
    lengths = np.maximum(rng.poisson(model.tokens_mean, size=m), 5)
    doc = np.repeat(np.arange(m), lengths)
    source = rng.choice(3, size=doc.size, p=mix)
    word = np.empty(doc.size, dtype=np.int64)
    background = source == 0
    word[background] = rng.choice(n, size=int(background.sum()), p=p_background)
    for c in range(2):
        _draw(rng, word, (source == 1) & (cls[doc] == c), class_topics[c])
    for c in range(2):
        for k in range(model.clusters_per_class):
            _draw(rng, word, (source == 2) & (cls[doc] == c) & (cluster[doc] == k), cluster_topics[c][k])
    X = tf_idf_rows(doc, word, m, n)

    while True:   # a random labeled subset holding both classes
        rows = np.sort(rng.choice(m, size=model.n_labeled, replace=False))
        if np.unique(y[rows]).size == 2:
            break
    labeled = np.zeros(m, dtype=bool)
    labeled[rows] = True
    return X, y, labeled


def _draw(rng, word, tokens, topic):
    """Fill ``word[tokens]`` with words of ``topic`` drawn by its weights."""
    words, weights = topic
    word[tokens] = words[rng.choice(len(words), size=int(tokens.sum()), p=weights)]
