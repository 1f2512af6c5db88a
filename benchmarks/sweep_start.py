"""Seconds from the command to a sweep's first job: what a user waits before anything runs.

    SSL_REPRO_DATA=DIR python benchmarks/sweep_start.py                 # pcmac's 1,210-job learning curve
    SSL_REPRO_DATA=DIR python benchmarks/sweep_start.py --dataset 20ng-ccat-like --repeats 5 --json OUT

Each repeat starts ``python run.py +experiment=EXPERIMENT dataset=DATASET`` into an empty temporary
results folder (every job to run) with the default launcher, reads its log as it comes, and notes
the seconds to the sweep's plan line ("N jobs, ... to run": every job composed and the data loaded
once) and to the first job's "running" line, and the CPU seconds the sweep's processes (the command and
the launcher's workers: Linux's /proc) had used by then, which a busy machine inflates far less than the
wall seconds; then it stops the sweep and removes the folder.  Printed: each repeat, the median and range
of each, and the load average before and after (figures from a busy machine are not timings: run it on
an idle one).  The target: first job within 10 s of the command on an idle 2-core machine.
"""
import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def session_cpu(session):
    """CPU seconds (user and system) of the live processes of ``session`` and of the children they reaped,
    from Linux's /proc; None elsewhere."""
    if not Path("/proc/self/stat").exists():
        return None
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()     # after the command name: state, ppid, ...
        except OSError:          # ended meanwhile
            continue
        if int(fields[3]) == session:
            ticks += sum(int(value) for value in fields[11:15])      # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def one_start(experiment, dataset, timeout):
    """(seconds to the plan line, seconds to the first job's start, CPU seconds of the sweep's processes by
    then) of one sweep started afresh."""
    with tempfile.TemporaryDirectory() as results:
        command = [sys.executable, "run.py", f"+experiment={experiment}", f"dataset={dataset}",
                   f"results_dir={results}"]
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   start_new_session=True)
        planned = first = cpu = None
        try:
            for line in process.stdout:
                now = time.perf_counter() - start
                if planned is None and " to run" in line and "jobs," in line:
                    planned = now
                if ": running" in line:
                    first, cpu = now, session_cpu(process.pid)      # its own session (start_new_session)
                    break
                if now > timeout:
                    break
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()
        if first is None:
            raise SystemExit(f"Error: no job started within {timeout} s: {' '.join(command)} (is the data there? "
                             "set SSL_REPRO_DATA)")
        return planned, first, cpu


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--experiment", default="learning_curve")
    ap.add_argument("--dataset", default="pcmac")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for the first job")
    ap.add_argument("--json", dest="json_out", help="also write the figures, with the machine, date, command and "
                                                    "commit, to this file (the record: "
                                                    "results/benchmarks/sweep_start.json)")
    args = ap.parse_args(argv)
    load_before = os.getloadavg()
    runs = []
    for repeat in range(args.repeats):
        planned, first, cpu = one_start(args.experiment, args.dataset, args.timeout)
        runs.append({"plan_seconds": planned, "first_job_seconds": first, "cpu_seconds": cpu})
        print(f"repeat {repeat}: plan line after {planned:.1f} s, first job after {first:.1f} s"
              + (f", {cpu:.1f} CPU s by then" if cpu is not None else ""))
    load_after = os.getloadavg()
    figures = {name: [run[key] for run in runs] for name, key in
               (("plan", "plan_seconds"), ("first_job", "first_job_seconds"), ("cpu", "cpu_seconds"))}
    summary = {"experiment": args.experiment, "dataset": args.dataset, "runs": runs,
               "load_before": load_before, "load_after": load_after, "cores": os.cpu_count()}
    for name, values in figures.items():
        if None not in values:
            summary[f"{name}_median"], summary[f"{name}_range"] = statistics.median(values), [min(values), max(values)]
    said = [f"{words} {summary[f'{name}_median']:.1f} s (range {summary[f'{name}_range'][0]:.1f}-"
            f"{summary[f'{name}_range'][1]:.1f})" for name, words in
            (("plan", "plan line after"), ("first_job", "first job after"), ("cpu", "CPU by then"))
            if f"{name}_median" in summary]
    print(f"{args.experiment} {args.dataset}, medians of {len(runs)}: {'; '.join(said)}; load average "
          f"{load_before[0]:.2f} before, {load_after[0]:.2f} after, {summary['cores']} cores")
    if args.json_out:
        from ssl_repro.data.keys import NOT_FROM_DATA
        from ssl_repro.utils.provenance import provenance
        summary["provenance"] = provenance()      # machine, date, command, commit
        summary["data_keys"] = NOT_FROM_DATA      # a machine benchmark: the harness's start-up
        Path(args.json_out).write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
