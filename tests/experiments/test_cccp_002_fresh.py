"""002's Table 2 grid (experiments/cccp_002.py table2): a rerun resumes, ``--fresh`` (what ``run all`` runs) fits
every grid point again, so that the record comes from one commit."""
import sys

import pandas as pd
import pytest


@pytest.fixture
def script(experiment_script, monkeypatch, tmp_path):
    script = experiment_script("cccp_002")
    data = sys.modules["cccp_002_data"]
    for module in (script, data):
        if hasattr(module, "OUT"):
            monkeypatch.setattr(module, "OUT", tmp_path)
    monkeypatch.setattr(script, "GRIDS", {"g50c": {"factor": (1.0,), "C": (1.0,), "s": (0.0,), "lam_u": (1.0,)}})
    return script


def test_a_rerun_fits_only_the_missing_points_and_fresh_fits_every_point_again(script, monkeypatch, tmp_path):
    fitted = []

    def fit_row(method, X, y, labeled, unlabeled, sigma, C, s, lam_u, *peers):
        fitted.append(method)
        return {"method": method, "C": C, "s": s, "lam_u": lam_u, "transductive_error": 0.1, "seconds": 0.0}

    monkeypatch.setattr(script, "fit_row", fit_row)
    script.table2("g50c", 1, None)
    first = list(fitted)
    assert sorted(first) == ["cccp-tsvm", "nabla-tsvm", "svm"]
    script.table2("g50c", 1, None)
    assert fitted == first                                  # resumed: nothing left to fit
    script.table2("g50c", 1, None, fresh=True)
    assert sorted(fitted[len(first):]) == sorted(first)     # every point fitted again
    assert (tmp_path / "grid.csv").read_text().count("g50c") == 3   # replaced, not appended
    from ssl_repro.utils.provenance import git_commit
    assert set(pd.read_csv(tmp_path / "grid.csv")["git_commit"]) == {git_commit()}   # each row names its code


def test_the_warm_up_compiles_every_kernel_a_nabla_tsvm_grid_fit_calls(experiment_script):
    """Claim 75 reads nabla-TSVM's seconds over Fig 5's grid: from a fresh clone (numba's cache empty) its first fits
    timed the linear engine's compilation (7 s and 3.4 s against a tenth of a second, not a timing) until the
    script's warm-up loaded those kernels too.  After the warm-up, g50c fits at the grid's corners (the two that
    compiled) add no compiled signature to any of the package's numba kernels."""
    import numpy as np
    from numba.core.registry import CPUDispatcher

    from ssl_repro.estimators.kernel_cccp import sampled_sigma

    script = experiment_script("cccp_002")
    data = sys.modules["cccp_002_data"]

    def signatures():
        return {(name, key, tuple(kernel.signatures)) for name, module in list(sys.modules.items())
                if name.startswith(("ssl_repro.solvers", "ssl_repro.kernel"))
                for key, kernel in vars(module).items() if isinstance(kernel, CPUDispatcher)}

    script.warm_up()
    before = signatures()
    X, y = data.load("g50c")
    labeled, unlabeled = data.split_rows(y, 0)
    for factor, C in ((0.5, 0.1), (0.5, 100.0)):
        row = script.fit_row("nabla-tsvm", X, y, labeled, unlabeled, factor * sampled_sigma(X), C)
        assert np.isfinite(row["transductive_error"])
    assert signatures() == before
