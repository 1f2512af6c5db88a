"""Fixtures shared by the test modules: the public datasets (under $SSL_REPRO_DATA), the benchmark matrix
text20k, the two-moons kernel problem, the experiment scripts, the report rendered from the committed records,
and a data-key cache of the session's own (never the user's)."""
import os
import subprocess
import sys
from pathlib import Path
from types import MappingProxyType

import numpy as np
import pytest

from ssl_repro.data import key_cache
from ssl_repro.data.cache import ENV_VAR
from ssl_repro.data.embedded import two_moons
from ssl_repro.kernel import default_sigma, rbf_gram
from ssl_repro.peers.cache import ENV_VAR as PEERS_VAR, OFF


def public_data_folder(*files):
    """The folder ``$SSL_REPRO_DATA`` (the data root's layout, docs/user_guide/02_data.md) once it holds
    ``files``; the test skips where it does not (CI sets it, so these tests run there)."""
    root = os.environ.get(ENV_VAR)
    missing = [f for f in files if not root or not (Path(root) / f).is_file()]
    if missing:
        pytest.skip(f"set {ENV_VAR} to a folder holding {' and '.join(missing)} (a public dataset; "
                    "see docs/user_guide/02_data.md)")
    return Path(root)


def sleeping_popen(ran, interrupt_at=None):
    """A ``popen`` for ``run all`` (experiments/run_all_plan.py) that notes each step's argv in ``ran`` and starts
    a child that sleeps 0.01 s instead; the launch number ``interrupt_at`` raises KeyboardInterrupt."""
    def popen(argv, **kwargs):
        ran.append(argv)
        if len(ran) == interrupt_at:
            raise KeyboardInterrupt
        return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.01)"], **kwargs)
    return popen


@pytest.fixture(scope="session", autouse=True)
def session_key_cache(tmp_path_factory):
    """``report --check``'s data-key cache (:mod:`ssl_repro.data.key_cache`) in a tmp dir for the session, in
    this process and the subprocesses it starts: a test never reads or writes the user's cache."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(key_cache.ENV_VAR, str(tmp_path_factory.mktemp("key_cache") / "data_keys.json"))
        yield


@pytest.fixture(scope="session", autouse=True)
def no_built_peers():
    """The scripts' lookup of built peers off (``SSL_REPRO_PEERS=none``, :mod:`ssl_repro.peers.cache`), in this
    process and the scripts it starts: no test runs a peer a developer happened to build; the tests of the
    lookup name their own cache."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(PEERS_VAR, OFF)
        yield


@pytest.fixture(scope="session")
def writable_data_root(tmp_path_factory):
    """``root(folder)``: a writable data root whose dataset folders link to those of ``folder`` (read-only
    copies of public datasets), so the loaders' caches go to a tmp dir, never into ``folder``."""
    def root(folder):
        linked = tmp_path_factory.mktemp("public_data_root")
        for sub in Path(folder).iterdir():
            if sub.is_dir() and sub.name != "ssl_repro_cache":
                (linked / sub.name).symlink_to(sub)
        return linked
    return root


@pytest.fixture(scope="session")
def text20k(tmp_path_factory):
    """The benchmark matrix text20k (``write_bench_file.py --text-bench``; 0.5 s) as a :class:`BenchData`."""
    from ssl_repro.bench.files import BenchData
    from ssl_repro.bench.text_model import make_text_bench
    X, y, labeled = make_text_bench()
    return BenchData(X, y.astype(np.float64), labeled, float(np.mean(y[~labeled] > 0)))


@pytest.fixture(scope="module")
def moons():
    """50 two-moons points, one labeled per class: (X, y +1/-1, labeled, unlabeled, Gram at default sigma / 4)."""
    X, y = two_moons(n_rows=50, seed=3)
    labeled = np.array([np.flatnonzero(y > 0)[0], np.flatnonzero(y < 0)[0]])
    unlabeled = np.setdiff1d(np.arange(50), labeled)
    return X, y.astype(float), labeled, unlabeled, rbf_gram(X, default_sigma(X) / 4)


@pytest.fixture(scope="session")
def experiment_script():
    """``load(name)``: the script ``experiments/<name>.py`` as a module (the scripts are not a package; as
    when one is run, their folder is on ``sys.path``, so a script imports its siblings)."""
    import importlib.util
    import sys

    folder = Path(__file__).resolve().parents[1] / "experiments"
    if str(folder) not in sys.path:
        sys.path.append(str(folder))

    def load(name):
        path = folder / f"{name}.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    return load


@pytest.fixture(scope="session")
def committed_render(experiment_script):
    """{path: text} of everything ``paper_artifacts.py report`` writes (results/README.md, docs/results/*.md),
    rendered from the committed records once per session (about 20 s), read-only: the tests of the report's
    check compare it, or it with edited copies of the pages, with the files (``check_files``)."""
    artifacts = experiment_script("paper_artifacts")
    return MappingProxyType(artifacts.rendered_files(artifacts.ROOT / "results"))


@pytest.fixture(scope="module")
def plan(experiment_script):
    """``experiments/run_all_plan.py``: the plan of ``run all`` (its tests and script_steps' share it)."""
    return experiment_script("run_all_plan")


@pytest.fixture
def shown(record_property):
    """``shown(case, line)``: a careless-user case (the command line or input, as its table gives it) and the one
    line it printed, kept as the test's properties for the docs page ``docs/careless_table.py`` renders from
    a run of these tests (pytest's junit XML); returns ``line``."""
    def show(case, line):
        record_property("case", case)
        record_property("line", str(line))
        return str(line)
    return show
