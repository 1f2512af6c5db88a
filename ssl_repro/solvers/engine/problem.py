"""The semi-supervised problem: labeled rows, their labels, unlabeled rows.

All solvers work on one CSR matrix and two row-index arrays, so a large
matrix holding both labeled and unlabeled rows (the harness's case, and the
scikit-learn estimators' ``y == -1`` convention) is never copied.
:func:`from_blocks` builds the same thing from separate labeled and
unlabeled blocks (the plain-function interface), stacking them once.
"""
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ssl_repro.solvers.engine.biased_rows import BiasedRows
from ssl_repro.solvers.engine.data_checks import check_labels_pm1, check_matrix


@dataclass
class Problem:
    """Labeled rows ``labeled`` with labels ``y`` (+1/-1) and unlabeled rows ``unlabeled`` of ``op``."""

    op: BiasedRows
    labeled: np.ndarray
    y: np.ndarray
    unlabeled: np.ndarray

    @property
    def n_labeled(self):
        return self.labeled.shape[0]

    @property
    def n_unlabeled(self):
        return self.unlabeled.shape[0]


def from_blocks(X_labeled, y_labeled, X_unlabeled=None):
    """Problem from a labeled block, its +1/-1 labels and an optional unlabeled block."""
    X_labeled = check_matrix(X_labeled, "X_labeled")
    y = check_labels_pm1(y_labeled, X_labeled.shape[0])
    if X_unlabeled is None:
        X, u = X_labeled, 0
    else:
        X_unlabeled = check_matrix(X_unlabeled, "X_unlabeled")
        if X_unlabeled.shape[1] != X_labeled.shape[1]:
            raise ValueError(
                f"shape mismatch: X_labeled has {X_labeled.shape[1]} features but "
                f"X_unlabeled has {X_unlabeled.shape[1]}")
        X, u = sp.vstack([X_labeled, X_unlabeled], format="csr"), X_unlabeled.shape[0]
    l = X_labeled.shape[0]
    return Problem(BiasedRows(X), np.arange(l, dtype=np.int64), y,
                   np.arange(l, l + u, dtype=np.int64))


def from_mask(X, y_pm1, labeled_mask, operator=BiasedRows):
    """Problem from one matrix, labels for its labeled rows and a boolean labeled mask (no copy of X).

    ``operator`` makes the products' object from the checked CSR matrix:
    :class:`BiasedRows` here, or a distributed backend's
    (:meth:`ssl_repro.distributed.RayBackend.operator_from_matrix`).
    """
    X = check_matrix(X, "X")
    labeled = np.flatnonzero(labeled_mask).astype(np.int64)
    y = check_labels_pm1(y_pm1, labeled.shape[0])
    unlabeled = np.flatnonzero(~np.asarray(labeled_mask, dtype=bool)).astype(np.int64)
    return Problem(operator(X), labeled, y, unlabeled)


def pseudo_rows(y_labeled, u):
    """The l + 2u pseudo-rows of the losses that score every unlabeled row under both labels.

    Returns (owner, labels): pseudo-row k is training row ``owner[k]`` (the
    l labeled rows, then the u unlabeled rows twice) with label ``labels[k]``
    (the given labels, then +1 for the first copy and -1 for the second), as
    in DA's Eqn 11 and CCCP-TSVM's ramp (and 001's kernel DA).
    """
    l = len(y_labeled)
    # int32 where it fits: owner is as long as 2u + l, the largest array of DA's working set
    index = np.int32 if l + u < np.iinfo(np.int32).max else np.int64
    owner = np.concatenate([np.arange(l, dtype=index), np.arange(l, l + u, dtype=index),
                            np.arange(l, l + u, dtype=index)])
    labels = np.concatenate([np.asarray(y_labeled, dtype=np.float64), np.ones(u), -np.ones(u)])
    return owner, labels
