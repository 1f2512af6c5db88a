"""Verdicts and the data they rest on: the data kinds, a paper set's records, an analog's constructions.

How :mod:`ssl_repro.claims.rules` (and :mod:`ssl_repro.claims.timing_rules`) turn the verdicts of
single datasets into one verdict of a paper set and of a claim (stated once, here):

- *The data kinds*: a record's dataset is the paper's **real** set (or kdd99's 10% file), a **real-text
  analog** (a 20 Newsgroups set standing for a paper set: ``DatasetInfo.analog_of``,
  :mod:`ssl_repro.data.registry`) or a **SYNTHETIC stand-in** (``synthetic-<set>``).
- *The verdict per data kind*: each paper set's verdict rests on its real set, else its real-text
  analog(s), else (timing) its stand-in (:data:`KIND_ORDER`); an error or optimization claim never rests
  on a stand-in alone.  A claim whose sets do not all give one verdict says which data gives which
  ("holds on pcmac (real); does not hold on 20ng-aut-avn-like (analog, both constructions)"), never a
  bare "mixed".
- *An analog's constructions*: an analog is built two ways (``construction`` a and b,
  :mod:`ssl_repro.data.registry`): its verdict is **robust** when every construction with records gives
  it ("both constructions"), **construction-dependent** otherwise (saying which gives which); a
  construction without records is named ("construction a; b not run"), and one whose records decide no
  cell is named with its reason ("b untested (no cell with both methods)", or its cells left out for runs
  that did not converge).
"""
from dataclasses import dataclass

from ssl_repro.data import registry

REAL, ANALOG, STAND_IN = "real", "real-text analog", "SYNTHETIC stand-in"
#: The data kind of 001's and 002's generated sets (two moons, two circles, g50c): the paper's own construction,
#: regenerated here (no copy of the paper's draw is published).
GENERATED = "generated"
#: The papers' generated sets, by registry name.
GENERATED_SETS = ("g50c", "2moons", "2circles")
#: The order in which a paper set's records are used: the real set, else its real-text analog, else its stand-in
#: (a generated set is its paper set's only data).
KIND_ORDER = (REAL, ANALOG, STAND_IN, GENERATED)


def _analog_of(dataset):
    info = registry.DATASETS.get(dataset)
    return info.analog_of if info is not None else None


def data_kind(dataset):
    """``real`` (the paper's set, or kdd99's 10% file), ``real-text analog`` (a 20 Newsgroups set
    standing for a paper set: ``DatasetInfo.analog_of``), ``SYNTHETIC stand-in`` or ``generated`` (a paper's
    own generated set, :data:`GENERATED_SETS`)."""
    if dataset.startswith("synthetic-"):
        return STAND_IN
    if dataset.lower() in GENERATED_SETS:
        return GENERATED
    return ANALOG if _analog_of(dataset) else REAL


def paper_set(dataset):
    """The paper's set a record's dataset stands for (``synthetic-full-ccat`` -> ``full-ccat``,
    ``kdd99-10`` -> ``kdd99``, an analog -> its ``analog_of``)."""
    return _analog_of(dataset) or dataset.removeprefix("synthetic-").removesuffix("-10")


def frames(records, prefix):
    """{paper set: [(data kind, dataset, frame)] in :data:`KIND_ORDER`} of the sweep folders starting
    with ``prefix`` (``records``: :class:`ssl_repro.claims.records.Records`)."""
    found = {}
    for folder in records.folders(prefix):
        frame = records.runs(folder)
        for dataset in sorted(frame["dataset"].unique()):
            found.setdefault(paper_set(dataset), []).append(
                (data_kind(dataset), dataset, frame[frame["dataset"] == dataset]))
    return {s: sorted(v, key=lambda t: KIND_ORDER.index(t[0])) for s, v in found.items()}


#: The verdict words: the one vocabulary of every page (claims table, claim pages, "Beyond the papers",
#: the docs, the tally under the claims table).  A single verdict ...
HOLDS, FAILS, MIXED, UNTESTABLE = "holds", "does not hold", "mixed", "not testable"
#: ... a paper set's verdict when its analog's constructions disagree (module doc) ...
CONSTRUCTION_DEPENDENT = "construction-dependent"
#: ... and a claim's when its data do not all give one verdict (its text then says which gives which).
BY_DATA = "differs by data"
#: Every verdict word, in the order a tally lists them.
VOCABULARY = (HOLDS, FAILS, MIXED, CONSTRUCTION_DEPENDENT, BY_DATA, UNTESTABLE)
#: How the verdict text names a data kind.
SHORT_KIND = {REAL: "real", ANALOG: "analog", STAND_IN: "stand-in", GENERATED: GENERATED}
#: The order of the data kinds in a per-kind label (short names).
LABEL_ORDER = ("real", "analog", GENERATED, "stand-in")


@dataclass
class Verdict:
    """A verdict and the data it rests on.

    ``word``: a single verdict (:data:`HOLDS`, :data:`FAILS`, :data:`MIXED`, :data:`UNTESTABLE`, or for
    one paper set :data:`CONSTRUCTION_DEPENDENT`) where every set gives it, else the verdict per data kind
    ("holds on pcmac (real); does not hold on 20ng-aut-avn-like (analog, both constructions)");
    ``category``: the single verdict, or :data:`BY_DATA` (what a table of verdicts counts); ``data``: the
    datasets, with kind (and an analog's constructions); ``evidence``: one phrase per dataset;
    ``kind``: the short data kind (:data:`LABEL_ORDER`) of a verdict on one dataset; ``on``: {(kind, data):
    word} of the datasets the verdict rests on (set from ``kind`` for a verdict on one dataset, merged by
    :func:`combine`): the per-kind labels (:func:`kind_words`) are computed from it, never from the text."""

    word: str
    data: str
    evidence: str
    category: str = None
    kind: str = None
    on: dict = None

    def __post_init__(self):
        if self.category is None:
            self.category = self.word
        if self.on is None:
            self.on = {} if self.category == UNTESTABLE else {(self.kind, self.data): self.category}


def category_of(words):
    """The category of the words on some data: their one word, else :data:`BY_DATA`; none -> not testable."""
    words = list(dict.fromkeys(words))
    return UNTESTABLE if not words else words[0] if len(words) == 1 else BY_DATA


def _kind_rank(kind):
    return LABEL_ORDER.index(kind) if kind in LABEL_ORDER else len(LABEL_ORDER)


def kind_words(verdict):
    """{short data kind: the verdict on that kind's data} of ``verdict`` (:attr:`Verdict.on`), kinds in
    :data:`LABEL_ORDER`: "real: does not hold, analog: construction-dependent", computed per kind."""
    grouped = {}
    for (kind, _), word in verdict.on.items():
        grouped.setdefault(kind, []).append(word)
    return {k: category_of(grouped[k]) for k in sorted(grouped, key=_kind_rank)}


def combine(parts):
    """One verdict from per-set verdicts (untestable sets left out; words on the same data merged: one
    word, else mixed): their common word, else the verdict per data, real data first; nothing testable ->
    not testable."""
    tested = [p for p in parts if p.category != UNTESTABLE]
    evidence = "; ".join(p.evidence for p in parts)
    if not tested:
        data = ", ".join(dict.fromkeys(p.data for p in parts if p.data)) or "-"
        return Verdict(UNTESTABLE, data, evidence)
    merged = {}
    for p in tested:
        for key, word in p.on.items():
            merged[key] = word if merged.get(key, word) == word else MIXED
    on = dict(sorted(merged.items(), key=lambda item: _kind_rank(item[0][0])))
    words = list(dict.fromkeys(on.values()))
    data = ", ".join(d for _, d in on if d) or "-"
    if len(words) == 1 and words[0] not in (CONSTRUCTION_DEPENDENT, MIXED):     # "mixed" always says where
        return Verdict(words[0], data, evidence, on=on)
    text = "; ".join(f"{w} on " + ", ".join(d for (_, d), x in on.items() if x == w) for w in words)
    return Verdict(text, data, evidence, category=category_of(words), on=on)


def combined(by_set):
    """The check of a test judged per paper set: ``by_set`` ((records, test) -> [(paper set, Verdict)])
    with the sets' verdicts combined (:func:`combine`) into the test's one verdict."""
    def check(records, test):
        return combine([v for _, v in by_set(records, test)])
    return check


def tally_word(met, total):
    """The verdict of ``met`` of ``total`` cells: holds (all), does not hold (none), mixed, not testable (no cell)."""
    return UNTESTABLE if total == 0 else HOLDS if met == total else FAILS if met == 0 else MIXED


def choose(options, real_only):
    """The records a set's verdict rests on: every dataset of the first kind of ``options`` in
    :data:`KIND_ORDER` (an analog's constructions); for error and optimization claims (``real_only``) a
    stand-in alone is not used.  ([], why not) when there are none."""
    if not options:
        return [], "no record"
    kind, dataset, _ = options[0]
    if real_only and kind == STAND_IN:
        return [], f"only a synthetic stand-in ({dataset})"
    return [o for o in options if o[0] == kind], ""


def construction(dataset):
    """An analog's construction (``a`` for one declared without)."""
    info = registry.DATASETS.get(dataset)
    return (info.construction if info is not None else None) or "a"


def judge_set(name, options, real_only, judge):
    """The :class:`Verdict` of paper set ``name``: ``judge(kind, dataset, frame)`` (a Verdict with the
    dataset's evidence) on each dataset :func:`choose` picks; an analog's constructions merged
    (:func:`merge_constructions`)."""
    chosen, why = choose(options, real_only)
    if not chosen:
        return Verdict(UNTESTABLE, "", f"{name}: {why}")
    kind = chosen[0][0]
    verdicts = [(dataset, judge(kind, dataset, frame)) for kind, dataset, frame in chosen]
    if kind == ANALOG:
        return merge_constructions(name, verdicts)
    dataset, v = verdicts[0]
    return Verdict(v.word, f"{dataset} ({SHORT_KIND[kind]})", v.evidence, kind=SHORT_KIND[kind])


def merge_constructions(name, verdicts):
    """One verdict of an analog from its constructions' [(dataset, Verdict)]: **robust** when every
    tested construction gives one verdict, else :data:`CONSTRUCTION_DEPENDENT` naming which gives which;
    declared constructions without a testable record are named."""
    declared = {i.construction for i in registry.DATASETS.values() if i.analog_of == name and i.construction}
    tested = {construction(d): (d, v) for d, v in verdicts if v.word != UNTESTABLE}
    ran = {construction(d) for d, _ in verdicts}
    evidence = "; ".join(v.evidence for _, v in verdicts)
    base = (tested.get("a") or next(iter(tested.values()), None) or verdicts[0])[0]
    why_untested = {construction(d): v.evidence.removeprefix(f"{d}: ") for d, v in verdicts if v.word == UNTESTABLE}
    untested = (f"; {', '.join(sorted(declared - ran))} not run" if declared - ran else "") + "".join(
        f"; {c} untested ({why_untested[c]})" for c in sorted(ran - set(tested)))
    words = {v.word for _, v in tested.values()}
    if not tested:
        return Verdict(UNTESTABLE, f"{base} (analog)", evidence, kind=SHORT_KIND[ANALOG])
    if len(words) == 1:
        how = "both constructions" if len(tested) == 2 else "every construction" if len(tested) > 2 else \
            f"construction {next(iter(tested))}{untested}"
        return Verdict(words.pop(), f"{base} (analog, {how})", evidence, kind=SHORT_KIND[ANALOG])
    how = ", ".join(f"{v.word} with {c}" for c, (_, v) in sorted(tested.items()))
    return Verdict(CONSTRUCTION_DEPENDENT, f"{base} (analog: {how}{untested})", evidence, kind=SHORT_KIND[ANALOG])

