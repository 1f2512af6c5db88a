"""RCV1-v2 via scikit-learn's ``fetch_rcv1`` (ccat, gcat, full-ccat, full-gcat; 004 Table 1.1; and 002 Sec. 5.1's
CCAT against GCAT, :data:`CCAT_VS_GCAT`).

``fetch_rcv1`` already gives cosine-normalized log TF-IDF rows over 47,236
features.  ccat/gcat use the 23,149-document training portion
(``subset="train"``; the paper's l+u+t is 23,119); full-ccat/full-gcat all
804,414 documents.  The target is the CCAT (resp. GCAT) topic column, +1 if
the document has the topic.  002 Sec. 5.1 separates "the two largest top-level categories CCAT
(CORPORATE/INDUSTRIAL) and GCAT (GOVERNMENT/SOCIAL) of the training part of the Reuters dataset as prepared by
Lewis et al. (2004)", 17,754 documents: :data:`CCAT_VS_GCAT` reads the training portion's documents with exactly
one of the two topics (one with both is neither class), CCAT +1 and GCAT -1.  That the count is 002's is
unchecked: no copy of RCV1 was at hand when this was written.  scikit-learn caches under ``<root>/RCV1/``
the joblib pickles in :data:`CACHE_FILES`, which it builds from five
archives it downloads when allowed.
"""
import pickle
import zlib

import numpy as np
import scipy.sparse as sp

from ssl_repro.data.cache import ALLOW_DOWNLOAD, folders_kept_only_on_success, missing

#: 002 Sec. 5.1's task (``experiments/cccp_002_large.py --data rcv1``), not one of the registry's sets.
CCAT_VS_GCAT = "rcv1-ccat-vs-gcat"
#: Per dataset, its topic (+1, against the rest) or its pair of topics (+1 against -1).
TOPIC = {"ccat": "CCAT", "gcat": "GCAT", "full-ccat": "CCAT", "full-gcat": "GCAT", CCAT_VS_GCAT: ("CCAT", "GCAT")}
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
    topics = TOPIC[name] if isinstance(TOPIC[name], tuple) else (TOPIC[name],)
    for topic in topics:
        if topic not in names:
            raise ValueError(f"{name}: the RCV1 cache in {folder} has no topic {topic}")
    target = sp.csc_matrix(bunch.target)
    positive, *negative = [target[:, names.index(topic)].toarray().ravel() > 0 for topic in topics]
    rows = positive != negative[0] if negative else np.ones(positive.size, dtype=bool)    # a pair: one topic, not both
    y = np.where(positive[rows], 1, -1).astype(np.int8)
    X = sp.csr_matrix(bunch.data, dtype=np.float64)
    if negative:
        X = X[rows]                       # (not for one topic: a copy of full-ccat's 804,414 rows)
    X.sort_indices()
    return X, y, str(folder)
