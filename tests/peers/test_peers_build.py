"""The peers built by the project (:mod:`ssl_repro.peers`): SVM-light built from the registry's sdist and run
transductively, the hash refusal, the offline message, and the lookup the scripts use.

SVM-light's sdist comes from ``SSL_REPRO_PEER_SOURCES`` (a folder holding the peers' source files:
``svmlight-0.4.tar.gz``, ``svmlin-v1.0-src.tar.gz``, ``universvm-1.22-src.tar.gz``) or, failing that, from the
package registry through pip; the test skips, saying so, when neither is reachable. SVMlin and UniverSVM are
built only from their archives in that folder (their authors' published files; the project never ships them)."""
import json
import os
import stat
import subprocess
import sys
import tarfile
from argparse import ArgumentParser, Namespace
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from ssl_repro.peers import PEERS, PeerError, build, find_peer, peer_program
from ssl_repro.peers.build import fetch_sdist, sha256
from ssl_repro.peers.cache import BUILD_RECORD, ENV_VAR, OFF, peer_folder

SOURCES = "SSL_REPRO_PEER_SOURCES"


def peer_source(name):
    """The source file of peer ``name`` in $SSL_REPRO_PEER_SOURCES, or None."""
    folder = os.environ.get(SOURCES)
    path = Path(folder) / PEERS[name].source if folder else None
    return path if path is not None and path.is_file() else None


@pytest.fixture(scope="module")
def svmlight_sdist(tmp_path_factory):
    """svmlight-0.4.tar.gz: from $SSL_REPRO_PEER_SOURCES, else fetched with pip (the build's own fetch)."""
    local = peer_source("svm-light")
    if local is not None:
        return local
    try:
        return fetch_sdist(PEERS["svm-light"], tmp_path_factory.mktemp("sdist"))
    except PeerError as exc:
        pytest.skip(f"SVM-light's sdist is not reachable: set {SOURCES} to a folder holding svmlight-0.4.tar.gz, or "
                    f"run where pip reaches the registry ({exc})")


@pytest.fixture(scope="module")
def svm_learn(svmlight_sdist, tmp_path_factory):
    """(cache, svm_learn) built from the sdist into a cache of the test's own."""
    cache = tmp_path_factory.mktemp("peers")
    path, built = build("svm-light", svmlight_sdist, cache)
    assert built
    return cache, path


def run_cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "ssl_repro.peers", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


def one_error_line(result):
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1 and result.stdout == "" and len(lines) == 1 and lines[0].startswith("Error: "), \
        result.stderr
    return lines[0]


@pytest.mark.slow
def test_svm_light_is_built_from_its_sdist_once_and_found_again(svm_learn, svmlight_sdist):
    """The build: svm_learn and svm_classify in the peer's folder, its build.json naming the stated hash and
    the commands; a second build (and the command line) finds it without compiling again."""
    cache, path = svm_learn
    assert sha256(svmlight_sdist) == PEERS["svm-light"].sha256
    assert path == peer_folder("svm-light", cache) / "svm_learn" and os.access(path, os.X_OK)
    assert os.access(path.with_name("svm_classify"), os.X_OK)
    record = json.loads((path.parent / BUILD_RECORD).read_text())
    assert record["sha256"] == PEERS["svm-light"].sha256
    assert record["commands"][0] == "gcc -O3 -o svm_learn svm_learn_main.c svm_learn.c svm_common.c svm_hideo.c -lm"
    stamp = path.stat().st_mtime_ns
    assert build("svm-light", None, cache) == (path, False) and path.stat().st_mtime_ns == stamp
    again = run_cli("build", "svm-light", "--cache", str(cache))
    assert again.returncode == 0 and again.stdout == f"{path}\n" and "not rebuilt" in again.stderr
    version = subprocess.run([str(path), "-?"], capture_output=True, text=True, errors="replace")
    assert "SVM-light V6.02" in version.stdout + version.stderr


@pytest.mark.slow
def test_the_built_svm_learn_labels_the_unlabeled_rows_transductively(svm_learn, tmp_path):
    """Two separated Gaussian blobs, 3 labeled rows per class and 80 unlabeled ones (label 0 in SVM-light's
    file): the transductive labels hold the -p share (within one row, as SVM-light's TSVM keeps it) and
    match the blobs; svm_classify, built beside it, applies the model to fresh rows of the same blobs."""
    from ssl_repro.harness.external import svmlight_transduce, write_svmlight
    _, path = svm_learn
    rng = np.random.default_rng(0)
    y = np.repeat([1, -1], 43)
    X = rng.normal(size=(86, 5)) + np.outer(y, [2.0, 0, 0, 0, 0])
    labels = np.where(np.isin(np.arange(86), [0, 1, 2, 43, 44, 45]), y, 0)
    run = svmlight_transduce(path, sp.csr_matrix(X), labels, ["-p", "0.5"], 30.0, tmp_path)
    assert not run.capped and run.assigned.size == 80
    assert run.iterations > 0 and run.kernel_evaluations > 0         # its work, as it printed it
    assert abs(np.mean(run.assigned > 0) - 0.5) <= 1 / 80
    assert np.mean(run.assigned != y[labels == 0]) <= 0.05
    fresh = rng.normal(size=(40, 5)) + np.outer(np.repeat([1, -1], 20), [2.0, 0, 0, 0, 0])
    write_svmlight(tmp_path / "test.svm", sp.csr_matrix(fresh), np.repeat([1, -1], 20))
    subprocess.run([str(path.with_name("svm_classify")), str(tmp_path / "test.svm"), str(tmp_path / "model.txt"),
                    str(tmp_path / "predictions")], check=True, capture_output=True)
    predicted = np.sign(np.loadtxt(tmp_path / "predictions"))
    assert np.mean(predicted != np.repeat([1, -1], 20)) <= 0.05


@pytest.mark.slow
@pytest.mark.parametrize("name", ["svmlin", "universvm"])
def test_svmlin_and_universvm_build_from_their_published_archives(name, tmp_path):
    archive = peer_source(name)
    if archive is None:
        pytest.skip(f"{PEERS[name].source} is not here: set {SOURCES} to a folder holding it (from "
                    f"{PEERS[name].fetch})")
    result = run_cli("build", name, "--archive", str(archive), "--cache", str(tmp_path))
    assert result.returncode == 0, result.stderr
    path = Path(result.stdout.strip())
    assert path == find_peer(name, tmp_path) and path.name == PEERS[name].programs[0].name
    usage = subprocess.run([str(path)], capture_output=True, text=True, errors="replace", timeout=30)
    assert name in (usage.stdout + usage.stderr).lower()       # it runs and prints its usage


def tampered_archive(path, top):
    """A .tar.gz named like a peer's archive, with one file of other content: not the published file."""
    (path.parent / top).mkdir()
    (path.parent / top / "main.cpp").write_text("int main() { return 0; }\n")
    with tarfile.open(path, "w:gz") as tar:
        tar.add(path.parent / top, arcname=top)
    return path


def test_an_archive_of_another_hash_is_refused_with_one_error_line_and_nothing_built(tmp_path):
    archive = tampered_archive(tmp_path / "svmlin-v1.0-src.tar.gz", "svmlin-v1.0")
    cache = tmp_path / "cache"
    line = one_error_line(run_cli("build", "svmlin", "--archive", str(archive), "--cache", str(cache)))
    assert f"{archive} has sha256 {sha256(archive)}, not that of SVMlin v1.0's" in line
    assert PEERS["svmlin"].sha256 in line and "give the unmodified file from" in line
    assert not cache.exists()         # no folder left by the refused build
    with pytest.raises(PeerError, match="^Error: .* not that of UniverSVM 1.22's"):
        build("universvm", archive, cache)


def test_offline_the_build_says_in_one_line_what_to_fetch_and_where_to_give_it(tmp_path):
    """pip cannot reach a registry (no index, no configuration): one line naming the pip command that fetches
    the sdist and the option that takes the copy; an archive peer without ``--archive`` says where to get it."""
    offline = {"PIP_NO_INDEX": "1", "PIP_CONFIG_FILE": os.devnull, "PIP_FIND_LINKS": ""}
    line = one_error_line(run_cli("build", "svm-light", "--cache", str(tmp_path / "cache"), env=offline))
    assert "pip could not fetch svmlight==0.4's source distribution" in line
    assert "`pip download --no-deps --no-binary :all: svmlight==0.4 -d DIR`" in line
    assert line.endswith("python -m ssl_repro.peers build svm-light --sdist PATH")
    assert not (tmp_path / "cache").exists()
    line = one_error_line(run_cli("build", "universvm", "--cache", str(tmp_path / "cache")))
    assert "fabee/transduction.html" in line and line.endswith("build universvm --archive PATH")
    line = one_error_line(run_cli("build", "svm-light", "--archive", "x.tar.gz", "--cache", str(tmp_path)))
    assert "--archive is not read by build svm-light, which takes --sdist PATH" in line


def fake_build(cache, name, sha=None):
    """A peer's folder in ``cache`` as a build leaves it (its program a script, build.json with ``sha``)."""
    folder = peer_folder(name, cache)
    folder.mkdir(parents=True)
    program = folder / PEERS[name].programs[0].name
    program.write_text("#!/bin/sh\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    (folder / BUILD_RECORD).write_text(json.dumps({"sha256": sha or PEERS[name].sha256}))
    return program


def test_the_scripts_lookup_finds_a_built_peer_and_nothing_else(tmp_path, monkeypatch):
    """:func:`peer_program`: the given path first, else the cached build of the stated source, else None (not
    built, built from another source, or the lookup off); the peer scripts' parser and ``run all`` use it."""
    program = fake_build(tmp_path, "svm-light")
    fake_build(tmp_path / "other", "universvm", sha="0" * 64)
    assert find_peer("svm-light", tmp_path) == program and peer_program("--svm-learn", None, tmp_path) == program
    assert peer_program("--svm-learn", Path("/given/svm_learn"), tmp_path) == Path("/given/svm_learn")
    assert peer_program("--svmlin", None, tmp_path) is None                 # not built
    assert find_peer("universvm", tmp_path / "other") is None               # built from another source
    monkeypatch.setenv(ENV_VAR, OFF)
    assert peer_program("--svm-learn") is None
    with pytest.raises(PeerError, match=f"^Error: {ENV_VAR}=none turns the peers' cache off"):
        build("svm-light", "x.tar.gz")
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    from ssl_repro.harness.external import add_peer_arguments, parse_peer_arguments
    parser = ArgumentParser()
    add_peer_arguments(parser, "--svm-learn", "svm_learn", 60.0, None)
    assert parse_peer_arguments(parser, [], "--svm-learn").svm_learn == program


def test_run_all_takes_the_built_peers_and_hands_its_steps_no_lookup(experiment_script, tmp_path, monkeypatch,
                                                                      capsys):
    artifacts = experiment_script("paper_artifacts")
    program = fake_build(tmp_path, "svm-light")
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    programs = artifacts.peer_programs(Namespace(svm_learn=None, universvm="/given/universvm", svmlin=None))
    assert programs == {"--svm-learn": str(program), "--universvm": "/given/universvm", "--svmlin": None}
    said = capsys.readouterr().err
    assert f"--svm-learn not given: {program}" in said and "build svmlin --archive PATH" in said
    assert os.environ[ENV_VAR] == OFF
