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

REPO = Path(__file__).resolve().parents[2]
SMALL = ["dataset=text-like", "n_unlabeled=300", "solver_threads=1"]


def run(*overrides, multirun=False):
    proc = subprocess.run([sys.executable, str(REPO / "run.py"), *(["-m"] if multirun else []), *SMALL, *overrides],
                          cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    return proc


def ray_sweep(tmp_path, launcher, splits, *overrides):
    """``run.py -m`` of svm and rls on ``splits`` splits through Hydra launcher ``launcher`` on a local Ray
    instance it starts (``overrides``: the launcher's settings); checks that every job left its record and
    returns the log."""
    proc = run("method=svm,rls", f"split=range({splits})", f"hydra/launcher={launcher}",
               "hydra.launcher.ray.init.address=null", "+hydra.launcher.ray.init.num_cpus=2", *overrides,
               f"results_dir={tmp_path}", f"sweep_name={launcher}", multirun=True)
    records = [json.loads(p.read_text()) for p in sorted((tmp_path / launcher).rglob("result.json"))]
    assert sorted((r["method"], r["split"]) for r in records) == [(m, s) for m in ("rls", "svm") for s in range(splits)]
    return proc.stdout + proc.stderr


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
    log = ray_sweep(tmp_path, "ray_cluster", 2, "hydra.launcher.ray.remote.num_cpus=1")
    assert "Ray Launcher is launching 4 jobs" in log
    assert log.count("(_run_job pid=") >= 4      # each job ran in a Ray worker process, not in the launching one


def test_the_batched_ray_launcher_runs_many_jobs_to_a_task(tmp_path):
    log = ray_sweep(tmp_path, "ray_batched", 3, "hydra.launcher.jobs_per_task=4")
    assert "Ray: 6 jobs in 2 tasks of at most 4 jobs" in log
    assert "(run_batch pid=" in log          # the jobs ran in Ray workers


def test_run_alls_smallest_real_step_through_the_batched_ray_launcher(tmp_path, writable_data_root):
    """``paper_artifacts.py run annealing-ablation --dataset pcmac --launcher ray_batched`` (pcmac's fixed-T
    ablation, the smallest sweep of ``run all`` on real data) on a local Ray instance this test starts."""
    from conftest import public_data_folder
    root = writable_data_root(public_data_folder("20newsgroups/20news-bydate_py3.pkz"))
    ray = [sys.executable, "-m", "ray.scripts.scripts"]
    subprocess.run([*ray, "start", "--head", "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats"],
                   check=True, capture_output=True)
    try:
        proc = subprocess.run([sys.executable, str(REPO / "experiments" / "paper_artifacts.py"), "run",
                               "annealing-ablation", "--dataset", "pcmac", "--results", str(tmp_path / "results"),
                               "--data-root", str(root), "--launcher", "ray_batched"],
                              cwd=REPO, capture_output=True, text=True)
    finally:
        subprocess.run([*ray, "stop", "--force"], capture_output=True)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-3000:]
    table = (tmp_path / "results" / "ablation_pcmac" / "results.csv").read_text().splitlines()
    assert len(table) == 1 + 240 and "(run_batch pid=" in log      # 4 methods x 6 label counts x 10 splits
