"""How far a sweep has got: how many of its jobs are done, how many remain.

The sweep's job list is written by :class:`.sweeper.ProgressSweeper` (the
default sweeper, ``conf/hydra/sweeper/progress.yaml``) to
``<sweep dir>/.sweep/jobs.json`` before any job runs; each job, when it
ends, counts the finished results of that list and logs ``done/total`` and
what remains (:func:`report`, called by :mod:`.app`).
"""
import json
import logging
from pathlib import Path

from ssl_repro.harness.result_files import RESULT_FILE

log = logging.getLogger("ssl_repro")

MANIFEST = Path(".sweep") / "jobs.json"
HISTORY = Path(".sweep") / "history.jsonl"


def report(sweep_dir, output_dir):
    """Log and return (done, total) of the sweep ``output_dir`` belongs to, or None if unknown."""
    manifest = Path(sweep_dir) / MANIFEST
    try:
        jobs = json.loads(manifest.read_text())["jobs"]
    except (OSError, ValueError, KeyError):
        return None
    if str(Path(output_dir).resolve()) not in jobs:
        return None
    done = count_done(jobs)
    log.info("sweep %s: %d/%d jobs done, %d remaining", sweep_dir, done, len(jobs), len(jobs) - done)
    return done, len(jobs)


def count_done(jobs):
    """How many of the job directories ``jobs`` hold a result."""
    return sum(1 for job in jobs if (Path(job) / RESULT_FILE).exists())
