"""A user's data file edited in place is never served the result of its old content:
the job key hashes the file's bytes (:mod:`ssl_repro.harness.jobkey`), in a single run and in a sweep."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from ssl_repro.harness.app import RAN, run_or_skip
from ssl_repro.harness.jobkey import job_key
from ssl_repro.harness.result_files import finished_result

REPO = Path(__file__).resolve().parents[2]


def write_file(path, n=120, seed=0):
    """An svmlight file of ``n`` rows, labels +1/-1 (each written "+1"/"-1", so flipping one keeps the size)."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 12))
    y = np.where(X[:, 0] + 0.2 * rng.standard_normal(n) > 0.5, 1, -1)
    lines = [f"{'+1' if label > 0 else '-1'} " + " ".join(f"{j + 1}:{v:.6f}" for j, v in enumerate(row))
             for row, label in zip(X, y)]
    path.write_text("\n".join(lines) + "\n")
    return y


def flip_labels_in_place(path):
    """Flip every label, keeping the file's size and its modification time (as ``cp -p`` / ``tar`` would)."""
    stat = path.stat()
    text = path.read_text().splitlines()
    path.write_text("\n".join(("-1" if line.startswith("+1") else "+1") + line[2:] for line in text) + "\n")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert path.stat().st_size == stat.st_size and path.stat().st_mtime_ns == stat.st_mtime_ns


def job(path):
    return {"dataset": {"name": "svmlight", "lam": None, "lam_u": None, "path": str(path), "n_labeled": "all"},
            "method": {"name": "svm", "variant": "svm", "lam": None}, "split": 0, "n_labeled": 20,
            "n_unlabeled": None, "data_root": None, "download": False, "solver_threads": 1}


def test_an_edited_file_gets_a_new_job_key_and_its_old_record_is_not_reused(tmp_path):
    path = tmp_path / "mine.svm"
    write_file(path)
    cfg = job(path)
    before = tmp_path / "runs" / job_key(cfg)
    status, record = run_or_skip(cfg, before)
    assert status == RAN
    flip_labels_in_place(path)
    after = tmp_path / "runs" / job_key(cfg)
    assert after != before                                   # the folder changes with the content
    assert finished_result(before, cfg) is None              # the old record is not the edited file's
    status, flipped = run_or_skip(cfg, after)
    assert status == RAN and flipped["data_files"]["path"] != record["data_files"]["path"] != "missing"
    # every label flipped: the labeled rows and the scored truths are the other class's
    assert flipped["transductive_error"] == pytest.approx(record["transductive_error"], abs=0.2)
    assert flipped["r"] == pytest.approx(1 - record["r"])


def run_py(cwd, *overrides):
    proc = subprocess.run([sys.executable, str(REPO / "run.py"), *overrides], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=600)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.slow   # run.py in subprocesses
@pytest.mark.parametrize("sweep", [False, True], ids=["single run", "sweep"])
def test_run_py_recomputes_a_job_whose_file_was_edited(tmp_path, sweep):
    path = tmp_path / "mine.svm"
    write_file(path)
    args = [*(["-m", "hydra/launcher=basic", f"results_dir={tmp_path / 'runs'}"] if sweep else []),
            "dataset=svmlight", f"dataset.path={path}", "n_labeled=20", "method=svm,rls" if sweep else "method=svm"]
    code, first = run_py(tmp_path, *args)
    assert code == 0, first[-2000:]
    code, again = run_py(tmp_path, *args)
    assert code == 0 and ("2 already done, 0 to run" in again if sweep else "already done, skipped" in again)
    flip_labels_in_place(path)
    code, edited = run_py(tmp_path, *args)
    assert code == 0 and "already done" not in edited.replace("0 already done", ""), edited[-2000:]
    assert ("0 already done, 2 to run" in edited) if sweep else ("running" in edited)
