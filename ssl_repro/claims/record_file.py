"""Reading a record file under results/: its contents, or one :class:`RecordError` naming the file, the line
(and column or key) and the value, with the fix.  ``report``, ``report --check`` and ``render`` read every
record through here (:class:`~ssl_repro.claims.records.Records`), so a hand-edited or truncated record stops
them with one ``Error:`` line instead of a traceback that never names the file, or a verdict quietly
changed.

What is refused:

* a JSON record that is not JSON (truncated, a stray comma): the file, line and column;
* a key a rule or a page reads that the record lacks (:class:`Record` raises on ``record[key]``);
* a number written as text (``"test_error": "0.25"``) where it is read, and a non-finite number where a
  page prints one (:meth:`Record.number`);
* in a record table: a text cell in a column of numbers (:data:`NUMBER_COLUMNS`) and a ``converged`` cell
  other than True/False; in a sweep's ``results.csv`` also a missing column of :data:`RESULT_COLUMNS` and an
  error (``test_error``, ``transductive_error``) left empty or NaN in a row while other rows hold one.

Decision: an error column empty in every row of a file is a quantity the sweep did not measure (the
transductive sweeps have no test rows) and stays accepted; so does NaN in the scripts' tables and JSON
records (the peers' records write NaN for a peer that did not run) unless a page prints it as a number.
"""
import json
import math
import re

import pandas as pd

#: The columns every sweep's results.csv holds (what the rules group its jobs by).
RESULT_COLUMNS = ("dataset", "method", "split", "n_labeled")
#: The columns of numbers a record table may hold; a text cell in one is refused.
NUMBER_COLUMNS = ("split", "n_unlabeled", "n_test", "r", "lam", "lam_u", "test_error", "transductive_error",
                  "objective_own", "objective_eqn18", "seconds", "cpu_seconds", "compile_seconds")
#: The error columns that, when a file records them, every row must hold.
ERROR_COLUMNS = ("test_error", "transductive_error")
#: A number written as text: ``"0.25"``, ``"-1e-3"``.
NUMBER_TEXT = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$")
#: How a record is restored.
FIX = "restore it (git checkout -- FILE) or re-run the command that writes it"


class RecordError(ValueError):
    """A record file that cannot be read as a record; its message names the file and the fix."""


class MissingKey(RecordError, KeyError):
    """A key a reader needs that the record lacks (a ``KeyError`` too, for readers that test for one)."""

    def __str__(self):
        return self.args[0]


class Record(dict):
    """A JSON object of the record file ``path``: ``record[key]`` raises :class:`MissingKey` naming the file
    and key when the key is absent, and :class:`RecordError` when it holds a number written as text."""

    def __init__(self, items, path):
        super().__init__(items)
        self.path = path

    def __getitem__(self, key):
        if key not in self:
            raise MissingKey(f"{self.path} has no {key!r} (its keys: {', '.join(map(str, self)) or 'none'}): {FIX}")
        value = super().__getitem__(key)
        if isinstance(value, str) and NUMBER_TEXT.match(value):
            raise RecordError(f"{self.path}: {key!r} holds the text {value!r}, not a number: write {value} "
                              f"without quotes, or {FIX}")
        return value

    def number(self, key):
        """``self[key]`` as a finite float, else :class:`RecordError` naming the file, the key and the value."""
        value = self[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise RecordError(f"{self.path}: {key!r} holds {value!r}, not a finite number: {FIX}")
        return float(value)


def _parse(text, path, where=""):
    try:
        return json.loads(text, object_hook=lambda items: Record(items, path))
    except json.JSONDecodeError as error:
        raise RecordError(f"{path}{where}: not JSON at line {error.lineno}, column {error.colno} ({error.msg}): "
                          f"{FIX}") from None


def read_json(path):
    """The JSON record at ``path`` (its objects :class:`Record`), or :class:`RecordError` naming the file,
    line and column where it stops being JSON."""
    return _parse(path.read_text(), path)


def read_jsonl(path):
    """The records of the JSON-lines file ``path`` (one object a line) as a frame, or :class:`RecordError`
    naming the file and the line that is not JSON."""
    rows = [_parse(line, path, f" line {number}") for number, line in enumerate(path.read_text().splitlines(), 1)
            if line.strip()]
    return pd.DataFrame(rows)


def check_table(frame, path, results_csv=False):
    """``frame`` (the table read from ``path``) when its cells are what the rules read, else
    :class:`RecordError` naming the file, the line (the header is line 1), the column and the value;
    ``results_csv``: a sweep's results.csv, which must hold :data:`RESULT_COLUMNS`."""
    missing = [c for c in RESULT_COLUMNS if c not in frame] if results_csv else []
    if missing:
        raise RecordError(f"{path} has no column {', '.join(missing)} (a sweep's results.csv holds "
                          f"{', '.join(RESULT_COLUMNS)}): {FIX}")
    for column in [c for c in NUMBER_COLUMNS + ("n_labeled",) if c in frame]:
        text = frame[column].map(lambda v: isinstance(v, str) and not _is_number(v) and
                                 not (column == "n_labeled" and v == "all"))
        _refuse_first(frame, text, path, column, "is not a number")
    if "converged" in frame:
        odd = frame["converged"].map(lambda v: not (isinstance(v, bool) or v in ("True", "False") or pd.isna(v)))
        _refuse_first(frame, odd, path, "converged", "is not True or False")
    for column in [c for c in ERROR_COLUMNS if c in frame and results_csv]:
        values = pd.to_numeric(frame[column], errors="coerce")
        if values.notna().any():
            _refuse_first(frame, values.isna(), path, column, "where other rows hold an error")
    return frame


def _is_number(text):
    try:
        float(text)
        return True
    except ValueError:
        return False


def _refuse_first(frame, mask, path, column, what):
    if mask.any():
        row = int(mask.to_numpy().nonzero()[0][0])
        value = frame[column].iloc[row]
        shown = "an empty or NaN cell" if pd.isna(value) else repr(value)
        raise RecordError(f"{path}: line {row + 2}, column {column}: {shown} {what} "
                          f"({int(mask.sum())} such row{'s' * (int(mask.sum()) != 1)}): {FIX}")


def check_all(results):
    """Read every record file under ``results`` (``*/*.json``, ``*/*.jsonl``, ``*/*.csv``) as the report reads
    it, so that a malformed one stops ``report``, ``report --check`` and ``render`` before any page or
    figure is written, with one :class:`RecordError` naming it."""
    for path in sorted(results.glob("*/*.json")):
        read_json(path)
    for path in sorted(results.glob("*/*.jsonl")):
        read_jsonl(path)
    for path in sorted(results.glob("*/*.csv")):
        try:
            frame = pd.read_csv(path)
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as error:
            raise RecordError(f"{path}: not a table ({' '.join(str(error).split())}): {FIX}") from None
        check_table(frame, path, results_csv=path.name == "results.csv")
