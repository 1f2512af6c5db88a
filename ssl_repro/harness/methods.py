"""The tables of methods and of their named configurations (variants).

:data:`METHODS` says what each method is: name -> estimator class, kind, the
estimator parameters its configuration shows and the record string they
make.  :data:`VARIANTS` names each configuration a user or a recipe picks
(``method=tsvm_s1``): its method, the settings it fixes, how records of it
are labelled and drawn, and the recipes (``conf/experiment/*.yaml``, the
kernel scripts of ``experiments/``) it belongs to.  From these two tables
come the Hydra method configs (:func:`config_nodes`, registered by
:mod:`ssl_repro.harness.resolvers`), the recipes' method lists
(``${methods:<recipe>}``), the rows of the kernel experiment scripts, the
figures' styles and the report's names.

A record's ``method`` is the configuration's *variant* string (``tsvm-S1``,
``da-T0.1``, ``kernel_da-l1``), whose part before the first ``-`` is the
method's name.  Estimator classes are imported when first asked for, so
listing the methods imports neither the linear estimators nor the kernel
package.

Adding a linear method touches the files docs/user_guide/09_developers.md lists (its solver, its estimator
class, a row of :data:`METHODS`, docs/api.rst, the methods page); a new configuration of an existing method is
one row of :data:`VARIANTS`.  Every list of method names (the unknown-name error, README.md's and the harness
guide's, rendered by the report: :func:`config_names`) comes from these tables.  The table's kind must agree
with the estimator (``tests/estimators/test_estimators.py`` checks it: a semi-supervised estimator takes
``lam_u`` and ``r``).
"""
import importlib
import inspect
import re
from dataclasses import dataclass, field

from omegaconf import OmegaConf
from sklearn.utils._param_validation import InvalidParameterError


@dataclass(frozen=True)
class Method:
    """One row of :data:`METHODS`.

    ``estimator`` is ``"module:Class"``, the module's full dotted name (a method declared
    outside the package names its own module);
    ``semi_supervised`` says whether the method is one of the papers' kind:
    it takes ``lam_u`` and ``r`` (Eqn 18's lambda' and the balance
    constraint's ratio; self-training and label spreading, which use the
    unlabeled rows otherwise, take neither), ``kernel`` whether it is a
    kernel machine (``dual_coef_``) rather than a linear one
    (``coef_``), ``graph`` whether it predicts from a graph of the rows
    (neither: label spreading; its records count the rows the graph leaves without a label);
    ``paper`` whether one of the papers runs it (False: today's baselines, which the report and the figures
    keep apart from the papers' methods);
    ``shows`` names the estimator parameters its configuration sets (at the
    estimator's default) because its record string shows them, and ``record``
    is that string as an OmegaConf interpolation (``tsvm-S${.switches}``;
    default: the name).
    """

    name: str
    estimator: str
    semi_supervised: bool
    kernel: bool = False
    graph: bool = False
    paper: bool = True
    shows: tuple = ()
    record: str = None

    @property
    def estimator_class(self):
        module, cls = self.estimator.split(":")
        return getattr(importlib.import_module(module), cls)

    @property
    def plot_group(self):
        """``baseline`` (supervised and today's baselines), ``semi-supervised`` or ``kernel``."""
        if self.kernel:
            return "kernel"
        return "semi-supervised" if self.semi_supervised else "baseline"

    def config(self):
        """The Hydra config ``method=<name>``: name, variant, the shown parameters at the estimator's
        defaults, then ``lam`` (where the estimator takes it; and ``lam_u``, ``r``) as null: the
        dataset's (the split's) values."""
        defaults = inspect.signature(self.estimator_class).parameters
        node = {"name": self.name, "variant": self.record or self.name,
                **{key: defaults[key].default for key in self.shows}}
        if "lam" in defaults:
            node["lam"] = None
        if self.semi_supervised:
            node.update(lam_u=None, r=None)
        return node


METHODS = {m.name: m for m in [
    Method("svm", "ssl_repro.estimators:LinearSVM", False),
    Method("rls", "ssl_repro.estimators:LinearRLS", False),
    Method("tsvm", "ssl_repro.estimators:LinearTSVM", True, shows=("switches",), record="tsvm-S${.switches}"),
    Method("da", "ssl_repro.estimators:LinearDA", True),
    Method("nabla_tsvm", "ssl_repro.estimators:LinearNablaTSVM", True),
    Method("cccp_tsvm", "ssl_repro.estimators:LinearCCCPTSVM", True),
    Method("svm_cv", "ssl_repro.estimators:TunedLinearSVM", False, paper=False),
    Method("logreg_cv", "ssl_repro.estimators:TunedLogisticRegression", False, paper=False),
    Method("self_training", "ssl_repro.estimators:SelfTraining", False, paper=False),
    Method("label_spreading", "ssl_repro.estimators:LabelSpreadingKNN", False, graph=True, paper=False),
    Method("kernel_da", "ssl_repro.estimators:KernelDA", True, kernel=True, shows=("loss",),
           record="kernel_da-${.loss}"),
    Method("kernel_jtsvm", "ssl_repro.estimators:KernelJTSVM", True, kernel=True, shows=("loss",),
           record="kernel_jtsvm-${.loss}"),
    Method("kernel_nabla_tsvm", "ssl_repro.estimators:KernelNablaTSVM", True, kernel=True),
    Method("kernel_cccp_tsvm", "ssl_repro.estimators:KernelCCCPTSVM", True, kernel=True),
]}


@dataclass(frozen=True)
class Variant:
    """One row of :data:`VARIANTS`: the configuration ``method=<config>``.

    ``settings`` are the estimator parameters it fixes on top of its method's
    config (a key the method does not show is added after the others);
    ``record`` replaces the method's record string (DA at a fixed temperature:
    ``da-T${.fixed_temperature}``); ``label`` is how the papers call its
    records, ``style`` their (colour, marker, line style) in every figure,
    ``group`` their figure group when not the method's (``ablation``);
    ``recipes`` the experiments that run it (``${methods:<recipe>}`` in
    ``conf/experiment/*.yaml``; ``svmlight_table9``, ``kernel_toy_table`` and
    ``kernel_benchmarks`` for the scripts of 000 Table 9 and 001's tables,
    the last two with the labels as their rows).  A variant
    whose config is its method's name (no settings) describes the method's
    own config.
    """

    config: str
    method: str
    settings: dict = field(default_factory=dict)
    record: str = None
    label: str = None
    style: tuple = None
    group: str = None
    recipes: tuple = ()

    def node(self):
        """Its Hydra config: the method's, with :attr:`record` and :attr:`settings` applied."""
        node = METHODS[self.method].config()
        if self.record:
            node["variant"] = self.record
        node.update(self.settings)
        return node

    def resolved(self):
        """:meth:`node` with its interpolations resolved (what a job of it receives)."""
        return OmegaConf.to_container(OmegaConf.create(self.node()), resolve=True)

    @property
    def record_name(self):
        """The ``method`` string its records carry (``tsvm-S1``)."""
        return self.resolved()["variant"]

    @property
    def options(self):
        """Its estimator parameters other than lam, lam_u and r (e.g. ``{"loss": "l1"}``)."""
        return {k: v for k, v in self.node().items() if k not in ("name", "variant", "lam", "lam_u", "r")}

    @property
    def kernel_solver(self):
        """(solver, keyword options) of a kernel variant: the function of
        :data:`ssl_repro.kernel.training.KERNEL_SOLVERS` its estimator runs, and :attr:`options`
        (what the kernel experiment scripts call on their own Gram matrices)."""
        from ssl_repro.kernel.training import KERNEL_SOLVERS
        return KERNEL_SOLVERS[METHODS[self.method].estimator_class.solver_name], self.options


def _fixed_temperature(config, method, T, **row):
    """DA held at temperature ``T`` (the ablation of 000 Figs 12-13, 001 Tables 4-5)."""
    record = (METHODS[method].record or method) + "-T${.fixed_temperature}"
    return Variant(config, method, {"fixed_temperature": T}, record=record, group="ablation", **row)


VARIANTS = {v.config: v for v in [
    Variant("svm", "svm", label="SVM", style=("tab:gray", "s", "-"), recipes=("learning_curve", "transductive")),
    Variant("rls", "rls", label="RLS", style=("tab:brown", "x", "--"), recipes=("learning_curve",)),
    Variant("tsvm_s1", "tsvm", {"switches": 1}, label="TSVM S=1", style=("tab:purple", "v", "--"),
            recipes=("learning_curve", "timing", "svmlight_table9")),
    Variant("tsvm_s10", "tsvm", {"switches": 10}, label="TSVM S=10", style=("tab:cyan", "<", "-."),
            recipes=("timing",)),
    Variant("tsvm_s100", "tsvm", {"switches": 100}, label="TSVM S=100", style=("tab:olive", ">", ":"),
            recipes=("timing",)),
    Variant("tsvm_smax", "tsvm", {"switches": "max"}, label="TSVM S=max", style=("tab:blue", "o", "-"),
            recipes=("learning_curve", "timing", "transductive", "scale_timing", "svmlight_table9")),
    Variant("da", "da", label="DA", style=("tab:red", "D", "-"),
            recipes=("learning_curve", "timing", "ablation", "transductive", "scale_timing", "svmlight_table9")),
    _fixed_temperature("da_fixed", "da", 0.1),
    _fixed_temperature("da_fixed_t1", "da", 1, label="fixed T=1", style=("tab:orange", "^", "--"),
                       recipes=("ablation",)),
    _fixed_temperature("da_fixed_t01", "da", 0.1, label="fixed T=0.1", style=("tab:pink", "P", "-."),
                       recipes=("ablation",)),
    _fixed_temperature("da_fixed_t0001", "da", 0.001, label="fixed T=0.001", style=("black", "*", ":"),
                       recipes=("ablation",)),
    Variant("nabla_tsvm", "nabla_tsvm", label="nabla-TSVM", style=("tab:green", "p", "-"),
            recipes=("learning_curve",)),
    Variant("cccp_tsvm", "cccp_tsvm", label="CCCP-TSVM", style=("goldenrod", "h", "-"), recipes=("learning_curve",)),
    # today's baselines (ssl_repro.estimators.baselines), beside the papers' methods on the same splits
    # (and in the large transductive table, except label spreading: its neighbour search grows as n^2 d,
    # hours on kdd99-10's 494,021 rows, where the other three take seconds a draw)
    Variant("svm_cv", "svm_cv", label="SVM (tuned)", style=("dimgray", "s", ":"),
            recipes=("learning_curve", "transductive")),
    Variant("logreg_cv", "logreg_cv", label="LogReg (tuned)", style=("darkkhaki", "d", ":"),
            recipes=("learning_curve", "transductive")),
    Variant("self_training", "self_training", label="self-training", style=("teal", "X", "--"),
            recipes=("learning_curve", "transductive")),
    Variant("label_spreading", "label_spreading", label="label spreading", style=("slateblue", "8", "--"),
            recipes=("learning_curve",)),
    Variant("kernel_jtsvm", "kernel_jtsvm", label="JTSVM", recipes=("kernel_benchmarks",)),
    Variant("kernel_jtsvm_l1", "kernel_jtsvm", {"loss": "l1"}, label="JTSVM (l1)", recipes=("kernel_toy_table",)),
    Variant("kernel_jtsvm_l2", "kernel_jtsvm", {"loss": "l2"}, label="JTSVM (l2)", recipes=("kernel_toy_table",)),
    Variant("kernel_nabla_tsvm", "kernel_nabla_tsvm", label="nabla-TSVM",
            recipes=("kernel_toy_table", "kernel_benchmarks")),
    Variant("kernel_da", "kernel_da", label="DA", recipes=("kernel_benchmarks",)),
    Variant("kernel_da_l1", "kernel_da", {"loss": "l1"}, label="DA (l1)", recipes=("kernel_toy_table",)),
    Variant("kernel_da_l2", "kernel_da", {"loss": "l2"}, label="DA (l2)", recipes=("kernel_toy_table",)),
    Variant("kernel_da_sqr", "kernel_da", {"loss": "sqr"}, label="DA (sqr)",
            recipes=("kernel_toy_table", "kernel_benchmarks")),
    _fixed_temperature("kernel_da_t01", "kernel_da", 0.1, label="T=0.1", recipes=("kernel_benchmarks",)),
    _fixed_temperature("kernel_da_t001", "kernel_da", 0.01, label="T=0.01", recipes=("kernel_benchmarks",)),
    _fixed_temperature("kernel_da_t0001", "kernel_da", 0.001, label="T=0.001", recipes=("kernel_benchmarks",)),
]}


def config_nodes():
    """Every method config by name: each method's own (:meth:`Method.config`), then each variant's."""
    return {**{name: m.config() for name, m in METHODS.items()},
            **{name: v.node() for name, v in VARIANTS.items()}}


def config_names():
    """{method: the names ``method=`` takes for it}: the method's own config, then its variants' other
    configs, in table order (README.md and the harness guide list them from here)."""
    return {name: [name] + [c for c, v in VARIANTS.items() if v.method == name and c != name] for name in METHODS}


def recipe_variants(recipe):
    """The variants of ``recipe``, in table order; an unknown recipe lists the known ones."""
    chosen = [v for v in VARIANTS.values() if recipe in v.recipes]
    if not chosen:
        known = sorted({r for v in VARIANTS.values() for r in v.recipes})
        raise ValueError(f"no method variant is tagged {recipe!r}; known recipes: {', '.join(known)}")
    return chosen


def _linear_variants():
    return [v for v in VARIANTS.values() if not METHODS[v.method].kernel]


#: The papers' name of each linear record string (``tsvm-S1`` -> ``TSVM S=1``).
LABELS = {v.record_name: v.label for v in _linear_variants() if v.label}

#: (colour, marker, line style) of each linear record string, in table order (baselines first).
STYLES = {v.record_name: v.style for v in _linear_variants() if v.style}


def method(name):
    """The :class:`Method` of ``name`` or of a variant (``tsvm-Smax``); unknown names list the known ones."""
    key = str(name).split("-")[0]
    if key not in METHODS:
        raise ValueError(f"unknown method {name!r}; known methods: {', '.join(sorted(METHODS))}")
    return METHODS[key]


#: The :attr:`Variant.group` of each record string whose variant has one (``da-T0.1`` -> ``ablation``).
GROUPS = {v.record_name: v.group for v in VARIANTS.values() if v.group}


def plot_group(record):
    """The figure group of a record string: its variant's :attr:`Variant.group` (:data:`GROUPS`:
    ``ablation`` for DA at a fixed temperature), else its method's :attr:`Method.plot_group`."""
    return GROUPS.get(record) or method(record).plot_group


def estimator_for_benchmark(alias, lam, lam_u, r):
    """The estimator of a benchmark method: a name of :data:`METHODS` or the aliases that
    the side-by-side timing against the C++ reference passes, ``tsvm-S`` (S a positive integer or ``max``),
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


#: Keys of a method's configuration that are not estimator parameters.
METHOD_META = ("name", "variant")


def estimator_for(method_cfg, lam, lam_u, r):
    """The estimator of a method configuration (:data:`ssl_repro.harness.methods.METHODS`).

    Parameters the configuration does not set (or sets to null) take the
    dataset's ``lam``, and for a semi-supervised method its ``lam_u`` and the
    split's ``r``; every other parameter keeps the estimator's default.
    """
    name = method_cfg["name"]
    if name not in METHODS:
        raise ValueError(f"unknown method {name!r}; known methods: {', '.join(sorted(METHODS))}")
    entry = method(name)
    params = {k: v for k, v in method_cfg.items() if k not in METHOD_META}
    cls = entry.estimator_class
    defaults = {"lam": lam, "lam_u": lam_u, "r": r} if entry.semi_supervised else {"lam": lam}
    for key, value in defaults.items():
        if params.get(key) is None and key in cls().get_params():
            params[key] = value
    unknown = sorted(set(params) - set(cls().get_params()))
    if unknown:
        raise ValueError(f"method {name!r}: unknown parameter(s) {', '.join(unknown)}; {cls.__name__} takes "
                         f"{', '.join(sorted(cls().get_params()))}")
    estimator = cls(**params)
    try:
        estimator._validate_params()        # what fit checks first, before the data are loaded
    except InvalidParameterError as error:
        source = "method.{0}=VALUE, or dataset.{0}=VALUE" if re.search(r"'(lam|lam_u)'", str(error)) else \
            "method.{0}=VALUE (+method.{0}=VALUE where the method's config does not declare it)"
        parameter = re.search(r"The '(\w+)' parameter", str(error))
        raise ValueError(f"method {name!r}: {error}"
                         + (f" Set it with {source.format(parameter.group(1))}" if parameter else "")) from None
    return estimator
