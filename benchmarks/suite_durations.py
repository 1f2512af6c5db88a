"""How long the README's two test commands take: seconds a new user waits, measured as the protocol asks.

    python benchmarks/suite_durations.py --repeats 2 --slow-repeats 1 --json results/benchmarks/suite_durations.json --readme
    python benchmarks/suite_durations.py --check        # is README.md's sentence what the record gives?

Runs ``python -m pytest -q`` (the default suite) and ``python -m pytest -q -m slow`` (the slow checks) one
after the other, ``--repeats`` and ``--slow-repeats`` times, from this checkout, with the environment it is given (set
``SSL_REPRO_DATA`` and ``SSL_REPRO_PAPERS`` as CI does, or the tests that need them skip and the figures
are not CI's).  Per run: wall seconds, CPU seconds of the run and its children (``os.times``), the load
average before and after, and pytest's closing line (passed / failed counts).  Printed per command: the
median and range of the wall seconds, CPU beside.  Figures from a machine that is doing anything else are
not durations: run it on an idle machine, one command at a time (the load columns show it).

With ``--readme`` the sentence between README.md's two ``suite durations`` markers is rendered from the
record; ``--check`` exits 1 when it differs (``tests/experiments/test_speed_records.py`` runs it).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))      # this checkout's ssl_repro, as benchmarks/record_side_by_side.py
from ssl_repro.claims.record_file import RecordError, read_json  # noqa: E402
from ssl_repro.data.keys import NOT_FROM_DATA  # noqa: E402
from ssl_repro.harness.app import unwritable_file  # noqa: E402
from ssl_repro.utils.marked_block import with_block  # noqa: E402
from ssl_repro.utils.provenance import provenance  # noqa: E402

README = ROOT / "README.md"
OUT = ROOT / "results" / "benchmarks" / "suite_durations.json"
START = "<!-- suite durations: rendered by benchmarks/suite_durations.py from results/benchmarks/suite_durations.json -->"
END = "<!-- end of suite durations -->"
#: The README's two test commands, by the name the record gives them.
COMMANDS = {"default": ["-m", "pytest", "-q", "-p", "no:cacheprovider"],
            "slow": ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "slow"]}


def one_run(args):
    """{wall, cpu, load_before, load_after, closing} of one ``python ARGS`` from the repository root (CPU: what
    the run and its children used, by :func:`cpu_of_children` before and after it)."""
    cpu_before = cpu_of_children()
    load_before = os.getloadavg()
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
    output, _ = process.communicate()
    wall = time.perf_counter() - start
    closing = next((line.strip("= ") for line in reversed(output.splitlines()) if " in " in line and "passed" in line),
                   "no closing line")
    if process.returncode != 0:
        failed = [line for line in output.splitlines() if line.startswith(("FAILED", "ERROR"))]
        raise SystemExit(f"Error: python {' '.join(args)} failed (exit {process.returncode}): {closing}\n"
                         + "\n".join(failed))
    return {"wall_seconds": round(wall, 1), "cpu_seconds": round(cpu_of_children() - cpu_before, 1),
            "load_before": list(load_before),
            "load_after": list(os.getloadavg()), "closing": closing}


def cpu_of_children():
    """User + system CPU seconds of every child this process has reaped so far (the runs are one at a time,
    so the difference between two calls is one run's)."""
    times = os.times()
    return round(times.children_user + times.children_system, 1)


def measure(repeats, slow_repeats):
    """{command name: [runs]}, the commands in turn, ``repeats`` rounds (the slow checks ``slow_repeats`` of
    them)."""
    runs = {name: [] for name in COMMANDS}
    for k in range(max(repeats, slow_repeats)):
        for name, args in COMMANDS.items():
            if k >= (slow_repeats if name == "slow" else repeats):
                continue
            run = one_run(args)
            runs[name].append(run)
            print(f"{name}: {run['wall_seconds']:.0f} s wall, {run['cpu_seconds']:.0f} CPU s, load "
                  f"{run['load_before'][0]:.2f} before, {run['load_after'][0]:.2f} after; {run['closing']}")
    return runs


def sentence(record):
    """README.md's sentence on the two commands' durations, from the record."""
    def span(name):
        walls = [run["wall_seconds"] for run in record["runs"][name]]
        low, high = min(walls), max(walls)
        return (f"{statistics.median(walls):.0f} s" + (f" ({low:.0f}-{high:.0f} s over {len(walls)} runs)"
                                                        if len(walls) > 1 else " (1 run)"))
    loads = [run[key][0] for runs in record["runs"].values() for run in runs for key in ("load_before", "load_after")]
    prov = record["provenance"]
    return (f"The two test commands took {span('default')} and {span('slow')} on a 2-core machine doing nothing "
            f"else (load average {min(loads):.2f}-{max(loads):.2f} around the runs; "
            f"{prov['date'][:10]}, code {prov['git_commit'][:7]}; "
            "`python benchmarks/suite_durations.py` measures them again).")


def readme_with(text, record):
    """``text`` (README.md) with the lines between the markers rendered from ``record``."""
    return with_block(text, START, END, [sentence(record)])


def refusal(args, argv):
    """The ``Error:`` line for a command line refused before anything runs (the suites take minutes), or None:
    a repeat count below 1 (the sentence needs a run of each command), ``--check`` with an option it does not
    read, a missing record to check, a ``--json`` path whose folder is missing or cannot be written."""
    for name in ("repeats", "slow_repeats"):
        if getattr(args, name) < 1:
            return (f"Error: --{name.replace('_', '-')} {getattr(args, name)}: give at least 1 (the record gives the "
                    "median of each command's runs)")
    if args.check:
        unread = [a.split("=")[0] for a in argv if a.startswith("--") and a.split("=")[0] != "--check"]
        if unread:
            return f"Error: {', '.join(unread)} is not read by --check, which runs nothing: drop it"
        if not OUT.is_file():
            return (f"Error: {OUT} is missing, so there is nothing to check README.md against: restore it (git "
                    "checkout -- results/benchmarks/suite_durations.json) or measure: python "
                    "benchmarks/suite_durations.py --json results/benchmarks/suite_durations.json --readme")
        return None
    return unwritable_file(args.json_out, "--json") if args.json_out else None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=2, help="runs of the default suite (default 2)")
    ap.add_argument("--slow-repeats", type=int, default=2, help="runs of the slow checks (default 2)")
    ap.add_argument("--json", dest="json_out", help="write the record (machine, date, command, commit) here")
    ap.add_argument("--readme", action="store_true", help="render README.md's sentence from the record")
    ap.add_argument("--check", action="store_true", help="only check README.md's sentence against the record")
    args = ap.parse_args(argv)
    message = refusal(args, argv if argv is not None else sys.argv[1:])
    if message:
        sys.exit(message)
    if args.check:
        try:
            fresh = readme_with(README.read_text(), read_json(OUT))
        except RecordError as error:            # a record truncated or edited: named, with the fix
            sys.exit(f"Error: {error}")
        if fresh != README.read_text():
            sys.exit("Error: README.md's test durations differ from results/benchmarks/suite_durations.json: run "
                     "python benchmarks/suite_durations.py --readme")
        print("README.md's test durations are up to date")
        return
    record = {"commands": {name: "python " + " ".join(a) for name, a in COMMANDS.items()},
              "runs": measure(args.repeats, args.slow_repeats), "provenance": provenance(),
              "data_keys": NOT_FROM_DATA}       # the test suite's durations
    out = Path(args.json_out) if args.json_out else None
    if out:
        out.write_text(json.dumps(record, indent=1) + "\n")
    if args.readme:
        README.write_text(readme_with(README.read_text(), record))
    print(sentence(record))


if __name__ == "__main__":
    main()
