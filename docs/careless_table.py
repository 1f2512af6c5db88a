"""The careless-user table (issue 59's "Must show"): each case of the careless-user tests with the line it prints,
rendered from a run of those tests into ``docs/user_guide/10_careless_user.md``.

    python docs/careless_table.py                 # run every case (the slow ones too, ~5 min) and write the page
    python docs/careless_table.py --check [NODE ...]   # run NODE (default: every case); exit 1 if the page differs

It lives in ``docs/`` beside ``conf.py`` because it is the documentation's tooling, not a benchmark (``benchmarks/``
times things) nor a paper's experiment (``experiments/``): it writes one page of the user guide, from the tests.

The tests are the table: :data:`TEST_FILES`, each one row per case, and each case hands the line it printed (the
``Error:`` line, the warning, the exception's message) to the ``shown`` fixture (``tests/conftest.py``), which keeps it
and the case as the test's properties.  This script runs the tests with pytest's junit XML, where those
properties land, and writes one table per test function, in the order pytest runs them.  A page made while a case
fails would show a line no test passes: it is refused.  The test's temporary folder reads ``TMP`` on the page, the
checkout's folder ``<repo>``.  ``tests/docs/test_careless_table.py`` checks that the page has a row for every case
of the tables, and (slow) that a few cases run now print what the page says.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from itertools import groupby
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "user_guide" / "10_careless_user.md"
#: The careless-user tests, in the page's order.
TEST_FILES = ("tests/harness/test_careless_user.py", "tests/harness/test_cli_errors.py",
              "tests/harness/test_user_errors_one_line.py", "tests/harness/test_careless_aggregate.py",
              "tests/harness/test_careless_records.py", "tests/experiments/test_careless_benchmarks.py",
              "tests/harness/test_careless_estimators.py", "tests/harness/test_bad_input.py")
HEAD = f"""# A careless user's mistakes, and the line each prints

<!-- rendered by docs/careless_table.py from a run of the careless-user tests: do not edit; run it again -->

Each row is one case of the careless-user tests ({", ".join(f"`{f}`" for f in TEST_FILES)}): a command line, a
call or an edited file, as its test gives it, and what the package printed, copied from that test's run.  `TMP`
stands for the test's temporary folder, `<repo>` for the checkout, `[TIME]` for a log line's time, and `x{{300}}` for
300 x's (a name too long for a file system).
Lines that name a machine's limits (a read-only folder, `/proc`) are this machine's.  Regenerate with
`python docs/careless_table.py` after changing a message or a table.
"""


def run_tests(nodes):
    """[(path, function, case, line, skipped reason or None)] of the test ``nodes`` (files or node ids), run
    with every mark; SystemExit naming the failed tests if any fails."""
    with tempfile.TemporaryDirectory(prefix="careless_table.") as folder:
        report, basetemp = Path(folder) / "report.xml", Path(folder) / "tmp"
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "slow or not slow",
                               "-o", "junit_family=xunit1", f"--junitxml={report}", f"--basetemp={basetemp}", *nodes],
                              cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        if not report.exists():
            raise SystemExit(f"Error: pytest wrote no report (exit {proc.returncode}): {proc.stdout[-2000:]}")
        return rows_of(ET.parse(report).getroot(), basetemp)


def rows_of(root, basetemp):
    rows, failed = [], []
    for case in root.iter("testcase"):
        path = case.get("file") or case.get("classname").replace(".", "/") + ".py"
        function = case.get("name").split("[")[0]
        if case.find("failure") is not None or case.find("error") is not None:
            failed.append(f"{path}::{case.get('name')}")
            continue
        skipped = case.find("skipped")
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        if skipped is not None:
            rows.append((path, function, case.get("name"), None, skipped.get("message", "skipped")))
        elif "line" in props:
            rows.append((path, function, plain(props["case"], basetemp), plain(props["line"], basetemp), None))
    if failed:
        raise SystemExit(f"Error: {len(failed)} careless-user test(s) failed ({', '.join(failed[:5])}): the page "
                         "shows only lines the tests pass; fix them, then run this again")
    return rows


def plain(text, basetemp):
    """``text`` without this run's folders: the test's temporary folder is ``TMP``, the checkout ``<repo>``."""
    text = re.sub(re.escape(str(basetemp)) + r"/[^/\s'\")]+", "TMP", text)
    text = re.sub(r"(\w)\1{49,}", lambda run: f"{run[1]}{{{len(run[0])}}}", text)     # x{300}: 300 x's
    text = re.sub(r"^\[\d{4}-\d\d-\d\d [\d:,]+\]", "[TIME]", text, flags=re.M)          # a log line's time
    return text.replace("{tmp}", "TMP").replace(str(ROOT), "<repo>")


def code(text):
    """A Markdown table cell holding ``text`` verbatim: a code span per line (a pipe escaped as tables need)."""
    def span(line):
        ticks = "`" * (max((len(r) for r in re.findall("`+", line)), default=0) + 1)
        return f"{ticks} {line.replace('|', chr(92) + '|')} {ticks}"
    return "<br>".join(span(line) for line in text.splitlines() or [""])


def render(rows):
    """The page: :data:`HEAD`, then per test function a heading, its node and a two-column table."""
    lines = [HEAD]
    for (path, function), group in groupby(rows, key=lambda row: row[:2]):
        group = list(group)
        lines += [f"## {function.removeprefix('test_').replace('_', ' ').capitalize()}", "",
                  f"(`{path}::{function}`, {len(group)} case{'s' * (len(group) != 1)})", "",
                  "| case | the line it prints |", "|---|---|"]
        lines += [f"| {code(case)} | *skipped here: {skipped}* |" if skipped else f"| {code(case)} | {code(line)} |"
                  for _, _, case, line, skipped in group]
        lines.append("")
    return "\n".join(lines)


def table_rows(text):
    """{(path, function): [row lines]} of a rendered page."""
    found, current = {}, None
    for line in text.splitlines():
        node = re.match(r"^\(`([^`]+)::(\w+)`, \d+ cases?\)$", line)
        if node:
            current = found.setdefault(node.groups(), [])
        elif current is not None and line.startswith("| ") and not line.startswith("| case |"):
            current.append(line)
    return found


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", nargs="*", metavar="NODE",
                    help="run NODE (pytest node ids; default: every case) and compare their rows with the page")
    args = ap.parse_args(argv)
    if args.check is None:
        PAGE.write_text(render(run_tests(TEST_FILES)))
        print(f"wrote {PAGE.relative_to(ROOT)}")
        return 0
    if not PAGE.exists():
        raise SystemExit(f"Error: {PAGE.relative_to(ROOT)} is missing: run python docs/careless_table.py")
    page = table_rows(PAGE.read_text())
    fresh = table_rows(render(run_tests(args.check or TEST_FILES)))
    stale = [f"{p}::{f}: {row}" for (p, f), rows in fresh.items() for row in rows if row not in page.get((p, f), [])]
    if stale:
        print(f"Error: {PAGE.relative_to(ROOT)} lacks {len(stale)} row(s) the tests print now, e.g. {stale[0]}: run "
              "python docs/careless_table.py", file=sys.stderr)
        return 1
    print(f"{sum(map(len, fresh.values()))} row(s) as on the page")
    return 0


if __name__ == "__main__":
    sys.exit(main())
