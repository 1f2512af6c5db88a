"""pcmac and kdd99-10 loaded for real from shared/data, cached, and split as the papers did."""
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

from ssl_repro.data import DATASETS, load_dataset, make_split

SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """A data root holding links to the shared files (shared/ itself is read-only)."""
    if not SHARED_DATA.exists():
        pytest.skip(f"{SHARED_DATA} not present (shared/ must sit beside the repository)")
    root = tmp_path_factory.mktemp("data_root")
    for folder in ("20newsgroups", "kddcup99"):
        (root / folder).symlink_to(SHARED_DATA / folder)
    return root


def test_pcmac_loads_with_the_papers_shape_and_is_cached(root):
    ds = load_dataset("pcmac", root=root, download=False)
    assert ds.X.shape[0] == 1945
    assert 7000 < ds.X.shape[1] < 10000           # Table 8: 7,511
    assert 45 < ds.X.nnz / ds.X.shape[0] < 75     # Table 8: 54.58
    assert abs(np.mean(ds.y > 0) - 982 / 1945) < 1e-12
    norms = np.sqrt(ds.X.multiply(ds.X).sum(axis=1)).A1
    assert np.mean(norms == 0) < 0.01          # a few posts are all header/stop words
    np.testing.assert_allclose(norms[norms > 0], 1.0)
    again = load_dataset("pcmac", root=root, download=False)
    assert "ssl_repro_cache/pcmac." in again.source
    assert (again.X != ds.X).nnz == 0 and np.array_equal(again.y, ds.y)


def test_kdd99_10_percent_loads_and_is_cached(root):
    start = time.perf_counter()
    ds = load_dataset("kdd99-10", root=root, download=False)
    assert ds.X.shape[0] == 494021
    assert 100 < ds.X.shape[1] < 130
    assert round(float(np.mean(ds.y > 0)), 3) == 0.803
    assert ds.X.nnz / ds.X.shape[0] < 20 and ds.X.data.min() >= 0 and ds.X.data.max() <= 1
    cold = time.perf_counter() - start
    start = time.perf_counter()
    again = load_dataset("kdd99-10", root=root, download=False)
    assert "ssl_repro_cache/kdd99-10." in again.source and time.perf_counter() - start < cold
    assert np.array_equal(again.y, ds.y)


def test_pcmac_splits_follow_the_paper(root):
    ds = load_dataset("pcmac", root=root, download=False)
    info = DATASETS["pcmac"]
    split = make_split(ds, seed=3, n_labeled=info.label_grid[-1])
    assert abs(split.labeled.size + split.unlabeled.size - 1460 / 1946 * 1945) <= 2
    assert abs(np.mean(ds.y[split.test] > 0) - np.mean(ds.y > 0)) < 0.01   # stratified
    assert split.r == pytest.approx(np.mean(ds.y[split.unlabeled] > 0))


def test_missing_shared_file_names_file_and_url(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"kddcup\.data_10_percent\.gz.*https://kdd\.ics\.uci\.edu"):
        load_dataset("kdd99-10", root=tmp_path, download=False)
    with pytest.raises(FileNotFoundError, match="20news-bydate_py3.pkz"):
        load_dataset("pcmac", root=tmp_path, download=False)


def test_corrupt_kdd_file_fails_clearly(tmp_path):
    (tmp_path / "kddcup99").mkdir()
    (tmp_path / "kddcup99" / "kddcup.data_10_percent.gz").write_bytes(b"\x1f\x8b not really gzip")
    with pytest.raises(ValueError, match="not a readable KDD'99 file"):
        load_dataset("kdd99-10", root=tmp_path, download=False)
