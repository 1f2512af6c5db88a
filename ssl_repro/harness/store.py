"""Job results on disk: one ``result.json`` per job, written atomically.

A job is identified by its output directory (Hydra's ``dataset/variant/
split=S/l=N`` sub-directory of the sweep) and its resolved configuration
(less the settings of :data:`PLACEMENT_KEYS`).
A re-run of a sweep skips a job whose ``result.json`` exists with the same
configuration, so an interrupted or crashed sweep recomputes only what is
missing; a crashed job leaves no file, because the file only appears by an
atomic rename once it is complete (a job killed outright may leave a hidden
``.result.*.tmp``, which nothing reads and the job's next run deletes).
"""
import json
from pathlib import Path

from ..atomic import atomic_write

RESULT_FILE = "result.json"
TEMP_PREFIX = ".result."
#: Settings that say where or how a job runs, not what it computes: a stored
#: result still counts as finished when only these differ.
PLACEMENT_KEYS = ("data_root", "download", "solver_threads", "results_dir", "sweep_name")


def write_result(directory, record):
    """Write ``record`` as ``directory/result.json`` atomically (temp file + rename)."""
    write_json(Path(directory) / RESULT_FILE, record)


def write_json(path, obj):
    """Write ``obj`` as JSON to ``path`` atomically: a temp file beside it, fsync, rename.

    Readers see the old file or the complete new one, never a part; on any
    error (or an unserializable value) the temp file is removed and ``path``
    is left as it was.
    """
    with atomic_write(path, prefix=TEMP_PREFIX, suffix=".tmp") as f:
        json.dump(obj, f, indent=1, default=_jsonable)


def remove_stale_temp_files(directory):
    """Delete temp files a killed job left in its own ``directory`` (never a finished result)."""
    for path in Path(directory).glob(f"{TEMP_PREFIX}*.tmp"):
        path.unlink(missing_ok=True)


def finished_result(directory, config):
    """The stored record if ``directory`` holds a result for exactly ``config``, else None."""
    path = Path(directory) / RESULT_FILE
    if not path.exists():
        return None
    try:
        record = json.loads(path.read_text())
    except (json.JSONDecodeError, OSError):
        return None
    return record if _identity(record.get("config")) == _identity(config) else None


def _identity(config):
    if not isinstance(config, dict):
        return config
    return {k: v for k, v in config.items() if k not in PLACEMENT_KEYS}


def iter_results(*roots):
    """Every record under the given directories (recursively)."""
    for root in roots:
        for path in sorted(Path(root).rglob(RESULT_FILE)):
            record = json.loads(path.read_text())
            record["path"] = str(path)
            yield record


def _jsonable(value):
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"cannot store {type(value).__name__} in result.json")
