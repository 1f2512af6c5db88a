"""Every loader of a dataset that cannot be downloaded here parses a small fake file in its exact
source format, written by the test; bad files fail with clear messages."""
import bz2
import gzip
import io
import tarfile

import joblib
import numpy as np
import pytest
import scipy.sparse as sp

from ssl_repro.data import DatasetNotAvailable, load_dataset, load_svmlin_pair, make_split


def write_fake_rcv1(root, n=30):
    """What sklearn's fetch_rcv1 caches: RCV1/{samples,sample_id,sample_topics,topics_names}_py3.pkl."""
    rng = np.random.default_rng(0)
    folder = root / "RCV1"
    folder.mkdir(parents=True)
    X = sp.random(n, 47236, density=0.002, random_state=rng, format="csr")
    topics = np.array(["C15", "CCAT", "ECAT", "GCAT"], dtype=object)
    y = sp.csr_array((rng.random((n, 4)) < 0.4).astype(np.uint8))
    joblib.dump(X, folder / "samples_py3.pkl")
    joblib.dump(np.arange(n, dtype=np.uint32), folder / "sample_id_py3.pkl")
    joblib.dump(y, folder / "sample_topics_py3.pkl")
    joblib.dump(topics, folder / "topics_names_py3.pkl")
    return X, y.toarray()


@pytest.mark.parametrize("name, column", [("ccat", 1), ("gcat", 3), ("full-ccat", 1), ("full-gcat", 3)])
def test_rcv1_loaders_read_scikit_learns_cache(tmp_path, name, column):
    X, topics = write_fake_rcv1(tmp_path)
    ds = load_dataset(name, root=tmp_path, download=False)
    assert ds.X.shape == X.shape
    np.testing.assert_array_equal(ds.y, np.where(topics[:, column] > 0, 1, -1))


def test_rcv1_missing_cache_names_the_file(tmp_path):
    with pytest.raises(DatasetNotAvailable, match=r"RCV1/samples_py3\.pkl.*fetch_rcv1"):
        load_dataset("ccat", root=tmp_path, download=False)


def write_fake_sraa(path, per_group=6):
    """The SRAA tarball layout: sraa/<realauto|realaviation|simauto|simaviation>/<message id>."""
    vocab = {"realauto": "engine brake tire garage", "realaviation": "wing cockpit runway pilot",
             "simauto": "engine racing lap tire game", "simaviation": "simulator cockpit flight game"}
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w:gz") as tar:
        for group, words in vocab.items():
            for i in range(per_group):
                body = (f"From: someone@example.com\nNewsgroups: rec.{group}\nSubject: post {i}\n\n"
                        f"{words} message number {i} {words}\n")
                data = body.encode("latin-1")
                info = tarfile.TarInfo(f"sraa/{group}/{1000 + i}")
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))


@pytest.mark.parametrize("name, positive", [("aut-avn", {"realauto", "simauto"}),
                                            ("real-sim", {"realauto", "realaviation"})])
def test_sraa_loaders_read_the_tarball(tmp_path, name, positive):
    write_fake_sraa(tmp_path / "sraa" / "sraa.tar.gz")
    ds = load_dataset(name, root=tmp_path, download=False)
    assert ds.X.shape[0] == 24 and np.sum(ds.y > 0) == 12
    np.testing.assert_allclose(np.sqrt(ds.X.multiply(ds.X).sum(axis=1)).A1, 1.0)
    assert f"ssl_repro_cache/{name}." in load_dataset(name, root=tmp_path, download=False).source


def test_real_sim_from_libsvm_file(tmp_path):
    (tmp_path / "sraa").mkdir()
    text = "+1 1:0.5 3:0.25\n-1 2:1.0\n+1 1:0.1 2:0.2 3:0.3\n-1 3:0.9\n"
    (tmp_path / "sraa" / "real-sim.bz2").write_bytes(bz2.compress(text.encode()))
    ds = load_dataset("real-sim", root=tmp_path, download=False)
    assert ds.X.shape == (4, 3) and list(ds.y) == [1, -1, 1, -1]


def test_sraa_missing_and_corrupt(tmp_path):
    with pytest.raises(DatasetNotAvailable, match=r"sraa\.tar\.gz.*mccallum"):
        load_dataset("aut-avn", root=tmp_path, download=False)
    (tmp_path / "sraa").mkdir()
    (tmp_path / "sraa" / "sraa.tar.gz").write_bytes(b"garbage")
    with pytest.raises(ValueError, match="not a readable SRAA tarball"):
        load_dataset("aut-avn", root=tmp_path, download=False)


def test_full_kdd99_file_parses(tmp_path):
    rows = ["0,tcp,http,SF,181,5450," + ",".join(["0"] * 35) + ",normal.",
            "0,udp,private,SF,105,146," + ",".join(["1"] * 35) + ",smurf.",
            "2,icmp,ecr_i,REJ,1032,0," + ",".join(["0.5"] * 35) + ",neptune."]
    (tmp_path / "kddcup99").mkdir()
    with gzip.open(tmp_path / "kddcup99" / "kddcup.data.gz", "wt") as f:
        f.write("\n".join(rows) + "\n")
    ds = load_dataset("kdd99", root=tmp_path, download=False)
    assert ds.X.shape == (3, 38 + 3 + 3 + 2)
    assert list(ds.y) == [-1, 1, 1]
    assert ds.X.data.min() >= 0 and ds.X.data.max() <= 1


def test_kdd99_wrong_column_count(tmp_path):
    (tmp_path / "kddcup99").mkdir()
    with gzip.open(tmp_path / "kddcup99" / "kddcup.data.gz", "wt") as f:
        f.write("1,2,3\n4,5,6\n")
    with pytest.raises(ValueError, match="expected 42 comma-separated columns"):
        load_dataset("kdd99", root=tmp_path, download=False)


def test_33_vs_36_needs_the_user_file(tmp_path):
    with pytest.raises(DatasetNotAvailable, match=r"proprietary.*33-vs-36\.svmlight"):
        load_dataset("33-vs-36", root=tmp_path, download=False)
    (tmp_path / "33-vs-36").mkdir()
    (tmp_path / "33-vs-36" / "33-vs-36.svmlight").write_text("33 1:1 5:2\n36 2:1\n33 5:1\n")
    ds = load_dataset("33-vs-36", root=tmp_path, download=False)
    assert ds.X.shape == (3, 5) and list(ds.y) == [-1, 1, -1]


def test_svmlight_user_file_and_errors(tmp_path):
    path = tmp_path / "mine.svm"
    path.write_text("1 1:0.5\n0 2:0.5\n1 3:1\n")
    ds = load_dataset("svmlight", root=tmp_path, path=path)
    assert list(ds.y) == [1, -1, 1]
    path.write_text("1 1:0.5\n2 2:0.5\n3 3:1\n")
    with pytest.raises(ValueError, match="expected two classes, found 3"):
        load_dataset("svmlight", root=tmp_path, path=path)
    path.write_text("this is : not svmlight\n")
    with pytest.raises(ValueError, match="not a readable svmlight"):
        load_dataset("svmlight", root=tmp_path, path=path)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_dataset("svmlight", root=tmp_path, path=tmp_path / "nope.svm")


def test_svmlin_pair_reads_features_and_labels_with_unlabeled_zeros(tmp_path):
    ex, lab = tmp_path / "examples.svmlin", tmp_path / "labels"
    ex.write_text("1:0.5 3:0.5\n2:1\n\n1:0.2 4:0.1\n")
    lab.write_text("1\n-1\n0\n0\n")
    X, y = load_svmlin_pair(ex, lab)
    assert X.shape == (4, 4) and list(y) == [1, -1, 0, 0] and X[2].nnz == 0
    ds = load_dataset("svmlin", root=tmp_path, examples=ex, labels=lab)
    assert ds.info.transductive and list(ds.y) == [1, -1, 0, 0]
    split = make_split(ds, seed=0, n_labeled=2)
    assert list(split.labeled) == [0, 1] and list(split.unlabeled) == [2, 3] and split.test.size == 0


def test_svmlin_pair_errors(tmp_path):
    ex, lab = tmp_path / "examples.svmlin", tmp_path / "labels"
    ex.write_text("1:0.5 3:0.5\n2:1\n")
    lab.write_text("1\n-1\n0\n")
    with pytest.raises(ValueError, match="has 3 labels but .* has 2 examples"):
        load_svmlin_pair(ex, lab)
    lab.write_text("1\n2\n")
    with pytest.raises(ValueError, match=r"\+1, -1 or 0"):
        load_svmlin_pair(ex, lab)
    ex.write_text("1-0.5\n2:1\n")
    lab.write_text("1\n-1\n")
    with pytest.raises(ValueError, match="expected 'id:value' pairs"):
        load_svmlin_pair(ex, lab)


def test_usenet_headers_other_than_subject_are_dropped():
    """The Newsgroups header names the class: it must not reach the features."""
    from ssl_repro.data.text import subject_and_body
    text = subject_and_body("From: a@b\nNewsgroups: rec.autos\nSubject: brakes\n\nmy car\n")
    assert "rec.autos" not in text and "a@b" not in text and "brakes" in text and "my car" in text
