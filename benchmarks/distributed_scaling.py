"""Scaling record of the distributed backend: CG iterations, whole solves, bytes, a model.

    python benchmarks/distributed_scaling.py --bench /tmp/fullccat.npz --shards /tmp/fullccat-shards \\
        --workers 1,2,4 --tsvm-workers 1,2,4 --da-workers 2 --out results/distributed/scaling.json

(``--bench`` a file of ``write_bench_file.py --text-bench``, the full-ccat-size
command in its docstring; ``--shards`` the same file written by
``benchmarks/write_shards.py --bench FILE --rows-per-shard 50000``.)

Measured, on local Ray instances of ``W`` workers reading their own shards:

* per CG iteration of Table 2 on every row (``DistributedCGSteps.run``,
  ``--iterations`` of them after one warm-up): the products' time, and the
  same round trip with no rows (the engine's own overhead: p out,
  X^T C q and five scalars back); the single-process compiled iteration
  (:class:`~ssl_repro.solvers.engine.cgls.CGSteps`) beside it;
* whole solves: TSVM S=max (``--tsvm-workers``) and DA (``--da-workers``) with
  lambda = 1e-3, lambda' = 1, r = the file's r_true (as ``bench_solvers.py``),
  J (Eqn 18) and seconds beside the single-process solve of the same data;
* bytes per iteration: 8 (n_features + 2) to each worker and 8 (n_features + 5)
  back from each (logical payload; on one machine Ray's shared-memory store
  moves no network bytes).

The record (JSON, and ``--out`` with ``.md``) also states the MODEL of one
iteration on R rows of ``nnz_per_row`` nonzeros, n features and W workers:
t(W) = a R nnz_per_row / W + b + bytes(W) / bandwidth, with a (seconds per
nonzero of one worker) and b (engine overhead) from these measurements and
the bandwidth an assumption written in the record.  The machine is shared:
the load average is recorded before each measurement.
"""
import argparse
import json
import os
import platform
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

LAM, LAM_U = 1e-3, 1.0
#: Model inputs that are assumptions, not measurements (written into the record).
MODEL_ROWS, MODEL_NNZ_PER_ROW, MODEL_FEATURES = 10**8, 100, 10**6
MODEL_BANDWIDTH = 1.25e9          # bytes/s into the driver: 10 Gbit/s Ethernet
MODEL_WORKERS = (16, 32, 64)


def bytes_per_iteration(n_features, workers):
    """(to the workers, back to the driver): p (n_features + 1) and gamma out, X^T C q and 5 scalars back."""
    return 8 * (n_features + 2) * workers, 8 * (n_features + 5) * workers


def time_cg_iterations(op, rows, iterations):
    """Seconds per CG iteration of the operator's stepper on ``rows`` (targets 1, costs 1/len, w = 0)."""
    from ssl_repro.solvers.engine.cgls import _residual
    n = max(rows.shape[0], 1)
    c = np.full(rows.shape[0], 1.0 / n)
    o, z = np.zeros(rows.shape[0]), c.copy()
    beta = np.zeros(op.n_weights)
    r = _residual(op, rows, z, LAM, beta, None)
    p = r.copy()
    cg_scalars = np.array([r @ r, r @ r, z @ z, r @ r])
    steps = op.cg_steps(rows, c, LAM, 0.0)          # tol 0: never stops early
    with np.errstate(invalid="ignore", divide="ignore"):       # no rows (the overhead): gamma is 0/0
        steps.run(beta, o, z, r, p, cg_scalars, 1)        # warm-up (compilation, sending the rows' state)
        t0 = time.perf_counter()
        steps.run(beta, o, z, r, p, cg_scalars, iterations)
        seconds = (time.perf_counter() - t0) / iterations
    steps.outputs(o, z)
    return seconds


def solve(method, problem, r):
    from ssl_repro.solvers import deterministic_annealing, tsvm
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    if method == "tsvm-max":
        _, info = tsvm(problem, LAM, LAM_U, r, switches="max")
    else:
        _, info = deterministic_annealing(problem, LAM, LAM_U, r)
    return {"method": method, "seconds": time.perf_counter() - t0, "objective": info.objective,
            "switches": info.switches, "cg_iterations": info.cg_iterations, "converged": info.converged,
            "load_before": load}


def single_process(args, record):
    from ssl_repro.bench.files import load_bench_npz
    from ssl_repro.solvers import from_mask, warm_up_kernels
    import numba
    bench = load_bench_npz(args.bench)
    problem = from_mask(bench.X, bench.y[bench.labeled], bench.labeled)
    warm_up_kernels()
    rows = np.arange(problem.op.n_rows, dtype=np.int64)
    record["data"] = {"file": args.bench, "rows": int(bench.X.shape[0]), "features": int(bench.X.shape[1]),
                      "nnz": int(bench.X.nnz), "n_labeled": int(bench.labeled.sum()), "r_true": bench.r_true}
    entry = {"workers": 0, "threads": numba.get_num_threads(), "load_before": os.getloadavg()[0],
             "cg_iteration_s": time_cg_iterations(problem.op, rows, args.iterations), "solves": []}
    for method in sorted(set(args.solves_local)):
        entry["solves"].append(solve(method, problem, bench.r_true))
        print("single process", entry["solves"][-1], flush=True)
    record["single_process"] = entry
    return bench.r_true


def distributed(args, workers, methods, r_true):
    from ssl_repro.distributed import RayBackend
    with RayBackend(workers=workers) as backend:
        problem = backend.problem_from_shards(args.shards)
        rows = np.arange(problem.op.n_rows, dtype=np.int64)
        load = os.getloadavg()[0]
        entry = {"workers": workers, "load_before": load,
                 "cg_iteration_s": time_cg_iterations(problem.op, rows, args.iterations),
                 "overhead_s": time_cg_iterations(problem.op, rows[:0], args.iterations),
                 "bytes_out": bytes_per_iteration(problem.op.n_features, workers)[0],
                 "bytes_back": bytes_per_iteration(problem.op.n_features, workers)[1], "solves": []}
        print(f"{workers} workers: {entry}", flush=True)
        for method in methods:
            entry["solves"].append(solve(method, problem, r_true))
            print(f"{workers} workers", entry["solves"][-1], flush=True)
    return entry


def model(record):
    """t(W) = a R nnz_per_row / W + b + bytes(W) / bandwidth for the MODEL_* problem."""
    one = next(e for e in record["distributed"] if e["workers"] == 1)
    a = (one["cg_iteration_s"] - one["overhead_s"]) / record["data"]["nnz"]
    b = max(e["overhead_s"] for e in record["distributed"])
    rows = []
    for w in MODEL_WORKERS:
        out, back = bytes_per_iteration(MODEL_FEATURES, w)
        compute = a * MODEL_ROWS * MODEL_NNZ_PER_ROW / w
        transfer = (out + back) / MODEL_BANDWIDTH
        rows.append({"workers": w, "compute_s": compute, "overhead_s": b, "transfer_s": transfer,
                     "iteration_s": compute + b + transfer, "bytes": out + back})
    return {"assumed": {"rows": MODEL_ROWS, "nnz_per_row": MODEL_NNZ_PER_ROW, "features": MODEL_FEATURES,
                        "driver_bandwidth_bytes_per_s": MODEL_BANDWIDTH,
                        "reduction": "every worker's n-vector into the driver (no tree)"},
            "measured": {"seconds_per_nonzero_one_worker": a, "overhead_s": b}, "per_iteration": rows}


def markdown(record):
    lines = [f"# Distributed backend scaling ({record['date']}, {record['machine']['node']}, "
             f"{record['machine']['cpus']} cores)", "",
             f"Data: {record['data']['rows']} rows x {record['data']['features']} features, "
             f"{record['data']['nnz']} nonzeros ({record['data']['file']}).  Command: `{record['command']}`.",
             f"The machine is shared and has {record['machine']['cpus']} cores: 4 workers oversubscribe it; "
             "load averages are recorded beside each figure.", "",
             "| workers | CG iteration (ms) | engine overhead (ms) | bytes out + back per iteration | load |",
             "|---|---|---|---|---|"]
    sp = record["single_process"]
    lines.append(f"| single process ({sp['threads']} threads) | {1e3 * sp['cg_iteration_s']:.1f} | - | 0 | "
                 f"{sp['load_before']:.1f} |")
    for e in record["distributed"]:
        lines.append(f"| {e['workers']} | {1e3 * e['cg_iteration_s']:.1f} | {1e3 * e['overhead_s']:.1f} | "
                     f"{e['bytes_out'] + e['bytes_back']} | {e['load_before']:.1f} |")
    lines += ["", "| solve | workers | J (Eqn 18) | relative to single process | seconds | switches | "
              "CG iterations | load |", "|---|---|---|---|---|---|---|---|"]
    base = {s["method"]: s for s in sp["solves"]}
    for e in [sp] + record["distributed"]:
        for s in e["solves"]:
            ref = base.get(s["method"])
            rel = f"{abs(s['objective'] - ref['objective']) / ref['objective']:.1e}" if ref else "-"
            lines.append(f"| {s['method']} | {e['workers'] or 'single process'} | {s['objective']:.12g} | {rel} | "
                         f"{s['seconds']:.1f} | {s['switches']} | {s['cg_iterations']} | {s['load_before']:.1f} |")
    m = record["model"]
    lines += ["", f"MODEL (not a measurement) of one CG iteration on {m['assumed']['rows']:.0e} rows x "
              f"{m['assumed']['nnz_per_row']} nonzeros, {m['assumed']['features']:.0e} features: t(W) = a nnz / W + "
              f"b + bytes(W) / bandwidth with a = {m['measured']['seconds_per_nonzero_one_worker']:.3g} s per "
              f"nonzero (one worker, measured), b = {1e3 * m['measured']['overhead_s']:.1f} ms (largest measured "
              f"overhead), bandwidth {m['assumed']['driver_bandwidth_bytes_per_s']:.3g} B/s into the driver "
              "(assumed), every worker's vector reduced at the driver.", "",
              "| workers | compute (s) | overhead (s) | transfer (s) | iteration (s) | bytes |", "|---|---|---|---|---|---|"]
    for row in m["per_iteration"]:
        lines.append(f"| {row['workers']} | {row['compute_s']:.3f} | {row['overhead_s']:.3f} | "
                     f"{row['transfer_s']:.3f} | {row['iteration_s']:.3f} | {row['bytes']:.3g} |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--shards", required=True)
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--tsvm-workers", default="1,2,4")
    ap.add_argument("--da-workers", default="2")
    ap.add_argument("--iterations", type=int, default=20)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    from ssl_repro.data.keys import NOT_FROM_DATA
    ints = lambda text: [int(s) for s in text.split(",") if s]          # noqa: E731
    tsvm_w, da_w = ints(args.tsvm_workers), ints(args.da_workers)
    args.solves_local = ["tsvm-max"] * bool(tsvm_w) + ["da"] * bool(da_w)
    record = {"machine": {"node": platform.node(), "cpus": os.cpu_count(), "python": platform.python_version()},
              "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "command": " ".join(["python", "benchmarks/distributed_scaling.py"] + list(sys.argv[1:] if argv is None
                                                                                          else argv)),
              "lam": LAM, "lam_u": LAM_U, "distributed": [], "data_keys": NOT_FROM_DATA}     # a machine benchmark
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    r_true = single_process(args, record)
    for w in ints(args.workers):
        methods = ["tsvm-max"] * (w in tsvm_w) + ["da"] * (w in da_w)
        record["distributed"].append(distributed(args, w, methods, r_true))
        out.write_text(json.dumps(record, indent=1))          # a crash keeps what is measured
    record["model"] = model(record)
    record["load_after"] = os.getloadavg()
    out.write_text(json.dumps(record, indent=1))
    out.with_suffix(".md").write_text(markdown(record))
    print(markdown(record))


if __name__ == "__main__":
    main()
