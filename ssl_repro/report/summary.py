"""The summary that heads the Results pages (results/README.md, the docs' Results page and landing page):
what was reproduced, how many claims each verdict has, one line per data kind, and what the verdict
words mean.

It counts the rows the claims table shows (:func:`~.claim_pages.tested`), each by its overall verdict
(``Verdict.category``, the vocabulary of :mod:`ssl_repro.claims.verdicts` worded by
:data:`~.words.WORD_SHORT`) and per data kind by the table's own cell (:func:`~.claim_pages.kind_words`),
so a change of the verdicts' vocabulary or of a claim's verdict changes the summary with the table.
Decision: the block carries no links, so the same lines read right wherever a page includes them.
"""
import re

from ssl_repro.claims import verdicts
from ssl_repro.report.claim_pages import kind_words, set_verdicts, tested
from ssl_repro.report.words import KIND_SHORT, WORD_SHORT

#: The papers by their numbers (as results/README.md's header names them).
PAPERS = {"000": "the tech report (linear TSVM and DA)", "001": "ICML 2006 (kernel DA)",
          "002": "JMLR 2006 (CCCP-TSVM)", "003": "SIGIR 2006", "004": "the book chapter"}

#: What each data kind of the table is (by the table's short name).
KIND_MEANS = {KIND_SHORT[verdicts.REAL]: "the paper's own set",
              KIND_SHORT[verdicts.ANALOG]: "a 20 Newsgroups set standing for a paper set that is not here",
              KIND_SHORT[verdicts.STAND_IN]: "a generated set of the paper set's shape, timing only",
              "generated": "drawn as the paper draws it"}

#: What each verdict word means (by the verdicts' vocabulary); a word without an entry is shown without.
WORD_MEANS = {verdicts.HOLDS: "the records agree with the paper on every set tested",
              verdicts.FAILS: "they contradict it",
              verdicts.MIXED: "it holds in some cells of a set and not in others",
              verdicts.BY_DATA: "the claim's sets give different verdicts (its row says which)",
              verdicts.CONSTRUCTION_DEPENDENT: "an analog's two constructions give different verdicts",
              verdicts.UNTESTABLE: "no record here can test it (the paper's data or program is missing)"}


def _word(category):
    return WORD_SHORT.get(category, category)


def _counts(words):
    """``holds 19 · fails 3``: each word's count, in the vocabulary's order, words without claims left out."""
    order = list(WORD_SHORT.values())
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    ranked = sorted(counts, key=lambda w: order.index(w) if w in order else len(order))
    return " · ".join(f"{w} {counts[w]}" for w in ranked)


def summary(records):
    """The summary's markdown lines from ``records`` (:class:`~ssl_repro.claims.records.Records`)."""
    rows = tested(records)
    overall = [_word(records.verdict(claim).category) for _, claim in rows]
    per_kind, datasets = {}, {}
    for _, claim in rows:
        parts = set_verdicts(claim, records)
        for kind, word in kind_words(parts).items():
            per_kind.setdefault(kind, []).append(_word(word))
        for p in parts:
            for name, kind in re.findall(r"([\w.-]+) \(([^,:)]*)", p.data):
                datasets.setdefault(kind, set()).add(name)
    papers = sorted({claim["paper"] for _, claim in rows})
    lines = [f"**What was reproduced:** the experiments of {len(papers)} papers "
             f"({', '.join(f'{p} {PAPERS.get(p, p)}' for p in papers)}); every claim they make about them "
             f"is tested on our records.", "",
             f"**Verdicts of the {len(rows)} claims:** {_counts(overall)}.", "",
             "**By the data a verdict rests on** (a claim tested on several kinds counts once per kind):", ""]
    order = list(KIND_MEANS)
    for kind in sorted(per_kind, key=lambda k: order.index(k) if k in order else len(order)):
        sets = sorted(datasets.get(kind, ()))
        lines.append(f"- **{kind}** ({KIND_MEANS.get(kind, kind)}; {len(sets)} set{'s' * (len(sets) != 1)}: "
                     f"{', '.join(sets)}): {_counts(per_kind[kind])} "
                     f"(of {len(per_kind[kind])} claim{'s' * (len(per_kind[kind]) != 1)}).")
    lines += ["", "**The words:** " + "; ".join(f"*{_word(w)}*: {m}" for w, m in WORD_MEANS.items()
                                                if _word(w) in overall or w == verdicts.UNTESTABLE) + "."]
    return lines
