"""RCV1-v2 via scikit-learn's ``fetch_rcv1`` (ccat, gcat, full-ccat, full-gcat; 004 Table 1.1).

``fetch_rcv1`` already gives cosine-normalized log TF-IDF rows over 47,236
features.  ccat/gcat use the 23,149-document training portion
(``subset="train"``; the paper's l+u+t is 23,119); full-ccat/full-gcat all
804,414 documents.  The target is the CCAT (resp. GCAT) topic column, +1 if
the document has the topic.  scikit-learn caches under ``<root>/RCV1/``
the joblib pickles in :data:`CACHE_FILES`, which it builds from five
archives it downloads when allowed.
"""
import pickle
import zlib

import numpy as np
import scipy.sparse as sp

from ssl_repro.data.cache import ALLOW_DOWNLOAD, folders_kept_only_on_success, missing

TOPIC = {"ccat": "CCAT", "gcat": "GCAT", "full-ccat": "CCAT", "full-gcat": "GCAT"}
CACHE_FILES = ("samples_py3.pkl", "sample_id_py3.pkl", "sample_topics_py3.pkl", "topics_names_py3.pkl")
URL = ("https://jmlr.csail.mit.edu/papers/volume5/lewis04a/ (scikit-learn's fetch_rcv1 downloads the "
       "vectors and topics from https://ndownloader.figshare.com/files/5976069 and siblings)")


def load_rcv1(name, root, download):
    """(X, y, source) of an RCV1 dataset from scikit-learn's cache under ``<root>/RCV1``."""
    from sklearn.datasets import fetch_rcv1
    folder = root / "RCV1"
    absent = [folder / f for f in CACHE_FILES if not (folder / f).exists()]
    if absent and not download:
        raise missing(name, absent, URL, ALLOW_DOWNLOAD)
    subset = "all" if name.startswith("full-") else "train"
    try:
        with folders_kept_only_on_success(folder):
            bunch = fetch_rcv1(data_home=str(root), subset=subset, download_if_missing=download)
    except OSError as exc:
        raise missing(name, absent or folder, URL, f"fetch_rcv1 failed: {exc}") from exc
    except (ValueError, EOFError, KeyError, pickle.UnpicklingError, zlib.error) as exc:
        raise ValueError(f"{name}: scikit-learn's RCV1 cache in {folder} is not readable ({exc!r}); "
                         f"delete the folder to rebuild it") from exc
    names = list(np.asarray(bunch.target_names))
    if TOPIC[name] not in names:
        raise ValueError(f"{name}: the RCV1 cache in {folder} has no topic {TOPIC[name]}")
    column = sp.csc_matrix(bunch.target)[:, names.index(TOPIC[name])]
    y = np.where(column.toarray().ravel() > 0, 1, -1).astype(np.int8)
    X = sp.csr_matrix(bunch.data, dtype=np.float64)
    X.sort_indices()
    return X, y, str(folder)
