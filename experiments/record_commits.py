"""The code commits behind the records the verdicts read: one line per record file, then the count.

    python experiments/record_commits.py [--results DIR] [--only-mixed]

Judges every claim (as the report does) while noting each record file read, and prints each file with the
commits that made it (:mod:`ssl_repro.report.record_commits`), then how many commits made them all, the
files that mix commits and those that name none.  After ``paper_artifacts.py run all --force`` the files
its steps remade name its commit alone; the others (peers without their program, ``--stand-ins`` and
``--scale`` steps not run) keep theirs, and this says which.  Exit status 0; nothing is written.
"""
import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from ssl_repro.report.record_commits import commit_table, summary  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=str(ROOT / "results"))
    ap.add_argument("--only-mixed", action="store_true", help="list only the files that mix commits")
    args = ap.parse_args(argv)
    table = commit_table(args.results, ROOT)
    for relative, commits in table:
        if not args.only_mixed or len(commits) > 1:
            print(f"{relative}: {', '.join(commits) or 'no commit named'}")
    print("\n".join(summary(table)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
