"""The gallery's examples print only what they show: no warning with the path of the machine that built
the docs (a capped loop is reported from its diagnostics), no notice of a library above the code."""
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run_example(name):
    proc = subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, timeout=300,
                          cwd=EXAMPLES.parent, env={**os.environ, "MPLBACKEND": "Agg",
                                                    "PYTHONPATH": str(EXAMPLES.parent)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc


@pytest.mark.slow   # each example in its own interpreter (numba kernels loaded, several fits)
@pytest.mark.parametrize("name, shown", [("plot_learning_curve.py", "not converged: "),
                                         ("plot_da_path.py", "stop_reason=")])
def test_a_capped_fit_is_shown_from_its_diagnostics_not_as_a_warning(name, shown):
    proc = run_example(name)
    assert proc.stderr == "" and shown in proc.stdout, proc.stderr[-3000:]


@pytest.mark.slow   # starts a local Ray instance
def test_the_ray_example_prints_no_notice_of_rays(tmp_path):
    if importlib.util.find_spec("ray") is None:
        pytest.skip("ray is not installed (pip install -e '.[distributed]')")
    proc = run_example("plot_ray_backend.py")
    assert "Token authentication" not in proc.stdout + proc.stderr and "2 Ray workers" in proc.stdout


@pytest.mark.slow   # the example's imports and scikit-learn's second download attempt, 1 s after the first
def test_the_newsgroups_example_offline_without_the_corpus_says_so_in_one_line(tmp_path):
    unreachable = "http://127.0.0.1:9"     # a proxy nobody listens on: the download fails at once, as offline
    proc = subprocess.run([sys.executable, str(EXAMPLES / "plot_grid_search_newsgroups.py")], capture_output=True,
                          text=True, timeout=300, cwd=EXAMPLES.parent,
                          env={**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": str(EXAMPLES.parent),
                               "SSL_REPRO_DATA": str(tmp_path), "https_proxy": unreachable,
                               "HTTPS_PROXY": unreachable})
    corpus = tmp_path / "20newsgroups" / "20news-bydate_py3.pkz"
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith(f"Error: 20 Newsgroups is not at {corpus} ")
    assert list(tmp_path.iterdir()) == []     # no empty folder left behind
