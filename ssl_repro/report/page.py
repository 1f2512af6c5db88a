"""The pages: results/README.md and the documentation's Results pages, from the sections in order."""
import re
import textwrap

from ssl_repro.report.sections import beyond_table as beyond
from ssl_repro.report.sections import cccp_002_tables as cccp_002
from ssl_repro import claims
from ssl_repro.report.sections.ablation import section_ablation
from ssl_repro.report.sections.calibration import section_calibration
from ssl_repro.report.claim_pages import claim_title, overview, set_verdicts, tested, verdict_label
from ssl_repro.report.sections.da_path_figure import section_da_path
from ssl_repro.report.sections.datasets import section_dataset_table
from ssl_repro.report.sections.distributed_scaling import section_distributed
from ssl_repro.report.figures import figure_notes
from ssl_repro.report.sections.kernel_001 import section_kernel_benchmarks, section_kernel_toy
from ssl_repro.report.sections.learning_curves import section_learning_curves
from ssl_repro.report.sections.loss_shapes import section_drawings
from ssl_repro.report.sections.objective_minima import section_objective
from ssl_repro.report.sections.side_by_side import section_side_by_side
from ssl_repro.report.summary import summary
from ssl_repro.report.sections.svmlight import section_svmlight
from ssl_repro.report.sections.text20k import section_text20k
from ssl_repro.report.sections.timing_tables import section_timing
from ssl_repro.report.sections.transductive import section_transductive
from ssl_repro.report.sections.universvm import section_universvm


#: The page's first line under its title (the rest of :data:`HEADER` follows the claims table).
GENERATED = ("Generated from the committed records by `python experiments/paper_artifacts.py report`; do not edit "
             "it by hand.")

HEADER = """## About this page

This file is generated: `python experiments/paper_artifacts.py report` writes it (and the documentation's
Results pages, `docs/results/`) from the committed records under `results/` and the papers' numbers and claims
in `experiments/paper_numbers.json` (each with its paper, place and a verbatim quote); `report --check` fails
when either differs from a fresh render. Do not edit it by hand. Figures and summaries are re-rendered from the
committed `results.csv` files by `python experiments/paper_artifacts.py render --force`; every artifact with a
record is re-run by `python experiments/paper_artifacts.py run all --force` (`run all --dry-run` lists each artifact
with the step that makes it, or why it is left out and its command).

Papers: 000 = Sindhwani & Keerthi, tech report 2006 (the spec; experiments in its Sec. 4), 001 = Sindhwani,
Keerthi & Chapelle, ICML 2006 (kernel DA), 002 = Collobert, Sinz, Weston & Bottou, JMLR 2006 (CCCP-TSVM),
003 = Sindhwani & Keerthi, SIGIR 2006, 004 = Sindhwani & Keerthi, book chapter 2007 (experiments in its Sec. 1.5)."""


RULES = """Data: `real` is the paper's set (our copy; kdd99-10 is kdd99's 10% file), `real subset` some of
the paper set's own rows (mnist-5k: 5,000 of MNIST's digits), `real-text analog` a set standing for a paper set
that is not here (20 Newsgroups; scikit-learn's digits for 002's uspst), `SYNTHETIC stand-in` a generated set of
the paper set's shape (`ssl_repro/data/registry.py`). A verdict uses the real set, else its real subset, else its
analog, else (timing only) its stand-in:
error and optimization verdicts never rest on a stand-in.

How comparisons are decided (`ssl_repro/claims/rules.py`, where the rules are stated once): "A below B" is
paired over the splits both ran: wins k/n, the mean ± std of A - B and the two-sided Wilcoxon signed-rank p
(exact over the sign flips with average ranks for tied sizes; differences equal up to float noise, within
{tie:g} of the values, are ties, and zeros are dropped). `yes` needs p < {alpha} *and* a difference beyond the
threshold. The threshold, exactly: two J (Eqn 18) are equal when their mean difference is below {j_equal:g}% of
B's mean (from {j_sig:g}% it is "significantly" lower, below "slightly": bands read off 004 Table 1.2's minima); two
errors are equal when their mean difference is below {e_pts:g} points *and* below {e_share:g}% of the larger mean
error, so a difference that reaches either bound is beyond the threshold; a value equal to a bound up to float
noise ({tie:g} of the larger mean, the paired test's tolerance for ties) is on the bound and counts as reaching
it. Below the threshold the two are `equal` however small p is; beyond it with p >= {alpha} `not significant`; `no` when A is
above B. One split or one run has no test: `yes (1 split)` / `no (1 split)`. A run is one-class when its
unlabeled predictions are (nearly) all one class ({one:g}% of r's minority share or less, r's minority share at
least {inside:g}%; derived from the error and r for records without the predicted share): it is counted in its
cell ("one-class on k of n") and a comparison it would win says `one-class: not counted`. Runs that stopped on an
iteration cap are counted in their own column ("not converged": k of n runs).

Names: DA is deterministic annealing, which 000 calls MFA (mean field annealing); TSVM S=1 and S=max are the
TSVM with single and with maximum (multiple) label switching; the objective J is Eqn 18 of 000 at each run's
own lambda and lambda' (the SVM and RLS run with lambda' = 0: their J is the labeled part alone, so only the
semi-supervised methods' J are compared)."""


def rules_text():
    return RULES.format(tie=claims.TIE_RTOL, alpha=claims.ALPHA, j_equal=100 * claims.J_EQUAL,
                        j_sig=100 * claims.J_SIGNIFICANT, e_pts=100 * claims.ERROR_EQUAL_POINTS,
                        e_share=100 * claims.ERROR_EQUAL_SHARE, one=100 * claims.ONE_CLASS_SHARE,
                        inside=100 * claims.R_INSIDE) + "\n\n" + claims.SENTENCE_RULES


#: The sections of the report, in order: (key: the docs page and the claims' ``sections``, title, renderer,
#: the figures shown on its docs page as globs under results/).
SECTIONS = (
    ("calibration", "Calibration of the stand-ins", section_calibration, ()),
    ("loss-shapes", "Loss shapes and B(nu)", section_drawings, ("figures/*.png",)),
    ("dataset-table", "Datasets", section_dataset_table, ()),
    ("objective-minima", "Objective minima", section_objective, ("learning_curve_*/figures/*_objective.png",)),
    ("learning-curves", "Learning curves", section_learning_curves, ("learning_curve_*/figures/*_error.png",)),
    ("timing", "Training time", section_timing, ("timing_*/figures/*.png",)),
    ("svmlight-speed", "Speed beside SVM-light", section_svmlight, ()),
    ("annealing-ablation", "Annealing vs fixed temperature", section_ablation, ("ablation_*/figures/*.png",)),
    ("large-transductive", "Large transductive sets", section_transductive, ("transductive_*/figures/*.png",)),
    ("kernel-toy-table", "2MOONS and 2CIRCLES", section_kernel_toy, ()),
    ("kernel-benchmarks", "PC-MAC with kernels", section_kernel_benchmarks, ()),
    ("universvm", "CCCP-TSVM beside UniverSVM", section_universvm, ()),
    ("cccp-002", "002's kernel CCCP-TSVM", cccp_002.section, ("cccp_002/figures/*.png",)),
    ("side-by-side", "Speed and agreement with SVMlin", section_side_by_side, ()),
    ("text20k", "text20k", section_text20k, ()),
    ("da-path", "DA's path", section_da_path, ()),
    ("distributed", "Distributed backend", section_distributed, ()),
    ("figures", "Figures", figure_notes, ()),
)


TITLES = {key: title for key, title, _, _ in SECTIONS}


def slug(title):
    """The anchor GitHub and MyST give a heading."""
    return re.sub(r"\s+", "-", re.sub(r"[^\w\s-]", "", title.lower()).strip())


def section_body(records, key, render_section):
    """A section's lines under ``## <title>``: the renderer's own heading becomes the title, what it named
    in parentheses a line of its own."""
    lines = render_section(records)
    named = closing_parentheses(lines[0])
    return [f"## {TITLES[key]}", ""] + ([f"Artifacts: {named}.", ""] if named else []) + lines[1:]


def closing_parentheses(heading):
    """What the parentheses that close ``heading`` hold (nested ones kept: "B(nu) (a, b (002))" -> "a, b (002)"),
    or None."""
    if not heading.endswith(")"):
        return None
    depth = 0
    for k in range(len(heading) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(heading[k], 0)
        if depth == 0:
            return heading[k + 1:-1] if heading[k - 1:k] == " " else None
    return None


def render_sections(records):
    """{key: the section's markdown lines} in :data:`SECTIONS` order."""
    return {key: section_body(records, key, f) for key, _, f, _ in SECTIONS}


#: Where results/README.md links the documentation's Results pages (they hold the long tables).
DOCS = "../docs/results"


def claim_file(claim):
    """A claim's page under the documentation's Results pages."""
    return f"claims/{claim['id'].replace('.', '-')}.md"


def artifact_entry(records, key, lines):
    """results/README.md's short section of an artifact: what it holds (the section's "Artifacts:" line), the
    claims on it with their verdicts, its figures' count and the link to its page (its tables, figures and
    records in full)."""
    title = TITLES[key]
    named = next((line for line in lines[1:4] if line.startswith("Artifacts: ")), "")
    claimed = [f"[{claim_title(n, c)}]({DOCS}/{claim_file(c)}): {verdict_label(set_verdicts(c, records))}"
               for n, c in tested(records) if key in c["sections"]]
    figures = sum(1 for g in dict((k, g) for k, _, _, g in SECTIONS)[key] for _ in records.results.glob(g))
    body = [f"### {title}", ""] + ([named, ""] if named else [])
    if claimed:
        body += ["Claims:", "", *(f"- {c}" for c in claimed), ""]
    body += [f"Its tables{f' and {figures} figures' if figures else ''}, in full: [{title}]({DOCS}/{key}.md)."]
    return "\n".join(body)


def render(records, listing, sections):
    """The text of results/README.md from ``records`` (a :class:`~ssl_repro.claims.records.Records`, one render's);
    ``listing`` is the artifact listing (``paper_artifacts.py list --markdown``), ``sections`` the artifacts'
    sections (:func:`render_sections` of ``records``).  An index that GitHub shows in a few screens: the
    summary, the claims overview (each claim linking its page in the documentation), what this page is, the
    rules, "Beyond the papers", the listing, then one short section per artifact linking its page, where
    the long tables are (:func:`artifact_entry`).  Decision: the index keeps the rules and the listing, which
    a reader of the claims table needs beside it; every line stays under 400 characters."""
    parts = ["# Results", GENERATED, "## Summary", "\n".join(summary(records)),
             "## Claims", "", *overview(records, lambda n, c: f"{DOCS}/{claim_file(c)}"), "", HEADER, "",
             rules_text(), "", *beyond.section(records), "", "## Every table and figure of the papers", "",
             "Each table and figure of the papers, its status here and the command that makes it: "
             f"`python experiments/paper_artifacts.py list`, or [the list]({DOCS}/index.md#every-table-and-figure-of-the-papers)"
             f" ({listing.count(chr(10)) - 1} artifacts).",
             "## The artifacts, one page each", "The tables, figures and records of each artifact are on its page "
             "of the documentation (`docs/results/`, rendered with this file from the same records)."]
    parts += [artifact_entry(records, key, lines) for key, lines in sections.items()]
    return tidy("\n".join(wrap(line) for line in "\n\n".join(parts).splitlines()))


#: The longest line results/README.md keeps (a table row excepted): longer prose is wrapped (:func:`wrap`).
LINE = 400


def wrap(line):
    """``line`` wrapped at 120 characters when longer than :data:`LINE` (markdown joins the lines again); a
    table row or a list item's continuation kept whole or indented."""
    if len(line) <= LINE or line.startswith("|"):
        return line
    indent = "  " if line.startswith("- ") else ""
    return textwrap.fill(line, 120, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)


def tidy(text):
    return re.sub(r"\n{3,}", "\n\n", text).rstrip() + "\n"
