"""A user's own files: svmlight/LIBSVM, the reference software's pair of files, 33-vs-36, LIBSVM real-sim.

The reference software (SVMlin) reads a features-only file with one
"id:val id:val ..." line per example (ids 1-based) and a labels file with
one of +1, -1 or 0 per line, 0 marking an unlabeled example.
"""
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import load_svmlight_file

from ..labels import UNLABELED
from .cache import DatasetNotAvailable, fetch
from .text import SRAA_URL

LIBSVM_REAL_SIM = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary/real-sim.bz2"


def read_svmlight(path, name):
    """(X, y) from an svmlight/LIBSVM file with two classes, mapped to +1/-1 (larger value = +1).

    Labels in {-1, 0, +1} with some 0s follow SVMlight's transductive
    convention: 0 marks an unlabeled row, kept as 0 (truth unknown)."""
    path = Path(path)
    if not path.exists():
        raise DatasetNotAvailable(f"dataset {name!r}: file {path} does not exist")
    try:
        X, labels = load_svmlight_file(str(path), dtype=np.float64)
    except (ValueError, OSError, EOFError) as exc:
        raise ValueError(f"{path} is not a readable svmlight/LIBSVM file: {exc}") from exc
    classes = np.unique(labels)
    if 0 in classes and set(classes.tolist()) <= {-1.0, 0.0, 1.0} and classes.size == 3:
        X = sp.csr_matrix(X)
        X.sort_indices()
        return X, labels.astype(np.int8)        # SVMlight: 0 = unlabeled
    if classes.size != 2:
        raise ValueError(f"{path}: expected two classes, found {classes.size} ({classes[:10].tolist()})")
    X = sp.csr_matrix(X)
    X.sort_indices()
    return X, np.where(labels == classes[1], 1, -1).astype(np.int8)


def load_svmlin_pair(examples, labels):
    """X and y from the reference software's two files, y in the ``fit`` convention of :mod:`ssl_repro.labels`.

    The file's +1 becomes class 1, its -1 class 0, its 0 (unlabeled)
    :data:`~ssl_repro.labels.UNLABELED` (the unlabeled marker of
    :mod:`sklearn.semi_supervised`), so
    ``LinearDA().fit(*load_svmlin_pair(...))`` trains on what the files say;
    a positive output means the file's +1.
    """
    X, y = read_svmlin_pair(examples, labels)
    return X, np.where(y == 0, UNLABELED, (y > 0).astype(np.int8)).astype(np.int8)


def read_svmlin_pair(examples, labels):
    """X and the file's labels in {-1, 0, +1} (0 = unlabeled), as the reference software reads them."""
    examples, labels = Path(examples), Path(labels)
    for path in (examples, labels):
        if not path.exists():
            raise DatasetNotAvailable(f"dataset 'svmlin': file {path} does not exist")
    rows, cols, vals = [], [], []
    with open(examples) as f:
        n_rows = 0
        for n_rows, line in enumerate(f, start=1):
            for token in line.split():
                try:
                    j, v = token.split(":")
                    cols.append(int(j) - 1)
                    vals.append(float(v))
                except ValueError:
                    raise ValueError(f"{examples}, line {n_rows}: expected 'id:value' pairs, got {token!r}") from None
                rows.append(n_rows - 1)
    try:
        y = np.loadtxt(labels, dtype=np.float64, ndmin=1)
    except ValueError as exc:
        raise ValueError(f"{labels}: expected one of +1, -1, 0 per line: {exc}") from exc
    if y.shape[0] != n_rows:
        raise ValueError(f"{labels} has {y.shape[0]} labels but {examples} has {n_rows} examples")
    if not np.isin(y, (-1, 0, 1)).all():
        raise ValueError(f"{labels}: labels must be +1, -1 or 0 (unlabeled)")
    if cols and min(cols) < 0:
        raise ValueError(f"{examples}: feature ids are 1-based")
    X = sp.csr_matrix((vals, (rows, cols)), shape=(n_rows, max(cols, default=-1) + 1))
    X.sum_duplicates()
    X.sort_indices()
    return X, y.astype(np.int8)


def load_libsvm_real_sim(root, download):
    """real-sim as vectorized by LIBSVM (the same SRAA data), ``<root>/sraa/real-sim.bz2``."""
    path = fetch("real-sim", root / "sraa" / "real-sim.bz2", LIBSVM_REAL_SIM, download,
                 hint=f"or put the SRAA tarball at {root / 'sraa' / 'sraa.tar.gz'} ({SRAA_URL})")
    X, y = read_svmlight(path, "real-sim")
    return X, y, str(path)


def load_33_vs_36(root, path=None):
    """The proprietary Yahoo! shopping set: the user supplies it as an svmlight file."""
    path = Path(path) if path else root / "33-vs-36" / "33-vs-36.svmlight"
    if not path.exists():
        raise DatasetNotAvailable(
            f"dataset '33-vs-36' is proprietary (Yahoo! shopping) and cannot be downloaded: put it as an "
            f"svmlight file at {path} (or set dataset.path in the config / pass path=)")
    X, y = read_svmlight(path, "33-vs-36")
    return X, y, str(path)
