"""pcmac and kdd99-10 loaded for real from the public files under $SSL_REPRO_DATA (each once per session),
cached, and split as the papers did; missing and corrupt files of these loaders fail clearly."""
import json
import time

import numpy as np
import pytest

from ssl_repro.data import DATASETS, DatasetNotAvailable, load_dataset, make_split
from ssl_repro.data.__main__ import main as data_cli

from conftest import public_data_folder

PCMAC_FILE = "20newsgroups/20news-bydate_py3.pkz"
KDD99_10_FILE = "kddcup99/kddcup.data_10_percent.gz"


def timed_load(name, root):
    start = time.perf_counter()
    ds = load_dataset(name, root=root, download=False)
    return ds, time.perf_counter() - start


@pytest.fixture(scope="session")
def pcmac_root(writable_data_root):
    return writable_data_root(public_data_folder(PCMAC_FILE))


@pytest.fixture(scope="session")
def kdd99_10_root(writable_data_root):
    return writable_data_root(public_data_folder(KDD99_10_FILE))


@pytest.fixture(scope="session")
def pcmac(pcmac_root):
    return timed_load("pcmac", pcmac_root)


@pytest.fixture(scope="session")
def kdd99_10(kdd99_10_root):
    return timed_load("kdd99-10", kdd99_10_root)


def assert_csr_rows(ds):
    assert ds.X.format == "csr" and ds.X.dtype == np.float64 and ds.X.has_sorted_indices
    assert ds.y.dtype == np.int8 and set(np.unique(ds.y)) == {-1, 1}


def assert_cached_copy(ds, root, monkeypatch):
    """The second load reads the cache: nothing is rebuilt (writing a cache would fail the test)."""
    import ssl_repro.data.cache as store

    def no_rebuild(*args):
        raise AssertionError("the dataset was rebuilt instead of read from its cache")
    monkeypatch.setattr(store, "save_cached", no_rebuild)
    again, _ = timed_load(ds.name, root)
    assert f"ssl_repro_cache/{ds.name}" in again.source and ds.source != again.source
    assert (again.X != ds.X).nnz == 0 and np.array_equal(again.y, ds.y)


def test_pcmac_loads_with_the_papers_shape_and_is_cached(pcmac, pcmac_root, monkeypatch):
    ds, _ = pcmac
    assert_csr_rows(ds)
    assert ds.source.endswith(PCMAC_FILE)
    assert ds.X.shape[0] == 1948                  # Table 8: 1,460 + 486 = 1,946
    assert 7000 < ds.X.shape[1] < 10000           # Table 8: 7,511 (ours 9,853)
    assert 45 < ds.X.nnz / ds.X.shape[0] < 75     # Table 8: 54.58 (ours 64.5)
    assert abs(np.mean(ds.y > 0) - 985 / 1948) < 1e-12
    norms = np.sqrt(ds.X.multiply(ds.X).sum(axis=1)).A1
    assert np.mean(norms == 0) < 0.01          # a few posts are all header/stop words
    np.testing.assert_allclose(norms[norms > 0], 1.0)
    assert_cached_copy(ds, pcmac_root, monkeypatch)


@pytest.mark.slow   # loads the 494,021-row kdd99 10% file
def test_kdd99_10_percent_loads_and_is_cached(kdd99_10, kdd99_10_root, monkeypatch):
    ds, _ = kdd99_10
    assert_csr_rows(ds)
    assert ds.X.shape == (494021, 38 + 3 + 66 + 11)     # numeric + protocol + service + flag
    assert round(float(np.mean(ds.y > 0)), 3) == 0.803
    assert 12 < ds.X.nnz / ds.X.shape[0] < 13 and ds.X.data.min() > 0 and ds.X.data.max() <= 1
    np.testing.assert_array_equal(ds.X[:, 38:].sum(axis=1).A1, 3)    # one category per column
    assert_cached_copy(ds, kdd99_10_root, monkeypatch)


def test_info_cli_reports_the_loaded_dataset(pcmac, pcmac_root, capsys):
    start = time.perf_counter()
    data_cli(["info", "pcmac", "--root", str(pcmac_root)])
    wall = time.perf_counter() - start
    out = json.loads(capsys.readouterr().out)
    assert out["rows"] == 1948 and out["features"] == pcmac[0].X.shape[1] and out["nonzeros"] == pcmac[0].X.nnz
    assert out["positive_fraction"] == round(985 / 1948, 4) and "ssl_repro_cache" in out["source"]
    assert 0 <= out["load_seconds"] <= round(wall, 2) + 0.01    # the load itself, within the call's time


def test_pcmac_is_the_papers_mac_vs_windows_task(pcmac, pcmac_root):
    """001 Sec. 4 ("mac or windows"), 002 Table 1 ("mswindows and mac"): the rows are exactly the documents
    of comp.os.ms-windows.misc (+1) and comp.sys.mac.hardware, counted from the corpus itself."""
    from sklearn.datasets import fetch_20newsgroups
    bunch = fetch_20newsgroups(data_home=str(pcmac_root / "20newsgroups"), subset="all", download_if_missing=False,
                               shuffle=False)
    groups = np.asarray(bunch.target_names)[bunch.target]
    windows, mac = np.sum(groups == "comp.os.ms-windows.misc"), np.sum(groups == "comp.sys.mac.hardware")
    ds = pcmac[0]
    assert (np.sum(ds.y > 0), np.sum(ds.y < 0)) == (windows, mac) == (985, 963)
    assert "comp.os.ms-windows.misc (+1) vs comp.sys.mac.hardware" in DATASETS["pcmac"].description
    assert abs(ds.X.shape[0] - (1460 + 486)) <= 2     # 000 Table 8: 1,946 documents


def test_pcmac_splits_follow_the_paper(pcmac):
    ds = pcmac[0]
    info = DATASETS["pcmac"]
    split = make_split(ds, seed=3, n_labeled=info.label_grid[-1])
    assert abs(split.labeled.size + split.unlabeled.size - 1460 / 1946 * 1948) <= 2
    assert abs(np.mean(ds.y[split.test] > 0) - np.mean(ds.y > 0)) < 0.01   # stratified
    assert split.r == pytest.approx(np.mean(ds.y[split.unlabeled] > 0))


@pytest.mark.slow   # loads the 494,021-row kdd99 10% file
def test_kdd99_10_transductive_split_uses_every_row(kdd99_10):
    ds = kdd99_10[0]
    split = make_split(ds, seed=0, n_labeled=ds.info.transductive_labels[0])
    assert split.test.size == 0 and split.labeled.size == 1000
    assert split.labeled.size + split.unlabeled.size == ds.X.shape[0]
    assert abs(np.mean(ds.y[split.labeled] > 0) - 0.803) < 0.002


def test_missing_public_files_name_file_folder_and_url(tmp_path):
    with pytest.raises(DatasetNotAvailable, match=r"kddcup\.data_10_percent\.gz.*folder .*kddcup99.*"
                                                  r"https://kdd\.ics\.uci\.edu"):
        load_dataset("kdd99-10", root=tmp_path, download=False)
    with pytest.raises(DatasetNotAvailable, match=r"20news-bydate_py3\.pkz.*folder .*20newsgroups.*figshare"):
        load_dataset("pcmac", root=tmp_path, download=False)


def test_corrupt_public_files_fail_clearly(tmp_path):
    (tmp_path / "kddcup99").mkdir()
    (tmp_path / "kddcup99" / "kddcup.data_10_percent.gz").write_bytes(b"\x1f\x8b not really gzip")
    with pytest.raises(ValueError, match="not a readable KDD'99 file"):
        load_dataset("kdd99-10", root=tmp_path, download=False)
    (tmp_path / "20newsgroups").mkdir()
    (tmp_path / "20newsgroups" / "20news-bydate_py3.pkz").write_bytes(b"not zlib")
    with pytest.raises(ValueError, match=r"20news-bydate_py3\.pkz is not a readable"):
        load_dataset("pcmac", root=tmp_path, download=False)


@pytest.fixture(scope="session")
def newsgroups_analogs(pcmac_root):
    return {name: load_dataset(name, root=pcmac_root, download=False)
            for name in ("20ng-ccat-like", "20ng-gcat-like", "20ng-aut-avn-like")}


def test_20_newsgroups_analogs_are_the_issues_tasks_in_pcmacs_vectorization(newsgroups_analogs, pcmac):
    ccat, gcat, aut_avn = newsgroups_analogs.values()
    for ds in newsgroups_analogs.values():
        assert_csr_rows(ds)
        assert ds.source.endswith("20newsgroups/20news-bydate_py3.pkz")
        assert abs(np.mean(ds.y > 0) - ds.info.r) < 5e-4 and ds.info.analog_of in ds.info.description
        norms = np.sqrt(ds.X.multiply(ds.X).sum(axis=1)).A1
        np.testing.assert_allclose(norms[norms > 0], 1.0)
    # ccat and gcat share X: the same 18,846 documents in one input space, two disjoint positive classes
    assert ccat.X.shape[0] == 18846 and (ccat.X != gcat.X).nnz == 0
    assert (np.sum(ccat.y > 0), np.sum(gcat.y > 0), np.sum((ccat.y > 0) & (gcat.y > 0))) == (8843, 5049, 0)
    assert 50000 < ccat.X.shape[1] < 60000 and 85 < ccat.X.nnz / ccat.X.shape[0] < 100
    assert (aut_avn.X.shape[0], np.sum(aut_avn.y > 0)) == (2973, 1986)
    # the paper's train : test proportion (ccat 17,332 : 5,787; aut-avn 50 : 50), stratified
    split = make_split(ccat, seed=0, n_labeled=ccat.info.label_grid[-1])
    assert abs(split.test.size / 18846 - 5787 / 23119) < 1e-3
    assert abs(make_split(aut_avn, seed=0, n_labeled=2).test.size - 2973 / 2) <= 1
    assert pcmac[0].X.shape == (1948, 9853)      # pcmac's loader, shared with the analogs


def test_second_construction_of_the_analogs_is_the_bodies_only(pcmac_root, newsgroups_analogs):
    """Construction b (registry): headers, signatures and quotes removed, empty documents dropped, the other
    lambda', aut-avn-like at 75 : 25; the same groups, so nearly the same positive fraction."""
    for name, first in newsgroups_analogs.items():
        second = load_dataset(f"{name}-b", root=pcmac_root, download=False)
        assert_csr_rows(second)
        assert (first.info.construction, second.info.construction) == ("a", "b")
        assert second.info.analog_of == first.info.analog_of and {first.info.lam_u, second.info.lam_u} == {1, 10}
        assert second.X.getnnz(axis=1).min() > 0 and second.X.shape[0] < first.X.shape[0]
        assert second.X.nnz / second.X.shape[0] < first.X.nnz / first.X.shape[0]     # no header lines
        assert abs(np.mean(second.y > 0) - second.info.r) < 5e-4, name
    aut_avn = load_dataset("20ng-aut-avn-like-b", root=pcmac_root, download=False)
    assert aut_avn.X.shape[0] == 2852
    assert abs(make_split(aut_avn, seed=0, n_labeled=2).test.size - 2852 / 4) <= 1
