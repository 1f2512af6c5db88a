"""Fixtures shared by the test modules: the public datasets copied beside the repository, the two-moons
kernel problem."""
from pathlib import Path

import numpy as np
import pytest

from ssl_repro.data.embedded import two_moons
from ssl_repro.kernel import default_sigma, rbf_gram

#: ``shared/data`` beside the repository: read-only copies of public datasets (see its README).
SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.fixture(scope="session")
def shared_data_dir():
    """The read-only shared data folder; tests that need it skip where it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"{SHARED_DATA} is absent (the shared data folder must sit beside the repository)")
    return SHARED_DATA


@pytest.fixture(scope="session")
def shared_data_root(shared_data_dir, tmp_path_factory):
    """A writable data root whose dataset folders link to the shared ones, so caches go to a tmp dir."""
    root = tmp_path_factory.mktemp("shared_data_root")
    for folder in shared_data_dir.iterdir():
        if folder.is_dir() and folder.name != "ssl_repro_cache":
            (root / folder.name).symlink_to(folder)
    return root


@pytest.fixture(scope="module")
def moons():
    """50 two-moons points, one labeled per class: (X, y +1/-1, labeled, unlabeled, Gram at default sigma / 4)."""
    X, y = two_moons(n_rows=50, seed=3)
    labeled = np.array([np.flatnonzero(y > 0)[0], np.flatnonzero(y < 0)[0]])
    unlabeled = np.setdiff1d(np.arange(50), labeled)
    return X, y.astype(float), labeled, unlabeled, rbf_gram(X, default_sigma(X) / 4)


@pytest.fixture(scope="session")
def experiment_script():
    """``load(name)``: the script ``experiments/<name>.py`` as a module (the scripts are not a package)."""
    import importlib.util

    def load(name):
        path = Path(__file__).resolve().parents[1] / "experiments" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    return load
