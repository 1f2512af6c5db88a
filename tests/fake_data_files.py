"""Small files in the exact formats of the sources of the sets that cannot be downloaded here: the SRAA
tarball and scikit-learn's RCV1 cache, written by the tests into a temporary data root."""
import io
import tarfile

import joblib
import numpy as np
import scipy.sparse as sp


def write_fake_sraa(path, per_group=6):
    """The SRAA tarball layout: sraa/<realauto|realaviation|simauto|simaviation>/<message id>."""
    vocab = {"realauto": "engine brake tire garage", "realaviation": "wing cockpit runway pilot",
             "simauto": "engine racing lap tire game", "simaviation": "simulator cockpit flight game"}
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w:gz") as tar:
        for folder in ["sraa", *(f"sraa/{group}" for group in vocab)]:
            info = tarfile.TarInfo(folder)
            info.type, info.mode = tarfile.DIRTYPE, 0o755
            tar.addfile(info)
        for group, words in vocab.items():
            for i in range(per_group):
                body = (f"From: someone@example.com\nNewsgroups: rec.{group}\nSubject: post {i}\n\n"
                        f"{words} message number {i} {words}\n")
                data = body.encode("latin-1")
                info = tarfile.TarInfo(f"sraa/{group}/{1000 + i}")
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))


def write_fake_rcv1(folder, n_documents, seed=0):
    """What sklearn's fetch_rcv1 caches under <data_home>/RCV1 (read in sklearn/datasets/_rcv1.py):
    samples_py3.pkl (CSR X), sample_id_py3.pkl (uint32 ids), sample_topics_py3.pkl (sparse uint8
    documents x topics), topics_names_py3.pkl (object array of sorted topic codes), all joblib dumps.
    Returns (X, dense topics) with the columns C15, CCAT, ECAT, GCAT."""
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    X = sp.random(n_documents, 47236, density=2e-5, random_state=rng, format="csr")
    topics = np.array(["C15", "CCAT", "ECAT", "GCAT"], dtype=object)
    y = sp.csr_array((rng.random((n_documents, 4)) < 0.4).astype(np.uint8))
    joblib.dump(X, folder / "samples_py3.pkl")
    joblib.dump(np.arange(n_documents, dtype=np.uint32), folder / "sample_id_py3.pkl")
    joblib.dump(y, folder / "sample_topics_py3.pkl")
    joblib.dump(topics, folder / "topics_names_py3.pkl")
    return X, y.toarray()
