"""The summary that heads the Results pages (results/README.md, the docs' Results page and landing page):
what was reproduced, how many claims each verdict has, one line per data kind, and what the verdict
words mean.

It counts the rows the claims table shows (:func:`~.claim_pages.overview_rows`, by the table's own tally,
:func:`~.claim_pages.tally`: the verdict words of :data:`ssl_repro.claims.verdicts.VOCABULARY`) and per data
kind the table's own cell (:func:`~.claim_pages.kind_words`), so a change of the verdicts' vocabulary or of
a claim's verdict changes the summary with the table.
Decision: the block carries no links, so the same lines read right wherever a page includes them.
"""
import re
from collections import Counter

from ssl_repro.claims import verdicts
from ssl_repro.report.claim_pages import kind_words, overview_rows, set_verdicts, tally, tested

#: The papers by their numbers (as results/README.md's header names them).
PAPERS = {"000": "the tech report (linear TSVM and DA)", "001": "ICML 2006 (kernel DA)",
          "002": "JMLR 2006 (CCCP-TSVM)", "003": "SIGIR 2006", "004": "the book chapter"}

#: What each data kind of the table is (by the table's short name).
KIND_MEANS = {verdicts.SHORT_KIND[verdicts.REAL]: "the paper's own set",
              verdicts.SHORT_KIND[verdicts.REAL_SUBSET]: "some of the paper set's own rows (mnist-5k: 5,000 of "
                                                          "MNIST's digits)",
              verdicts.SHORT_KIND[verdicts.ANALOG]: "a set standing for a paper set that is not here (20 Newsgroups; "
                                                     "digits for uspst)",
              verdicts.SHORT_KIND[verdicts.STAND_IN]: "a generated set of the paper set's shape, timing only",
              verdicts.SHORT_KIND[verdicts.GENERATED]: "a paper's own generated set, drawn as the paper draws it"}

#: What each verdict word means (by the verdicts' vocabulary); a word without an entry is shown without.
WORD_MEANS = {verdicts.HOLDS: "the records agree with the paper on every set tested",
              verdicts.FAILS: "they contradict it (a part of the sentence reversed) or meet none of it",
              verdicts.MIXED: "on one set it holds in some cells or parts of the sentence and not in others",
              verdicts.NOT_SIGNIFICANT: "the records show the paper's direction and size, but the paired test over "
                                        "our splits does not reach p < 0.05",
              verdicts.BY_DATA: "the claim's sets give different verdicts (its row says which)",
              verdicts.CONSTRUCTION_DEPENDENT: "an analog's two preprocessings, both at the paper's lambda', give different verdicts (the other lambda' is only a robustness check)",
              verdicts.UNTESTABLE: "no record here can test it (the paper's data or program is missing)"}


def _counts(counts):
    """``holds 15 · does not hold 6``: ``counts`` ({word: claims}) in the vocabulary's order, words without
    claims left out."""
    return " · ".join(f"{w} {counts[w]}" for w in verdicts.VOCABULARY if counts.get(w))


def _tallies(records):
    """(claims tested, {word: claims} of the claims table, {kind: [word per claim]}, {kind: {dataset}}), once per
    render."""
    return records.once("tallies", lambda: _count_tallies(records))


def _count_tallies(records):
    rows = tested(records)
    counted = tally(overview_rows(records, lambda number, claim: ""))
    per_kind, datasets = {}, {}
    for _, claim in rows:
        parts = set_verdicts(claim, records)
        for kind, word in kind_words(parts).items():
            per_kind.setdefault(kind, []).append(word)
        for kind, data in verdicts.combine(parts).on:
            datasets.setdefault(kind, set()).update(re.findall(r"^([\w.-]+) \(", data))
    order = list(KIND_MEANS)
    per_kind = dict(sorted(per_kind.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order)))
    return rows, counted, per_kind, datasets


#: Why a kind's count of a word may exceed the overall count (the landing page's "real: holds 16" beside "holds 15").
PER_KIND_NOTE = ("a claim tested on several kinds counts once per kind, by its verdict on that kind's sets, so a kind "
                 "may count more *holds* than the overall tally: a claim that holds on the real sets and not on an "
                 "analog is *differs by data* overall")


def summary(records):
    """The summary's markdown lines from ``records`` (:class:`~ssl_repro.claims.records.Records`)."""
    rows, counted, per_kind, datasets = _tallies(records)
    papers = sorted({claim["paper"] for _, claim in rows})
    lines = [f"**What was reproduced:** the experiments of {len(papers)} papers "
             f"({', '.join(f'{p} {PAPERS.get(p, p)}' for p in papers)}); every claim they make about them "
             f"is tested on our records.", "",
             f"**Verdicts of the {len(rows)} claims:** {_counts(counted)}.", "",
             f"**By the data a verdict rests on** ({PER_KIND_NOTE}):", ""]
    for kind, words in per_kind.items():
        sets = sorted(datasets.get(kind, ()))
        lines.append(f"- **{kind}** ({KIND_MEANS.get(kind, kind)}; {len(sets)} set{'s' * (len(sets) != 1)}: "
                     f"{', '.join(sets)}): {_counts(Counter(words))} "
                     f"(of {len(words)} claim{'s' * (len(words) != 1)}).")
    lines += ["", "**The words:** " + "; ".join(f"*{w}*: {m}" for w, m in WORD_MEANS.items()
                                                if w in counted or w == verdicts.UNTESTABLE) + "."]
    return lines


def headline(records):
    """The README's first-screen tally: the claims table's count of each verdict, then one short line per data
    kind (the same counts as :func:`summary`, without the sets and the words' meanings)."""
    rows, counted, per_kind, _ = _tallies(records)
    kinds = "; ".join(f"**{kind}** ({KIND_MEANS.get(kind, kind)}) {_counts(Counter(words))} of {len(words)}"
                      for kind, words in per_kind.items())
    return [f"**Verdicts of the papers' {len(rows)} claims**, each tested on the committed records: "
            f"{_counts(counted)}.", "",
            f"By the data a verdict rests on: {kinds} ({PER_KIND_NOTE})."]
