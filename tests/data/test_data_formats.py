"""Every loader of a dataset that cannot be downloaded here parses a small fake file in its exact
source format, written by the test; bad files fail with clear messages."""
import bz2
import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from fake_data_files import write_fake_rcv1, write_fake_sraa
from solver_problems import dense_masked_problem, fit_quietly
from ssl_repro.data import DatasetNotAvailable, data_root, load_dataset, load_svmlin_pair, make_split
from ssl_repro.data.rcv1 import CCAT_VS_GCAT, load_rcv1
from ssl_repro.estimators import LinearDA, mask_labels


N_RCV1_TRAIN = 23149      # fetch_rcv1's training portion: the first 23,149 documents


@pytest.fixture(scope="module")
def fake_rcv1(tmp_path_factory):
    """scikit-learn's RCV1 cache (:func:`fake_data_files.write_fake_rcv1`) with three documents more than the
    training portion, so ccat and full-ccat differ."""
    root = tmp_path_factory.mktemp("rcv1_root")
    X, topics = write_fake_rcv1(root / "RCV1", N_RCV1_TRAIN + 3)
    return root, X, topics


@pytest.mark.parametrize("name, column, rows", [("ccat", 1, N_RCV1_TRAIN), ("gcat", 3, N_RCV1_TRAIN),
                                                ("full-ccat", 1, N_RCV1_TRAIN + 3),
                                                ("full-gcat", 3, N_RCV1_TRAIN + 3)])
def test_rcv1_loaders_read_scikit_learns_cache(fake_rcv1, name, column, rows):
    root, X, topics = fake_rcv1
    ds = load_dataset(name, root=root, download=False)
    assert ds.X.shape == (rows, 47236) and ds.X.nnz == X[:rows].nnz and ds.X.has_sorted_indices
    np.testing.assert_array_equal(ds.y, np.where(topics[:rows, column] > 0, 1, -1))
    assert ds.source == str(root / "RCV1")


def test_002s_ccat_vs_gcat_reads_the_training_documents_of_one_of_the_two_topics(fake_rcv1):
    """002 Sec. 5.1's task: CCAT (+1) against GCAT (-1) over the training portion, a document with both dropped."""
    root, X, topics = fake_rcv1
    X_task, y, source = load_rcv1(CCAT_VS_GCAT, root, download=False)
    ccat, gcat = topics[:N_RCV1_TRAIN, 1] > 0, topics[:N_RCV1_TRAIN, 3] > 0
    one = ccat != gcat
    assert (ccat & gcat).any() and (~ccat & ~gcat).any()      # the fake holds documents of both and of neither
    assert X_task.shape == (one.sum(), 47236) and (X_task != X[:N_RCV1_TRAIN][one]).nnz == 0
    np.testing.assert_array_equal(y, np.where(ccat[one], 1, -1))
    assert X_task.has_sorted_indices and source == str(root / "RCV1")

def test_rcv1_missing_cache_names_every_file_and_the_url(tmp_path):
    with pytest.raises(DatasetNotAvailable, match=r"RCV1/samples_py3\.pkl.*RCV1/topics_names_py3\.pkl.*"
                                                  r"lewis04a.*fetch_rcv1"):
        load_dataset("ccat", root=tmp_path, download=False)


def test_rcv1_corrupt_cache_fails_clearly(tmp_path):
    (tmp_path / "RCV1").mkdir()
    for name in ("samples", "sample_id", "sample_topics", "topics_names"):
        (tmp_path / "RCV1" / f"{name}_py3.pkl").write_bytes(b"not a pickle")
    with pytest.raises(ValueError, match=r"RCV1 cache in .*RCV1 is not readable"):
        load_dataset("gcat", root=tmp_path, download=False)


@pytest.mark.parametrize("name, positive", [("aut-avn", {"realauto", "simauto"}),
                                            ("real-sim", {"realauto", "realaviation"})])
def test_sraa_loaders_read_the_tarball(tmp_path, name, positive):
    write_fake_sraa(tmp_path / "sraa" / "sraa.tar.gz")
    ds = load_dataset(name, root=tmp_path, download=False)
    assert ds.X.shape[0] == 24 and np.sum(ds.y > 0) == 12
    # rows in the tarball's (sorted) order: 6 messages per group; +1 exactly for the positive groups
    groups = np.repeat(["realauto", "realaviation", "simauto", "simaviation"], 6)
    np.testing.assert_array_equal(ds.y, np.where(np.isin(groups, sorted(positive)), 1, -1))
    np.testing.assert_allclose(np.sqrt(ds.X.multiply(ds.X).sum(axis=1)).A1, 1.0)
    assert f"ssl_repro_cache/{name}." in load_dataset(name, root=tmp_path, download=False).source


def test_real_sim_from_libsvm_file(tmp_path):
    (tmp_path / "sraa").mkdir()
    text = "+1 1:0.5 3:0.25\n-1 2:1.0\n+1 1:0.1 2:0.2 3:0.3\n-1 3:0.9\n"
    (tmp_path / "sraa" / "real-sim.bz2").write_bytes(bz2.compress(text.encode()))
    ds = load_dataset("real-sim", root=tmp_path, download=False)
    assert ds.X.shape == (4, 3) and list(ds.y) == [1, -1, 1, -1]


def test_unreadable_cache_is_rebuilt_with_a_warning(tmp_path):
    write_fake_sraa(tmp_path / "sraa" / "sraa.tar.gz")
    first = load_dataset("aut-avn", root=tmp_path, download=False)
    cache = next((tmp_path / "ssl_repro_cache").glob("aut-avn.*.npz"))
    cache.write_bytes(b"truncated")
    with pytest.warns(UserWarning, match="unreadable cache"):
        rebuilt = load_dataset("aut-avn", root=tmp_path, download=False)
    assert rebuilt.source.endswith("sraa.tar.gz") and (rebuilt.X != first.X).nnz == 0
    assert load_dataset("aut-avn", root=tmp_path, download=False).source == str(cache)


def test_real_sim_missing_names_both_sources(tmp_path):
    with pytest.raises(DatasetNotAvailable, match=r"real-sim\.bz2.*csie\.ntu\.edu\.tw.*sraa\.tar\.gz"):
        load_dataset("real-sim", root=tmp_path, download=False)


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


def test_kdd99_non_numeric_feature_fails_clearly(tmp_path):
    (tmp_path / "kddcup99").mkdir()
    row = "0,tcp,http,SF,oops,5450," + ",".join(["0"] * 35) + ",normal."
    (tmp_path / "kddcup99" / "kddcup.data.gz").write_bytes(gzip.compress((row + "\n").encode()))
    with pytest.raises(ValueError, match="not a readable KDD'99 file.*oops"):
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
    with pytest.raises(ValueError, match=r"mine.svm: expected two classes .*found 3: 1, 2, 3; line 3 holds the third"):
        load_dataset("svmlight", root=tmp_path, path=path)
    path.write_text("this is : not svmlight\n")
    with pytest.raises(ValueError, match="mine.svm, line 1: the label 'this' is not a number"):
        load_dataset("svmlight", root=tmp_path, path=path)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_dataset("svmlight", root=tmp_path, path=tmp_path / "nope.svm")


def test_svmlin_pair_reads_features_and_labels_with_unlabeled_zeros(tmp_path):
    ex, lab = tmp_path / "examples.svmlin", tmp_path / "labels"
    ex.write_text("1:0.5 3:0.5\n2:1\n\n1:0.2 4:0.1\n")
    lab.write_text("1\n-1\n0\n0\n")
    X, y = load_svmlin_pair(ex, lab)
    # the estimators' convention: the file's +1 -> 1, -1 -> 0, 0 (unlabeled) -> -1
    assert X.shape == (4, 4) and list(y) == [1, 0, -1, -1] and X[2].nnz == 0
    ds = load_dataset("svmlin", root=tmp_path, examples=ex, labels=lab)
    assert ds.info.transductive and list(ds.y) == [1, -1, 0, 0]     # the truth, 0 = unknown
    assert list(ds.fit_labels()) == [1, 0, -1, -1]
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


def write_svmlin_pair(folder, n=40, n_known=12):
    """A features-only file and a labels file (+1/-1 on the first n_known rows, 0 after)."""
    rng = np.random.default_rng(1)
    ex, lab = folder / "examples.svmlin", folder / "labels"
    ex.write_text("".join(f"{j + 1}:{rng.random():.3f} {j + 3}:1\n" for j in rng.integers(0, 5, size=n)))
    y = np.where(np.arange(n) < n_known, np.where(np.arange(n) % 3 == 0, 1, -1), 0)
    lab.write_text("".join(f"{v:+d}\n" if v else "0\n" for v in y))
    return ex, lab, y


def test_svmlin_split_draws_nested_labels_from_the_labeled_rows(tmp_path):
    ex, lab, y = write_svmlin_pair(tmp_path)
    ds = load_dataset("svmlin", examples=ex, labels=lab)
    known = np.flatnonzero(y != 0)
    full = make_split(ds, seed=0, n_labeled=known.size)
    assert np.array_equal(full.labeled, known) and np.array_equal(full.unlabeled, np.flatnonzero(y == 0))
    assert full.r == pytest.approx(np.mean(y[known] > 0))
    small, smaller = make_split(ds, seed=3, n_labeled=6), make_split(ds, seed=3, n_labeled=3)
    assert set(smaller.labeled) <= set(small.labeled) <= set(known)
    assert set(y[smaller.labeled]) == {-1, 1}
    assert set(small.unlabeled) == set(range(y.size)) - set(small.labeled) and small.test.size == 0
    with pytest.raises(ValueError, match="n_labeled must be between 2 and 12"):
        make_split(ds, seed=0, n_labeled=13)


def test_info_cli_on_a_svmlin_pair(tmp_path, capsys):
    from ssl_repro.data.__main__ import main
    ex, lab, y = write_svmlin_pair(tmp_path)
    main(["info", "svmlin", "--examples", str(ex), "--labels", str(lab)])
    out = json.loads(capsys.readouterr().out)
    assert out["rows"] == 40 and out["rows_without_label"] == 28 and out["features"] == 7
    assert out["positive_fraction"] == round(float(np.mean(y[y != 0] > 0)), 4)


def test_data_root_argument_then_environment_then_sklearn_home(tmp_path, monkeypatch):
    from sklearn.datasets import get_data_home
    monkeypatch.setenv("SSL_REPRO_DATA", str(tmp_path / "env"))
    assert data_root(tmp_path / "arg") == tmp_path / "arg"
    assert data_root() == tmp_path / "env"
    monkeypatch.delenv("SSL_REPRO_DATA")
    monkeypatch.setenv("SCIKIT_LEARN_DATA", str(tmp_path / "skl"))
    assert data_root() == Path(get_data_home()) == tmp_path / "skl"


def test_the_svmlin_loader_returns_labels_the_estimators_read_right(tmp_path):
    X, y = dense_masked_problem(n=60)
    truth = np.where(y == 1, 1, -1)
    file_labels = np.where(np.arange(60) < 20, truth, 0)
    (tmp_path / "ex").write_text("\n".join(" ".join(f"{j + 1}:{float(v)!r}" for j, v in enumerate(row)) for row in X) + "\n")
    (tmp_path / "lab").write_text("\n".join(str(v) for v in file_labels) + "\n")
    X_file, y_file = load_svmlin_pair(tmp_path / "ex", tmp_path / "lab")
    model = fit_quietly(LinearDA(), X_file, y_file)
    reference = fit_quietly(LinearDA(), X, mask_labels(truth, np.arange(20)))
    np.testing.assert_allclose(model.coef_, reference.coef_, rtol=1e-9, atol=1e-12)
    assert (np.flatnonzero(y_file == -1) == np.arange(20, 60)).all()


def test_availability_asks_the_loaders_files_without_loading_them(tmp_path):
    from ssl_repro.data import availability
    assert availability("aut-avn", tmp_path).state == "missing" and not list(tmp_path.iterdir())
    assert availability("aut-avn", tmp_path, download=True).state == "download"
    assert availability("33-vs-36", tmp_path, download=True).state == "missing"       # proprietary
    write_fake_sraa(tmp_path / "sraa" / "sraa.tar.gz")
    here = availability("real-sim", tmp_path)
    assert (here.state, here.detail) == ("here", str(tmp_path / "sraa" / "sraa.tar.gz"))
    load_dataset("aut-avn", root=tmp_path, download=False)
    (tmp_path / "sraa" / "sraa.tar.gz").unlink()
    cached = availability("aut-avn", tmp_path)                # the vectorized cache alone still loads
    assert cached.state == "here" and "ssl_repro_cache" in cached.detail
    assert load_dataset("aut-avn", root=tmp_path, download=False).source in cached.detail
    assert availability("real-sim", tmp_path).state == "missing"
    assert availability("synthetic-gcat", tmp_path).state == "generated"
