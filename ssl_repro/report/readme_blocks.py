"""The blocks of README.md and of the harness guide that the report renders (between two marker lines,
:func:`ssl_repro.utils.marked_block.with_block`): the verdict tally on the README's first screen, from the
records (:func:`.summary.headline`), every name ``method=`` takes, from the methods table
(:func:`ssl_repro.harness.methods.config_names`), and the estimators' guide's costs of DA's K-class options, from
the Potts record (:func:`ssl_repro.report.sections.beyond_multiclass.cost_lines`), and its advice on which
estimator to pick, from the scikit-learn examples' and the Potts records
(:func:`ssl_repro.report.sections.estimator_choice.choice_lines`), so that none goes stale:
``paper_artifacts.py report`` writes them and ``report --check`` fails when a committed block differs.
"""
from ssl_repro.harness.methods import METHODS, config_names
from ssl_repro.report.sections.beyond_multiclass import cost_lines
from ssl_repro.report.sections.estimator_choice import choice_lines
from ssl_repro.report.summary import headline
from ssl_repro.utils.marked_block import with_block

_BY = "rendered by experiments/paper_artifacts.py report from"
VERDICTS = (f"<!-- verdicts: {_BY} the records under results/ -->", "<!-- end of verdicts -->")
METHOD_NAMES = (f"<!-- method names: {_BY} ssl_repro/harness/methods.py -->", "<!-- end of method names -->")
K_CLASS_COSTS = (f"<!-- K-class costs: {_BY} results/potts_vs_ovr/ -->", "<!-- end of K-class costs -->")
CHOICE = (f"<!-- estimator choice: {_BY} results/sklearn_examples/ and results/potts_vs_ovr/ -->",
          "<!-- end of estimator choice -->")

#: The groups of the method list: (heading, which methods of :data:`METHODS`).
GROUPS = (("the papers' linear methods", lambda m: m.paper and not m.kernel),
          ("today's baselines (no paper runs them)", lambda m: not m.paper),
          ("kernel methods (001, 002; an n x n Gram matrix, for small sets)", lambda m: m.kernel))


def method_lines():
    """One line per group of :data:`GROUPS`: each method's name, its variants' configs in parentheses."""
    names = config_names()
    lines = []
    for heading, member in GROUPS:
        shown = [f"`{name}`" + (f" ({', '.join(f'`{c}`' for c in names[name][1:])})" if names[name][1:] else "")
                 for name, m in METHODS.items() if member(m)]
        lines.append(f"- {heading}: {', '.join(shown)};")
    lines[-1] = lines[-1][:-1] + "."
    return lines


def with_blocks(text, records):
    """``text`` (README.md or a guide page) with each block it holds rendered anew."""
    if VERDICTS[0] in text:
        text = with_block(text, *VERDICTS, headline(records))
    if METHOD_NAMES[0] in text:
        text = with_block(text, *METHOD_NAMES, method_lines())
    if K_CLASS_COSTS[0] in text:
        text = with_block(text, *K_CLASS_COSTS, cost_lines(records))
    if CHOICE[0] in text:
        text = with_block(text, *CHOICE, choice_lines(records))
    return text
