"""Job results on disk: one ``result.json`` per job, written atomically.

A job is identified by its output directory (Hydra's ``dataset/variant/
split=S/l=N/cfg-<hash>`` sub-directory of the sweep, see
:mod:`.jobkey`) and its resolved configuration (less the settings of
:data:`.jobkey.PLACEMENT_KEYS`).  Files are created with the mode the umask allows
(0644 typically), as ``open`` would.  :func:`job_lock` keeps two sweeps
writing into one folder from computing the same job at once.
A re-run of a sweep skips a job whose ``result.json`` exists with the same
configuration, so an interrupted or crashed sweep recomputes only what is
missing; a crashed job leaves no file, because the file only appears by an
atomic rename once it is complete (a job killed outright may leave a hidden
``.result.*.tmp``, which nothing reads and the job's next run deletes).

Records are strict JSON (RFC 8259, what JavaScript's and most parsers accept): a value that is not
a number (a test error without test rows: NaN) is written ``null`` (:func:`write_json`), and
:func:`read_result` gives it back as NaN for the numeric fields (:data:`NUMBER_FIELDS`).

One rule says what a complete record is (:func:`read_result`): a strict JSON object
holding :data:`RECORD_KEYS`, each value of the type this project writes (:func:`wrong_value`).  A ``result.json`` that is not (truncated, or
written by hand: a ``NaN`` or ``Infinity`` token, which this project never writes, included) counts as
no result: ``run.py`` computes the job again and
the aggregation skips it with a warning naming the file.
"""
import contextlib
import json
import math
import os
import socket
from pathlib import Path

from ssl_repro.utils.atomic import atomic_write
from ssl_repro.harness.jobkey import data_files, identity

RESULT_FILE = "result.json"
TEMP_PREFIX = ".result."
LOCK_FILE = ".job.lock"
#: A job of a sweep that failed leaves its traceback here (removed when it is run again).
ERROR_FILE = "error.txt"
#: The keys every complete record holds (what the aggregation groups and reads; written by every
#: version of :func:`ssl_repro.harness.runner.make_record`).
RECORD_KEYS = ("dataset", "method", "split", "n_labeled", "n_unlabeled", "test_error", "diagnostics")
#: The numeric fields of a record (and of its ``diagnostics``) whose ``null`` is read back as NaN.
NUMBER_FIELDS = ("r", "lam", "lam_u", "eqn18_lam", "eqn18_lam_u", "test_error", "transductive_error",
                 "unlabeled_positive_fraction", "objective_own", "objective_eqn18", "seconds", "compile_seconds",
                 "objective", "own_objective", "positive_fraction")


#: The repository's committed records (``results/``; its ``runs/``, where sweeps write, is not committed).
COMMITTED = Path(__file__).resolve().parents[2] / "results"


def in_committed(folder):
    """Whether ``folder`` (absolute, or relative to the working folder) is in the repository's committed
    ``results/`` and not in its ``runs/``, where sweeps write."""
    target = Path(folder).absolute().resolve()
    runs = COMMITTED / "runs"
    return (target == COMMITTED or COMMITTED in target.parents) and not (target == runs or runs in target.parents)


def refuse_committed(out, force=False, flag="--force"):
    """Refuse (ValueError naming ``flag``) to write into the repository's committed ``results/`` (not its
    ``runs/``) unless ``force``: a command run as the README shows it would otherwise replace a committed
    record without a word."""
    if in_committed(out) and not force:
        raise ValueError(f"{out} is in the repository's committed results ({COMMITTED}): writing there replaces "
                         f"a committed record; give another folder, or {flag} to replace it")


class IncompleteResult(ValueError):
    """A ``result.json`` that is not a complete record; the message names the file and what is wrong."""


class NotStrict(Exception):
    """A ``NaN``, ``Infinity`` or ``-Infinity`` token in a record (Python's json reads them; strict JSON has none)."""


def _not_strict(token):
    raise NotStrict(token)


def read_result(path):
    """The record in ``path``; :class:`IncompleteResult` when the file cannot be read, is not strict JSON
    (e.g. truncated, or a ``"test_error": NaN`` or ``"seconds": Infinity`` written by hand), or lacks one of
    :data:`RECORD_KEYS`."""
    try:
        record = json.loads(Path(path).read_text(), parse_constant=_not_strict)
    except (OSError, UnicodeDecodeError) as exc:
        raise IncompleteResult(f"{path}: cannot be read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise IncompleteResult(f"{path}: not valid JSON ({exc})") from None
    except NotStrict as exc:
        raise IncompleteResult(f"{path}: holds {exc}, which is not JSON (this project writes a number it could not "
                               "measure as null), so its means would be wrong: run the job again, or delete the "
                               "file") from None
    if not isinstance(record, dict):
        raise IncompleteResult(f"{path}: holds a JSON {type(record).__name__}, not a record")
    missing = [key for key in RECORD_KEYS if key not in record]
    if missing:
        raise IncompleteResult(f"{path}: an incomplete record (no {', '.join(missing)})")
    if not isinstance(record["diagnostics"], dict):
        raise IncompleteResult(f"{path}: an incomplete record ('diagnostics' is not an object)")
    wrong = wrong_value(record)
    if wrong:
        raise IncompleteResult(f"{path}: {wrong}, which this project never writes (a hand edit?), so its means would "
                               "be wrong: run the job again, or delete the file")
    for part in (record, record["diagnostics"]):
        part.update({key: float("nan") for key in NUMBER_FIELDS if key in part and part[key] is None})
    return record


def wrong_value(record):
    """What is wrong with a value of ``record`` the aggregation groups or averages by, in words, or None: a
    ``split`` or ``n_unlabeled`` that is not a whole number, an ``n_labeled`` that is neither one nor ``all``
    (``"8"`` would make a second group), a ``converged`` that is not true/false (``"false"`` would read as
    converged), a number of :data:`NUMBER_FIELDS` written as text (``"0.25"``) or infinite (``1e999``)."""
    def whole(value):
        return isinstance(value, int) and not isinstance(value, bool)
    for key, ok, what in (("split", whole, "a whole number"), ("n_unlabeled", whole, "a whole number"),
                          ("n_labeled", lambda v: whole(v) or v == "all", "a whole number or \"all\""),
                          ("converged", lambda v: isinstance(v, bool), "true or false")):
        if key in record and not ok(record[key]):
            return f"{key} holds {json.dumps(record[key])}, not {what}"
    for key in NUMBER_FIELDS:
        value = record.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            return f"{key} holds {json.dumps(value)}, not a number"
        if isinstance(value, float) and math.isinf(value):
            return f"{key} holds {value} (a number too large for a float: 1e999?), not a finite number"
    return None


def write_result(directory, record):
    """Write ``record`` as ``directory/result.json`` atomically (temp file + rename)."""
    write_json(Path(directory) / RESULT_FILE, record)


def write_arrays(directory, arrays):
    """Save a job's arrays atomically: ``weights`` as ``weights.npy``, ``outputs`` (a dict) as ``outputs.npz``."""
    import numpy as np
    directory = Path(directory)
    for key, value in arrays.items():
        if key == "weights":
            with atomic_write(directory / "weights.npy", "wb", prefix=TEMP_PREFIX) as f:
                np.save(f, value)
        else:
            with atomic_write(directory / f"{key}.npz", "wb", prefix=TEMP_PREFIX) as f:
                np.savez(f, **value)


def write_json(path, obj):
    """Write ``obj`` as JSON to ``path`` atomically: a temp file beside it, fsync, rename.

    Strict JSON: a NaN or infinite number is written ``null`` (:func:`strict`).  Readers see the old
    file or the complete new one, never a part; on any error (or an unserializable value) the temp
    file is removed and ``path`` is left as it was.
    """
    with atomic_write(path, prefix=TEMP_PREFIX, suffix=".tmp") as f:
        json.dump(strict(obj), f, indent=1, allow_nan=False)


@contextlib.contextmanager
def job_lock(directory):
    """Hold ``directory/.job.lock`` (created with O_EXCL) while a job runs; yields False if another
    live process holds it.  A lock left by a dead process on this machine is taken over."""
    path = Path(directory) / LOCK_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    owner = f"{socket.gethostname()} {os.getpid()}"
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666)
        except FileExistsError:
            if not stale_lock(path):
                yield False
                return
            path.unlink(missing_ok=True)
            continue
        with os.fdopen(fd, "w") as f:
            f.write(owner)
        try:
            yield True
        finally:
            path.unlink(missing_ok=True)
        return
    yield False


def stale_lock(path):
    """True when the lock's owner is a process of this machine that no longer runs."""
    try:
        host, pid = path.read_text().split()
        pid = int(pid)
    except (OSError, ValueError):
        return False
    if host != socket.gethostname():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def remove_stale_temp_files(directory):
    """Delete temp files a killed job left in its own ``directory`` (never a finished result)."""
    for path in Path(directory).glob(f"{TEMP_PREFIX}*.tmp"):
        path.unlink(missing_ok=True)


def finished_result(directory, config):
    """The stored record if ``directory`` holds a complete result (:func:`read_result`) for exactly
    ``config`` and, for a user's own data files, for their present content (the record's
    ``data_files`` digests, :func:`.jobkey.data_files`), else None (the job is to be computed)."""
    path = Path(directory) / RESULT_FILE
    if not path.exists():
        return None
    try:
        record = read_result(path)
    except IncompleteResult:
        return None
    if identity(record.get("config")) != identity(config):
        return None
    files = data_files(config.get("dataset")) if isinstance(config, dict) else {}
    return record if record.get("data_files", {}) == files else None


#: The arrays a job may leave beside its ``result.json`` (:func:`write_arrays`: a job on a user's own files).
ARRAY_FILES = ("weights.npy", "outputs.npz")
#: A record copied from another sweep's folder (:func:`sibling_result`) names that folder here.
REUSED_FROM = "reused_from"


def sibling_result(directory, sweep_dir, config):
    """(record, folder) of the job ``config`` finished in another sweep folder beside ``sweep_dir``, or
    (None, None).  A job's folder below its sweep folder is ``dataset/variant/split=S/l=N/cfg-<hash>``,
    the hash of all that determines the result (:mod:`.jobkey`; not the sweep's name), so the same job in
    another sweep (the ablation's full DA is the learning curve's DA at the ablation's label counts) sits at
    the same place below its own sweep folder; :func:`finished_result` checks its configuration in full.
    Failing that, a job that is not timed takes the first repeat of a timing job that fits the same
    (:func:`timed_twin`: the learning curve's TSVM S=1, S=max and DA at the timing sweep's splits and label
    counts, issue 72).
    Decision: a sweep takes such a result instead of computing it again (``run all`` runs the timing sweeps
    first, then the learning curves, then the ablations); its seconds stay the other sweep's (a timing job's:
    one job at a time on an idle machine), and a timing job is never another sweep's (the timing settings and
    the repeat are part of its configuration: each repeat is timed anew)."""
    directory, sweep_dir = Path(directory).resolve(), Path(sweep_dir).resolve()
    if sweep_dir not in directory.parents or not sweep_dir.parent.is_dir():
        return None, None
    relative = directory.relative_to(sweep_dir)
    siblings = [s for s in sorted(sweep_dir.parent.iterdir()) if s != sweep_dir]
    for sibling in siblings:
        if (sibling / relative / RESULT_FILE).exists():
            record = finished_result(sibling / relative, config)
            if record is not None:
                return record, sibling / relative
    if not isinstance(config, dict) or config.get("timing") is not None:
        return None, None
    for sibling in siblings:
        record, source = timed_twin(sibling / relative.parent, config)
        if record is not None:
            return record, source
    return None, None


#: The settings of a timing job (:mod:`.timing_protocol`) that say how its fit is timed, not what it computes.
TIMING_SETTINGS = ("timing", "repeat")


def timed_twin(folder, config):
    """(record, job folder) of a timing job's first repeat (``repeat`` 0) finished in ``folder`` (another
    sweep's ``dataset/variant/split=S/l=N``) whose configuration, less :data:`TIMING_SETTINGS`, is the
    untimed job ``config``'s (its data files' content too, :func:`finished_result`), or (None, None).  The
    record is returned as ``config``'s own: its configuration is ``config`` and the timing protocol's
    measurement (``timing``: load, other processes' use) stays in the timing job's record, which
    :data:`REUSED_FROM` names; the fit (errors, J, CG iterations, seconds) is the timing job's.  Decision: the
    first repeat, since every repeat fits the same (the committed records: equal J and CG counts in all 3)."""
    for job in sorted(Path(folder).glob("cfg-*")) if Path(folder).is_dir() else []:
        try:
            record = read_result(job / RESULT_FILE) if (job / RESULT_FILE).exists() else None
        except IncompleteResult:
            continue
        timed = (record or {}).get("config")
        if not isinstance(timed, dict) or timed.get("timing") is None or timed.get("repeat") != 0:
            continue
        untimed = {k: v for k, v in timed.items() if k not in TIMING_SETTINGS}
        if identity(untimed) == identity(config) and record.get("data_files", {}) == data_files(config.get("dataset")):
            return {k: v for k, v in record.items() if k != "timing"} | {"config": config}, job
    return None, None


def copy_result(record, source, directory):
    """Store ``record``, found in the job folder ``source`` (:func:`sibling_result`), as ``directory``'s
    result, with its arrays and :data:`REUSED_FROM` naming ``source``; returns the stored record."""
    directory = Path(directory)
    for name in ARRAY_FILES:
        if (Path(source) / name).exists():
            with atomic_write(directory / name, "wb", prefix=TEMP_PREFIX) as f:
                f.write((Path(source) / name).read_bytes())
    record = {**record, REUSED_FROM: str(source)}
    write_result(directory, record)
    return record


def iter_results(*roots, skipped=None):
    """Every complete record under the given directories (recursively), its ``path`` added; an
    incomplete ``result.json`` (:func:`read_result`) is left out and its :class:`IncompleteResult`
    appended to ``skipped`` (raised if ``skipped`` is None)."""
    for root in roots:
        for path in sorted(Path(root).rglob(RESULT_FILE)):
            try:
                record = read_result(path)
            except IncompleteResult as problem:
                if skipped is None:
                    raise
                skipped.append(problem)
                continue
            record["path"] = str(path)
            yield record


def strict(value):
    """``value`` with numpy arrays and scalars made lists and numbers, and every float that is not a
    finite number (NaN, inf) made None, which JSON writes ``null``."""
    if isinstance(value, dict):
        return {key: strict(v) for key, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [strict(v) for v in value]
    if hasattr(value, "tolist"):           # numpy arrays and scalars
        return strict(value.tolist())
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if value is None or isinstance(value, (str, int)):
        return value
    raise TypeError(f"cannot store {type(value).__name__} in result.json")
