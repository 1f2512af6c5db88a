"""Two sets of records side by side: the verdicts that changed, and each sweep's rows compared job by job.

    python experiments/compare_records.py --after DIR [--before REV_OR_DIR] [--verdicts-only | --rows-only]
                                          [--by-method]

``--before`` is a results folder, or a commit whose committed ``results/`` is read (default ``HEAD``: the
records committed in this checkout); ``--after`` is a results folder, say a regeneration's (``run all
--results DIR``, or a worktree's ``results/``).  Prints the claims whose verdict changed, both judged with this
checkout's rules, then one line per sweep folder both hold: matched jobs, the rows whose errors,
``converged`` and work counts differ, the rows whose J moved beyond 1e-6 relative, the largest change of J and
of the CG count (:mod:`ssl_repro.report.record_diff`); with ``--by-method``, below a folder's line one line per
method whose rows differ.  Seconds are not compared.  Exit status 0, or 1 with one
``Error:`` line for a folder or commit it cannot read; nothing is written (a commit's records are read from a
temporary folder, removed after).
"""
import argparse
import io
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from ssl_repro.report.record_diff import differs, row_changes, row_line, sweep_folders, verdict_changes  # noqa: E402


def committed_results(revision, into):
    """Extract ``revision``'s committed ``results/`` into the folder ``into``; return the extracted folder."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", revision, "results"],
                             capture_output=True)
    if archive.returncode:
        raise SystemExit(f"Error: --before {revision}: neither a folder nor a commit holding results/ "
                         f"({archive.stderr.decode().strip().splitlines()[-1]}); give a results folder or a commit")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return Path(into) / "results"


def compare(before, after, verdicts=True, rows=True, by_method=False):
    """The lines this command prints for the record folders ``before`` and ``after``."""
    lines = []
    if verdicts:
        changed, judged = verdict_changes(before, after, ROOT)
        lines.append(f"{judged} claims judged on both; {len(changed)} verdict(s) changed")
        lines += [f"  {claim} [{paper_set}]: {was} -> {now}" for claim, paper_set, was, now in changed]
    if rows:
        folders = sweep_folders(before, after)
        lines.append(f"{len(folders)} sweep folders in both")
        for folder in folders:
            found = row_changes(Path(before) / folder / "results.csv", Path(after) / folder / "results.csv",
                                by="method" if by_method else None)
            lines.append("  " + row_line(folder, found))
            lines += ["    " + row_line(method, counts, changed_only=True)
                      for method, counts in found.get("by", {}).items() if differs(counts)]
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--after", required=True, help="the results folder to compare with --before")
    ap.add_argument("--before", default="HEAD", help="a results folder, or a commit whose results/ is read")
    only = ap.add_mutually_exclusive_group()
    only.add_argument("--verdicts-only", action="store_true")
    only.add_argument("--rows-only", action="store_true")
    ap.add_argument("--by-method", action="store_true", help="below each sweep, a line per method whose rows differ")
    args = ap.parse_args(argv)
    if not Path(args.after).is_dir():
        raise SystemExit(f"Error: --after {args.after}: no such folder; give the results folder of a regeneration")
    with tempfile.TemporaryDirectory() as scratch:
        before = Path(args.before) if Path(args.before).is_dir() else committed_results(args.before, scratch)
        print("\n".join(compare(before, Path(args.after), not args.rows_only, not args.verdicts_only,
                                  args.by_method)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
