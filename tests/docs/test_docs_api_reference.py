"""The API reference (docs/api.rst) lists every public name of the estimator and solver modules."""
import ast
import importlib
import inspect
import re
from pathlib import Path

import pytest

API = Path(__file__).resolve().parents[2] / "docs" / "api.rst"
MODULES = ["ssl_repro.estimators", "ssl_repro.estimators.comparison", "ssl_repro.estimators.kernel",
           "ssl_repro.estimators.kernel_cccp", "ssl_repro.solvers",
           "ssl_repro.labels", "ssl_repro.estimators.baselines", "ssl_repro.estimators.cross_validation",
           "ssl_repro.estimators.model_selection", "ssl_repro.peers"]


def public_names(module_name):
    """``__all__``, or else every top-level function, class and constant the module defines
    whose name does not start with an underscore."""
    module = importlib.import_module(module_name)
    if hasattr(module, "__all__"):
        return set(module.__all__)
    names = set()
    for node in ast.parse(inspect.getsource(module)).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return {name for name in names if not name.startswith("_")}


def documented_names():
    """The fully qualified names the autosummary directives of the API reference list."""
    return set(re.findall(r"^\s+(ssl_repro\.[\w.]+)\s*$", API.read_text(), flags=re.MULTILINE))


@pytest.mark.parametrize("module_name", MODULES)
def test_every_public_name_is_in_the_api_reference(module_name):
    names = public_names(module_name)
    assert names, module_name
    documented = documented_names()
    # an estimator is documented under the one namespace that exports them all (ssl_repro.estimators), the
    # label helpers it re-exports under their home (ssl_repro.labels)
    missing = sorted(f"{module_name}.{name}" for name in names
                     if not {f"{module_name}.{name}", f"ssl_repro.estimators.{name}", f"ssl_repro.labels.{name}"}
                     & documented)
    assert not missing, f"public names missing from {API.name}'s autosummary lists: {missing}"


def test_the_reference_lists_only_names_that_exist():
    for qualified in documented_names():
        module_name, name = qualified.rsplit(".", 1)
        assert hasattr(importlib.import_module(module_name), name), qualified


def test_public_names_detects_a_module_without_all():
    # ssl_repro.estimators.kernel has no __all__: its classes, function and constants count, its imports do not
    names = public_names("ssl_repro.estimators.kernel")
    assert {"KernelDA", "KernelJTSVM", "KernelNablaTSVM", "MAX_ROWS", "check_kernel_rows"} <= names
    assert not {"np", "rbf_gram", "validate_data"} & names


@pytest.mark.parametrize("qualified", sorted(n for n in documented_names()
                                             if re.search(r"estimators\.(Linear|Kernel)\w+$", n)))
def test_every_estimator_cites_its_paper(qualified):
    module_name, name = qualified.rsplit(".", 1)
    doc = getattr(importlib.import_module(module_name), name).__doc__
    references = doc.split("References\n    ----------\n", 1)
    assert len(references) == 2, f"{qualified} has no References section"
    assert re.search(r"\b(Table|Eqn|Fig)s? \d|\((00\d)\)|of 00\d", references[1]), qualified
