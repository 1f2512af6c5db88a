"""How far a sweep has got: how many of its jobs are done, how many remain.

The sweep's job list is written by :class:`.sweeper.ProgressSweeper` (the
default sweeper, ``conf/hydra/sweeper/progress.yaml``) to
``<sweep dir>/.sweep/jobs.json`` before any job runs; each job, when it
ends, counts the finished results of that list and logs ``done/total`` and
what remains (:func:`report`, called by :mod:`.app`) when the count has changed since it was last
logged (``<sweep dir>/.sweep/reported``, set by the sweeper to the jobs already done when it starts): a
resumed sweep whose jobs are skipped or copied as done prints no line per job, only per change.
"""
import json
import logging
from pathlib import Path

from ssl_repro.harness.result_files import RESULT_FILE

log = logging.getLogger("ssl_repro")

MANIFEST = Path(".sweep") / "jobs.json"
HISTORY = Path(".sweep") / "history.jsonl"
#: The count of done jobs last logged, shared by the sweep's job processes.
REPORTED = Path(".sweep") / "reported"


def mark_reported(sweep_dir, done):
    """Note ``done`` as the count last logged for the sweep ``sweep_dir`` (best effort: a folder that cannot
    be written only means a line may be repeated)."""
    try:
        (Path(sweep_dir) / REPORTED).write_text(str(done))
    except OSError:
        pass


def changed(sweep_dir, done):
    """Whether ``done`` differs from the count last logged for ``sweep_dir`` (noting it when it does)."""
    try:
        last = int((Path(sweep_dir) / REPORTED).read_text())
    except (OSError, ValueError):
        last = None
    if last == done:
        return False
    mark_reported(sweep_dir, done)
    return True


def report(sweep_dir, output_dir):
    """Return (done, total) of the sweep ``output_dir`` belongs to, or None if unknown; log it when the count
    changed since it was last logged (:func:`changed`)."""
    manifest = Path(sweep_dir) / MANIFEST
    try:
        jobs = json.loads(manifest.read_text())["jobs"]
    except (OSError, ValueError, KeyError):
        return None
    if str(Path(output_dir).resolve()) not in jobs:
        return None
    done = count_done(jobs)
    if changed(sweep_dir, done):
        log.info("sweep %s: %d/%d jobs done, %d remaining", sweep_dir, done, len(jobs), len(jobs) - done)
    return done, len(jobs)


def count_done(jobs):
    """How many of the job directories ``jobs`` hold a result."""
    return sum(1 for job in jobs if (Path(job) / RESULT_FILE).exists())
