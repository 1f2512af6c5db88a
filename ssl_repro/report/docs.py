"""The documentation's Results pages (``docs/results/``): the claims overview, a page per claim, a page
per artifact that opens with its figures.

An artifact page reads top-down as a reader asks: the figures (those of real sets and analogs; the
stand-ins' folded), the papers' words beside our verdict per claim (each linking to the claim's page),
then the records and tables, a table longer than :data:`FOLD_ROWS` rows folded in a ``<details>`` block.
"""
import re

from ssl_repro.report.sections import beyond_table as beyond
from ssl_repro.claims import verdicts
from ssl_repro.report.claim_pages import claim_body, claim_title, overview, set_verdicts, tested, verdict_label
from ssl_repro.report.page import SECTIONS, TITLES, claim_file, rules_text, tidy
from ssl_repro.report.record_text import data_kind
from ssl_repro.report.summary import summary
from ssl_repro.report.tables import figure_caption
from ssl_repro.report.words import glossary, unbreak

#: Tables with more rows than this are folded (``<details>``) on the artifact pages.
FOLD_ROWS = 12
#: MyST front matter: no "On this page" column, so the content takes the page's width.
WIDE = ["---", "html_theme.sidebar_secondary.remove: true", "---", ""]
#: The artifact pages' per-cell tables need the window's width: a marker that docs/_static/results.css
#: reads to hide the section navigation and lift the content's width limit on these pages only.
WIDEST = [*WIDE, '<div class="results-wide"></div>', ""]


def claim_page(records, number, claim):
    """docs/results/claims/<id>.md: the claim in full."""
    return tidy("\n".join([*WIDE, f"# {claim_title(number, claim)}", "",
                           *claim_body(records, number, claim, lambda key: f"[{TITLES[key]}](../{key}.md)",
                                       lambda f: f"../../../results/{f}"),
                           "", "[All claims](../index.md)"]))


def fold(lines):
    """``lines`` with every markdown table longer than :data:`FOLD_ROWS` rows inside a ``<details>`` block."""
    out, k = [], 0
    while k < len(lines):
        line = lines[k]
        if line.startswith("| ") and (k == 0 or not lines[k - 1].startswith("|")):
            end = k
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            rows = "\n".join(lines[k:end]).count("\n") - 1
            block = lines[k:end]
            if rows > FOLD_ROWS:
                block = [f"<details><summary>The table ({rows} rows)</summary>", "", *block, "", "</details>"]
            out += block
            k = end
        else:
            out.append(line)
            k += 1
    return out


def figure_lines(records, globs):
    """(the page's opening figures, the rest): a real set's figure first (else an analog's; the three
    drawings of loss-shapes together), then the others of real sets and analogs and, folded, the
    stand-ins'."""
    figures = sorted({f.relative_to(records.results).as_posix() for g in globs for f in records.results.glob(g)})
    kind = lambda f: (-1 if f.startswith("figures/")                                  # noqa: E731
                      else verdicts.KIND_ORDER.index(data_kind(f.rsplit("/", 1)[-1].split("_")[0])))
    shown = sorted((f for f in figures if kind(f) != verdicts.KIND_ORDER.index(verdicts.STAND_IN)), key=kind)
    folded = [f for f in figures if f not in shown]
    image = lambda f: f"![{figure_caption(f)}](../../results/{f})\n"          # noqa: E731
    opening = len(shown) if all(f.startswith("figures/") for f in shown) else 1
    rest = [image(f) for f in shown[opening:]]
    if folded:
        rest += [f"<details><summary>Figures on the SYNTHETIC stand-ins ({len(folded)})</summary>", "",
                 *(image(f) for f in folded), "", "</details>", ""]
    return [image(f) for f in shown[:opening]], rest


def docs_pages(records, listing, sections):
    """{file name: text} of the documentation's Results section (``docs/results/``) from ``records`` (one
    render's :class:`~ssl_repro.claims.records.Records`), the artifact ``listing`` and the ``sections``
    (:func:`~.page.render_sections`), as results/README.md shows them: ``index.md`` (the claims overview,
    the rules, the artifact list, the tables of contents), ``claims/<id>.md`` per claim, and one page per
    section (its figures first, the papers' words beside our verdicts, then its tables).  Images link to
    the committed files under results/ (``../../results`` from docs/results/)."""
    claimed = {}
    pages = {}
    for number, claim in tested(records):
        pages[claim_file(claim)] = claim_page(records, number, claim)
        quote = unbreak(claim["quote"])
        verdict = verdict_label(set_verdicts(claim, records))
        for key in claim["sections"]:
            claimed.setdefault(key, []).append(
                f"- [Claim {number}]({claim_file(claim)}), {claim['paper']} {claim['where']}: \"{quote}\" "
                f"-- ours: {verdict}." + "".join(f" ({note}.)" for note in glossary(quote)))
    pages["index.md"] = tidy("\n".join([
        *WIDE, "# Results", "", *summary(records), "", "## The claims", "", *overview(records, lambda n, c: claim_file(c)), "",
        "Rendered from the committed records by `python experiments/paper_artifacts.py report` (the same render "
        "as the repository's `results/README.md`).", "", "## How the verdicts are decided", "", rules_text(), "",
        "## Beyond the papers", "", "Do TSVM and DA beat today's baselines (a tuned SVM and logistic regression, "
        "self-training, label spreading)? The answer per dataset, as a matrix and a figure; and for K classes the Potts DA "
        "beside one-vs-rest DA, and our methods beside scikit-learn's own semi-supervised examples: [Beyond the papers]"
        "(beyond.md).", "", "## Every table and figure of the papers", "", listing, "",
        "```{toctree}", ":maxdepth: 1", "", "claims/index", "beyond", *(key for key, *_ in SECTIONS), "```"]))
    beyond_lines = beyond.section(records, lambda f: f"../../results/{f}.png")[1:]
    pages["beyond.md"] = tidy("\n".join([*WIDEST, "# Beyond the papers",        # its ### sections one level up
                                         *(re.sub(r"^### ", "## ", line) for line in beyond_lines),
                                         "", "[Results](index.md)"]))
    pages["summary.md"] = tidy("\n".join(summary(records)))      # the landing page includes it
    pages["claims/index.md"] = tidy("\n".join([
        "# The claims, one page each", "", "Each claim's quote, test, evidence per set and figures; the overview "
        "and the rules: [Results](../index.md).", "", "```{toctree}", ":maxdepth: 1", "",
        *(claim_file(c).removeprefix("claims/").removesuffix(".md") for _, c in tested(records)), "```"]))
    for key, title, _, globs in SECTIONS:
        quoted = [unbreak(c["quote"]) for c in records.papers["claims"] if "test" in c and key in c["sections"]]
        body = [line for line in sections[key][1:] if not (line.startswith("> ") and any(q in line for q in quoted))]
        opening, rest = figure_lines(records, globs)
        lines = [*WIDEST, f"# {title}", "", *opening]
        if claimed.get(key):
            lines += ["The papers' words and our verdicts (how they are decided: [Results](index.md)):", "",
                      *claimed[key], ""]
        lines += rest
        pages[f"{key}.md"] = tidy("\n".join(lines + fold([re.sub(r"^##", "###", line) for line in body])))
    return pages
