"""Benchmark the solvers on a file in the format of ``text20k.npz`` (``write_bench_file.py --text-bench``).

    python benchmarks/bench_solvers.py --data text20k.npz \
        --methods svm,rls,tsvm-1,tsvm-max,da [--repeat 3] [--json OUT]

Methods: the linear names of :data:`ssl_repro.harness.methods.METHODS` (``svm``,
``rls``, ``da``, ``nabla_tsvm``, ``cccp_tsvm``, ``tsvm`` with S = 1) and the
aliases the side-by-side timing against the C++ reference passes: ``tsvm-S`` (S a positive
integer or ``max``), ``nabla``, ``cccp``; each trains the harness's
estimator with its defaults (the table's
:func:`~ssl_repro.harness.methods.estimator_for_benchmark`).  Each method runs in a fresh Python process (so its peak memory is
its own) that loads the data, warms the compiled kernels up on a tiny
problem, then trains ``--repeat`` times.  Printed per method: median wall
seconds of training, peak resident memory of that process (data included),
objective J (Eqn 18; for svm and rls with lambda' = 0 on the labeled rows),
transductive error on the unlabeled rows, label switches, MFN calls and CG
iterations.  ``--json OUT`` (``-`` for stdout) writes one JSON object keyed
by method name (in a file also ``data_keys``: the key of the file's X and y,
:func:`ssl_repro.data.keys.data_keys`, under ``--data-name``, by default the
file's stem: ``text20k.npz`` from ``write_bench_file.py --text-bench`` has
the key of ``experiments/data_keys.py``'s text20k) with the keys seconds, peak_mb, objective,
transductive_error, switches, mfn_calls, cg_iterations (plus all_seconds,
load_seconds, libraries_mb = the resident memory before the data are loaded (interpreter,
libraries, compiled kernels: what the process holds whatever the data),
before_training_mb = the resident memory just before training (the same plus the data),
train_peak_mb = the peak resident memory while training
(Linux: the high-water mark is reset after loading), matrix_mb = the CSR
arrays' size, threads = the numba thread counts the last training used,
in the order the solver chose them from the idle cores).  With ``SSL_REPRO_BENCH_LOG=FILE`` in the environment every
method's figures are also appended to FILE as one JSON line (how
``benchmarks/record_side_by_side.py`` gets them from ``side_by_side.py``'s
runs).  Defaults: lambda = 0.001, lambda' = 1, r = the file's r_true.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import scipy.sparse as sp

KEYS = ("seconds", "peak_mb", "objective", "transductive_error", "switches", "mfn_calls",
        "cg_iterations")


def run_method(method, X, y_fit, lam, lam_u, r):
    """Fit the estimator of benchmark ``method`` (:func:`ssl_repro.harness.methods.estimator_for_benchmark`)
    on ``X`` (no copy of CSR float64) with ``y_fit`` from ``mask_labels``; returns the fitted estimator."""
    from ssl_repro.harness.methods import estimator_for_benchmark
    return estimator_for_benchmark(method, lam, lam_u, r).fit(X, y_fit)


def measure_in_process(args, method):
    """Load, warm up, train ``args.repeat`` times; the figures of one method."""
    from ssl_repro.bench.files import load_bench_npz
    from ssl_repro.estimators import mask_labels
    from ssl_repro.solvers import train_svm, warm_up_kernels
    from ssl_repro.solvers.engine._threads import last_solve_threads
    train_svm(sp.csr_matrix(np.eye(4)), np.array([1.0, -1.0, 1.0, -1.0]))  # kernel warm-up
    warm_up_kernels()  # both builds of the CG kernels, whatever the load
    libraries_mb = _rss_mb("VmRSS")
    t0 = time.perf_counter()
    bench = load_bench_npz(args.data)
    load_seconds = time.perf_counter() - t0
    X, y, labeled = bench.X, bench.y, bench.labeled
    r = bench.r_true if args.r is None else args.r
    y_fit = mask_labels(y, labeled)
    times = []
    before_training_mb = _rss_mb("VmRSS")
    _reset_peak_rss()
    for _ in range(args.repeat):
        start = time.perf_counter()
        estimator = run_method(method, X, y_fit, args.lam, args.lam_u, r)
        times.append(time.perf_counter() - start)
    train_peak_mb = _rss_mb("VmHWM")
    threads = last_solve_threads()
    info = estimator.diagnostics_
    o_u = estimator.decision_function(X)[~labeled]     # no copy of the rows
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    return {
        "seconds": statistics.median(times), "all_seconds": times, "load_seconds": load_seconds,
        "peak_mb": peak_mb, "objective": info.objective,
        "transductive_error": float(np.mean(np.where(o_u > 0, 1.0, -1.0) != y[~labeled])),
        "switches": info.switches, "mfn_calls": info.mfn_calls, "cg_iterations": info.cg_iterations,
        "matrix_mb": bench.matrix_mb(), "train_peak_mb": train_peak_mb, "threads": threads,
        "before_training_mb": before_training_mb, "libraries_mb": libraries_mb,
    }


def _reset_peak_rss():
    """Reset the kernel's high-water mark of resident memory (Linux >= 4.0; else a no-op)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def _rss_mb(key):
    """``key`` of /proc/self/status in MiB: VmRSS (resident now) or VmHWM (the peak since the last
    reset); NaN where /proc is missing."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return float("nan")


def measure_in_subprocess(args, method):
    cmd = [sys.executable, __file__, "--data", args.data, "--methods", method, "--json", "-",
           "--lambda", repr(args.lam), "--lambda-u", repr(args.lam_u), "--repeat", str(args.repeat),
           "--in-process"]
    if args.r is not None:
        cmd += ["--r", repr(args.r)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)[method]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="npz file in the format of text20k.npz")
    ap.add_argument("--methods", default="svm,rls,tsvm-1,tsvm-max,da")
    ap.add_argument("--json", dest="json_out", help="write the figures as JSON here ('-' = stdout)")
    ap.add_argument("--data-name", help="the set the file's rows are, for the --json file's data_keys (a name of "
                                        "experiments/data_keys.py, e.g. text20k; default: the file's stem)")
    ap.add_argument("--lambda", dest="lam", type=float, default=1e-3)
    ap.add_argument("--lambda-u", dest="lam_u", type=float, default=1.0)
    ap.add_argument("--r", type=float, default=None, help="positive fraction (default: the file's r_true)")
    ap.add_argument("--repeat", type=int, default=1, help="training runs per method; seconds is their median")
    ap.add_argument("--in-process", action="store_true",
                    help="run every method in this process (peak memory is then cumulative)")
    args = ap.parse_args(argv)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    measure = measure_in_process if args.in_process else measure_in_subprocess
    results = {}
    for method in methods:
        results[method] = measure(args, method)
        if os.environ.get("SSL_REPRO_BENCH_LOG") and args.in_process:
            with open(os.environ["SSL_REPRO_BENCH_LOG"], "a") as f:
                f.write(json.dumps(dict(results[method], method=method, data=os.path.abspath(args.data))) + "\n")
        if args.json_out != "-":
            res = results[method]
            print(f"{method:>9}: {res['seconds']:8.3f} s  peak {res['peak_mb']:8.1f} MB  "
                  f"J {res['objective']:.6f}  err {res['transductive_error']:.4f}  "
                  f"switches {res['switches']:6d}  mfn {res['mfn_calls']:5d}  cg {res['cg_iterations']:6d}",
                  flush=True)
    if args.json_out == "-":
        json.dump(results, sys.stdout, indent=1)
        print()
    elif args.json_out:
        from ssl_repro.bench.files import load_bench_npz
        from ssl_repro.data.keys import data_keys
        bench = load_bench_npz(args.data)
        keys = data_keys({args.data_name or Path(args.data).stem: (bench.X, bench.y)})
        with open(args.json_out, "w") as f:
            json.dump({**results, "data_keys": keys}, f, indent=1)


if __name__ == "__main__":
    main()
