"""The one table of methods: name -> estimator class, kind and plot group.

Used by the harness (:func:`ssl_repro.harness.runner.estimator_for`), the
benchmark (``benchmarks/bench_solvers.py``) and the figures
(:mod:`ssl_repro.harness.plots`).  A method's *name* is ``method.name`` in
``conf/method/*.yaml``; a record's ``method`` is the config's *variant*
(``tsvm-S1``, ``da-T0.1``, ``kernel_da-l1``), whose part before the first
``-`` is the name.

Estimator classes are imported when first asked for, so listing the
methods imports neither the linear estimators nor the kernel package.

Adding a linear method (see docs/user_guide/09_developers.md) touches four
files: its solver (``ssl_repro/solvers/<name>.py``), its estimator class (in
:mod:`ssl_repro.estimators`), a row here and its entry in docs/api.rst.  A ``conf/method/<name>.yaml``
is needed only for named variants: every method of the table without one is
registered as a Hydra config (:func:`ssl_repro.harness.resolvers.register_methods`).
The table's kind must agree with the estimator (``tests/test_estimators.py``
checks it: a semi-supervised estimator takes ``lam_u`` and ``r``).
"""
import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Method:
    """One row of :data:`METHODS`.

    ``estimator`` is ``"module:Class"``, the module's full dotted name (a method declared
    outside the package names its own module);
    ``semi_supervised`` says whether the method uses the unlabeled rows (and
    takes ``lam_u`` and ``r``), ``kernel`` whether it is a dense-Gram kernel
    machine (``dual_coef_``) rather than a linear one (``coef_``);
    ``style`` is its (colour, marker, line style) in every figure.
    """

    name: str
    estimator: str
    semi_supervised: bool
    kernel: bool = False
    style: tuple = None

    @property
    def estimator_class(self):
        module, cls = self.estimator.split(":")
        return getattr(importlib.import_module(module), cls)

    @property
    def plot_group(self):
        """``baseline`` (supervised), ``semi-supervised`` or ``kernel``."""
        if self.kernel:
            return "kernel"
        return "semi-supervised" if self.semi_supervised else "baseline"


METHODS = {m.name: m for m in [
    Method("svm", "ssl_repro.estimators:LinearSVM", False, style=("tab:gray", "s", "-")),
    Method("rls", "ssl_repro.estimators:LinearRLS", False, style=("tab:brown", "x", "--")),
    Method("tsvm", "ssl_repro.estimators:LinearTSVM", True, style=("tab:blue", "o", "-")),
    Method("da", "ssl_repro.estimators:LinearDA", True, style=("tab:red", "D", "-")),
    Method("nabla_tsvm", "ssl_repro.estimators:LinearNablaTSVM", True, style=("tab:green", "p", "-")),
    Method("cccp_tsvm", "ssl_repro.estimators:LinearCCCPTSVM", True, style=("goldenrod", "h", "-")),
    Method("kernel_da", "ssl_repro.kernel_estimators:KernelDA", True, kernel=True),
    Method("kernel_jtsvm", "ssl_repro.kernel_estimators:KernelJTSVM", True, kernel=True),
    Method("kernel_nabla_tsvm", "ssl_repro.kernel_estimators:KernelNablaTSVM", True, kernel=True),
]}

#: Styles of the variants that share a method's name but not its style (the TSVM switch counts
#: and DA at fixed temperatures, ``conf/method/tsvm_s*.yaml`` and ``da_fixed_t*.yaml``).
VARIANT_STYLES = {
    "tsvm-S1": ("tab:purple", "v", "--"), "tsvm-S10": ("tab:cyan", "<", "-."),
    "tsvm-S100": ("tab:olive", ">", ":"), "tsvm-Smax": ("tab:blue", "o", "-"),
    "da-T1": ("tab:orange", "^", "--"), "da-T0.1": ("tab:pink", "P", "-."), "da-T0.001": ("black", "*", ":"),
}

#: Prefix of the variants of DA held at a fixed temperature (``conf/method/da_fixed.yaml``).
FIXED_TEMPERATURE_PREFIX = "da-T"


def method(name):
    """The :class:`Method` of ``name`` or of a variant (``tsvm-Smax``); unknown names list the known ones."""
    key = str(name).split("-")[0]
    if key not in METHODS:
        raise ValueError(f"unknown method {name!r}; known methods: {', '.join(sorted(METHODS))}")
    return METHODS[key]


def plot_group(variant):
    """``ablation`` for DA at a fixed temperature, else the method's :attr:`Method.plot_group`."""
    if variant.startswith(FIXED_TEMPERATURE_PREFIX):
        return "ablation"
    return method(variant).plot_group


def estimator_for_benchmark(alias, lam, lam_u, r):
    """The estimator of a benchmark method: a name of :data:`METHODS` or the aliases that
    ``shared/bench/side_by_side.py`` passes, ``tsvm-S`` (S a positive integer or ``max``),
    ``nabla`` and ``cccp``."""
    aliases = {"nabla": "nabla_tsvm", "cccp": "cccp_tsvm"}
    params = {}
    name = aliases.get(alias, alias)
    if alias.startswith("tsvm-"):
        switches = alias[len("tsvm-"):]
        name, params = "tsvm", {"switches": "max" if switches == "max" else int(switches)}
    if name not in METHODS:
        raise ValueError(f"unknown benchmark method {alias!r}: use {', '.join(sorted(METHODS))}, "
                         f"tsvm-S (S an integer or max), nabla or cccp")
    entry = METHODS[name]
    if entry.semi_supervised:
        params.update(lam_u=lam_u, r=r)
    return entry.estimator_class(lam=lam, **params)
