"""The code commits behind the records the verdicts read (issue 57: one commit behind every result).

:func:`verdict_inputs` judges every claim of ``experiments/paper_numbers.json`` on a :class:`Records` that
notes each file it reads; :func:`commits_in` finds the commits a record file names (a results.csv's
``git_commit`` column; every ``git_commit`` field of a JSON record: its provenance, its rows' and the earlier
runs' it merged).  ``experiments/record_commits.py`` prints both.
"""
import json
from pathlib import Path

import pandas as pd

from ssl_repro.claims.records import Records

#: How a record made with changed, uncommitted code ends its commit (:mod:`ssl_repro.utils.provenance`).
UNCOMMITTED = "+uncommitted changes"
#: Record files whose commits are in another file than their folder's ``provenance.json`` (:func:`commits_of`).
PROVENANCE_OF = {"cccp_002/large.csv": "cccp_002/large_provenance.json",
                 "cccp_002/large_times.csv": "cccp_002/large_provenance.json",
                 "kernel_benchmarks/runs.jsonl": "kernel_benchmarks/table.json"}


class ReadingRecords(Records):
    """:class:`Records` that notes the path (relative to ``results``) of every record file read."""

    def __init__(self, results, repo):
        super().__init__(results, repo)
        self.read = set()

    def _note(self, relative):
        if (self.results / relative).exists():
            self.read.add(Path(relative).as_posix())

    def runs(self, folder):
        self._note(Path(folder) / "results.csv")
        return super().runs(folder)

    def json(self, relative):
        self._note(relative)
        return super().json(relative)

    def jsonl(self, relative):
        self._note(relative)
        return super().jsonl(relative)

    def csv(self, relative):
        self._note(relative)
        return super().csv(relative)


def verdict_inputs(results, repo):
    """The record files (relative to ``results``) that judging every claim reads, sorted."""
    records = ReadingRecords(results, repo)
    for claim in records.papers["claims"]:
        if "test" in claim:                 # the others are listed untested, with no record behind them
            records.named_verdicts(claim)
    return sorted(records.read)


def _fields(value, name="git_commit"):
    if isinstance(value, dict):
        for key, item in value.items():
            if key == name and isinstance(item, str):
                yield item
            else:
                yield from _fields(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from _fields(item, name)


def short(commit):
    """A commit as the pages show it: 7 hex digits, and the uncommitted mark kept."""
    return commit[:7] + ("+uncommitted" if commit.endswith(UNCOMMITTED) else "")


def commits_in(path):
    """The commits (:func:`short`) that made the record file ``path``, sorted; empty when it names none."""
    path = Path(path)
    if path.suffix == ".csv":
        frame = pd.read_csv(path, usecols=lambda c: c == "git_commit")
        if "git_commit" not in frame:
            return []
        unnamed = int(frame["git_commit"].isna().sum())
        named = sorted({short(c) for c in frame["git_commit"].dropna().astype(str)})
        return named + ([f"{unnamed} row(s) naming none"] if unnamed and named else [])
    elif path.suffix == ".jsonl":
        found = [c for line in path.read_text().splitlines() if line.strip() for c in _fields(json.loads(line))]
    else:
        found = list(_fields(json.loads(path.read_text())))
    return sorted({short(c) for c in found})


def commits_of(results, relative):
    """The commits of the record file ``relative``: those it names, else those of the provenance record
    beside it (its folder's ``provenance.json``, or :data:`PROVENANCE_OF`'s; a merged provenance names every
    run that wrote to the folder); empty when neither names one."""
    found = commits_in(Path(results) / relative)
    beside = Path(results) / PROVENANCE_OF.get(relative, Path(relative).parent / "provenance.json")
    return found or (commits_in(beside) if beside.exists() else [])


def commit_table(results, repo):
    """[(record file, its commits)] of every file the verdicts read."""
    return [(relative, commits_of(results, relative)) for relative in verdict_inputs(results, repo)]


def summary(table):
    """Lines saying how many commits made the verdicts' records, the files that mix commits and those that
    name none."""
    commits = sorted({c for _, found in table for c in found})
    mixed = [f for f, found in table if len(found) > 1]
    unnamed = [f for f, found in table if not found]
    lines = [f"{len(table)} record files read by the verdicts, made by {len(commits)} commit(s): {', '.join(commits)}"]
    if mixed:
        lines.append(f"{len(mixed)} file(s) mix commits: {', '.join(mixed)}")
    if unnamed:
        lines.append(f"{len(unnamed)} file(s) name no commit: {', '.join(unnamed)}")
    return lines
