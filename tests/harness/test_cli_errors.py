"""A user's mistake on ``run.py``'s command line: one message naming the problem and the override
that fixes it, no traceback (unless HYDRA_FULL_ERROR=1), a non-zero exit; nothing created."""
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from ssl_repro.data import DatasetNotAvailable, load_dataset
from ssl_repro.harness.methods import estimator_for

REPO = Path(__file__).resolve().parents[2]


def run_py(*overrides, tmp_path, env=None):
    proc = subprocess.run([sys.executable, "run.py", *overrides, f"hydra.run.dir={tmp_path / 'job'}"], cwd=REPO,
                          capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=300)
    return proc.returncode, proc.stdout + proc.stderr


def test_a_missing_file_names_the_overrides_that_fix_it(tmp_path, shown):
    with pytest.raises(DatasetNotAvailable, match=r"data_root=DIR \(Python: root=DIR, or SSL_REPRO_DATA\).*"
                                                  r"download=true \(Python: download=True\)") as caught:
        load_dataset("pcmac", root=tmp_path / "absent", download=False)
    shown("load_dataset('pcmac', root='{tmp}/absent', download=False)", caught.value)


@pytest.mark.parametrize("method, message", [
    ({"name": "da", "max_outer": 0},
     r"The 'max_outer' parameter of LinearDA must be .* Got 0 instead\. Set it with method\.max_outer=VALUE"),
    ({"name": "svm", "lam": -1.0}, r"'lam'.* Set it with method\.lam=VALUE, or dataset\.lam=VALUE"),
])
def test_a_refused_parameter_value_names_its_override(method, message, shown):
    with pytest.raises(ValueError, match=message) as caught:
        estimator_for(method, 1e-3, 1.0, 0.5)
    shown(f"python run.py {' '.join(f'method.{k}={v}' if k != 'name' else f'method={v}' for k, v in method.items())}"
          "   (the harness's estimator_for)", caught.value)


@pytest.mark.slow   # run.py in subprocesses
@pytest.mark.parametrize("overrides, expected", [
    (["dataset=pcmac", "method=da", "data_root=/nonexistent", "download=false"], "data_root="),
    (["dataset=nope"], "dataset=nope: no such dataset config"),
    (["method=nope"], "method=nope: no such method config"),
    (["method.lam=-1"], "Set it with method.lam=VALUE"),
    (["+dataset.label_grid=[1,2]"], "dataset.label_grid is not a setting"),
    (["split=12"], "give split=0..9"),
])
def test_a_users_mistake_prints_one_message_without_a_traceback(overrides, expected, tmp_path, shown):
    code, output = run_py(*overrides, tmp_path=tmp_path)
    shown(shlex.join(["python", "run.py", *overrides]), output.strip())
    assert code != 0 and expected in output and "Traceback" not in output, output[-3000:]
    assert len(output.strip().splitlines()) == 1, output       # the Error: line alone (no "running" log before it)
    assert not Path("/nonexistent").exists()
    assert not (tmp_path / "job").exists()        # no run folder left behind (Hydra's configs, a run.log)


@pytest.mark.slow   # run.py in subprocesses
@pytest.mark.parametrize("override", ["split=12", "n_labeled=0"])
def test_a_refused_run_leaves_nothing_in_outputs(override, tmp_path, shown):
    (tmp_path / "outputs" / "earlier").mkdir(parents=True)
    proc = subprocess.run([sys.executable, str(REPO / "run.py"), override, "method=svm"], cwd=tmp_path, timeout=300,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    shown(f"python run.py {override} method=svm   (beside an earlier outputs/)", proc.stderr.strip())
    assert proc.returncode == 1 and proc.stderr.startswith("Error: ")
    assert [p.name for p in (tmp_path / "outputs").rglob("*")] == ["earlier"]     # what was there before


@pytest.mark.slow   # run.py in a subprocess
def test_hydra_full_error_still_shows_the_traceback(tmp_path):
    code, output = run_py("split=12", tmp_path=tmp_path, env={"HYDRA_FULL_ERROR": "1"})
    assert code != 0 and "Traceback" in output and "give split=0..9" in output
