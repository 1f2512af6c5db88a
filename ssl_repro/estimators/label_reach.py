"""The rows scikit-learn's label spreading leaves without a label, and why (:class:`~ssl_repro.estimators.baselines.LabelSpreadingKNN`).

What scikit-learn does (read in ``sklearn/semi_supervised/_label_propagation.py``, version 1.9):

- ``fit`` starts the label distributions F at one-hot on the labeled rows and zero elsewhere, and
  repeats F <- alpha S F + (1 - alpha) Y with S = D^-1/2 A D^-1/2 (``_build_graph``: A the kNN
  connectivity graph, each row's ``n_neighbors`` nearest rows itself included, self-loops dropped from
  S) until the summed change |F - F_previous| falls below ``tol`` (1e-3) or ``max_iter`` is reached.
  One product S F moves a row's label mass to the rows that have it among their neighbours, so after
  ``n_iter_`` products a row holds label mass if and only if a labeled row is at most ``n_iter_``
  edges of A away from it (followed from the row to its neighbours).  Every other row keeps an all-zero
  distribution: the final normalization sets a zero normalizer to 1, the row stays zero, and
  ``transduction_ = classes_[argmax(0, 0)]`` gives it ``classes_[0]`` without a word.
- ``predict_proba(X)`` sums the distributions of each row's ``n_neighbors`` nearest training rows and
  divides by the sum: 0 / 0 = NaN where all of them hold no mass, numpy's ``RuntimeWarning: invalid value
  encountered in divide`` (``probabilities /= normalizer``); ``predict`` then takes ``argmax`` of the NaN
  row, again ``classes_[0]``, and the harness, reading an output NaN - 1/2 as not positive, scored the row
  as the negative class.

So a row ends with no label for one of two reasons, told apart here by the graph's hop distances
(:class:`ReachSpreading`): no path to any labeled row at all (a kNN component without one; the
spreading's fixed point (1 - alpha)(I - alpha S)^-1 Y is zero there too: no evidence exists), or a path
longer than the iterations run (scikit-learn's stopping rule ends the spreading, its change being
below ``tol``, before the label mass has travelled that far).

Decision: such a row gets the class a classifier without evidence predicts, the prior: the labeled
rows' class shares stand for its distribution (P(``classes_[1]``) = their share of ``classes_[1]``),
so it is predicted their majority class (an even split: ``classes_[0]``, as ``predict`` reads an output
of 0).  The rows are counted (the estimator's ``unreached_`` and ``UnreachedRowsWarning``; a harness
record's ``unreached_rows``), never silently one class.  The spreading itself is scikit-learn's,
unchanged: every row it reaches keeps scikit-learn's label and probability.
"""
import warnings

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra
from sklearn.semi_supervised import LabelSpreading

from ssl_repro.estimators.knn_cache import CachedNeighbors


class UnreachedRowsWarning(UserWarning):
    """Label spreading gave some rows no label mass; they get the labeled rows' majority class (module doc)."""


class ReachSpreading(LabelSpreading):
    """scikit-learn's ``LabelSpreading``, unchanged, that also keeps ``hops_``: for each training row the
    fewest edges of the graph from it to a labeled row (``inf``: none), what decides whether the
    spreading's label mass reaches it within ``n_iter_`` iterations (module doc).  Its neighbour
    searches (the graph, and the new rows' neighbours in ``predict_proba``) go through a per-process
    cache (:mod:`ssl_repro.estimators.knn_cache`: the same indices, searched once for the rows of a split's
    label counts)."""

    def _get_kernel(self, X, y=None):
        if self.kernel == "knn" and self.nn_fit is None:      # scikit-learn's own NearestNeighbors, cached
            self.nn_fit = CachedNeighbors(n_neighbors=self.n_neighbors, n_jobs=self.n_jobs).fit(X)
        return super()._get_kernel(X, y)

    def _build_graph(self):
        self._graph = super()._build_graph()
        return self._graph

    def fit(self, X, y):
        super().fit(X, y)
        graph = sp.csr_matrix(self.__dict__.pop("_graph"))
        graph.eliminate_zeros()          # the dropped self-loops
        # F <- S F moves the mass of row j to row i where S[i, j] != 0: edges j -> i, S transposed
        labeled = np.flatnonzero(np.asarray(y) != -1)
        self.hops_ = dijkstra(graph.T.tocsr(), directed=True, indices=labeled, unweighted=True, min_only=True)
        return self


def unreached(model):
    """The training rows the fitted ``model`` (a ``LabelSpreading``) left with an all-zero label distribution."""
    return model.label_distributions_.sum(axis=1) == 0


def positive_share(model, X, prior):
    """(P(class code 1) for each row of ``X``, reached): from the fitted ``model``'s ``predict_proba``;
    ``reached`` is False where none of the row's neighbours holds label mass, whose probability is
    ``prior`` (module doc) instead of scikit-learn's NaN."""
    with np.errstate(invalid="ignore", divide="ignore"):      # 0 / 0 of the rows without evidence
        proba = model.predict_proba(X)
    reached = np.isfinite(proba).all(axis=1)
    return np.where(reached, proba[:, 1], prior), reached


def warn_unreached(estimator, rows, total, where, hops=None):
    """One :class:`UnreachedRowsWarning` line: ``rows`` of ``total`` ``where`` rows got no label mass (with
    ``hops``, the row's hop distances, why: no path, or a path longer than the iterations run)."""
    if not rows:
        return
    why = ""
    if hops is not None:
        no_path = int(np.isinf(hops).sum())
        why = (f" ({no_path} with no path to a labeled row in the {estimator.n_neighbors}-NN graph, {rows - no_path} "
               f"farther from one than the {estimator.n_iter_} iterations run)")
    warnings.warn(f"{type(estimator).__name__}: {rows} of {total} {where} rows got no label from the spreading{why}: "
                  f"given the labeled rows' majority class {np.asarray(estimator.fallback_class_).tolist()!r}", UnreachedRowsWarning,
                  stacklevel=3)
