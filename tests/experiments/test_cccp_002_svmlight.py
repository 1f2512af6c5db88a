"""SVM-light's TSVM as 002's third peer on text (experiments/cccp_002.py, method ``svmlight-tsvm``): the fit with a
fake ``svm_learn`` (its options, its labels scored, the CPU cap), with the real one where
``SSL_REPRO_SVM_LEARN`` names it, and ``fig3``'s ``--sizes``."""
import json
import os
import stat
import sys
from pathlib import Path

import numpy as np
import pytest


@pytest.fixture(scope="module")
def script(experiment_script):
    return experiment_script("cccp_002")


def fake_binary(path, body):
    path.write_text(f"#!{sys.executable}\n{body}")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def tiny_problem(script, n_unlabeled=100):
    """g50c (the package's embedded Gaussians), split 0's 50 labeled rows and ``n_unlabeled`` unlabeled ones."""
    X, y = script.load("g50c")
    labeled, unlabeled = script.split_rows(y, 0)
    return X, y, labeled, unlabeled[:n_unlabeled]


def test_the_fit_passes_the_rbf_grid_point_and_the_labeled_share_and_scores_its_transductive_labels(script, tmp_path):
    """A fake svm_learn that writes its arguments and labels every unlabeled row (label 0 in its file) +1:
    the error is the unlabeled rows' negative share, and the options are 002's grid point's."""
    X, y, labeled, unlabeled = tiny_problem(script)
    body = ("import sys, json\nargs = sys.argv\n"
            f"open({str(tmp_path / 'args.json')!r}, 'w').write(json.dumps(args))\n"
            "rows = [l for l in open(args[-2]) if l.startswith('0 ')]\n"
            "open(args[args.index('-l') + 1], 'w').write(''.join('1.0:+1 -1.0:-1\\n' for _ in rows))\n"
            "print('Runtime in cpu-seconds: 0.25')\n")
    binary = fake_binary(tmp_path / "svm_learn", body)
    row = script.fit_row("svmlight-tsvm", X, y, labeled, unlabeled, 2.0, 10.0, svm_learn=binary)
    args = json.loads((tmp_path / "args.json").read_text())
    option = lambda flag: args[args.index(flag) + 1]      # noqa: E731
    assert option("-t") == "2" and float(option("-g")) == pytest.approx(1 / 8) and float(option("-c")) == 10.0
    assert float(option("-p")) == pytest.approx(np.mean(y[labeled] > 0), abs=1e-6)
    assert row["transductive_error"] == pytest.approx(np.mean(y[unlabeled] < 0)) and not row["capped"]
    assert row["svmlight_runtime"] == 0.25 and 0 < row["seconds"] < 10 and row["positive_fraction"] == 1.0


def test_a_fit_past_the_cap_is_recorded_capped_not_waited_for(script, tmp_path):
    X, y, labeled, unlabeled = tiny_problem(script)
    spinner = fake_binary(tmp_path / "svm_learn", "while True:\n    pass\n")
    row = script.fit_row("svmlight-tsvm", X, y, labeled, unlabeled, 2.0, 10.0, svm_learn=spinner, svmlight_cap=1.0)
    assert row["capped"] and not row["converged"] and np.isnan(row["transductive_error"])
    assert 0.9 <= row["seconds"] < 3


def test_fig3_sizes_are_a_subset_of_the_figures_in_its_order(script):
    assert script.fig3_sizes(["all", "200", "1600"]) == (200, 1600, None)
    with pytest.raises(ValueError, match=r"--sizes \[300\]: not sizes of Fig 3; choose from 200, .*all"):
        script.fig3_sizes(["300"])


def test_fig3_refuses_a_peer_without_its_binary(script, capsys):
    with pytest.raises(SystemExit):
        script.main(["fig3", "--methods", "svmlight-tsvm"])
    assert "--methods svmlight-tsvm needs --svm-learn PATH" in capsys.readouterr().err


def test_the_real_svm_light_holds_its_positive_share_and_learns(script, tmp_path):
    """SVM-light V6.02 itself (``SSL_REPRO_SVM_LEARN``: its svm_learn, e.g. the one ``python -m ssl_repro.peers
    build svm-light`` built): its transductive labels hold the -p share of the unlabeled rows (within one row)
    and its error on g50c's unlabeled rows is far below chance (the Bayes error is 5%; the supervised SVM on 50 rows is near 10%)."""
    binary = os.environ.get("SSL_REPRO_SVM_LEARN")
    if not binary or not os.access(binary, os.X_OK):
        pytest.skip("SVM-light is not here: set SSL_REPRO_SVM_LEARN to its svm_learn (V6.02; "
                    "python -m ssl_repro.peers build svm-light prints its path) to run this test")
    X, y, labeled, unlabeled = tiny_problem(script)
    median = script.sampled_sigma(X)
    row = script.fit_row("svmlight-tsvm", X, y, labeled, unlabeled, 2.0 * median, 10.0, svm_learn=Path(binary),
                         svmlight_cap=60.0)
    assert not row["capped"] and row["svmlight_runtime"] is not None
    assert abs(row["positive_fraction"] - row["svmlight_p"]) <= 1.0 / unlabeled.size
    assert row["transductive_error"] < 0.2
