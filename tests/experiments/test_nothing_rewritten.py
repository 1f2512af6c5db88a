"""Artifact commands, as the README gives them, replace no record without ``--force``: run into a copy of the
committed results/, each command stops with one ``Error:`` line and every file of the copy (and of the
repository's results/) is byte for byte what it was; with ``--force`` the drawing is replaced."""
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "experiments" / "paper_artifacts.py"


def digests(folder):
    return {p.relative_to(folder): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(Path(folder).rglob("*")) if p.is_file() and "runs" not in p.parts}


def run(*args):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=600)


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    target = tmp_path_factory.mktemp("copy") / "results"
    shutil.copytree(ROOT / "results", target, ignore=shutil.ignore_patterns("runs"))
    return target


@pytest.mark.parametrize("args", [
    ["run", "learning-curves", "--dataset", "pcmac", "--download"],      # the README's artifact command
    ["run", "tsvm-loss"],
    ["run", "dataset-table"],                                           # a script: writes under results/
    ["run", "all"],
    ["render"],
], ids=lambda a: " ".join(a[:2]))
def test_an_artifact_command_run_into_a_copy_of_results_changes_no_file_without_force(copy, args):
    before, committed = digests(copy), digests(ROOT / "results")
    done = run(*args, "--results", str(copy))
    assert done.returncode != 0
    assert done.stderr.strip().splitlines()[-1].startswith("Error: ") and "--force" in done.stderr
    assert digests(copy) == before
    assert digests(ROOT / "results") == committed
    assert not (copy / "runs").exists()                      # no sweep was started either


def test_with_force_the_drawing_is_replaced_in_the_copy(copy):
    figure = copy / "figures" / "fig_tsvm_loss.png"
    figure.write_bytes(b"stale")
    done = run("run", "tsvm-loss", "--results", str(copy), "--force")
    assert done.returncode == 0, done.stderr
    assert figure.read_bytes() != b"stale"


def test_a_dry_run_needs_no_force(copy):
    done = run("run", "learning-curves", "--dataset", "pcmac", "--results", str(copy), "--dry-run")
    assert done.returncode == 0 and "would run the sweep" in done.stdout
