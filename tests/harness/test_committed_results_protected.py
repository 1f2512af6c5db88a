"""The committed results are not overwritten without a word, and nothing strays into the repository."""
import sys
from pathlib import Path

import pytest

from ssl_repro.harness.aggregate import main as aggregate
from ssl_repro.harness.external import run_capped
from ssl_repro.report.plots import main as plots
from ssl_repro.harness.result_files import COMMITTED, refuse_committed

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("command, args", [
    (aggregate, ["results/runs", "--out", "results/learning_curve_20ng_aut_avn_like"]),
    (plots, ["--loss-shapes", "--out", "results/figures"]),
])
def test_writing_into_the_committed_results_needs_force(command, args, monkeypatch):
    monkeypatch.chdir(REPO)
    before = {p: p.stat().st_mtime_ns for p in (REPO / "results").rglob("*") if p.is_file()}
    with pytest.raises(SystemExit, match=r"^Error: results/\S+ is in the repository's committed results .*--force"):
        command(args)
    assert {p: p.stat().st_mtime_ns for p in (REPO / "results").rglob("*") if p.is_file()} == before


def test_force_and_the_sweeps_own_folder_are_allowed(tmp_path):
    assert COMMITTED == REPO / "results"
    refuse_committed(REPO / "results" / "figures", force=True)
    refuse_committed(REPO / "results" / "runs" / "learning_curve_pcmac")     # where sweeps write: not committed
    refuse_committed(tmp_path / "results")


def test_no_stray_output_at_the_repository_root_and_peer_programs_write_beside_their_log(tmp_path, monkeypatch):
    assert not (REPO / "examples.outputs").exists() and not (REPO / "examples.weights").exists()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "work").mkdir()
    run_capped([sys.executable, "-c", "open('examples.outputs', 'w').write('1')"], 30, tmp_path / "work" / "log")
    assert (tmp_path / "work" / "examples.outputs").exists() and not (tmp_path / "examples.outputs").exists()
