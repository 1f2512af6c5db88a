"""The report's record readers: the records under results/, their commits and provenance, the sweeps, and
the verdicts on the papers' claims each render asks of them."""
import json
from pathlib import Path

import pandas as pd

from .. import claims, verdicts
from ..aggregate import read_results


NOT_YET = "not measured yet"


real_name = verdicts.paper_set


data_kind = verdicts.data_kind


class Records:
    """The records under ``results`` and the repository ``repo`` they are committed in, as one render reads
    them: each sweep's results.csv is read once (:meth:`runs`) and each claim judged once (:meth:`verdict`)
    for the life of the object, so each render makes its own (the next one reads changed records anew)."""

    def __init__(self, results, repo):
        self.results, self.repo = Path(results), Path(repo)
        self._runs, self._verdicts = {}, {}
        self.papers = json.loads((self.repo / "experiments" / "paper_numbers.json").read_text())

    def runs(self, folder):
        """``folder``'s results.csv, or None when absent (read once per render)."""
        if folder not in self._runs:
            f = self.results / folder / "results.csv"
            self._runs[folder] = read_results(f) if f.exists() else None
        return self._runs[folder]

    def verdict(self, claim):
        """The :class:`~ssl_repro.harness.verdicts.Verdict` of ``claim`` on these records, as
        :func:`ssl_repro.harness.claims.evaluate` gives it."""
        return self._judged(claim)[0]

    def named_verdicts(self, claim):
        """[(paper set, Verdict)] of ``claim`` per paper set its test names (compare and ratio tests), else
        [("-", its one verdict)] (:func:`ssl_repro.harness.claims.evaluate_by_set`)."""
        return self._judged(claim)[1]

    def _judged(self, claim):
        """:func:`~ssl_repro.harness.claims.evaluate_by_set` of ``claim``, evaluated once per claim id and
        test: the same claim with another test (``dict(claim, test=...)``) is evaluated anew."""
        key = (claim.get("id"), json.dumps(claim["test"]))
        if key not in self._verdicts:
            self._verdicts[key] = claims.evaluate_by_set(claim, self)
        return self._verdicts[key]

    def json(self, relative):
        f = self.results / relative
        return json.loads(f.read_text()) if f.exists() else None

    def csv(self, relative):
        f = self.results / relative
        return pd.read_csv(f) if f.exists() else None

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


def short_commit(commit):
    """A recorded code commit read whole, shortened: its first 7 characters and, when the record says the
    working tree had changes ("<sha>+uncommitted changes"), ``+uncommitted``; "" when none is recorded."""
    commit = str(commit or "")
    return commit[:7] + ("+uncommitted" if "uncommitted" in commit else "")


def commit_note(frame):
    """The code commit of the jobs in ``frame`` (results.csv ``git_commit`` and ``date``), for timing
    tables and figures; jobs run before the harness recorded a commit are counted as "code commit not
    recorded". Read from the record alone (never from git history), so a render does not change when
    the record is committed."""
    recorded = frame["git_commit"].notna() if "git_commit" in frame else pd.Series(False, index=frame.index)
    unrecorded = "code commit not recorded"
    if not recorded.any():
        return unrecorded
    commits = sorted({short_commit(c) for c in frame.loc[recorded, "git_commit"]})
    dates = sorted({str(d)[:10] for d in frame.loc[recorded, "date"].dropna()}) if "date" in frame else []
    note = f"code commit {', '.join(commits)}" + (f" ({', '.join(dates)})" if dates else "")
    return note if recorded.all() else f"{note}; {int((~recorded).sum())} jobs: {unrecorded}"


def provenance(record):
    """The command, date and code commit of a record, then those of the earlier runs merged into it."""
    def one(p):
        commit = short_commit(p.get("git_commit") or p.get("code"))
        return f"command `{p.get('command', '?')}`, {str(p.get('date', p.get('date_utc', '?')))[:10]}" + (
            f", code commit {commit}" if commit else "")
    earlier = record.get("earlier", []) if "provenance" in record else []
    return one(record.get("provenance", record)) + "".join(
        f"; merged with the runs of {one(p)}" for p in earlier)


def with_record(records, title, relative, body, load=Records.json):
    """A section: ``title``, then ``body(record)`` of the record ``results/relative`` (read by ``load``:
    JSON, or :meth:`Records.csv`), or "not measured yet" when it is absent."""
    record = load(records, relative)
    return [title, ""] + ([f"{NOT_YET} (`{relative}` absent)."] if record is None else body(record))


def sweep_frames(records, prefix):
    """(folder, dataset, frame) of every sweep folder starting with ``prefix``: real sets first, then
    real-text analogs, then stand-ins (:data:`ssl_repro.harness.verdicts.KIND_ORDER`), by name within each."""
    found = [(folder, dataset, frame[frame["dataset"] == dataset])
             for folder in records.folders(prefix) for frame in [records.runs(folder)]
             for dataset in sorted(frame["dataset"].unique())]
    yield from sorted(found, key=lambda t: (verdicts.KIND_ORDER.index(data_kind(t[1])), t[1]))


def cells(frame):
    """(n_labeled, n_unlabeled, rows) of one dataset's sweep, in order of labels then unlabeled rows."""
    for (l, u), rows in frame.groupby(["n_labeled", "n_unlabeled"], sort=True):
        yield int(l), int(u), rows
