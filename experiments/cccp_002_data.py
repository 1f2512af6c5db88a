"""002's small-scale data and records, for ``experiments/cccp_002.py``: the sets, their labeled splits, the
error, and the record files under ``results/cccp_002/`` (merged under a lock, with provenance).

Data (002 Table 1): ``digits`` (the registry's, scikit-learn's 1,797 digits: the analog of 002's uspst,
10 classes one-vs-rest, 50 labeled rows, 5 per class), ``mnist-5k`` (the registry's 5,000 MNIST digits,
a real subset of 002's MNIST: Table 5, Fig 9 and Table 6's MNIST-8 in ``experiments/cccp_002_mnist.py``), ``g50c``, the package's embedded set (two 50-dimensional
Gaussians, Bayes error 5%: 550 rows), 50 labeled rows and the other 500
unlabeled; ``text``, 20 Newsgroups comp.os.ms-windows.misc (+1) vs
comp.sys.mac.hardware, vectorized as the package's 20 Newsgroups tasks are
(:func:`ssl_repro.data.text.vectorize`), 50 labeled rows and the rest
unlabeled.  Split s draws the labeled rows with seed s, stratified by class
(both classes present).  As in 002 (Chapelle & Zien's protocol) the error is
the transductive one, on the unlabeled rows.

Records: ``results/cccp_002/table6.csv``, ``linear_diagnosis.csv``, ``sets.csv`` (Table 1: rows, features,
nonzeros per row, positive share), ``grid.csv`` (one row per dataset, split, method, grid point), ``path.csv``
(Fig 4), ``times.csv`` (Fig 3), the K-class records (``grid_digits.csv``, ``mnist.csv``, ``table6_mnist8.csv``,
``fig6.csv`` and ``fig6_mnist5k.csv``: Fig 6 on digits and mnist-5k), ``provenance.json`` (every run's provenance
and ``data_keys``: the key of each set a run used, g50c, text, digits or mnist-5k, as the last run that used it
stamped it).
"""
import fcntl
from pathlib import Path

import numpy as np
import pandas as pd

from ssl_repro.data import data_root, load_dataset
from ssl_repro.data.keys import data_keys
from ssl_repro.data.text import newsgroups_cache, vectorize
from ssl_repro.utils.provenance import add_provenance, git_commit

OUT = Path(__file__).resolve().parents[1] / "results" / "cccp_002"
N_LABELED = 50
TEXT_GROUPS = ("comp.os.ms-windows.misc", "comp.sys.mac.hardware")
NOT_HERE = "SVM-light: not run (no --svm-learn given, none built: python -m ssl_repro.peers build svm-light)"


def text_set(root):
    """(X, y) of 002's text: comp.os.ms-windows.misc (+1) vs comp.sys.mac.hardware (module doc)."""
    from sklearn.datasets import fetch_20newsgroups
    pkz = newsgroups_cache(root)
    bunch = fetch_20newsgroups(data_home=str(pkz.parent), subset="all", download_if_missing=False, shuffle=False,
                               remove=("footers",))
    names = np.asarray(bunch.target_names)[bunch.target]
    rows = np.flatnonzero(np.isin(names, TEXT_GROUPS))
    return vectorize([bunch.data[i] for i in rows]), np.where(names[rows] == TEXT_GROUPS[0], 1, -1)


#: The sets read from the package's registry as they are: g50c (embedded) and the K-class sets standing for
#: 002's uspst (digits, an analog) and MNIST (mnist-5k, a real subset), whose truth is the class numbers 0..9.
REGISTRY_SETS = ("g50c", "digits", "mnist-5k")


def load(name):
    """(X, y) of ``g50c``, ``digits`` or ``mnist-5k`` (the registry's) or ``text`` (from the data root)."""
    if name in REGISTRY_SETS:
        d = load_dataset(name)
        return d.X.tocsr(), np.asarray(d.y)
    return text_set(data_root())


def split_rows(y, seed, n_labeled=N_LABELED):
    """(labeled, unlabeled) row indices: ``n_labeled`` rows stratified by class (+1 then -1, or the K classes
    0..K-1 of a K-class set: 5 of each of digits' 10 at 50), drawn with ``seed``."""
    rng = np.random.default_rng(seed)
    labeled = []
    for c in ((1, -1) if set(np.unique(y)) <= {-1, 1} else np.unique(y)):
        rows = rng.permutation(np.flatnonzero(y == c))
        labeled.append(rows[:int(round(n_labeled * np.mean(y == c)))])
    labeled = np.sort(np.concatenate(labeled))
    return labeled, np.setdiff1d(np.arange(y.size), labeled)


def error(values, truth):
    """The share of rows whose sign of ``values`` is not ``truth`` (+1/-1); for K classes (``values`` of
    shape (n, K), one-vs-rest outputs) whose largest output's class is not ``truth`` (0..K-1)."""
    if np.ndim(values) == 2:
        return float(np.mean(np.argmax(values, axis=1) != truth))
    return float(np.mean(np.where(values > 0, 1, -1) != truth))


def write(path, rows, key):
    """Merge ``rows`` into the CSV ``path`` (rows of the same ``key`` replaced), under a lock on
    ``path``.lock, so that runs on two datasets may share grid.csv.  Each new row carries this run's code
    commit (``git_commit``), so a merged file says which rows which code made
    (``experiments/record_commits.py``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        frame = pd.DataFrame(rows).assign(git_commit=git_commit()) if rows else pd.DataFrame(rows)
        if path.exists():
            merged = pd.concat([pd.read_csv(path), frame], ignore_index=True)
            frame = merged.drop_duplicates(subset=[k for k in key if k in merged], keep="last")
        frame.to_csv(path, index=False)


def note(universvm, what, used, svmlight=None):
    """Provenance (this run's and the earlier ones'), the peers used (``svmlight``: SVM-light's binary and
    version, or None: :data:`NOT_HERE`) and the keys of the data this run used (``used``: name -> its (X, y) or
    loaded Dataset, :func:`ssl_repro.data.keys.data_keys`), merged with the earlier runs' keys."""
    add_provenance(OUT / "provenance.json", data_keys=data_keys(used), universvm=str(universvm) if universvm else None,
                   svmlight=svmlight or NOT_HERE, last=what)
