"""The cluster paths of ``run.py`` on this machine: ``backend=ray`` and Hydra's Ray launcher.

Each test runs ``python run.py`` in a subprocess that starts its own local
Ray instance (~10 s each), so all are slow checks.
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="needs ray (pip install -e '.[distributed]')")
pytestmark = pytest.mark.slow   # run.py in subprocesses, each starting a local Ray instance

REPO = Path(__file__).resolve().parents[1]
SMALL = ["dataset=text-like", "n_unlabeled=300", "solver_threads=1"]


def run(*overrides):
    proc = subprocess.run([sys.executable, str(REPO / "run.py"), *SMALL, *overrides], cwd=REPO,
                          capture_output=True, text=True)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    return proc


def test_run_py_da_on_the_ray_backend_gives_the_local_record(tmp_path):
    records = {}
    for backend in ("local", "ray"):
        run("method=da", f"backend={backend}", f"hydra.run.dir={tmp_path / backend}")
        records[backend] = json.loads((tmp_path / backend / "result.json").read_text())
    local, dist = records["local"], records["ray"]
    assert sorted(dist) == sorted(local)
    assert dist["config"]["backend"]["name"] == "ray" and local["config"]["backend"] == {"name": "local"}
    assert dist["objective_eqn18"] == pytest.approx(local["objective_eqn18"], rel=1e-8)
    assert dist["diagnostics"]["temperatures"] == local["diagnostics"]["temperatures"]
    assert dist["transductive_error"] == local["transductive_error"]


def test_hydra_ray_launcher_runs_a_sweep_on_a_local_ray_instance(tmp_path):
    pytest.importorskip("hydra_plugins.hydra_ray_launcher", reason="needs hydra-ray-launcher")
    proc = subprocess.run(
        [sys.executable, str(REPO / "run.py"), "-m", *SMALL, "method=svm,rls", "split=0,1",
         "hydra/launcher=ray_cluster", "hydra.launcher.ray.init.address=null", "+hydra.launcher.ray.init.num_cpus=2",
         "hydra.launcher.ray.remote.num_cpus=1", f"results_dir={tmp_path}", "sweep_name=ray"],
        cwd=REPO, capture_output=True, text=True)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-3000:]
    assert "Ray Launcher is launching 4 jobs" in log
    records = [json.loads(p.read_text()) for p in sorted((tmp_path / "ray").rglob("result.json"))]
    assert sorted((r["method"], r["split"]) for r in records) == [("rls", 0), ("rls", 1), ("svm", 0), ("svm", 1)]
    # each job ran in a Ray worker process, not in the launching one
    assert log.count("(_run_job pid=") >= 4
