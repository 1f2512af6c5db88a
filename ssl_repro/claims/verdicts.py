"""Verdicts and the data they rest on: the data kinds, a paper set's records, an analog's constructions.

How :mod:`ssl_repro.claims.rules` (and :mod:`ssl_repro.claims.timing_rules`) turn the verdicts of
single datasets into one verdict of a paper set and of a claim (stated once, here):

- *The data kinds*: a record's dataset is the paper's **real** set (or kdd99's 10% file), a **real subset**
  (some of the paper set's own rows: mnist-5k, 5,000 of MNIST's digits; ``DatasetInfo.subset_of``), a
  **real-text analog** (a set standing for a paper set: a 20 Newsgroups set, or scikit-learn's digits for
  002's uspst; ``DatasetInfo.analog_of``, :mod:`ssl_repro.data.registry`) or a **SYNTHETIC stand-in**
  (``synthetic-<set>``).
- *The verdict per data kind*: each paper set's verdict rests on its real set, else its real-text
  analog(s), else (timing) its stand-in (:data:`KIND_ORDER`); an error or optimization claim never rests
  on a stand-in alone.  A claim whose sets do not all give one verdict says which data gives which
  ("holds on pcmac (real); does not hold on 20ng-aut-avn-like (analog, at the paper's lambda' = 10, construction a)"), never a
  bare "mixed".
- *An analog's constructions: the paper's setting first*.  An analog is built two ways (``construction`` a
  and b, :mod:`ssl_repro.data.registry`): a keeps the paper set's lambda' and train : test proportion and the
  whole message (the closest preprocessing to the papers' sets), b takes the bodies only and the other lambda'.
  The analog's verdict is the one **at the paper's own lambda'** (the paper set's registry entry: 10 for aut-avn
  and ccat, 1 for gcat) with construction a's preprocessing; where the other preprocessing was also run at the
  paper's lambda' (aut-avn's corners, :data:`CORNERS_PREFIX`) and gives another verdict, the verdict is
  **construction-dependent** (the constructions differ at the paper's own setting).  Every record at the other
  lambda' is a **robustness check** shown beside the verdict ("robustness check: does not hold with b, lambda'
  = 1"), never an equal vote nor a stand-in: where the records at the paper's lambda' decide no cell, the analog
  is not testable, the checks named beside it.  Its knife edges are not the verdict's.  A construction without records is named ("b not run"), and one whose records
  decide no cell is named with its reason ("b untested (no cell with both methods)").
"""
from dataclasses import dataclass

from ssl_repro.data import registry

REAL, ANALOG, STAND_IN = "real", "real-text analog", "SYNTHETIC stand-in"
#: The data kind of a subset of a paper set's own rows (mnist-5k: 5,000 of MNIST's 70,000 digits).
REAL_SUBSET = "real subset"
#: The data kind of 001's and 002's generated sets (two moons, two circles, g50c): the paper's own construction,
#: regenerated here (no copy of the paper's draw is published).
GENERATED = "generated"
#: The papers' generated sets, by registry name.
GENERATED_SETS = ("g50c", "2moons", "2circles")
#: The order in which a paper set's records are used: the real set, else its real-text analog, else its stand-in
#: (a generated set is its paper set's only data).
KIND_ORDER = (REAL, REAL_SUBSET, ANALOG, STAND_IN, GENERATED)


#: Analogs that are not registry datasets: 002's large set, RCV1's CCAT vs GCAT, stood for by 20 Newsgroups
#: (built by ``experiments/cccp_002_large.py``; :mod:`ssl_repro.claims.cccp_002_large_rules`).  Without this the
#: artifact table called it "real" while the claims called it an analog.
OTHER_ANALOGS = {"20ng-ccat-vs-gcat": "rcv1"}


def _analog_of(dataset):
    info = registry.DATASETS.get(dataset)
    return info.analog_of if info is not None else OTHER_ANALOGS.get(dataset)


def data_kind(dataset):
    """``real`` (the paper's set, or kdd99's 10% file), ``real subset`` (some of a paper set's own rows:
    ``DatasetInfo.subset_of``), ``real-text analog`` (a set standing for a paper set: ``DatasetInfo.analog_of``),
    ``SYNTHETIC stand-in`` or ``generated`` (a paper's own generated set, :data:`GENERATED_SETS`)."""
    if dataset.startswith("synthetic-"):
        return STAND_IN
    if dataset.lower() in GENERATED_SETS:
        return GENERATED
    if getattr(registry.DATASETS.get(dataset), "subset_of", None):
        return REAL_SUBSET
    return ANALOG if _analog_of(dataset) else REAL


def paper_set(dataset):
    """The paper's set a record's dataset stands for (``synthetic-full-ccat`` -> ``full-ccat``,
    ``kdd99-10`` -> ``kdd99``, an analog -> its ``analog_of``, a real subset -> its ``subset_of``)."""
    return _analog_of(dataset) or getattr(registry.DATASETS.get(dataset), "subset_of", None) or dataset.removeprefix("synthetic-").removesuffix("-10")


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
#: ... a result of the paper's size and direction that the paired test over our splits does not find significant ...
NOT_SIGNIFICANT = "not significant"
#: The phrase that marks a knife edge in a verdict's evidence (a p within 0.005 of 0.05, a gap or ratio within 1% of its
#: bound: :func:`ssl_repro.claims.rules.knife_edges`, carried by :attr:`Verdict.edges`); the claims table and pages
#: show it.
KNIFE_EDGE = "knife edge"
#: ... a paper set's verdict when its analog's constructions disagree (module doc) ...
CONSTRUCTION_DEPENDENT = "construction-dependent"
#: ... and a claim's when its data do not all give one verdict (its text then says which gives which).
BY_DATA = "differs by data"
#: Every verdict word, in the order a tally lists them.
VOCABULARY = (HOLDS, FAILS, MIXED, NOT_SIGNIFICANT, CONSTRUCTION_DEPENDENT, BY_DATA, UNTESTABLE)
#: How the verdict text names a data kind.
SHORT_KIND = {REAL: "real", REAL_SUBSET: REAL_SUBSET, ANALOG: "analog", STAND_IN: "stand-in", GENERATED: GENERATED}
#: The order of the data kinds in a per-kind label (short names).
LABEL_ORDER = ("real", "analog", GENERATED, "stand-in")


@dataclass
class Verdict:
    """A verdict and the data it rests on.

    ``word``: a single verdict (:data:`HOLDS`, :data:`FAILS`, :data:`MIXED`, :data:`UNTESTABLE`, or for
    one paper set :data:`CONSTRUCTION_DEPENDENT`) where every set gives it, else the verdict per data kind
    ("holds on pcmac (real); does not hold on 20ng-aut-avn-like (analog, at the paper's lambda' = 10, construction a)");
    ``category``: the single verdict, or :data:`BY_DATA` (what a table of verdicts counts); ``data``: the
    datasets, with kind (and an analog's constructions); ``evidence``: one phrase per dataset;
    ``kind``: the short data kind (:data:`LABEL_ORDER`) of a verdict on one dataset; ``on``: {(kind, data):
    word} of the datasets the verdict rests on (set from ``kind`` for a verdict on one dataset, merged by
    :func:`combine`): the per-kind labels (:func:`kind_words`) are computed from it, never from the text;
    ``edges``: the knife edges (:class:`ssl_repro.claims.rules.Edge`: a p or a ratio or gap with the bound it was
    read against) of every judgement the verdict rests on, whatever rule judged it, merged by :func:`combine` --
    the claims table's knife-edge column and the page's note read them, never the text."""

    word: str
    data: str
    evidence: str
    category: str = None
    kind: str = None
    on: dict = None
    edges: tuple = ()

    def __post_init__(self):
        if self.category is None:
            self.category = self.word
        if self.on is None:
            self.on = {} if self.category == UNTESTABLE else {(self.kind, self.data): self.category}


def edge_note(edges):
    """The evidence's note of ``edges`` (knife edges, :attr:`Verdict.edges`): "; knife edge: ..." or ""."""
    return f"; {KNIFE_EDGE}: " + "; ".join(map(str, edges)) if edges else ""


def edges_of(parts):
    """The knife edges of the verdicts ``parts``, each once, in order."""
    return tuple(dict.fromkeys(e for p in parts for e in p.edges))


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
    evidence, edges = "; ".join(p.evidence for p in parts), edges_of(tested)
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
        return Verdict(words[0], data, evidence, on=on, edges=edges)
    text = "; ".join(f"{w} on " + ", ".join(d for (_, d), x in on.items() if x == w) for w in words)
    return Verdict(text, data, evidence, category=category_of(words), on=on, edges=edges)


def combined(by_set):
    """The check of a test judged per paper set: ``by_set`` ((records, test) -> [(paper set, Verdict)])
    with the sets' verdicts combined (:func:`combine`) into the test's one verdict."""
    def check(records, test):
        return combine([v for _, v in by_set(records, test)])
    return check


#: A part of a sentence on one set: met, reversed, or neither.
MET, REVERSED, UNMET = "met", "reversed", "unmet"


def part_status(met, cells, against):
    """One part of a sentence about a set (one check over the set's ``cells``): **met** in more than half of its
    cells and reversed (significantly the other way) in none; **reversed** when reversed in some cell and met in
    at most half; else **unmet**."""
    if 2 * met > cells and not against:
        return MET
    return REVERSED if against else UNMET


def conjunction(parts):
    """The verdict of a sentence of ``parts`` (:func:`part_status` each; one part is a conjunction of one): holds
    when every part is met; does not hold when any part is reversed or none is met; else mixed."""
    if all(p == MET for p in parts):
        return HOLDS
    if REVERSED in parts or MET not in parts:
        return FAILS
    return MIXED


def trend_status(values):
    """A trend "particularly when labels are few" on ``values`` (a gain or a ratio per label count, fewest first):
    met when the value at the fewest labels is above the median and above the value at the most labels, reversed
    when below both, else unmet."""
    first, last, median = values.iloc[0], values.iloc[-1], values.median()
    return MET if first > median and first > last else REVERSED if first < median and first < last else UNMET


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


#: The folders' prefix of the runs of an analog at the other lambda' of a construction (aut-avn's corners:
#: :mod:`ssl_repro.claims.corners`); judged with the learning curves' records.
CORNERS_PREFIX = "construction_corners_"


def construction(dataset):
    """An analog's construction (``a`` for one declared without)."""
    info = registry.DATASETS.get(dataset)
    return (info.construction if info is not None else None) or "a"


def paper_lambda(name):
    """The paper's own lambda' on paper set ``name`` (its registry entry), or None when it has none."""
    info = registry.DATASETS.get(name)
    return info.lam_u if info is not None else None


def run_lambda(dataset, frame):
    """The lambda' an analog's records ran at: the one positive ``lam_u`` of ``frame`` (the semi-supervised
    runs'), else the dataset's registry value."""
    if "lam_u" in frame:
        values = {float(v) for v in frame["lam_u"].dropna() if v > 0}
        if len(values) == 1:
            return values.pop()
    return registry.DATASETS[dataset].lam_u if dataset in registry.DATASETS else None


def judge_set(name, options, real_only, judge):
    """The :class:`Verdict` of paper set ``name``: ``judge(kind, dataset, frame)`` (a Verdict with the
    dataset's evidence) on each dataset :func:`choose` picks; an analog's settings merged, the paper's first
    (:func:`merge_constructions`).  A record at a lambda' other than its dataset's is judged under the name
    ``<dataset> at lambda' = <x>``."""
    chosen, why = choose(options, real_only)
    if not chosen:
        return Verdict(UNTESTABLE, "", f"{name}: {why}")
    kind = chosen[0][0]
    if kind == ANALOG:
        judged = []
        for _, dataset, frame in chosen:
            lam = run_lambda(dataset, frame)
            label = dataset if lam == registry.DATASETS[dataset].lam_u else f"{dataset} at lambda' = {lam:g}"
            judged.append((dataset, lam, judge(kind, label, frame)))
        return merge_constructions(name, judged)
    _, dataset, frame = chosen[0]
    v = judge(kind, dataset, frame)
    return Verdict(v.word, f"{dataset} ({SHORT_KIND[kind]})", v.evidence, kind=SHORT_KIND[kind], edges=v.edges)


def merge_constructions(name, judged):
    """One verdict of an analog from its records' [(dataset, lambda', Verdict)] (module doc): the verdict at
    the paper's lambda' (:func:`paper_lambda`; every tested setting when none ran there, and not testable when
    the records there decide nothing: the robustness checks are named beside it, never its verdict),
    construction-dependent when the preprocessings run at it disagree; the other lambda' a robustness check named
    beside it; declared constructions without records, and settings whose records decide nothing, are named."""
    declared = {i.construction for i in registry.DATASETS.values() if i.analog_of == name and i.construction}
    tested = [(d, lam, v) for d, lam, v in judged if v.word != UNTESTABLE]
    evidence = "; ".join(v.evidence for _, _, v in judged)
    untested = "".join(f"; {c} not run" for c in sorted(declared - {construction(d) for d, _, _ in judged})) + "".join(
        f"; {construction(d)} untested ({v.evidence.split(': ', 1)[-1]})"
        for d, lam, v in judged if v.word == UNTESTABLE and lam == registry.DATASETS[d].lam_u)   # a corner's: not named
    if not tested:
        return Verdict(UNTESTABLE, f"{judged[0][0]} (analog)", evidence, kind=SHORT_KIND[ANALOG])
    paper = paper_lambda(name)
    ran_at_paper = sorted((d for d, lam, _ in judged if lam == paper), key=construction)
    # every tested setting only when none ran at the paper's lambda': where one ran and decided nothing, a
    # robustness check does not stand in for it
    at_paper = [t for t in tested if t[1] == paper] or ([] if ran_at_paper else tested)
    robustness = [t for t in tested if t not in at_paper]
    # the knife edges of the verdict's own setting only: a robustness check's cannot flip it
    edges = edges_of([v for _, _, v in at_paper])
    at_paper.sort(key=lambda t: construction(t[0]))
    robustness.sort(key=lambda t: (t[1], construction(t[0])))
    lams = list(dict.fromkeys(lam for _, lam, _ in robustness))
    checks = "".join(f"; robustness check at lambda' = {lam:g}: " + ", ".join(
        f"{v.word} with {construction(d)}" for d, x, v in robustness if x == lam) for lam in lams)
    if not at_paper:
        return Verdict(UNTESTABLE, f"{ran_at_paper[0]} (analog, nothing decided at the paper's lambda' = {paper:g}"
                       f"{checks}{untested})", evidence, kind=SHORT_KIND[ANALOG])
    base = at_paper[0][0]
    words = list(dict.fromkeys(v.word for _, _, v in at_paper))
    setting = f"the paper's lambda' = {paper:g}" if paper is not None and at_paper[0][1] == paper else "its settings"
    if len(words) == 1:
        how = "preprocessings " + " and ".join(construction(d) for d, _, _ in at_paper) + " agree" \
            if len(at_paper) > 1 else f"construction {construction(base)}"
        return Verdict(words[0], f"{base} (analog, at {setting}, {how}{checks}{untested})", evidence,
                       kind=SHORT_KIND[ANALOG], edges=edges)
    how = ", ".join(f"{v.word} with {construction(d)}" for d, _, v in at_paper)
    return Verdict(CONSTRUCTION_DEPENDENT, f"{base} (analog: at {setting} {how}{checks}{untested})", evidence,
                   kind=SHORT_KIND[ANALOG], edges=edges)
