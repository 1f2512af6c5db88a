"""Where the training time goes: cost of one CG iteration against the memory system, and phases of a solve.

    python benchmarks/profile_cg.py --data text20k.npz --label text20k \\
        [--methods tsvm-max,da] [--threads 1,2]

Part 1, one CG iteration (Table 2) of the compiled loop on every row of the
file (all rows active, c = 1/m, 50 iterations, best of 5 after a warm-up),
for each thread count and each way of reading X (the solvers' layout, X's
own column ids, and for float32 values also the 16-bit frequency-ordered
ids the solvers make for float64 values only, with the bytes that copy
would add: what float32's memory target trades away), BLAS held to one
thread as in a solve (OpenBLAS's threads, woken by the dot products that
set the iteration up, would otherwise busy-wait beside numba's): seconds
per iteration, nanoseconds per nonzero, and
the bytes it moves at least (each nonzero's value and column index once;
per row its pointer, cost and the q, o, z updates; per feature p, beta, r
and the partial-sum buffers), hence the bandwidth it reaches.  Beside it,
the machine's streaming bandwidth (numpy sum over a 400 MB array, best of
5) and a serial pass that only reads the values and indices: if an
iteration is far slower than its bytes at that bandwidth, it is bound by
the latency of its gathers and scatters, not by memory traffic.

Part 2, a profile of each method's whole solve (cProfile with the CPU-time
clock, one thread so that CPU time is wall time): seconds in the CG loop,
in the exact residuals (start of each CGLS call and its check before
stopping), and everywhere else, with the counts of calls.

Writes ``results/benchmarks/cg_profile_<label>.json`` and prints a table.
"""
import argparse
import cProfile
import datetime
import json
import pstats
import sys
import time
from pathlib import Path

import numba
import numpy as np
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "results" / "benchmarks"


@numba.njit
def _read_pass(indices, data):
    s = 0.0
    t = 0
    for jj in range(data.shape[0]):
        s += data[jj]
        t += indices[jj]
    return s + t


def stream_gbs(n_bytes=400 * 2**20):
    """Streaming read bandwidth (GB/s) of numpy's sum over a large array, best of 5."""
    a = np.ones(n_bytes // 8)
    a.sum()
    best = min(_timed(a.sum) for _ in range(5))
    return n_bytes / best / 1e9


def _timed(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def layouts_to_time(X):
    """The ways of reading X that part 1 times: the solvers' own, X's ids, and for values other than
    float64 the compact ids as well (for float64 they are the solvers' own when the features fit)."""
    from ssl_repro.solvers.engine.cg_layout import COMPACT_FEATURES

    extra = X.dtype != np.float64 and X.shape[1] <= COMPACT_FEATURES
    return ("cg_layout", "own ids") + (("compact ids",) if extra else ())


def cg_iteration(bench, threads, layout, n_iter=50):
    """Seconds per CG iteration with all rows active, and the bytes one moves at least, with X read through
    ``layout`` ("cg_layout": the solvers' :func:`~ssl_repro.solvers.engine.cg_layout.make_layout`; "own ids":
    :func:`~ssl_repro.solvers.engine.cg_layout.plain_layout`; "compact ids":
    :func:`~ssl_repro.solvers.engine.cg_layout.compact_layout`), and the MiB that layout adds to X's arrays."""
    from ssl_repro.solvers import BiasedRows
    from ssl_repro.solvers.engine._row_products import N_CHUNKS
    from ssl_repro.solvers.engine.cg_layout import compact_layout, make_layout, plain_layout
    from ssl_repro.solvers.engine.cgls import CGSteps

    make = {"cg_layout": make_layout, "own ids": plain_layout, "compact ids": compact_layout}[layout]
    op = BiasedRows(bench.X, layout=make)
    X = op.X
    m, n = X.shape
    rows = np.arange(m, dtype=np.int64)
    rng = np.random.default_rng(0)
    numba.set_num_threads(threads)          # CGSteps runs the serial build with one thread
    steps = CGSteps(op, rows, np.full(m, 1.0 / m), 1e-3, 0.0)

    def run():
        beta, o, z = np.zeros(n + 1), np.zeros(m), rng.normal(size=m)
        r = rng.normal(size=n + 1)
        p = r.copy()
        steps.run(beta, o, z, r, p, np.array([r @ r, r @ r, z @ z, r @ r]), n_iter)

    with threadpool_limits(limits=1, user_api="blas"):     # as in a solve (the r @ r above wakes OpenBLAS)
        run()
        best = min(_timed(run) for _ in range(5)) / n_iter
    nnz = X.nnz
    ids = op.cg_layout().indices
    moved = (nnz * (X.data.itemsize + ids.itemsize) + m * (X.indptr.itemsize + 8 + 8 * 5)
             + (n + 1) * 8 * 6 + N_CHUNKS * n * 8 * 2)
    read = min(_timed(lambda: _read_pass(op.indices, X.data)) for _ in range(5))
    added = 0 if ids is op.indices else ids.nbytes
    return {"threads": threads, "layout": layout, "seconds_per_iteration": best, "ns_per_nonzero": best / nnz * 1e9,
            "bytes_per_iteration": moved, "gb_per_s": moved / best / 1e9, "layout_adds_mib": added / 2**20,
            "serial_read_of_values_and_indices_s": read, "nnz": int(nnz), "rows": m, "features": n}


def solve_profile(bench, method):
    """cProfile (CPU clock) of one solve with one thread: CG loop, exact residuals, the rest."""
    from ssl_repro.solvers import deterministic_annealing, from_mask, tsvm

    numba.set_num_threads(1)
    problem = from_mask(bench.X, bench.y[bench.labeled], bench.labeled)
    prof = cProfile.Profile(timer=time.process_time)
    start = time.perf_counter()
    prof.enable()
    if method == "da":
        _, info = deterministic_annealing(problem, 1e-3, 1.0, bench.r_true)
    else:
        s = method.split("-", 1)[1]
        _, info = tsvm(problem, 1e-3, 1.0, bench.r_true, switches="max" if s == "max" else int(s))
    prof.disable()
    wall = time.perf_counter() - start
    stats = pstats.Stats(prof).stats
    total = sum(v[2] for v in stats.values())

    def own(name, file_part):
        hits = [(v[0], v[2]) for (f, _, fn), v in stats.items() if fn == name and file_part in f]
        return sum(h[0] for h in hits), sum(h[1] for h in hits)

    cg_calls, cg_s = own("_cg_steps", "_cg_pass")
    res_calls, res_s = own("rows_rmatvec", "_row_products")
    mv_calls, mv_s = own("rows_matvec", "_row_products")
    top = sorted(((v[2], fn, Path(f).name) for (f, _, fn), v in stats.items()), reverse=True)[:12]
    return {"method": method, "wall_s": wall, "cpu_s": total, "cg_iterations": info.cg_iterations,
            "cg_loop_s": cg_s, "cg_loop_calls": cg_calls, "transposed_products_s": res_s,
            "transposed_products_calls": res_calls, "products_s": mv_s, "products_calls": mv_calls,
            "rest_s": total - cg_s - res_s - mv_s,
            "top_own_time": [{"s": round(s, 4), "function": f"{fl}:{fn}"} for s, fn, fl in top]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--methods", default="tsvm-max,da", help="methods to profile ('' for none)")
    ap.add_argument("--threads", default=f"1,{numba.config.NUMBA_NUM_THREADS}")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from ssl_repro.bench.files import load_bench_npz
    from ssl_repro.utils.provenance import git_commit
    from ssl_repro.solvers import warm_up_kernels
    from record_side_by_side import data_values
    from ssl_repro.data.keys import NOT_FROM_DATA

    bench = load_bench_npz(args.data)
    warm_up_kernels()
    with open("/proc/loadavg") as f:
        load = [float(x) for x in f.read().split()[:3]]
    record = {"label": args.label, "data": args.data,
              "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
              "command": "python benchmarks/profile_cg.py " + " ".join(sys.argv[1:] if argv is None else argv),
              "code": git_commit(), "loadavg_before": load, "values": bench.X.dtype.name, "stream_read_gb_per_s": stream_gbs(),
              "float64_csr_mib": data_values(args.data)[1],
              "cg_iteration": [cg_iteration(bench, int(t), layout) for t in sorted({int(t) for t in args.threads.split(",")})
                               for layout in layouts_to_time(bench.X)],
              "solves": [solve_profile(bench, m) for m in args.methods.split(",") if m],
              "data_keys": NOT_FROM_DATA}       # a machine benchmark on a benchmark file
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"cg_profile_{args.label}.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"streaming read bandwidth: {record['stream_read_gb_per_s']:.1f} GB/s")
    for it in record["cg_iteration"]:
        print(f"{it['threads']} thread(s), {it['layout']}: {it['seconds_per_iteration'] * 1e3:.3f} ms per CG iteration, "
              f"{it['ns_per_nonzero']:.2f} ns per nonzero, {it['bytes_per_iteration'] / 1e6:.1f} MB moved "
              f"-> {it['gb_per_s']:.1f} GB/s; serial read of values+indices {it['serial_read_of_values_and_indices_s'] * 1e3:.3f} ms; "
              f"layout adds {it['layout_adds_mib']:.1f} MiB ({it['layout_adds_mib'] / record['float64_csr_mib']:.3f} "
              f"of the float64 CSR)")
    for s in record["solves"]:
        print(f"{s['method']}: {s['cpu_s']:.2f} s CPU (1 thread): CG loop {s['cg_loop_s']:.2f} s "
              f"({s['cg_iterations']} its, {s['cg_loop_s'] / max(s['cg_iterations'], 1) * 1e3:.3f} ms each), "
              f"exact residuals {s['transposed_products_s']:.2f} s ({s['transposed_products_calls']}), "
              f"products {s['products_s']:.2f} s ({s['products_calls']}), rest {s['rest_s']:.2f} s")


if __name__ == "__main__":
    main()
