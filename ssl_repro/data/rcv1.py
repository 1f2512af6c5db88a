"""RCV1-v2 via scikit-learn's ``fetch_rcv1`` (ccat, gcat, full-ccat, full-gcat).

``fetch_rcv1`` already gives cosine-normalized log TF-IDF rows over 47,236
features.  ccat/gcat use the 23,149-document training portion
(``subset="train"``); full-ccat/full-gcat all 804,414 documents.  The target
is the CCAT (resp. GCAT) topic column, +1 if the document has the topic.
scikit-learn caches under ``<root>/RCV1/`` (``samples_py3.pkl``,
``sample_id_py3.pkl``, ``sample_topics_py3.pkl``, ``topics_names_py3.pkl``).
"""
import numpy as np
import scipy.sparse as sp

from .store import missing

TOPIC = {"ccat": "CCAT", "gcat": "GCAT", "full-ccat": "CCAT", "full-gcat": "GCAT"}
URL = "https://jmlr.csail.mit.edu/papers/volume5/lewis04a/ (fetched by sklearn.datasets.fetch_rcv1)"


def load_rcv1(name, root, download):
    from sklearn.datasets import fetch_rcv1
    subset = "all" if name.startswith("full-") else "train"
    try:
        bunch = fetch_rcv1(data_home=str(root), subset=subset, download_if_missing=download)
    except (OSError, ValueError) as exc:
        raise missing(name, root / "RCV1" / "samples_py3.pkl", URL,
                      f"scikit-learn's fetch_rcv1 cache (RCV1/*.pkl) was not found or not readable: {exc}") from exc
    names = list(np.asarray(bunch.target_names))
    if TOPIC[name] not in names:
        raise ValueError(f"{name}: the RCV1 cache in {root / 'RCV1'} has no topic {TOPIC[name]}")
    column = bunch.target[:, [names.index(TOPIC[name])]]
    y = np.where(np.asarray(sp.csr_matrix(column).todense()).ravel() > 0, 1, -1).astype(np.int8)
    X = sp.csr_matrix(bunch.data, dtype=np.float64)
    X.sort_indices()
    return X, y, str(root / "RCV1")
