"""Text corpora vectorized by the package: pcmac (20 Newsgroups) and the SRAA UseNet sets.

Vectorization (the papers do not publish theirs): signature blocks and
every header line but the subject removed (20 Newsgroups "bydate" has no
Newsgroups header left; the SRAA messages do, and it would give the label
away), then scikit-learn's ``TfidfVectorizer`` with words of two or more
letters, English stop words dropped, words seen in at least two documents
(SRAA: in more than ten, as the tech report's footnote 13 did with Rainbow),
log(1 + tf) * idf weights (``sublinear_tf``), rows scaled to unit L2 norm --
the "TFIDF, length normalized" representation of Sec. 3.1.3 of the tech
report.  pcmac (comp.os.ms-windows.misc vs comp.sys.mac.hardware: the papers'
"mac or windows" task, :mod:`.registry`) comes out with 1,948 documents,
9,853 features and 64.5 nonzeros per row (Table 8: 1,946, 7,511 and 54.58).
The header lines stay in the first construction: on the earlier
ibm.pc-vs-mac pair, dropping them gave fewer features (7,467 of 8,742) but
raised every method's error by 2 to 7 points on three splits at 29 labels
(SVM 25.7% -> 32.8%).

The real-text analogs (``20ng-ccat-like``, ``20ng-gcat-like``,
``20ng-aut-avn-like``: :data:`NEWSGROUPS_ANALOGS`) are tasks of the same
20 Newsgroups documents, vectorized exactly as pcmac is (the function
:func:`vectorize` over the task's documents): the two category tasks over
all 18,846 documents, so they share one input space (000 Sec. 4: ccat and
gcat share X); aut-avn-like over its 2,973 documents.  Each analog has a
second construction (``-b``, :data:`NEWSGROUPS_TASKS`, reasons in
:mod:`.registry`): the bodies only, headers, signature blocks and quoted
replies removed (scikit-learn's ``remove=("headers", "footers",
"quotes")``) and the documents left empty by it dropped.  A task's cache
file is keyed by its definition (:func:`task_key`), so a changed task is
never read back from an older cache.  002's large task (Sec. 5.1, RCV1's CCAT vs
GCAT) has an analog of its own, ``20ng-ccat-vs-gcat`` (:data:`CCAT_VS_GCAT`): the
ccat-like groups against the gcat-like ones, vectorized over its 13,892 documents.
"""
import tarfile
from dataclasses import asdict, dataclass

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

from ssl_repro.data.cache import ALLOW_DOWNLOAD, cached, fetch, folders_kept_only_on_success, missing, parameters_key

#: pcmac: windows (+1) vs mac, as 001 Sec. 4 ("mac or windows") and 002 Table 1 ("mswindows and mac") name it.
PCMAC_GROUPS = ("comp.os.ms-windows.misc", "comp.sys.mac.hardware")
NEWSGROUPS_URL = "https://ndownloader.figshare.com/files/5975967 (scikit-learn's fetch_20newsgroups)"
SRAA_URL = "https://people.cs.umass.edu/~mccallum/data/sraa.tar.gz"
#: SRAA's four folders; aut-avn: auto (+1) vs aviation, real-sim: real (+1) vs simulated.
SRAA_GROUPS = ("realauto", "realaviation", "simauto", "simaviation")
SRAA_POSITIVE = {"aut-avn": ("realauto", "simauto"), "real-sim": ("realauto", "realaviation")}


#: Words must occur in more than ten SRAA documents (000, footnote 13).
SRAA_MIN_DF = 11


#: Words must occur in this many 20 Newsgroups documents or more (:func:`vectorize`'s default); part of a task's
#: cache key (:func:`task_key`).
NEWSGROUPS_MIN_DF = 2

#: The vectorizer's settings (besides ``min_df``), part of a task's cache key (:func:`task_key`).
VECTORIZER = dict(sublinear_tf=True, stop_words="english", token_pattern=r"(?u)\b[a-zA-Z][a-zA-Z]+\b")


def vectorize(texts, min_df=NEWSGROUPS_MIN_DF):
    """TF-IDF rows with unit norm of words seen in ``min_df`` documents or more (see module doc)."""
    vec = TfidfVectorizer(min_df=min_df, **VECTORIZER, dtype=np.float64)
    X = vec.fit_transform(texts).tocsr()
    X.sort_indices()
    return X


@dataclass(frozen=True)
class NewsgroupsTask:
    """A 20 Newsgroups task: group-name prefixes of the +1 class and of the -1 class (None = every
    other group), the parts of each message scikit-learn removes (``fetch_20newsgroups(remove=...)``),
    and whether documents left without a word of the vocabulary are dropped."""

    positive: tuple
    negative: tuple | None
    remove: tuple = ("footers",)
    drop_empty: bool = False


#: The bodies only (construction b of the analogs): headers, signature blocks and quoted replies removed.
BODIES_ONLY = dict(remove=("headers", "footers", "quotes"), drop_empty=True)
_CCAT, _GCAT = ("comp.", "sci."), ("talk.", "alt.atheism", "soc.religion.christian")
_AUT_AVN = (("rec.autos", "rec.motorcycles"), ("sci.space",))

#: 002's large task (Sec. 5.1, CCAT vs GCAT of RCV1) in 20 Newsgroups: the ccat-like groups (+1) against the
#: gcat-like ones, 13,892 documents (8,843 positive); used by ``experiments/cccp_002_large.py`` only (no
#: registry entry, no second construction).
CCAT_VS_GCAT = "20ng-ccat-vs-gcat"

#: The 20 Newsgroups tasks of the package (:class:`NewsgroupsTask`).  pcmac is 001's; the others are
#: real-text analogs of paper sets that cannot be had here (:mod:`.registry`: ``analog_of``): a top-level
#: category against the rest (ccat, gcat) and two related topics (aut-avn), each in two constructions.
#: Counts of the bydate corpus (18,846 documents): ccat-like 8,843 of 18,846 positive (r = 0.469),
#: gcat-like 5,049 (0.268), aut-avn-like 1,986 of 2,973 (0.668); pcmac 985 of 1,948 (0.506).
NEWSGROUPS_TASKS = {
    "pcmac": NewsgroupsTask(PCMAC_GROUPS[:1], PCMAC_GROUPS[1:]),
    "20ng-ccat-like": NewsgroupsTask(_CCAT, None),
    "20ng-gcat-like": NewsgroupsTask(_GCAT, None),
    "20ng-aut-avn-like": NewsgroupsTask(*_AUT_AVN),
    "20ng-ccat-like-b": NewsgroupsTask(_CCAT, None, **BODIES_ONLY),
    "20ng-gcat-like-b": NewsgroupsTask(_GCAT, None, **BODIES_ONLY),
    "20ng-aut-avn-like-b": NewsgroupsTask(*_AUT_AVN, **BODIES_ONLY),
    CCAT_VS_GCAT: NewsgroupsTask(_CCAT, _GCAT),
}
NEWSGROUPS_ANALOGS = tuple(name for name in NEWSGROUPS_TASKS if name not in ("pcmac", CCAT_VS_GCAT))


def task_key(name):
    """A short hash of task ``name``'s definition and of the vectorizer's settings (:data:`VECTORIZER`,
    :data:`NEWSGROUPS_MIN_DF`): its cache file's key (and its jobs' folders' key,
    :func:`ssl_repro.data.generator_key`), so that a changed setting builds the data anew instead of reading the
    old cache; None for a dataset that is no 20 Newsgroups task."""
    if name not in NEWSGROUPS_TASKS:
        return None
    return parameters_key({**asdict(NEWSGROUPS_TASKS[name]), "vectorizer": VECTORIZER, "min_df": NEWSGROUPS_MIN_DF})


def newsgroups_cache(root):
    """Where the 20 Newsgroups loaders read scikit-learn's cache of the bydate corpus."""
    return root / "20newsgroups" / "20news-bydate_py3.pkz"


def newsgroups_task(name, texts, groups):
    """(texts, +1/-1 labels) of task ``name`` (:data:`NEWSGROUPS_TASKS`) from documents and their groups:
    the documents of the task's groups, in corpus order."""
    positive, negative = NEWSGROUPS_TASKS[name].positive, NEWSGROUPS_TASKS[name].negative
    groups = np.asarray(groups, dtype=str)
    is_positive = np.char.startswith(groups[:, None], np.asarray(positive)[None, :]).any(axis=1)
    keep = (np.ones_like(is_positive) if negative is None
            else is_positive | np.char.startswith(groups[:, None], np.asarray(negative)[None, :]).any(axis=1))
    rows = np.flatnonzero(keep)
    return [texts[i] for i in rows], np.where(is_positive[rows], 1, -1).astype(np.int8)


def load_newsgroups(name, root, download):
    """A task of 20 Newsgroups (all of bydate: pcmac's 1,948 documents here; see :data:`NEWSGROUPS_TASKS`),
    cached under its name and :func:`task_key`."""
    task = NEWSGROUPS_TASKS[name]
    from sklearn.datasets import fetch_20newsgroups

    def build():
        pkz = newsgroups_cache(root)
        home = pkz.parent
        if not (pkz.exists() or download):
            raise missing(name, pkz, NEWSGROUPS_URL, ALLOW_DOWNLOAD)
        try:
            with folders_kept_only_on_success(home):
                bunch = fetch_20newsgroups(data_home=str(home), subset="all", download_if_missing=download,
                                           shuffle=False, remove=task.remove)
        except OSError as exc:
            if pkz.exists():
                raise ValueError(f"{name}: {pkz} is not a readable scikit-learn 20 Newsgroups cache "
                                 f"(scikit-learn said: {exc}); delete it to download it again") from exc
            raise missing(name, pkz, NEWSGROUPS_URL, f"scikit-learn said: {exc}") from exc
        texts, y = newsgroups_task(name, bunch.data, np.asarray(bunch.target_names)[bunch.target])
        X = vectorize(texts)
        if task.drop_empty:
            kept = np.flatnonzero(X.getnnz(axis=1) > 0)
            X, y = X[kept], y[kept]
        return X, y, str(pkz)

    return cached(root, f"{name}-{task_key(name)}", build)


def subject_and_body(message):
    """A UseNet message without its header lines, except the subject."""
    header, _, body = message.partition("\n\n")
    subject = [line for line in header.splitlines() if line.lower().startswith("subject:")]
    return "\n".join(subject + [body])


def read_sraa(path):
    """Texts and group names from the SRAA tarball (``sraa/<group>/<message>``)."""
    texts, groups = [], []
    try:
        with tarfile.open(path) as tar:
            for member in sorted(tar.getmembers(), key=lambda m: m.name):
                parts = member.name.strip("/").split("/")
                if member.isfile() and len(parts) >= 2 and parts[-2] in SRAA_GROUPS:
                    texts.append(subject_and_body(tar.extractfile(member).read().decode("latin-1")))
                    groups.append(parts[-2])
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise ValueError(f"{path} is not a readable SRAA tarball: {exc}") from exc
    if not texts:
        raise ValueError(f"{path} holds none of the SRAA folders {', '.join(SRAA_GROUPS)}")
    return texts, np.asarray(groups)


def load_sraa(name, root, download):
    """aut-avn or real-sim from the SRAA tarball ``<root>/sraa/sraa.tar.gz``."""

    def build():
        hint = "LIBSVM's real-sim.bz2 in the same folder also works" if name == "real-sim" else ""
        path = fetch(name, root / "sraa" / "sraa.tar.gz", SRAA_URL, download, hint)
        texts, groups = read_sraa(path)
        y = np.where(np.isin(groups, SRAA_POSITIVE[name]), 1, -1).astype(np.int8)
        return vectorize(texts, SRAA_MIN_DF), y, str(path)

    return cached(root, name, build)
