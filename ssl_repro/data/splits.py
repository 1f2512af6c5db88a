"""Train/test splits and nested labeled subsets, as in the papers' experiments.

Sec. 1.5 of 004: "10 random stratified splits of training (labeled and
unlabeled) and test sets", the labeled part grown along a learning curve.
A split is a function of (dataset, seed, n_labeled) only:

1. Stratified train/test: each class is shuffled with
   ``numpy.random.default_rng(seed)`` and the first ``round(n_c * f)`` rows
   of class c go to train, f being the paper's train fraction
   l+u / (l+u+t) (Table 1.1); a dataset of another size than the paper's
   keeps that fraction.  Transductive datasets have no test rows.
2. Labeled rows: the training rows are ordered once per seed (a stratified
   interleaving of the two classes' shuffled rows), and the first
   ``n_labeled`` are labeled; so smaller labeled sets are subsets of larger
   ones (nested learning curves), and both classes appear as soon as
   ``n_labeled >= 2``.
   A K-class set (``n_classes`` > 2 in its registry entry, truth 0..K-1) is split the same way over its K
   classes: each class shuffled and cut at f, the K classes interleaved in proportion with one row of
   each leading, so the labeled rows hold every class as soon as ``n_labeled >= K`` (the least accepted);
   r is then the K classes' fractions among the unlabeled rows.  The two-class case draws the same rows
   as before K classes.
3. ``n_unlabeled`` (transductive "half" settings) keeps a random subset of
   the remaining rows; by default all of them are unlabeled.

A dataset read from the reference software's pair of files (labels 0 for
unlabeled rows, truth unknown) has no test rows.  Its labeled rows are
taken from the rows the labels file labels: all of them when
``n_labeled`` is their count, else the first ``n_labeled`` of their
stratified order for ``seed`` (nested as above), the other labeled rows
joining the unlabeled ones (their truth known, so they can be scored).
The 0 rows are always unlabeled; ``n_labeled="all"`` (the own-data
datasets' default) labels exactly the rows the file labels.  r is the positive fraction of the rows
the file labels, since the truth of the 0 rows is unknown.

Everything uses stable sorts and numpy's PCG64 generator, so the same seed
gives the same split on every machine.
"""
import numbers
from dataclasses import dataclass

import numpy as np


#: ``n_labeled`` value meaning "every row the file labels" (own files with 0 = unlabeled rows).
ALL = "all"
#: The paper's "10 random stratified splits" (Sec. 1.5 of 004): the harness's ``split`` is 0..N_SPLITS-1.
N_SPLITS = 10


@dataclass(frozen=True)
class Split:
    """Row indices into ``dataset.X``: ``labeled``, ``unlabeled``, ``test``; ``r`` is the
    true positive fraction of the unlabeled rows (K classes: a tuple of the K classes' fractions)."""

    labeled: np.ndarray
    unlabeled: np.ndarray
    test: np.ndarray
    seed: int
    r: float


def train_fraction(info):
    """l+u / (l+u+t) of the paper (1 for transductive datasets)."""
    if info.transductive or not info.n_test or not info.n_train:
        return 1.0
    return info.n_train / (info.n_train + info.n_test)


def _interleave(rng, *groups):
    """Shuffle each class's rows (``groups``: +1 then -1, or the K classes in order) and interleave them in
    proportion (stratified order).

    The first row of each class leads, so any prefix of as many rows as there are classes (two, or K)
    holds every class.
    """
    groups = [rng.permutation(rows) for rows in groups]
    keys = np.concatenate([(np.arange(rows.size) + 0.5) / max(rows.size, 1) for rows in groups])
    keys[np.cumsum([0] + [rows.size for rows in groups[:-1]])] = -1.0
    rows = np.concatenate(groups)
    return rows[np.argsort(keys, kind="stable")]


def _classes(y, rows, name):
    """``rows`` split by class (+1 rows, -1 rows); both must be present."""
    pos, neg = rows[y[rows] > 0], rows[y[rows] < 0]
    if not pos.size or not neg.size:
        raise ValueError(f"{name}: a split needs labeled rows of both classes, got {pos.size} positive "
                         f"and {neg.size} negative")
    return pos, neg


def _pick(order, n_labeled, n_unlabeled, rng, name, extra=(), least=2):
    """Labeled rows: the first ``n_labeled`` (at least ``least``: one per class) of ``order``; unlabeled: the
    others and ``extra``."""
    most = order.size if len(extra) else order.size - 1    # leave one unlabeled row at least
    if not least <= n_labeled <= most:
        raise ValueError(f"n_labeled must be between {least} and {most} for {name}"
                         + (f" (one labeled row of each of its {least} classes at least)" if least > 2 else "")
                         + f", got {n_labeled}")
    rest = np.concatenate([order[n_labeled:], np.asarray(extra, dtype=order.dtype)])
    if n_unlabeled is not None:
        if not 1 <= n_unlabeled <= rest.size:
            raise ValueError(f"n_unlabeled must be between 1 and {rest.size} for {name}, got {n_unlabeled}")
        rest = rng.permutation(rest)[:n_unlabeled]
    return np.sort(order[:n_labeled]).astype(np.int64), np.sort(rest).astype(np.int64)


def _split_of_fixed_labels(dataset, seed, n_labeled, n_unlabeled):
    """The split of a dataset whose labels file marks unlabeled rows with 0 (see module doc)."""
    y = dataset.y
    rng = np.random.default_rng(seed)
    known = np.flatnonzero(y != 0)
    order = _interleave(rng, *_classes(y, known, dataset.name))
    if n_labeled == ALL:
        n_labeled = order.size
    labeled, unlabeled = _pick(order, n_labeled, n_unlabeled, rng, dataset.name, extra=np.flatnonzero(y == 0))
    return Split(labeled, unlabeled, np.zeros(0, dtype=np.int64), int(seed), float(np.mean(y[known] > 0)))


def _whole(value, name, low=None, allowed=()):
    """``value`` if it is a whole number (numpy's integers too, not bool), >= ``low`` if given, or one of
    ``allowed``, else a ValueError naming ``name``, the value and what is accepted (the ranges that
    need the data are :func:`_pick`'s)."""
    whole = isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if (isinstance(value, str) and value in allowed) or (whole and (low is None or value >= low)):
        return value
    extra = "".join(f" or {a!r}" for a in allowed)
    bound = "" if low is None else f" >= {low}"
    raise ValueError(f"make_split: {name}={value!r} is not accepted: give a whole number{bound}{extra}"
                     + (f" (an int, not {type(value).__name__})" if not isinstance(value, numbers.Number) else ""))


def make_split(dataset, seed, n_labeled, n_unlabeled=None):
    """The split ``seed`` of ``dataset`` with ``n_labeled`` labeled rows (see module doc);
    ``n_labeled="all"``: every row the file labels (a file with unlabeled rows, label 0).
    ``seed`` is a whole number >= 0 (numpy's generator takes no other), ``n_labeled`` a whole
    number or ``"all"``, ``n_unlabeled`` None or a whole number: anything else (2.5, "64", -1)
    is refused with a ValueError naming it, before any row is drawn."""
    _whole(seed, "seed", 0)
    _whole(n_labeled, "n_labeled", allowed=(ALL,))
    if n_unlabeled is not None:
        _whole(n_unlabeled, "n_unlabeled")
    y = dataset.y
    if dataset.info.n_classes == 2 and np.any(y == 0):
        return _split_of_fixed_labels(dataset, seed, n_labeled, n_unlabeled)
    if n_labeled == ALL:
        raise ValueError(f"{dataset.name}: n_labeled=all uses the rows the file labels, but all {y.size} rows hold "
                         f"one of two classes: 0 marks an unlabeled row only in a file whose labels are -1, 0 and "
                         f"+1 (labels 0/1 or 1/2 are two classes); set n_labeled to a number to hold the others' "
                         f"labels out, or label the unlabeled rows 0 beside -1/+1")
    rng = np.random.default_rng(seed)
    frac = train_fraction(dataset.info)
    K = dataset.info.n_classes
    groups = _classes(y, np.arange(y.size), dataset.name) if K == 2 else _k_classes(y, K, dataset.name)
    train_parts, test_parts = [], []
    for rows in groups:
        rows = rng.permutation(rows)
        n_train = int(round(rows.size * frac))
        train_parts.append(rows[:n_train])
        test_parts.append(rows[n_train:])
    order = _interleave(rng, *train_parts)
    labeled, unlabeled = _pick(order, n_labeled, n_unlabeled, rng, dataset.name, least=K)
    test = np.sort(np.concatenate(test_parts)).astype(np.int64)
    if K == 2:
        r = float(np.mean(y[unlabeled] > 0))
    else:
        r = tuple(float(c) for c in np.bincount(y[unlabeled], minlength=K) / unlabeled.size)
    return Split(labeled, unlabeled, test, int(seed), r)


def _k_classes(y, K, name):
    """The rows of each of the K classes of a K-class set (truth 0..K-1), in class order; each must be present."""
    rows = [np.flatnonzero(y == k) for k in range(K)]
    empty = [k for k in range(K) if not rows[k].size]
    if empty or np.any((y < 0) | (y >= K)):
        raise ValueError(f"{name}: a split of a {K}-class set needs rows of every class 0..{K - 1}; classes "
                         f"{empty} have none" if empty else f"{name}: its truth holds values outside 0..{K - 1}")
    return rows
