"""Judge: the records of real runs turned into verdicts on the papers' claims.

- :mod:`.rules`: the thresholds, the paired signed-rank test, one-class runs, whole-sentence rules;
- :mod:`.verdicts`: the verdict words, data kinds, an analog's constructions, how verdicts combine;
- :mod:`.registry`: the table of claim tests (each test module registers its kinds) and :func:`evaluate`;
- the tests, one module per family of claims: :mod:`.linear_rules` (000, 003, 004: paired comparisons),
  :mod:`.timing_rules`, :mod:`.kernel_001_rules` (001), :mod:`.cccp_002_rules`,
  :mod:`.cccp_002_large_rules` and :mod:`.cccp_002_fig5_rules` (002), :mod:`.beyond_rules` (today's baselines);
- :mod:`.corners`: which construction choice of an analog (preprocessing or lambda') flips a verdict;
- :mod:`.records`: the records a verdict reads (:class:`Records`).

This package reads records and the run stage's readers (:mod:`ssl_repro.harness`) and imports nothing from
the rendering (:mod:`ssl_repro.report`).  Importing it registers every test.
"""
from ssl_repro.claims import (cccp_002_fig5_rules, cccp_002_large_rules, cccp_002_rules, kernel_001_rules,  # noqa: F401
                              linear_rules, timing_rules)
from ssl_repro.claims.records import Records
from ssl_repro.claims.registry import TESTS, evaluate, evaluate_by_set
from ssl_repro.claims.rules import (ALPHA, ERROR_EQUAL_POINTS, ERROR_EQUAL_SHARE, ERROR_SLIGHT_POINTS, ERROR_SLIGHT_SHARE,
                                    J_EQUAL, J_SIGNIFICANT, ONE_CLASS_SHARE, R_INSIDE, SENTENCE_RULES, TIE_RTOL,
                                    Comparison, compare, equal_within, is_objective, meets, one_class, reversed_)
from ssl_repro.claims.signed_rank import signed_rank_p

__all__ = ["Records", "TESTS", "evaluate", "evaluate_by_set", "ALPHA", "ERROR_EQUAL_POINTS", "ERROR_EQUAL_SHARE",
           "ERROR_SLIGHT_POINTS", "ERROR_SLIGHT_SHARE", "J_EQUAL", "J_SIGNIFICANT", "ONE_CLASS_SHARE", "R_INSIDE",
           "SENTENCE_RULES", "TIE_RTOL", "Comparison", "compare", "equal_within", "is_objective", "meets", "one_class",
           "reversed_", "signed_rank_p"]
