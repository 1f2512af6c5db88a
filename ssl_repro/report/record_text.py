"""Records in words for the report: their commits and provenance, a section of one record, the sweeps'
datasets and cells in the report's order (the records themselves: :class:`ssl_repro.claims.records.Records`)."""
import re
from collections import Counter

import pandas as pd

from ssl_repro.claims import verdicts
from ssl_repro.claims.records import Records


NOT_YET = "not measured yet"


real_name = verdicts.paper_set


data_kind = verdicts.data_kind


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
    if "keyed_at" in frame and frame["keyed_at"].notna().any():
        note += (f"; data keys computed later from the data the rows name, at code commit "
                 f"{', '.join(sorted({short_commit(c) for c in frame['keyed_at'].dropna()}))}")
    return note if recorded.all() else f"{note}; {int((~recorded).sum())} jobs: {unrecorded}"


#: The folders of a checkout a recorded path is read from: the path from there on is the checkout's own file.
CHECKOUT_PARTS = ("run.py", "experiments", "benchmarks", "results", "docs", "conf", "ssl_repro")
_ABSOLUTE = re.compile(r"(?<![\w.~])/[^\s'\"`;,()]+")


def published(command):
    """A record's ``command`` as a page shows it, naming no folder of the machine it ran on: an absolute path
    into a checkout (``/x/y/experiments/cccp_002.py``, ``/x/y/results/runs``) from the checkout's own folder on
    (``experiments/cccp_002.py``), any other absolute path (a data root, a peer's program) as ``<local>/`` and
    its last part.  The record keeps the path as it ran."""
    def one(match):
        parts = match.group(0).rstrip("/").split("/")
        inside = [i for i, part in enumerate(parts) if part in CHECKOUT_PARTS]
        return "/".join(parts[inside[0]:]) if inside else f"<local>/{parts[-1]}"
    return _ABSOLUTE.sub(one, str(command))


def provenance(record):
    """The command, date and code commit of a record, then those of the earlier runs merged into it, each
    distinct command, day and commit once, with how many runs it made (a script that writes its record once per
    split leaves one earlier entry per write)."""
    def one(p):
        commit = short_commit(p.get("git_commit") or p.get("code"))
        return f"command `{published(p.get('command', '?'))}`, {str(p.get('date', p.get('date_utc', '?')))[:10]}" + (
            f", code commit {commit}" if commit else "")
    earlier = record.get("earlier", []) if "provenance" in record else []
    runs = Counter(one(p) for p in earlier)
    return one(record.get("provenance", record)) + "".join(
        f"; merged with {n} runs of {text}" if n > 1 else f"; merged with the runs of {text}"
        for text, n in runs.items())


def with_record(records, title, relative, body, load=Records.json):
    """A section: ``title``, then ``body(record)`` of the record ``results/relative`` (read by ``load``:
    JSON, or :meth:`Records.csv`), or "not measured yet" when it is absent."""
    record = load(records, relative)
    return [title, ""] + ([f"{NOT_YET} (`{relative}` absent)."] if record is None else body(record))


def sweep_frames(records, prefix):
    """(folder, dataset, frame) of every sweep folder starting with ``prefix``: real sets first, then
    real-text analogs, then stand-ins (:data:`ssl_repro.claims.verdicts.KIND_ORDER`), by name within each."""
    found = [(folder, dataset, frame[frame["dataset"] == dataset])
             for folder in records.folders(prefix) for frame in [records.runs(folder)]
             for dataset in sorted(frame["dataset"].unique())]
    yield from sorted(found, key=lambda t: (verdicts.KIND_ORDER.index(data_kind(t[1])), t[1]))


def cells(frame):
    """(n_labeled, n_unlabeled, rows) of one dataset's sweep, in order of labels then unlabeled rows."""
    for (l, u), rows in frame.groupby(["n_labeled", "n_unlabeled"], sort=True):
        yield int(l), int(u), rows
