"""The layout shows the architecture: ssl_repro's imports form no circle and never go up a stage.

Every import in every module is read from the source (module level and inside functions alike, so a lazy
import cannot hide a circle), resolved to the module it names (``from pkg import sub`` names ``pkg.sub``).
The stages, lowest first (docs/user_guide/09_developers.md draws the same map)."""
import ast
from pathlib import Path

import pytest

import ssl_repro
from ssl_repro.estimators import __all__ as estimator_names

ROOT = Path(ssl_repro.__file__).parent

#: The packages in stage order: a module may import its own package and the packages of earlier stages.
STAGES = (
    ("ssl_repro", "ssl_repro.labels", "ssl_repro.utils", "ssl_repro.bench", "ssl_repro.peers"),
    ("ssl_repro.solvers", "ssl_repro.data"),
    ("ssl_repro.kernel", "ssl_repro.distributed"),
    ("ssl_repro.estimators",),
    ("ssl_repro.harness",),
    ("ssl_repro.claims",),
    ("ssl_repro.report",),
)
STAGE = {package: k for k, packages in enumerate(STAGES) for package in packages}


def modules():
    """{dotted name: path} of every module of the package."""
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports(name, path, known):
    """The modules of ``known`` that module ``name`` imports."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full in known:
                    found.add(full)
                elif base in known:
                    found.add(base)
    found.discard(name)
    return found


def stage_package(name):
    """The entry of :data:`STAGES` that ``name`` belongs to (its longest prefix there)."""
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        if ".".join(parts[:k]) in STAGE:
            return ".".join(parts[:k])
    raise AssertionError(f"{name} is in no stage of STAGES: add its package")


@pytest.fixture(scope="module")
def graph():
    known = modules()
    return {name: imports(name, path, known) for name, path in known.items()}


def test_every_module_belongs_to_a_stage(graph):
    for name in graph:
        stage_package(name)


def upward(graph):
    """The imports of ``graph`` ({module: imported modules}) from a lower stage up to a higher one."""
    return sorted(f"{a} -> {b}" for a, targets in graph.items() for b in targets
                  if STAGE[stage_package(b)] > STAGE[stage_package(a)])


def circles(graph):
    """The import circles of ``graph``: its strongly connected components of more than one module (Tarjan)."""
    index, low, on_stack, stack, found, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_goes_up_a_stage(graph):
    assert not upward(graph), "imports from a lower stage up to a higher one:\n" + "\n".join(upward(graph))


def test_no_import_circle(graph):
    assert not circles(graph), "import circles:\n" + "\n".join(" <-> ".join(c) for c in circles(graph))


def test_the_checks_see_a_circle_and_an_upward_import():
    """The two checks find the faults they look for in a made-up graph (the old claims -> cccp_002 ->
    report -> claims circle, and a solver importing the harness), and pass the same graph without them."""
    faulty = {"ssl_repro.claims.rules": {"ssl_repro.claims.cccp_002_rules"},
              "ssl_repro.claims.cccp_002_rules": {"ssl_repro.report.tables"},
              "ssl_repro.report.tables": {"ssl_repro.claims.rules"},
              "ssl_repro.solvers.mfn": {"ssl_repro.harness.runner"}, "ssl_repro.harness.runner": set()}
    assert circles(faulty) == [["ssl_repro.claims.cccp_002_rules", "ssl_repro.claims.rules", "ssl_repro.report.tables"]]
    assert upward(faulty) == ["ssl_repro.claims.cccp_002_rules -> ssl_repro.report.tables",
                              "ssl_repro.solvers.mfn -> ssl_repro.harness.runner"]
    clean = {"ssl_repro.report.tables": {"ssl_repro.claims.rules"}, "ssl_repro.claims.rules": set(),
             "ssl_repro.harness.runner": {"ssl_repro.solvers.mfn"}, "ssl_repro.solvers.mfn": set()}
    assert circles(clean) == [] and upward(clean) == []


def test_every_estimator_is_in_one_namespace():
    """``from ssl_repro.estimators import X`` for every estimator class the package defines."""
    import inspect

    from sklearn.base import BaseEstimator

    import ssl_repro.estimators as namespace
    for module in ("linear", "comparison", "kernel", "kernel_cccp", "baselines"):
        mod = __import__(f"ssl_repro.estimators.{module}", fromlist=["_"])
        for cls_name, cls in inspect.getmembers(mod, inspect.isclass):
            if issubclass(cls, BaseEstimator) and cls.__module__ == mod.__name__ and not cls_name.startswith("_"):
                assert cls_name in estimator_names and getattr(namespace, cls_name) is cls, cls_name
    from ssl_repro.estimators import KernelCCCPTSVM, KernelDA, LinearCCCPTSVM, LinearDA  # noqa: F401  (the issue's spelling)
