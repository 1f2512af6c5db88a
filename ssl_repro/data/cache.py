"""Where data lives: the data root, the vectorized-matrix cache, and the missing-file error.

The data root is, in order: an explicit ``root`` argument, the environment
variable ``SSL_REPRO_DATA``, scikit-learn's data home.  Its layout is one
folder per source (``20newsgroups/``, ``kddcup99/``, ...; the table in
docs/user_guide/02_data.md), so ``SSL_REPRO_DATA`` can point at a folder of
files downloaded once, also a read-only one.  Vectorized matrices are
cached under ``<root>/ssl_repro_cache/`` and written atomically.  Nothing
is created on the way to a load that fails: no data home for embedded data,
no empty folder left by a download or a scikit-learn fetcher that failed
(:func:`folders_kept_only_on_success`).
"""
import contextlib
import hashlib
import json
import os
import re
import warnings
import zipfile
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from ssl_repro.utils.atomic import atomic_write

ENV_VAR = "SSL_REPRO_DATA"


class DatasetNotAvailable(FileNotFoundError):
    """A dataset's source file is missing and may not (or could not) be downloaded.

    Its message names the settings that fix it in ``run.py``'s words (:data:`ROOT_SETTING`,
    :data:`DOWNLOAD_SETTING`); a tool whose options are others says them with :meth:`in_words_of`."""

    def in_words_of(self, root, download):
        """The message in the words of another tool (:func:`in_words_of`)."""
        return in_words_of(str(self), root, download)


def in_words_of(message, root, download):
    """A missing-data ``message`` with the data root's and the download's settings named ``root`` and
    ``download`` (e.g. ``--root DIR``, ``--download``: the options of the tool in use)."""
    return message.replace(ROOT_SETTING, root).replace(DOWNLOAD_SETTING, download)


def data_root(root=None):
    """The data root: ``root``, else $SSL_REPRO_DATA, else scikit-learn's data home
    ($SCIKIT_LEARN_DATA, else ``~/scikit_learn_data``, the folder ``sklearn.datasets.get_data_home``
    names; not created here, unlike by that function)."""
    if root is not None:
        return Path(root).expanduser()
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR]).expanduser()
    return Path(os.environ.get("SCIKIT_LEARN_DATA", "~/scikit_learn_data")).expanduser()


@contextlib.contextmanager
def folders_kept_only_on_success(folder):
    """Inside the block ``folder`` may be created (with its parents); if the block fails, the
    folders it created are removed again as long as they hold no file."""
    folder = Path(folder)
    first_new = None
    for candidate in [folder, *folder.parents]:
        if candidate.exists():
            break
        first_new = candidate
    try:
        yield folder
    except BaseException:
        if first_new is not None:
            _remove_empty_folders(first_new)
        raise


def _remove_empty_folders(top):
    """Remove ``top`` and the folders under it, bottom-up, where they hold no file."""
    if not top.is_dir():
        return
    for current, _, _ in sorted(os.walk(top), key=lambda entry: -len(entry[0])):
        with contextlib.suppress(OSError):      # not empty: a file of someone's stays
            os.rmdir(current)


#: The settings that point the data root elsewhere and that allow a download, in ``run.py``'s words.
ROOT_SETTING = f"data_root=DIR (Python: root=DIR, or {ENV_VAR})"
DOWNLOAD_SETTING = "download=true (Python: download=True)"
#: The way out of a missing file when downloads were forbidden.
ALLOW_DOWNLOAD = f"or let it be downloaded: {DOWNLOAD_SETTING}"


def missing(name, paths, url, hint=""):
    """The error for missing source file(s): which files, where, where to get them, and the
    settings that point elsewhere (the command line's overrides first, then Python's arguments)."""
    paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
    where = ", ".join(str(p) for p in paths)
    text = (f"dataset {name!r}: expected file(s) {where} missing (folder {Path(paths[0]).parent}). Put them there, "
            f"or point the data root at a folder that holds them: {ROOT_SETTING}. "
            f"Download from {url}")
    return DatasetNotAvailable(text + (f"; {hint}" if hint else ""))


def download(url, path):
    """Fetch ``url`` to ``path`` atomically (urllib; raises on any network failure)."""
    from urllib.request import urlopen
    with atomic_write(path, "wb", prefix=path.name + ".", suffix=".part") as out, \
            urlopen(url, timeout=60) as response:
        while chunk := response.read(1 << 20):
            out.write(chunk)


def fetch(name, path, url, allow_download, hint=""):
    """``path`` if present; else download it when allowed; else a clear error."""
    if path.exists():
        return path
    if allow_download:
        try:
            with folders_kept_only_on_success(path.parent):
                download(url, path)
            return path
        except OSError as exc:
            raise missing(name, path, url, f"the download failed ({exc})") from exc
    raise missing(name, path, url, f"{hint}; {ALLOW_DOWNLOAD}" if hint else ALLOW_DOWNLOAD)


#: Bumped whenever a loader's vectorization changes, so stale caches are not reused (4, 2026-12-07: the
#: generated sets' values are the same to the bit on every processor, :mod:`ssl_repro.utils.tf_idf`).
CACHE_VERSION = 4


def cache_path(root, name):
    return Path(root) / "ssl_repro_cache" / f"{name}.v{CACHE_VERSION}.npz"


def cache_files(root, name):
    """The vectorized caches of dataset ``name`` under the data root ``root``, of any version: ``<name>.v<N>.npz``
    and ``<name>-<parameters key>.v<N>.npz`` (:func:`cache_path`), never another set's whose name starts with
    this one (``20ng-ccat-like-b``'s for ``20ng-ccat-like``)."""
    folder = cache_path(root, name).parent
    pattern = re.compile(rf"{re.escape(name)}(-[0-9a-f]{{10}})?\.v\d+\.npz")
    return sorted(p for p in folder.glob(f"{name}*.npz") if pattern.fullmatch(p.name)) if folder.is_dir() else []


def parameters_key(parameters):
    """A short hash of a generator's parameters (a dict of JSON values), for its cache file's name:
    data generated with other parameters is never read back."""
    return hashlib.sha256(json.dumps(parameters, sort_keys=True).encode()).hexdigest()[:10]


def save_cached(path, X, y):
    """Write X (CSR) and y to ``path`` atomically."""
    with atomic_write(path, "wb", prefix=path.stem + ".", suffix=".npz") as f:
        np.savez(f, data=X.data, indices=X.indices, indptr=X.indptr, shape=np.array(X.shape), y=y)


def load_cached(path):
    """(X, y) from a cache file; None if there is none or it is unreadable (it is then rebuilt)."""
    if not path.exists():
        return None
    try:
        with np.load(path) as f:
            X = sp.csr_matrix((f["data"], f["indices"], f["indptr"]), shape=tuple(f["shape"]))
            return X, f["y"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        warnings.warn(f"ignoring the unreadable cache {path} ({exc}); rebuilding it", stacklevel=3)
        return None


def cached(root, name, build):
    """(X, y) from the cache, else ``build()`` and cache it."""
    path = cache_path(root, name)
    hit = load_cached(path)
    if hit is not None:
        return hit + (str(path),)
    X, y, source = build()
    try:
        save_cached(path, X, y)
    except OSError as exc:  # a read-only data root: work without the cache
        warnings.warn(f"could not cache {name} at {path}: {exc}", stacklevel=2)
    return X, y, source
