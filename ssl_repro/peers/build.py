"""Building a peer: its source fetched or named, its hash checked, its programs compiled into the cache.

Every failure a user can meet (no registry, another file than the stated one, no compiler) is a
:class:`PeerError` whose message is one ``Error:`` line saying what to do."""
import contextlib
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
from datetime import datetime, timezone
from pathlib import Path

from ssl_repro.peers.cache import BUILD_RECORD, ENV_VAR, OFF, cache_folder, find_peer, peer_folder
from ssl_repro.peers.sources import PEERS, SVMLIGHT_REQUIREMENT

#: pip's network settings for the sdist: a registry that does not answer fails in about a minute.
PIP_NETWORK = ("--retries", "2", "--timeout", "20")


class PeerError(RuntimeError):
    """A peer cannot be built; the message is one ``Error:`` line (the problem, the file, the fix)."""


def sha256(path):
    """The sha256 of the file ``path``, in hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def source_option(peer):
    """The ``build`` option naming a local copy of ``peer``'s source."""
    return "--sdist" if peer.from_registry else "--archive"


def fetch_sdist(peer, folder):
    """``peer``'s source distribution downloaded by pip into ``folder``; offline (pip fails), a
    :class:`PeerError` saying what to fetch, on which command, and the option that takes the copy."""
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", *PIP_NETWORK,
               SVMLIGHT_REQUIREMENT, "-d", str(folder)]
    result = subprocess.run(command, capture_output=True, text=True, errors="replace")
    path = Path(folder) / peer.source
    if result.returncode != 0 or not path.is_file():
        said = [line.strip().removeprefix("ERROR: ") for line in (result.stdout + result.stderr).splitlines()
                if line.strip()]
        raise PeerError(
            f"Error: pip could not fetch {SVMLIGHT_REQUIREMENT}'s source distribution ({peer.title}'s C source) from "
            f"the package registry (pip: {said[-1] if said else f'exit code {result.returncode}'}): on a machine that "
            f"reaches it run `{peer.fetch}`, copy DIR/{peer.source} here and give it: "
            f"python -m ssl_repro.peers build {peer.name} --sdist PATH")
    return path


def checked_source(peer, path):
    """``path`` when it is a file with ``peer``'s stated sha256; else a :class:`PeerError`."""
    path = Path(path)
    if not path.is_file():
        raise PeerError(f"Error: {source_option(peer)} {path}: no such file; give {peer.title}'s {peer.source} "
                        f"(from {peer.fetch})")
    found = sha256(path)
    if found != peer.sha256:
        raise PeerError(f"Error: {path} has sha256 {found}, not that of {peer.title}'s {peer.source} ({peer.sha256}, "
                        f"checked {peer.checked}): give the unmodified file from {peer.fetch}")
    return path


def unpacked(archive, folder):
    """The ``.tar.gz`` ``archive`` unpacked into ``folder`` (members outside it refused by tarfile's data
    filter where this Python has it)."""
    with tarfile.open(archive) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(folder, filter="data")
        else:
            tar.extractall(folder)
    return Path(folder)


def compile_program(peer, program, source_folder, out_folder):
    """``program`` of ``peer`` compiled in ``source_folder`` into ``out_folder``; returns the command run."""
    command = [str(Path(out_folder) / program.name) if part == "{out}" else part for part in program.command]
    try:
        result = subprocess.run(command, cwd=source_folder, capture_output=True, text=True, errors="replace")
    except FileNotFoundError:
        raise PeerError(f"Error: {command[0]} not found: {peer.title} is compiled with {command[0]}; install it "
                        f"(Debian or Ubuntu: apt-get install -y build-essential) and build again") from None
    if result.returncode != 0:
        said = [line.strip() for line in result.stderr.splitlines() if line.strip()]
        raise PeerError(f"Error: compiling {peer.title}'s {program.name} failed ({' '.join(command)} in "
                        f"{source_folder}: {said[-1] if said else result.returncode}): check the compiler")
    return command


def compiler_version(name):
    """The first line ``name --version`` prints."""
    result = subprocess.run([name, "--version"], capture_output=True, text=True, errors="replace")
    return (result.stdout.splitlines() or [""])[0]


def build(name, source=None, cache=None):
    """Peer ``name`` built into the peers' cache (:func:`ssl_repro.peers.cache.cache_folder`) from ``source``
    (a local copy of its sdist or archive; None: SVM-light's sdist fetched with pip). Returns (path of its
    main program, whether it was built now). A peer already built from its stated source is not built again.

    The programs are compiled in a temporary folder inside the cache and moved to the peer's folder, with
    ``build.json`` (source, hash, commands, compiler, date), only when all of them compiled."""
    peer = PEERS[name]
    found = find_peer(name, cache)
    if found is not None:
        return found, False
    if source is None and not peer.from_registry:
        raise PeerError(f"Error: {peer.title} is built from its authors' published archive {peer.source}, which "
                        f"the project does not ship: download it from {peer.fetch} and give it: "
                        f"python -m ssl_repro.peers build {name} --archive PATH")
    root = cache_folder(cache)
    if root is None:
        raise PeerError(f"Error: {ENV_VAR}={OFF} turns the peers' cache off, so there is nowhere to build "
                        f"{peer.title}: unset {ENV_VAR}, set it to a folder, or give --cache DIR")
    created = [folder for folder in (root, *root.parents) if not folder.exists()]
    root.mkdir(parents=True, exist_ok=True)
    try:
        return built_into(peer, root, source, peer_folder(name, cache)), True
    except BaseException:
        for folder in created:      # no empty folder left by a build that failed
            with contextlib.suppress(OSError):
                folder.rmdir()
        raise


def built_into(peer, root, source, final):
    """``peer``'s programs compiled from ``source`` (None: fetched) in a temporary folder of the cache ``root``,
    then moved with their ``build.json`` to ``final``; returns the path of its main program."""
    with tempfile.TemporaryDirectory(prefix=f".{peer.name}-", dir=root) as work:
        work = Path(work)
        path = checked_source(peer, fetch_sdist(peer, work / "download") if source is None else source)
        source_folder = unpacked(path, work / "source") / peer.folder
        out = work / "out"
        out.mkdir()
        commands = [compile_program(peer, program, source_folder, out) for program in peer.programs]
        record = {"peer": peer.title, "source": peer.source, "sha256": peer.sha256,
                  "commands": [" ".join(p.command).replace("{out}", p.name) for p in peer.programs],
                  "compiler": compiler_version(commands[0][0]), "machine": platform.platform(),
                  "date": datetime.now(timezone.utc).isoformat(timespec="seconds")}
        (out / BUILD_RECORD).write_text(json.dumps(record, indent=1) + "\n")
        if final.exists():          # a build from another source, or a broken one: replaced
            shutil.rmtree(final)
        os.replace(out, final)
    return final / peer.programs[0].name
