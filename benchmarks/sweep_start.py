"""Seconds from the command to a sweep's first job: what a user waits before anything runs.

    SSL_REPRO_DATA=DIR python benchmarks/sweep_start.py                 # pcmac's 770-job learning curve
    SSL_REPRO_DATA=DIR python benchmarks/sweep_start.py --dataset 20ng-ccat-like --repeats 5 --json OUT

Each repeat starts ``python run.py +experiment=EXPERIMENT dataset=DATASET`` into an empty temporary
results folder (every job to run) with the default launcher, reads its log as it comes, and notes
the seconds to the sweep's plan line ("N jobs, ... to run": every job composed and the data loaded
once) and to the first job's "running" line; then it stops the sweep and removes the folder.  Printed:
each repeat, the median and range of both, and the load average before and after (figures from a
busy machine are not timings: run it on an idle one).  The target of issue 41: first job within 10 s
of the command on an idle 2-core machine.
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


def one_start(experiment, dataset, timeout):
    """(seconds to the plan line, seconds to the first job's start) of one sweep started afresh."""
    with tempfile.TemporaryDirectory() as results:
        command = [sys.executable, "run.py", f"+experiment={experiment}", f"dataset={dataset}",
                   f"results_dir={results}"]
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                   start_new_session=True)
        planned = first = None
        try:
            for line in process.stdout:
                now = time.perf_counter() - start
                if planned is None and " to run" in line and "jobs," in line:
                    planned = now
                if ": running" in line:
                    first = now
                    break
                if now > timeout:
                    break
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()
        if first is None:
            raise SystemExit(f"Error: no job started within {timeout} s: {' '.join(command)} (is the data there? "
                             "set SSL_REPRO_DATA)")
        return planned, first


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--experiment", default="learning_curve")
    ap.add_argument("--dataset", default="pcmac")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds to wait for the first job")
    ap.add_argument("--json", dest="json_out", help="also write the figures to this file")
    args = ap.parse_args(argv)
    load_before = os.getloadavg()
    runs = []
    for repeat in range(args.repeats):
        planned, first = one_start(args.experiment, args.dataset, args.timeout)
        runs.append({"plan_seconds": planned, "first_job_seconds": first})
        print(f"repeat {repeat}: plan line after {planned:.1f} s, first job after {first:.1f} s")
    load_after = os.getloadavg()
    firsts = [run["first_job_seconds"] for run in runs]
    summary = {"experiment": args.experiment, "dataset": args.dataset, "runs": runs,
               "first_job_median": statistics.median(firsts), "first_job_range": [min(firsts), max(firsts)],
               "load_before": load_before, "load_after": load_after, "cores": os.cpu_count()}
    print(f"{args.experiment} {args.dataset}: first job after {summary['first_job_median']:.1f} s "
          f"(median of {len(runs)}; range {min(firsts):.1f}-{max(firsts):.1f} s); load average "
          f"{load_before[0]:.2f} before, {load_after[0]:.2f} after, {summary['cores']} cores")
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
