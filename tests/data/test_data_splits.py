"""Splits: deterministic, stratified, nested, disjoint; embedded datasets; registry."""
from dataclasses import replace

import numpy as np
import pytest

from ssl_repro.data import DATASETS, load_dataset, make_split


@pytest.fixture(scope="module")
def text_like():
    return load_dataset("text-like")


def test_same_seed_same_split_other_seed_other_split(text_like):
    a, b = make_split(text_like, 4, 64), make_split(text_like, 4, 64)
    for part in ("labeled", "unlabeled", "test"):
        assert np.array_equal(getattr(a, part), getattr(b, part))
    c = make_split(text_like, 5, 64)
    assert not np.array_equal(a.labeled, c.labeled) and not np.array_equal(a.test, c.test)


def test_split_is_stratified_disjoint_and_sized_like_the_paper(text_like):
    info = text_like.info
    s = make_split(text_like, 0, 32)
    parts = [s.labeled, s.unlabeled, s.test]
    allrows = np.concatenate(parts)
    assert np.unique(allrows).size == allrows.size == text_like.X.shape[0]
    n_train = s.labeled.size + s.unlabeled.size
    assert abs(n_train - info.n_train / (info.n_train + info.n_test) * text_like.X.shape[0]) <= 2
    pos = np.mean(text_like.y > 0)
    assert abs(np.mean(text_like.y[s.test] > 0) - pos) < 2 / s.test.size + 1e-12
    assert s.r == np.mean(text_like.y[s.unlabeled] > 0)


@pytest.mark.parametrize("seed", range(10))
def test_every_class_keeps_the_papers_train_fraction(text_like, seed):
    s = make_split(text_like, seed, 16)
    frac = text_like.info.n_train / (text_like.info.n_train + text_like.info.n_test)
    train = np.concatenate([s.labeled, s.unlabeled])
    for cls in (-1, 1):
        n_class = np.sum(text_like.y == cls)
        assert np.sum(text_like.y[train] == cls) == round(n_class * frac)
        assert np.sum(text_like.y[s.test] == cls) == n_class - round(n_class * frac)


def test_a_single_class_cannot_be_split(text_like):
    one = type(text_like)(text_like.name, text_like.X, np.ones_like(text_like.y), text_like.source,
                          text_like.info)
    with pytest.raises(ValueError, match="both classes, got 4000 positive and 0 negative"):
        make_split(one, 0, 16)


def test_labeled_sets_are_nested_along_the_learning_curve(text_like):
    grid = text_like.info.label_grid
    splits = [make_split(text_like, 2, n) for n in grid]
    for small, large in zip(splits, splits[1:]):
        assert set(small.labeled) <= set(large.labeled)
        assert np.array_equal(small.test, large.test)
    for s, n in zip(splits, grid):
        assert s.labeled.size == n


@pytest.mark.parametrize("n", [2, 3, 10])
def test_both_classes_among_few_labels_even_for_skewed_classes(n):
    ds = load_dataset("text-like")
    skewed = type(ds)(ds.name, ds.X, np.where(np.arange(ds.y.size) % 10 == 0, 1, -1).astype(np.int8),
                      ds.source, ds.info)
    for seed in range(10):
        s = make_split(skewed, seed, n)
        assert set(skewed.y[s.labeled]) == {-1, 1}


def test_transductive_split_has_no_test_rows_and_optional_unlabeled_subset():
    ds = load_dataset("2moons")
    info = DATASETS["kdd99-10"]
    tds = type(ds)(ds.name, ds.X, ds.y, ds.source, info)
    s = make_split(tds, 0, 10)
    assert s.test.size == 0 and s.labeled.size + s.unlabeled.size == ds.X.shape[0]
    half = make_split(tds, 0, 10, n_unlabeled=95)
    assert half.unlabeled.size == 95 and set(half.unlabeled) <= set(s.unlabeled)


def test_bad_split_sizes(text_like):
    with pytest.raises(ValueError, match="n_labeled must be between 2"):
        make_split(text_like, 0, 1)
    with pytest.raises(ValueError, match="n_unlabeled must be between 1"):
        make_split(text_like, 0, 10, n_unlabeled=10**9)


@pytest.mark.parametrize("name", ["text-like", "g50c", "2moons", "2circles"])
def test_embedded_datasets_are_deterministic_and_two_class(name):
    a, b = load_dataset(name), load_dataset(name)
    assert (a.X != b.X).nnz == 0 and np.array_equal(a.y, b.y)
    assert set(np.unique(a.y)) == {-1, 1} and a.source == "embedded"
    assert a.X.format == "csr" and a.X.dtype == np.float64 and a.X.has_sorted_indices


def test_g50c_has_bayes_error_near_5_percent():
    ds = load_dataset("g50c")
    X = ds.X.toarray()
    direction = np.ones(50) / np.sqrt(50)
    bayes = np.mean(np.sign(X @ direction) != ds.y)
    assert 0.02 < bayes < 0.09


def test_unknown_dataset_lists_the_known_ones(capsys):
    with pytest.raises(ValueError, match=r"unknown dataset 'ccatt' \(did you mean ccat.*\?\); known datasets: .*ccat.*pcmac"):
        load_dataset("ccatt")
    from ssl_repro.data.__main__ import main
    with pytest.raises(SystemExit) as exit_info:
        main(["info", "ccatt"])
    known = "known datasets: 20ng-all, 20ng-aut-avn-like, 20ng-aut-avn-like-b, 20ng-ccat-like"     # sorted
    assert exit_info.value.code == 2 and known in capsys.readouterr().err


def test_unknown_file_argument_is_refused():
    with pytest.raises(TypeError, match="unknown argument.*pth.*path="):
        load_dataset("svmlight", pth="x.svm")


def test_registry_matches_table_1_1():
    assert DATASETS["aut-avn"].lam_u == 10 and DATASETS["ccat"].lam_u == 10 and DATASETS["gcat"].lam_u == 1
    assert DATASETS["real-sim"].label_grid == (46, 91, 181, 362, 724, 1447)
    assert DATASETS["full-gcat"].transductive and DATASETS["full-gcat"].transductive_labels == (100, 1000)
    assert all(info.lam == 1e-3 for info in DATASETS.values())


def test_full_size_stand_ins_have_the_shape_and_settings_of_table_1_1():
    for name in ("full-ccat", "full-gcat"):
        assert DATASETS[name].shape == (804414, 47236, 76.7)
        stand_in, real = DATASETS[f"synthetic-{name}"], DATASETS[name]
        assert stand_in.embedded and stand_in.transductive and stand_in.n_test == 0
        assert (stand_in.lam_u, stand_in.r, stand_in.transductive_labels, stand_in.transductive_unlabeled) == \
            (real.lam_u, real.r, (100, 1000), (None, 402107))


def small_gcat():
    """gcat's registry entry with a 300 x 400 shape, 20 nonzeros per row: a stand-in generated in a moment."""
    return replace(DATASETS["gcat"], n_train=225, n_test=75, n_features=400, nnz_per_row=20.0)


def test_a_synthetic_stand_in_is_generated_once_then_read_from_the_cache(tmp_path, monkeypatch):
    from ssl_repro.data import registry
    from ssl_repro.data.registry import standin_parameters
    from ssl_repro.data.cache import cache_path, parameters_key
    monkeypatch.setitem(registry.DATASETS, "gcat", small_gcat())
    built = load_dataset("synthetic-gcat", root=tmp_path)
    assert built.source == "embedded" and built.X.shape == (300, 400)
    again = load_dataset("synthetic-gcat", root=tmp_path)
    key = parameters_key(standin_parameters("gcat"))
    assert again.source == str(cache_path(tmp_path, f"synthetic-gcat-{key}")) and (again.X != built.X).nnz == 0
    assert np.array_equal(again.y, built.y) and again.X.has_sorted_indices


def test_a_stand_in_of_other_generator_parameters_never_reads_a_stale_cache(tmp_path, monkeypatch):
    from ssl_repro.data import registry
    monkeypatch.setitem(registry.DATASETS, "gcat", small_gcat())
    monkeypatch.setitem(registry.SYNTHETIC_DIFFICULTY, "gcat", (0.12, 0.0))
    clean = load_dataset("synthetic-gcat", root=tmp_path)
    monkeypatch.setitem(registry.SYNTHETIC_DIFFICULTY, "gcat", (0.12, 0.2))
    noisy = load_dataset("synthetic-gcat", root=tmp_path)
    assert noisy.source == "embedded"            # generated anew, not the cached clean set
    assert (noisy.X != clean.X).nnz == 0 and np.mean(noisy.y != clean.y) == pytest.approx(0.2, abs=0.01)
    assert load_dataset("synthetic-gcat", root=tmp_path).source != "embedded"   # now cached too


def test_flip_balanced_keeps_the_class_ratio_and_flips_the_fraction():
    from ssl_repro.data.embedded import flip_balanced
    y = np.where(np.arange(1000) % 10 < 3, 1, -1)
    flipped = flip_balanced(y, 0.1, seed=0)
    assert (flipped > 0).sum() == 300 and (flipped != y).sum() == 100
    assert ((y > 0) & (flipped < 0)).sum() == 50 and ((y < 0) & (flipped > 0)).sum() == 50
    assert np.array_equal(flip_balanced(y, 0.1, seed=0), flipped)
    with pytest.raises(ValueError, match=r"label_noise=0.7 must be in \[0, 2 min\(r, 1 - r\)\] = \[0, 0.600\]"):
        flip_balanced(y, 0.7)
    with pytest.raises(ValueError, match="label_noise=-0.1"):
        flip_balanced(y, -0.1)


def test_the_stand_ins_keep_their_shape_and_class_ratio_at_the_calibrated_difficulty():
    from ssl_repro.data.registry import standin_parameters
    from ssl_repro.data.registry import SYNTHETIC_DIFFICULTY
    for name in SYNTHETIC_DIFFICULTY:
        rows, features, nnz = DATASETS[name].shape
        p = standin_parameters(name)
        assert (p["n_rows"], p["n_features"], p["doc_len"]) == (rows, features, int(nnz * 1.2))
        assert p["pos_frac"] == DATASETS[f"synthetic-{name}"].r
        assert (p["topic_mix"], p["label_noise"]) == SYNTHETIC_DIFFICULTY[name]
    assert SYNTHETIC_DIFFICULTY["full-ccat"] == SYNTHETIC_DIFFICULTY["full-gcat"] == (0.12, 0.0)


def test_split_indices_are_the_recorded_ones():
    """Splits depend on numpy's PCG64 permutation and stable sorts only: these indices were
    recorded once and must come out the same on every machine (a change here changes every split)."""
    import scipy.sparse as sp
    from ssl_repro.data import Dataset
    y = np.where(np.arange(100) % 4 == 0, 1, -1).astype(np.int8)
    ds = Dataset("text-like", sp.csr_matrix((100, 1)), y, "test", DATASETS["text-like"])
    s = make_split(ds, 0, 4)
    assert s.labeled.tolist() == [11, 14, 84, 86] and s.test[:6].tolist() == [1, 4, 9, 17, 20, 29]
    assert make_split(ds, 7, 4).labeled.tolist() == [3, 18, 40, 82]


@pytest.mark.parametrize("name", ["2moons", "2circles"])
def test_toy_clusters_do_not_touch(name):
    """001's Table 2 success (every unlabeled point right) presumes separated clusters: the closest
    pair across classes is farther apart than the longest edge of either class's minimum spanning tree."""
    from scipy.sparse.csgraph import minimum_spanning_tree
    from scipy.spatial.distance import cdist
    ds = load_dataset(name)
    X, y = ds.X.toarray(), ds.y
    between = cdist(X[y > 0], X[y < 0]).min()
    within = max(minimum_spanning_tree(cdist(X[y == c], X[y == c])).toarray().max() for c in (1, -1))
    assert between > 1.2 * within


def test_a_stand_in_job_key_changes_with_its_generator_parameters(monkeypatch):
    from ssl_repro.data import registry
    from ssl_repro.harness.jobkey import job_key
    job = {"dataset": {"name": "synthetic-gcat"}, "method": {"name": "da"}, "split": 0, "n_labeled": 44}
    real = {**job, "dataset": {"name": "gcat"}}
    before, real_before = job_key(job), job_key(real)
    monkeypatch.setitem(registry.SYNTHETIC_DIFFICULTY, "gcat", (0.12, 0.0))
    assert job_key(job) != before and job_key(real) == real_before


def test_every_registry_entry_loads_itself():
    from ssl_repro.data import loaders, registry
    for name, info in DATASETS.items():
        home = registry if name.startswith("synthetic-") else loaders     # a stand-in's loader reads the registry
        assert callable(info.loader) and info.loader.__module__ == home.__name__, name
    assert load_dataset("g50c").X.shape == (550, 50)


def test_the_data_modules_import_each_other_without_a_circle():
    """Every import between the modules of ssl_repro/data, also one inside a function, points one way
    (registry -> loaders -> embedded used to lead back to registry)."""
    import ast
    from pathlib import Path
    import ssl_repro.data
    folder = Path(ssl_repro.data.__file__).parent
    imports = {}
    for path in folder.glob("*.py"):
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found.update([node.module] if node.module else [alias.name for alias in node.names])
        imports[path.stem] = {name for name in found if (folder / f"{name}.py").exists()} - {"__init__"}

    def reaches(start, target, seen=()):
        return any(n == target or (n not in seen and reaches(n, target, seen + (n,))) for n in imports.get(start, ()))
    circles = sorted(name for name in imports if name != "__init__" and reaches(name, name))
    assert not circles, f"modules of ssl_repro/data on an import circle: {circles}"


def test_the_papers_figures_and_the_stand_ins_shapes_come_from_one_entry():
    assert DATASETS["aut-avn"].paper_figures == {"d": 20707, "n0": 51.32, "l+u": 35588, "t": 35587, "r": 0.65}
    assert DATASETS["kdd99"].paper_figures["t"] is None and DATASETS["kdd99-10"].paper_figures is None
    assert DATASETS["synthetic-ccat"].shape == DATASETS["ccat"].shape == (23119, 47236, 75.93)
