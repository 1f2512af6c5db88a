"""The label conventions sit below the datasets and the estimators."""
import ast
from pathlib import Path

import numpy as np

import ssl_repro
from ssl_repro import estimators, labels
from ssl_repro.data.files import load_svmlin_pair


def test_mask_labels_maps_pm1_to_fit_labels():
    y = labels.mask_labels(np.array([1, -1, 1, -1]), [0, 1])
    assert y.tolist() == [1, 0, labels.UNLABELED, labels.UNLABELED]


def test_estimators_reexport_the_same_function():
    assert estimators.mask_labels is labels.mask_labels


def test_svmlin_pair_marks_unlabeled_rows_with_the_convention(tmp_path):
    (tmp_path / "x").write_text("1:1\n2:1\n1:1 2:1\n")
    (tmp_path / "y").write_text("1\n-1\n0\n")
    _, y = load_svmlin_pair(tmp_path / "x", tmp_path / "y")
    assert y.tolist() == [1, 0, labels.UNLABELED]


def test_the_data_layer_imports_nothing_of_the_estimators():
    data = Path(ssl_repro.__file__).parent / "data"
    for path in data.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert "estimator" not in (node.module or ""), (path.name, node.module)
