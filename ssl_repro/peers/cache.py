"""Where built peers live, and the one lookup the scripts use when a peer's option is not given.

The peers' cache is, in order: an explicit ``cache`` argument, the environment variable ``SSL_REPRO_PEERS``,
``$XDG_CACHE_HOME/ssl-repro-peers``, ``~/.cache/ssl-repro-peers`` (outside the repository, as the data
cache is outside it: :mod:`ssl_repro.data.cache`). Each peer has a folder there (``svm-light-6.02/``,
``svmlin-1.0/``, ``universvm-1.22/``) with its programs and ``build.json`` (the source's sha256, the
commands, the compiler, the date). A folder whose ``build.json`` names another source hash than the one
:mod:`ssl_repro.peers.sources` states is not found: a stated hash that changes makes the peer be built
again.

``SSL_REPRO_PEERS=none`` turns the lookup off: a script then runs a peer only when its option is given.
``run all`` resolves its peers once (its options, else this cache) and hands its steps ``none``, so a step
runs a peer exactly when the plan passes the peer's path on its command line; the test suite runs with it
(``tests/conftest.py``), so no test depends on what a developer has built."""
import json
import os
import sys
from pathlib import Path

from ssl_repro.peers.sources import OPTIONS, PEERS

ENV_VAR = "SSL_REPRO_PEERS"
#: The value of :data:`ENV_VAR` that turns the lookup off.
OFF = "none"
#: The record of a build, in the peer's folder.
BUILD_RECORD = "build.json"


def cache_folder(cache=None):
    """The peers' cache: ``cache``, else $SSL_REPRO_PEERS, else $XDG_CACHE_HOME (or ~/.cache)/ssl-repro-peers
    (not created here); None when $SSL_REPRO_PEERS is ``none`` (:data:`OFF`) and no ``cache`` is given."""
    if cache is not None:
        return Path(cache).expanduser()
    if os.environ.get(ENV_VAR) == OFF:
        return None
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR]).expanduser()
    return Path(os.environ.get("XDG_CACHE_HOME") or "~/.cache").expanduser() / "ssl-repro-peers"


def peer_folder(name, cache=None):
    """The folder of peer ``name`` (a key of :data:`~ssl_repro.peers.sources.PEERS`) in the cache (None: the
    lookup is off)."""
    root = cache_folder(cache)
    return None if root is None else root / PEERS[name].cached


def find_peer(name, cache=None):
    """The path of peer ``name``'s main program (``svm_learn`` for ``svm-light``) built in the cache from
    its stated source, or None when it is not there (or the lookup is off)."""
    peer = PEERS[name]
    folder = peer_folder(name, cache)
    if folder is None:
        return None
    program = folder / peer.programs[0].name
    try:
        built = json.loads((folder / BUILD_RECORD).read_text())
    except (OSError, ValueError):
        return None
    if built.get("sha256") != peer.sha256 or not os.access(program, os.X_OK):
        return None
    return program


def peer_program(option, given=None, cache=None):
    """The program a script's peer ``option`` (``--svm-learn``, ``--svmlin``, ``--universvm``) runs: the
    path ``given`` on its command line, else the peer built in the cache (:func:`find_peer`; one line on
    stderr says which), else None."""
    if given is not None:
        return given
    found = find_peer(OPTIONS[option], cache)
    if found is not None:
        print(f"{option} not given: {found} ({PEERS[OPTIONS[option]].title}, built by python -m ssl_repro.peers)",
              file=sys.stderr)
    return found
