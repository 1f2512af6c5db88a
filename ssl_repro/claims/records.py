"""The records a verdict is judged on: the records under results/ and the papers' numbers and claims.

One :class:`Records` is made per render (the report's) or per check: each sweep's results.csv is read once
and each claim judged once for the life of the object, so the next one reads changed records anew.  Every
record file is read through :mod:`ssl_repro.claims.record_file`, which refuses a malformed one with one error
naming the file, the line and the value.
"""
import json
from pathlib import Path

import pandas as pd

from ssl_repro.claims.record_file import check_table, read_json, read_jsonl
from ssl_repro.claims.registry import evaluate_by_set
from ssl_repro.harness.aggregate import read_results


class Records:
    """The records under ``results`` and the repository ``repo`` they are committed in, as one render reads
    them: each sweep's results.csv is read once (:meth:`runs`) and each claim judged once (:meth:`verdict`)
    for the life of the object, so each render makes its own (the next one reads changed records anew)."""

    def __init__(self, results, repo):
        self.results, self.repo = Path(results), Path(repo)
        self._runs, self._verdicts, self._once = {}, {}, {}
        self.papers = json.loads((self.repo / "experiments" / "paper_numbers.json").read_text())

    def runs(self, folder):
        """``folder``'s results.csv, or None when absent (read once per render)."""
        if folder not in self._runs:
            f = self.results / folder / "results.csv"
            # copy(): the columns consolidated into one block per dtype, so each of the many row selections
            # the rules make takes a few blocks, not one per column (a render: a third less time)
            self._runs[folder] = check_table(read_results(f), f, results_csv=True).copy() if f.exists() else None
        return self._runs[folder]

    def verdict(self, claim):
        """The :class:`~ssl_repro.claims.verdicts.Verdict` of ``claim`` on these records, as
        :func:`ssl_repro.claims.registry.evaluate` gives it."""
        return self._judged(claim)[0]

    def named_verdicts(self, claim):
        """[(paper set, Verdict)] of ``claim`` per paper set its test names (compare and ratio tests), else
        [("-", its one verdict)] (:func:`ssl_repro.claims.registry.evaluate_by_set`)."""
        return self._judged(claim)[1]

    def _judged(self, claim):
        """:func:`~ssl_repro.claims.registry.evaluate_by_set` of ``claim``, evaluated once per test: the same claim
        with another test (``dict(claim, test=...)``) is evaluated anew, and two claims of one test (003's Table 2
        restating 000's Fig 4) share one judgement (a verdict depends on the test alone)."""
        key = json.dumps(claim["test"], sort_keys=True)
        if key not in self._verdicts:
            self._verdicts[key] = evaluate_by_set(claim, self)
        return self._verdicts[key]

    def once(self, what, compute):
        """``compute()`` the first time ``what`` (a hashable name of a result of these records: a section's
        table, a claim's corner verdicts) is asked for, the same object after: the pages that show one result
        compute it once per render."""
        if what not in self._once:
            self._once[what] = compute()
        return self._once[what]

    def json(self, relative):
        f = self.results / relative
        return read_json(f) if f.exists() else None

    def jsonl(self, relative):
        """The records of a JSON-lines file (one object a line) as a frame, or None when absent."""
        f = self.results / relative
        return read_jsonl(f) if f.exists() else None

    def csv(self, relative):
        f = self.results / relative
        return check_table(pd.read_csv(f), f) if f.exists() else None

    def folders(self, prefix):
        """The sweep folders under results/ whose name starts with ``prefix``, sorted."""
        return sorted(p.name for p in self.results.glob(f"{prefix}*") if (p / "results.csv").exists())


    def paper_numbers(self, **match):
        """The paper_numbers.json entries whose fields equal ``match``."""
        return [n for n in self.papers["numbers"] if all(n.get(k) == v for k, v in match.items())]

    def paper_value(self, **match):
        found = self.paper_numbers(**match)
        return found[0]["value"] if found else None

    def claims(self, artifact):
        return [c for c in self.papers["claims"] if c["artifact"] == artifact]
