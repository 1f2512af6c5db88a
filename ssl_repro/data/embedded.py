"""Datasets the package generates itself (no download).

- ``text-like`` (the default dataset): a bag-of-words corpus whose two
  classes are each a union of three topic clusters, so the cluster
  assumption holds; TF-IDF rows with unit L2 norm, like the paper's text
  data (Table 8 of 000).
- ``g50c``: two 50-dimensional Gaussians whose means are placed so that the
  Bayes error is 5% (002, Sec. 5: "g50c").
- ``2moons`` and ``2circles``: the two-dimensional toy problems of 001
  (Fig. 4), 200 points each.  001's Table 2 counts a run as a success when
  it labels *every* unlabeled point right, which presumes clusters that do
  not touch; the noise is set so that they do not (the closest pair of
  points of different classes is farther apart than the longest edge
  needed to connect each class: 0.29 vs 0.17 for 2moons, 0.32 vs 0.24 for
  2circles; with noise 0.1 the moons touch, 0.14 vs 0.30).

Each generator is deterministic for its seed and returns (X, y) with X
dense or sparse and y in {+1, -1}.
"""
import numpy as np
from scipy.stats import norm

from ssl_repro.utils.tf_idf import tf_idf_rows


def text_like(n_rows=4000, n_features=2000, pos_frac=0.4, clusters=3, doc_len=60,
              topic_size=80, topic_mix=0.12, seed=0):
    """Sparse TF-IDF documents from a Zipfian background plus class-cluster topics.

    A document picks a class (+1 with probability ``pos_frac``), one of its
    class's ``clusters`` topics, a length ~ Poisson(doc_len), and draws each
    token from its topic with probability ``topic_mix``, else from the
    background.  Features: log(1 + tf) * idf, rows scaled to unit norm, the same to the bit on every
    processor (:func:`ssl_repro.utils.tf_idf.tf_idf_rows`).
    """
    rng = np.random.default_rng(seed)
    background = 1.0 / np.arange(1, n_features + 1)
    background = rng.permutation(background / background.sum())
    topics = [rng.choice(n_features, size=topic_size, replace=False) for _ in range(2 * clusters)]
    y = np.where(rng.random(n_rows) < pos_frac, 1, -1).astype(np.int8)
    topic_of_doc = (y > 0) * clusters + rng.integers(0, clusters, size=n_rows)
    lengths = np.maximum(rng.poisson(doc_len, size=n_rows), 5)
    doc = np.repeat(np.arange(n_rows), lengths)
    from_topic = rng.random(doc.size) < topic_mix
    words = rng.choice(n_features, size=doc.size, p=background)
    topic_words = np.stack(topics)[topic_of_doc[doc], rng.integers(0, topic_size, size=doc.size)]
    words = np.where(from_topic, topic_words, words)
    return tf_idf_rows(doc, words, n_rows, n_features), y


def g50c(n_rows=550, n_features=50, bayes_error=0.05, seed=0):
    """Two unit-covariance Gaussians in 50-D with Bayes error ``bayes_error``.

    With means +-mu along a direction, the Bayes error is Phi(-|mu|), so
    |mu| = Phi^-1(1 - bayes_error) (002 describes g50c this way).
    """
    rng = np.random.default_rng(seed)
    y = np.where(rng.random(n_rows) < 0.5, 1, -1).astype(np.int8)
    direction = np.ones(n_features) / np.sqrt(n_features)
    mean = norm.ppf(1.0 - bayes_error) * direction
    X = rng.normal(size=(n_rows, n_features)) + y[:, None] * mean
    return X, y


def two_moons(n_rows=200, noise=0.05, seed=0):
    """Two interleaved half circles (001, Fig. 4), radius 1, 0.5 apart; Gaussian noise ``noise``."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n_rows) % 2 == 0, 1, -1).astype(np.int8)
    t = rng.uniform(0, np.pi, size=n_rows)
    X = np.where(y[:, None] > 0,
                 np.c_[np.cos(t), np.sin(t)],
                 np.c_[1.0 - np.cos(t), 0.5 - np.sin(t)])
    return X + rng.normal(scale=noise, size=X.shape), y


def two_circles(n_rows=200, noise=0.05, radii=(1.0, 0.5), seed=0):
    """Two concentric circles (001); the inner circle is the +1 class."""
    rng = np.random.default_rng(seed)
    y = np.where(np.arange(n_rows) % 2 == 0, 1, -1).astype(np.int8)
    t = rng.uniform(0, 2 * np.pi, size=n_rows)
    radius = np.where(y > 0, radii[1], radii[0])
    X = radius[:, None] * np.c_[np.cos(t), np.sin(t)]
    return X + rng.normal(scale=noise, size=X.shape), y


def flip_balanced(y, fraction, seed=0):
    """``y`` with the labels of ``fraction * n / 2`` rows of each class flipped (rounded).

    As many +1 rows become -1 as -1 rows become +1, so the positive fraction
    r is unchanged, and a classifier that is right on every unflipped row
    errs on exactly the ``fraction`` of flipped rows (the error floor).
    """
    y = np.asarray(y)
    k = int(round(fraction * y.size / 2))
    pos, neg = np.flatnonzero(y > 0), np.flatnonzero(y < 0)
    if not 0 <= fraction or k > min(pos.size, neg.size):
        raise ValueError(f"label_noise={fraction} must be in [0, 2 min(r, 1 - r)] = "
                         f"[0, {2 * min(pos.size, neg.size) / y.size:.3f}] for this class ratio")
    rng = np.random.default_rng(seed)
    flipped = y.copy()
    flipped[rng.choice(pos, size=k, replace=False)] = -1
    flipped[rng.choice(neg, size=k, replace=False)] = 1
    return flipped


def standin(parameters):
    """(X, y) of a SYNTHETIC stand-in: :func:`text_like` with ``parameters`` less ``label_noise``, then
    :func:`flip_balanced` by ``label_noise`` (same seed).  The parameters of each stand-in
    (:func:`ssl_repro.data.registry.standin_parameters`) are the shape and class ratio of the set it
    stands for, at a calibrated difficulty.

    Difficulty.  Text-like clusters alone are nearly separable (TSVM S=max
    errs on 0.1% of synthetic-ccat), far from the error rates of the real
    sets (000 Table 9: 5.75% on aut-avn ... 21.36% on 33-vs-36).  Real text
    collections owe much of that error to documents whose words belong to the
    other class's topics (cross-posted, ambiguous or mislabeled documents);
    the stand-ins model it with ``label_noise``: a fraction of documents, as
    many of each class (r unchanged, :func:`flip_balanced`), is labeled as the
    other class.  The topic clusters, which the cluster assumption of TSVM
    and DA rests on, stay as they are, so unlabeled rows still help and the
    error floor of any linear classifier rises by about the flipped fraction.
    ``topic_mix`` (the share of a document's tokens drawn from its topic)
    sets how separable the clusters are: 0.12 for the sets of ~50-77
    nonzeros per row; 0.25 for 33-vs-36, whose ~27 nonzeros per row at 0.12
    leave TSVM at chance (47% error) before any noise.

    ``label_noise`` was calibrated (``experiments/calibrate_standins.py``,
    record ``results/calibration/calibration.json``) so that TSVM S=max's
    transductive error on split 0 at the lowest label count is within 2
    points of 000 Table 9's S=max error for the set.  Near 33-vs-36's target
    the error depends on which of the 52 labeled rows are flipped (a noise of
    0.213 flips other rows and gives 40.5% instead of 21.2%): its other
    splits may fall either way.  The full-size stand-ins (full-ccat,
    full-gcat) keep the uncalibrated (0.12, 0) of their records: Table 9 has
    no figure for them.
    """
    parameters = dict(parameters)
    noise = parameters.pop("label_noise")
    X, y = text_like(**parameters)
    return X, (flip_balanced(y, noise, parameters["seed"]) if noise else y)


GENERATORS = {"text-like": text_like, "g50c": g50c, "2moons": two_moons, "2circles": two_circles}
