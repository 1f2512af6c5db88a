"""experiments/da_path.py: DA's annealing path of one harness job and the weights it returns."""
import json

import numpy as np


def test_the_path_marks_the_lowest_objective_and_the_returned_weights_positive_fraction(experiment_script, tmp_path):
    da_path = experiment_script("da_path")
    da_path.main(["--dataset", "text-like", "--n-labeled", "16", "--out", str(tmp_path)])
    saved = json.loads((tmp_path / "text-like_l16_split0.json").read_text())
    path = saved["path"]
    values = [step["J"] for step in path]
    assert len(path) > 1 and [step["returned"] for step in path].count(True) == 1
    chosen = next(step for step in path if step["returned"])
    assert chosen["J"] == min(values) == saved["objective_eqn18"]
    assert all(0.0 <= step["positive_fraction"] <= 1.0 for step in path)
    assert np.all(np.diff([step["T"] for step in path]) <= 0)            # temperatures only fall
    assert saved["git_commit"] and saved["command"].startswith("python")
    assert "| yes |" in (tmp_path / "text-like_l16_split0.md").read_text()
