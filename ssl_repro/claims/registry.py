"""The table of claim tests: each test kind of ``experiments/paper_numbers.json`` and the function judging it.

A paper's module registers its tests (:func:`register`) when it is imported, so this table never imports
a paper's module: ``import ssl_repro.claims`` imports every module of tests, and :func:`evaluate` looks the
claim's ``test["kind"]`` up here.  A test judged per paper set also registers the function giving its
[(paper set, Verdict)] (``by_set``), from which :func:`evaluate_by_set` gives each set's verdict.
"""
from ssl_repro.claims.verdicts import UNTESTABLE, Verdict, combine

#: {test kind: check(records, test) -> Verdict}.
TESTS = {}
#: {test kind: sets(records, test) -> [(paper set, Verdict)]} of the tests judged per paper set.
BY_SET = {}


def register(kind, by_set=None):
    """Decorator: ``check`` judges the tests of ``kind``; ``by_set``, if given, gives their verdict per paper
    set.  A kind is registered once."""
    def add(check):
        if kind in TESTS:
            raise ValueError(f"claim test kind {kind!r} is registered twice")
        TESTS[kind] = check
        if by_set is not None:
            BY_SET[kind] = by_set
        return check
    return add


@register("untestable")
def check_untestable(records, test):
    """A claim this repository cannot test: its ``why`` is the evidence."""
    return Verdict(UNTESTABLE, "-", test["why"])


def evaluate(claim, records):
    """The :class:`~ssl_repro.claims.verdicts.Verdict` of one claim of ``experiments/paper_numbers.json``
    (its ``test``) on ``records``."""
    kind = claim["test"]["kind"]
    if kind not in TESTS:
        raise ValueError(f"claim {claim.get('id', '?')}: test kind {kind!r} is not registered; known: "
                         f"{', '.join(sorted(TESTS))}")
    return TESTS[kind](records, claim["test"])


def evaluate_by_set(claim, records):
    """(the :class:`Verdict` of ``claim``, [(paper set, Verdict)]): for a test judged per paper set
    (:data:`BY_SET`), each set's verdict as :func:`evaluate` gives it for the test restricted to that set,
    and the claim's combined from the same judgements (each set judged once); else [("-", the verdict)]."""
    test = claim["test"]
    if test["kind"] not in BY_SET:
        verdict = evaluate(claim, records)
        return verdict, [("-", verdict)]
    parts = BY_SET[test["kind"]](records, test)
    return combine([v for _, v in parts]), [(name, combine([v])) for name, v in parts]
