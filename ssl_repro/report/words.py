"""Plain words for the report: the records' internal names as a reader says them, the papers' quotes
without the PDFs' line-break hyphens, the papers' names explained (the verdict words are
:data:`ssl_repro.claims.verdicts.VOCABULARY`'s).

The quotes of ``experiments/paper_numbers.json`` are verbatim from the papers' plain texts, which keep
the hyphens of the PDFs' line breaks ("bet- ter", "sig-nificantly"). :func:`unbreak` joins them for
reading: a hyphen followed by a space between two lowercase letters, and the in-word breaks listed in
:data:`LINE_BREAKS`. Every join is checked against the papers' texts (``tests/report/test_report_pages.py``):
the joined word is one the same paper prints unbroken elsewhere, and a hyphen kept (``out-performs``,
``maximum-switch``, ``squared-loss``) is a compound the paper does not print as one word.
"""
import re

from ssl_repro.harness.methods import LABELS
from ssl_repro.report.plots import LABELS as METRIC_LABELS

#: In-word line breaks of the quotes (the texts lost the space after the hyphen): the paper prints the
#: joined word elsewhere (003: "significantly", "variant", "comparisons", "methods", "annealing").
LINE_BREAKS = ("sig-nificantly", "vari-ant", "compar-isons", "meth-ods", "anneal-ing", "trans-ductive", "so-lutions",
               "al-gorithms")

#: Names in the papers' quotes a reader may not know, explained where a quote first uses them.
GLOSSARY = {
    "MFA": "MFA (mean field annealing) is 000's name for DA, the deterministic annealing of the later papers",
    "JTSVM": "JTSVM is Joachims' TSVM (SVM-light's), the kernel form of TSVM with single switching",
    "nabla": "∇TSVM (nabla-TSVM) is Chapelle and Zien's gradient-descent TSVM",
}

#: Record names of methods and metrics as the pages say them.  A folder name is replaced only where it cannot be
#: an English word of a sentence ("learning_curve"): "timing", "ablation" and "transductive" are words too, and
#: replacing them wrote "the large transductive runs run's error" for 002 Table 6's "the transductive run's error"
#: (a folder glob in backquotes keeps its name anyway).
PLAIN = {**LABELS, **{k: v.split(" (")[0] for k, v in METRIC_LABELS.items()},
         "objective_eqn18": "objective J (Eqn 18)", "learning_curve": "learning curves"}


def unbreak(quote):
    """``quote`` with the line-break hyphens joined ("bet- ter" -> "better"), otherwise verbatim."""
    quote = re.sub(r"(?<=[a-z])- (?=[a-z])", "", quote)
    for broken in LINE_BREAKS:
        quote = re.sub(rf"\b{re.escape(broken)}", broken.replace("-", ""), quote)
    return quote


def glossary(text):
    """The :data:`GLOSSARY` notes of the names ``text`` uses."""
    return [note for name, note in GLOSSARY.items() if re.search(rf"\b{name}\b", text)]


def plain(text):
    """``text`` with the record names of methods, metrics and sweeps in words (``tsvm-Smax`` -> TSVM
    S=max, ``objective_eqn18`` -> objective J (Eqn 18)); a backquoted folder glob keeps its name."""
    names = sorted(PLAIN, key=len, reverse=True)
    pattern = re.compile(r"`[^`]*`|(?<![\w-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w-])")
    return pattern.sub(lambda m: m.group(0) if m.group(1) is None else PLAIN[m.group(1)], text)


def evidence_words(text):
    """A verdict's evidence phrase in words: names via :func:`plain`, and a set with no cell where both
    methods ran says so (never "in 0 of 0 cells ()")."""
    text = re.sub(r"([\w-]+): ([\w ,]+) in 0 of 0 cells \(\)", r"\1: no cell where both methods ran", text)
    return plain(text)
