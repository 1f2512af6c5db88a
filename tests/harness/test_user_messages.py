"""Messages that say what is true here and name the options of the tool in use."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ssl_repro.data.__main__ import main as data_cli
from ssl_repro.harness.app import scores
from ssl_repro.harness.settings import check_choices

REPO = Path(__file__).resolve().parents[2]


def test_paper_artifacts_list_says_what_this_machine_has_not_a_fixed_claim(experiment_script, tmp_path):
    text = experiment_script("paper_artifacts").listing(REPO / "results", root=tmp_path)
    assert "cannot be fetched on this machine" not in text
    assert f"on this machine (data root {tmp_path}): " in text and "pcmac downloadable with --download" in text
    assert "33-vs-36 missing" in text


def test_data_info_downloads_nothing_by_default_and_names_its_own_options(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        data_cli(["info", "pcmac", "--root", str(tmp_path / "empty")])
    message = capsys.readouterr().err
    assert stop.value.code == 2 and "--root DIR (or SSL_REPRO_DATA)" in message
    assert "or let it be downloaded: --download" in message and "data_root=" not in message
    assert "download=true" not in message and not (tmp_path / "empty").exists()


def test_paper_artifacts_missing_data_names_its_own_options(experiment_script, tmp_path):
    artifacts = experiment_script("paper_artifacts")
    curves = next(a for a in artifacts.ARTIFACTS if a.name == "learning-curves")
    with pytest.raises(SystemExit, match=r"--data-root DIR \(or SSL_REPRO_DATA\).*--download") as stop:
        artifacts.regenerate(curves, "pcmac", tmp_path / "results", root=tmp_path / "empty")
    assert "data_root=" not in str(stop.value) and "download=true" not in str(stop.value)


@pytest.mark.parametrize("override, close", [("dataset=pcmak", "pcmac"), ("method=tsvm_smx", "tsvm_smax"),
                                             ("method=svm,rsl", "rls")])
def test_an_unknown_config_name_is_one_line_with_the_close_name(override, close):
    with pytest.raises(ValueError, match=rf"no such \w+ config \(did you mean {close}"):
        check_choices([override], REPO / "conf")


def test_the_log_says_why_a_solver_stopped_in_words():
    record = {"test_error": 0.1, "transductive_error": 0.2, "objective_own": 0.3, "converged": False,
              "diagnostics": {"stop_reason": "tolerance", "capped": {"max_inner": 1}}}
    assert scores(record).endswith("NOT converged (stopped by its own rule; inner cap max_inner reached 1 time)")
    record["diagnostics"] = {"stop_reason": "max_outer", "capped": {}}
    assert scores(record).endswith("NOT converged (stopped on max_outer)") and "caps" not in scores(record)


@pytest.mark.slow   # run.py in a subprocess
def test_cfg_hydra_resolve_prints_the_resolved_hydra_config(tmp_path):
    proc = subprocess.run([sys.executable, str(REPO / "run.py"), "--cfg", "hydra", "--resolve", "dataset=pcmac"],
                          cwd=tmp_path, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)},
                          timeout=300)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert "dir: outputs/pcmac/da/split=0/l=64/cfg-" in proc.stdout and "${" not in proc.stdout
