"""Bad input to the estimators and the harness: a clear error within seconds that names the real
cause and the fix, never a hang, a memory blow-up or a folder left behind."""
import resource
import time
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from ssl_repro.estimators import LinearDA, LinearSVM, LinearTSVM, mask_labels
from ssl_repro.harness.runner import run_job
from ssl_repro.solvers.engine import data_checks
from ssl_repro.solvers.engine._row_products import N_CHUNKS
from ssl_repro.solvers.warm_up import warm_up_kernels


def huge_feature_ids(n_rows=300, largest_id=1_000_000_000):
    """Rows on 40 features plus one entry in column ``largest_id - 1`` (a svmlight token
    ``1000000000:1``), and labels: 30 labeled rows (alternating), the rest 0 (unlabeled)."""
    rng = np.random.default_rng(0)
    X = sp.random(n_rows, 40, density=0.1, random_state=rng, format="csr")
    X = sp.csr_matrix((np.r_[X.data, 1.0], np.r_[X.indices, largest_id - 1],
                       np.r_[X.indptr[:-1], X.indptr[-1] + 1]), shape=(n_rows, largest_id))
    y = np.where(np.arange(n_rows) < 30, np.where(np.arange(n_rows) % 2, 1, -1), 0)
    return X, y


def peak_rss_mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@pytest.mark.parametrize("estimator", [LinearSVM, LinearTSVM, LinearDA])
def test_feature_ids_far_beyond_the_data_are_refused_before_allocating(estimator, shown):
    X, y = huge_feature_ids()
    y = mask_labels(y, y != 0)                    # the estimators' convention (0 = unlabeled is the file's)
    before, start = peak_rss_mib(), time.perf_counter()
    with pytest.raises(ValueError, match=r"1,000,000,000 feature columns, of which 41 hold a non-zero.*GiB.*"
                                         r"numpy.unique\(X.indices\).*1\.\.41") as caught:
        estimator().fit(X, y)
    assert time.perf_counter() - start < 5
    shown(f"{estimator.__name__}().fit(X, y)   (300 rows on 40 columns and one at column 999,999,999)", caught.value)
    assert peak_rss_mib() - before < 100          # nothing proportional to the 10^9 columns


def test_the_refusal_compares_the_dense_arrays_with_the_memory_available(monkeypatch):
    monkeypatch.setattr(data_checks, "available_memory_bytes", lambda: 2**30)
    n_ok = 2**30 // (8 * (2 * N_CHUNKS + data_checks.WEIGHT_VECTORS)) - 1
    X = sp.csr_matrix((np.ones(1), np.zeros(1, int), [0, 1]), shape=(1, n_ok))
    data_checks.check_feature_memory(X, N_CHUNKS)                 # fits exactly
    with pytest.raises(ValueError, match=r"more than the 1\.0 GiB available"):
        data_checks.check_feature_memory(sp.csr_matrix(X, shape=(1, n_ok + 1)), N_CHUNKS)
    monkeypatch.setattr(data_checks, "available_memory_bytes", lambda: None)   # unknown: not refused
    data_checks.check_feature_memory(sp.csr_matrix(X, shape=(1, 10**12)), N_CHUNKS)


def test_a_svmlight_file_with_a_huge_feature_id_is_refused_by_the_harness(tmp_path, shown):
    X, y = huge_feature_ids()
    from sklearn.datasets import dump_svmlight_file
    path = tmp_path / "huge.svmlight"
    dump_svmlight_file(X, y, str(path), zero_based=False)      # ... 1000000000:1
    job = {"dataset": {"name": "svmlight", "path": str(path)}, "split": 0, "n_labeled": "all",
           "method": {"name": "da", "variant": "da"}}
    warm_up_kernels()     # the job warms the kernels up before its fit: compiling them (a fresh cache) is not the data's memory
    before = peak_rss_mib()
    with pytest.raises(ValueError, match=r"huge.svmlight, line 300: feature id 1,000,000,000 is far above.*"
                                         r"Renumber the 41 ids that occur to 1\.\.41") as caught:
        run_job(job)
    shown("python run.py dataset=svmlight dataset.path={tmp}/huge.svmlight method=da   (a token 1000000000:1)",
          caught.value)
    assert peak_rss_mib() - before < 100


def test_a_ray_address_where_nothing_listens_fails_at_once_naming_it(shown):
    ray = pytest.importorskip("ray", reason="the distributed backend needs ray")
    from ssl_repro.distributed import RayBackend
    assert not ray.is_initialized()          # (a running instance would be used, whatever the address)
    start = time.perf_counter()
    with pytest.raises(ConnectionError, match=r"no Ray cluster answers at address 127\.0\.0\.1:1 \(Connection refused") \
            as caught:
        with RayBackend(address="127.0.0.1:1", start_timeout=5):
            pass
    shown("RayBackend(address='127.0.0.1:1', start_timeout=5)", caught.value)
    assert time.perf_counter() - start < 5
    assert not ray.is_initialized()



TEXT_LIKE_DA = {"dataset": {"name": "text-like"}, "method": {"name": "da", "variant": "da"}, "split": 0,
                "n_unlabeled": 300}


@pytest.mark.parametrize("sign, message", [(1, r"labeled rows hold only \+1 labels; fit needs rows of both classes"),
                                           (-1, r"labeled rows hold only -1 labels")])
def test_only_positive_rows_labeled_through_mask_labels_is_named_as_such(sign, message, shown):
    y = np.where(np.arange(50) % 2, 1.0, -1.0)
    with pytest.raises(ValueError, match=message) as caught:
        mask_labels(y, np.flatnonzero(y == sign))
    shown(f"mask_labels(y, np.flatnonzero(y == {sign}))   (y of +1 and -1)", caught.value)


def test_one_labeled_class_beside_unlabeled_rows_says_one_class_first(shown):
    X = sp.random(40, 5, density=0.5, random_state=0, format="csr")
    y = np.where(np.arange(40) < 10, 1, -1)
    with pytest.raises(ValueError, match=r"needs two classes among the labeled rows; got one class \(1\).*mask_labels") \
            as caught:
        LinearDA().fit(X, y)
    shown("LinearDA().fit(X, y)   (y: ten rows 1, the rest -1)", caught.value)


def test_string_labels_with_minus_one_unlabeled_work_as_in_scikit_learn(shown):
    """An object array of two string classes and the number -1 for unlabeled rows, as
    SelfTrainingClassifier takes it: the same model as classes 0/1."""
    X = sp.random(60, 8, density=0.5, random_state=1, format="csr")
    numeric = np.where(np.arange(60) < 12, np.arange(60) % 2, -1)
    strings = np.array([{0: "a", 1: "b"}.get(v, -1) for v in numeric], dtype=object)
    model, reference = LinearDA().fit(X, strings), LinearDA().fit(X, numeric)
    assert model.classes_.tolist() == ["a", "b"]
    np.testing.assert_array_equal(model.coef_, reference.coef_)
    assert set(model.transduction_) <= {"a", "b"} and set(model.predict(X)) <= {"a", "b"}
    mixed = strings.copy()
    mixed[0] = 7
    with pytest.raises(ValueError, match=r"labeled rows mix label types \(int, str\)") as caught:
        LinearDA().fit(X, mixed)
    shown("LinearDA().fit(X, y)   (y: classes 'a' and 'b', -1 unlabeled, and one 7)", caught.value)


def test_labeling_every_row_but_one_class_is_refused_naming_n_labeled(shown):
    from ssl_repro.data import load_dataset, make_split
    most = make_split(load_dataset("text-like"), 0, 2).labeled.size + make_split(
        load_dataset("text-like"), 0, 2).unlabeled.size - 1        # one unlabeled row left
    with pytest.raises(ValueError, match=rf"n_labeled={most} leaves 1 unlabeled row\(s\) of text-like, all of one "
                                         r"class, so their positive fraction r is [01]") as caught:
        run_job({**TEXT_LIKE_DA, "n_labeled": most, "n_unlabeled": None})
    shown(f"python run.py dataset=text-like method=da n_labeled={most}   (one unlabeled row left)", caught.value)


@pytest.mark.parametrize("key, value, message", [
    ("split", -1, r"split=-1 is not one of the paper's 10 splits: give split=0\.\.9"),
    ("split", 12, r"split=12 .* split=0\.\.9"),
    ("split", "abc", r"split='abc' .* split=0\.\.9"),
    ("n_labeled", "abc", r"n_labeled='abc' is not a number of labeled rows: give a whole number \(the label grid of "
                         r"text-like: .*\) or n_labeled=all"),
    ("n_labeled", 1.5, r"n_labeled=1\.5 is not a number"),
])
def test_harness_values_out_of_range_are_refused_with_the_range(key, value, message, shown):
    with pytest.raises(ValueError, match=message) as caught:
        run_job({**TEXT_LIKE_DA, "n_labeled": 16, key: value})
    shown(f"run_job({{..., {key!r}: {value!r}}})   (dataset text-like, method da)", caught.value)


def test_embedded_data_creates_nothing_in_the_users_home(tmp_path, monkeypatch):
    from ssl_repro.data import data_root, load_dataset
    monkeypatch.delenv("SSL_REPRO_DATA", raising=False)
    monkeypatch.delenv("SCIKIT_LEARN_DATA", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert data_root() == tmp_path / "home" / "scikit_learn_data"       # scikit-learn's data home, by name
    assert load_dataset("text-like").X.shape[0] == 4000
    assert not (tmp_path / "home").exists()


def test_a_failed_load_leaves_no_folder_in_the_data_root(tmp_path, monkeypatch):
    import sklearn.datasets
    from ssl_repro.data import DatasetNotAvailable, load_dataset
    from ssl_repro.data import cache

    def offline_fetcher(data_home, **kwargs):     # what scikit-learn's fetchers do offline
        (Path(data_home) / "RCV1" / "deeper").mkdir(parents=True)
        raise OSError("[Errno -3] Temporary failure in name resolution")

    def offline_download(url, path):
        path.parent.mkdir(parents=True)
        raise OSError("[Errno -3] Temporary failure in name resolution")
    monkeypatch.setattr(sklearn.datasets, "fetch_rcv1", offline_fetcher)
    monkeypatch.setattr(cache, "download", offline_download)
    root = tmp_path / "nonexistent"
    for name, download in (("ccat", True), ("kdd99-10", True), ("pcmac", False)):
        with pytest.raises(DatasetNotAvailable, match=name):
            load_dataset(name, root=root, download=download)
        assert not root.exists(), (name, list(root.rglob("*")))
    root.mkdir()
    with pytest.raises(DatasetNotAvailable):
        load_dataset("ccat", root=root)
    assert list(root.iterdir()) == []                  # the root itself stays: it was there


def test_the_clean_up_keeps_files_a_failed_fetch_left(tmp_path):
    from ssl_repro.data.cache import folders_kept_only_on_success
    target = tmp_path / "new" / "inner"
    with pytest.raises(OSError), folders_kept_only_on_success(target):
        (target / "empty").mkdir(parents=True)
        (target / "partial.bin").write_bytes(b"x")
        raise OSError("network down")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["inner", "new", "partial.bin"]
