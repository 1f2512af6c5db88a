"""The per-process cache of label spreading's neighbour searches (ssl_repro/estimators/knn_cache.py): a cached fit is
scikit-learn's fit bit for bit (also on rows in another order, with tied distances); the same rows with
other labels hit the cache, other rows miss it, and it keeps at most MAX_ENTRIES searches."""
import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.neighbors import NearestNeighbors

from ssl_repro.estimators import knn_cache
from ssl_repro.estimators.baselines import LabelSpreadingKNN
from ssl_repro.estimators.knn_cache import CachedNeighbors


@pytest.fixture(autouse=True)
def empty_cache():
    knn_cache.clear()
    yield
    knn_cache.clear()


@pytest.fixture
def uncached(monkeypatch):
    """Within the test: every search is scikit-learn's own (the path before the cache)."""
    def off():
        monkeypatch.setattr(CachedNeighbors, "_cached_search", lambda self, X, k: False)
    return off


def text_like(n=240, d=30, seed=0):
    """Unit-norm sparse rows (tf-idf-like), with 3 duplicate rows and 4 one-word rows, so that some distances tie."""
    rng = np.random.RandomState(seed)
    X = sp.random(n, d, density=0.3, random_state=rng, format="csr")
    X = sp.vstack([X, X[:3], sp.csr_matrix((np.ones(4), (np.arange(4), np.arange(4))), shape=(4, d))])
    X = sp.csr_matrix(X)
    X.data = np.abs(X.data) + 0.1
    norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1))).ravel()
    norms[norms == 0] = 1
    X = sp.csr_matrix(sp.diags(1 / norms) @ X)
    truth = (np.asarray(X[:, : d // 2].sum(axis=1)).ravel() > np.asarray(X[:, d // 2:].sum(axis=1)).ravel()).astype(int)
    return X, truth


def labels(truth, n_labeled, seed=1):
    y = np.full(truth.size, -1)
    rows = np.random.RandomState(seed).permutation(truth.size)[:n_labeled]
    y[rows] = truth[rows]
    y[rows[:2]] = [0, 1]
    return y


def fitted_state(model, X_test):
    with np.errstate(all="ignore"):
        return {"transduction": model.transduction_, "decision": model.decision_function(X_test),
                "n_iter": model.n_iter_, "distributions": model.model_.label_distributions_,
                "hops": model.model_.hops_, "unreached": model.unreached_}


def assert_same(a, b):
    assert a.keys() == b.keys()
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key, strict=True)


def test_a_cached_fit_is_a_fresh_fit_bit_for_bit(uncached):
    X, truth = text_like()
    X_test = text_like(seed=3)[0][:50]
    y = labels(truth, 20)
    cached = fitted_state(LabelSpreadingKNN().fit(X, y), X_test)
    again = fitted_state(LabelSpreadingKNN().fit(X, y), X_test)        # served by the cache
    assert knn_cache.stats["hits"] == 2 and knn_cache.stats["misses"] == 2
    uncached()
    fresh = fitted_state(LabelSpreadingKNN().fit(X, y), X_test)
    assert_same(cached, fresh)
    assert_same(again, fresh)


def test_the_same_rows_reordered_with_other_labels_hit_the_cache_and_give_scikit_learns_answer(uncached, monkeypatch):
    """As a learning curve: the rows of one split, labeled rows first, so every label count reorders them."""
    X, truth = text_like()
    X_test = text_like(seed=3)[0][:50]
    LabelSpreadingKNN().fit(X, labels(truth, 10)).decision_function(X_test)
    searched = []
    search = knn_cache._search
    monkeypatch.setattr(knn_cache, "_search",
                        lambda nn, q, *a, **kw: searched.append(q.shape[0]) or search(nn, q, *a, **kw))
    runs = []
    for n_labeled, seed in [(20, 2), (40, 5)]:
        y = labels(truth, n_labeled, seed)
        order = np.r_[np.flatnonzero(y != -1), np.flatnonzero(y == -1)]
        runs.append((X[order], y[order]))
        before = knn_cache.stats["hits"]
        state = fitted_state(LabelSpreadingKNN().fit(*runs[-1]), X_test)
        assert knn_cache.stats["hits"] == before + 2
        runs[-1] += (state,)
    assert knn_cache.stats["misses"] == 2
    assert searched and max(searched) < X.shape[0] // 2      # only the rows whose distances tie, searched again
    assert knn_cache.stats["rows_reused"] > sum(searched)
    uncached()
    for X_run, y_run, state in runs:
        assert_same(state, fitted_state(LabelSpreadingKNN().fit(X_run, y_run), X_test))


def test_the_searches_are_scikit_learns_in_any_row_order():
    X, _ = text_like()
    queries = text_like(seed=4)[0][:40]
    rng = np.random.RandomState(0)
    for _ in range(3):
        X_run = X[rng.permutation(X.shape[0])]
        mine, theirs = CachedNeighbors(n_neighbors=7).fit(X_run), NearestNeighbors(n_neighbors=7).fit(X_run)
        np.testing.assert_array_equal(mine.kneighbors(mine._fit_X, 7, return_distance=False),
                                      theirs.kneighbors(theirs._fit_X, 7, return_distance=False), strict=True)
        np.testing.assert_array_equal(mine.kneighbors(queries, 5, return_distance=False),
                                      theirs.kneighbors(queries, 5, return_distance=False), strict=True)
        np.testing.assert_array_equal(mine.kneighbors_graph(mine._fit_X, 7).toarray(),
                                      theirs.kneighbors_graph(theirs._fit_X, 7).toarray(), strict=True)
    # searched once: the graph (k = 7; kneighbors_graph's search is the same one) and the queries (k = 5)
    assert knn_cache.stats["misses"] == 2 and knn_cache.stats["hits"] == 7
    assert pickle.loads(pickle.dumps(mine)).kneighbors(queries, 5, return_distance=False).shape == (40, 5)


def test_other_rows_miss_the_cache():
    X, truth = text_like()
    LabelSpreadingKNN().fit(X, labels(truth, 20))
    changed = X.copy()
    changed.data[0] += 1e-9            # one value of one row
    LabelSpreadingKNN().fit(changed, labels(truth, 20))
    LabelSpreadingKNN(n_neighbors=5).fit(X, labels(truth, 20))     # another k
    assert knn_cache.stats["misses"] == 3 and knn_cache.stats["hits"] == 0


def test_the_cache_keeps_at_most_max_entries_searches():
    X, truth = text_like()
    y = labels(truth, 20)
    for n in range(knn_cache.MAX_ENTRIES + 2):
        LabelSpreadingKNN().fit(X[n:], y[n:])
        assert len(knn_cache._cache) == min(n + 1, knn_cache.MAX_ENTRIES)
    LabelSpreadingKNN().fit(X, y)               # the first, dropped (least recently used)
    assert knn_cache.stats["hits"] == 0
    LabelSpreadingKNN().fit(X[knn_cache.MAX_ENTRIES + 1:], y[knn_cache.MAX_ENTRIES + 1:])     # the last, kept
    assert knn_cache.stats["hits"] == 1


def test_dense_rows_are_left_to_scikit_learn():
    X, truth = text_like()
    LabelSpreadingKNN().fit(X.toarray(), labels(truth, 20))
    assert not knn_cache._cache and not knn_cache.stats


def test_bad_queries_get_scikit_learns_errors():
    nn = CachedNeighbors(n_neighbors=3).fit(text_like()[0])
    with pytest.raises(ValueError, match="features"):
        nn.kneighbors(sp.csr_matrix(np.ones((2, 5))), return_distance=False)
    with pytest.raises(ValueError, match="n_neighbors"):
        nn.kneighbors(nn._fit_X, 10_000, return_distance=False)
