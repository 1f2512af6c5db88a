"""Per-iteration overhead of candidate cluster engines for the distributed CG pattern.

One CG iteration of the distributed backend is a broadcast of
the direction p (n floats) to every worker and a sum of one n-vector per
worker back on the driver (X^T C q of Table 2, plus a few scalars).  This
script times exactly that round trip with a trivial worker body (the
worker returns its input scaled), so the figure is the engine's own cost:

    python benchmarks/engine_overhead.py --engines ray,dask --workers 2 \\
        --sizes 50000,200000,500000 --out results/distributed/engine_overhead.json

Workers are stateful (a Ray actor, a Dask actor) as the backend's
partitions are.  The record holds the median and the 10th/90th
percentiles over ``--repeats`` round trips, machine, date, load average
and command.  The machine is shared: the load average says how busy it was.
"""
import argparse
import json
import os
import platform
import statistics
import sys
import time
from datetime import datetime, timezone

import numpy as np


class Echo:
    """A stateful worker: holds a buffer, returns the received vector scaled into it."""

    def __init__(self, n):
        self.out = np.empty(n)

    def step(self, p):
        np.multiply(p, 1.0, out=self.out)
        return self.out


def _ray_round_trips(n_workers, n, repeats):
    import ray

    ray.init(num_cpus=n_workers, include_dashboard=False, log_to_driver=False)
    try:
        actors = [ray.remote(num_cpus=1)(Echo).remote(n) for _ in range(n_workers)]
        ray.get([a.step.remote(np.zeros(n)) for a in actors])
        times = []
        for _ in range(repeats):
            p = np.random.rand(n)
            t0 = time.perf_counter()
            ref = ray.put(p)
            total = sum(ray.get([a.step.remote(ref) for a in actors]))
            times.append(time.perf_counter() - t0)
            assert np.allclose(total, n_workers * p)
        return times
    finally:
        ray.shutdown()


def _dask_round_trips(n_workers, n, repeats):
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None) as cl, \
            Client(cl) as client:
        actors = [client.submit(Echo, n, actor=True, workers=[w], pure=False).result()
                  for w in list(client.scheduler_info()["workers"])[:n_workers]]
        [f.result() for f in [a.step(np.zeros(n)) for a in actors]]
        times = []
        for _ in range(repeats):
            p = np.random.rand(n)
            t0 = time.perf_counter()
            total = sum(f.result() for f in [a.step(p) for a in actors])
            times.append(time.perf_counter() - t0)
            assert np.allclose(total, n_workers * p)
        return times


ENGINES = {"ray": _ray_round_trips, "dask": _dask_round_trips}


def _versions(engine):
    if engine == "ray":
        import ray
        return {"ray": ray.__version__}
    import dask
    import distributed
    return {"dask": dask.__version__, "distributed": distributed.__version__}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engines", default="ray,dask")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--sizes", default="50000,200000,500000")
    ap.add_argument("--repeats", type=int, default=50)
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    from ssl_repro.data.keys import NOT_FROM_DATA
    rows = []
    for engine in args.engines.split(","):
        for n in (int(s) for s in args.sizes.split(",")):
            load = os.getloadavg()[0]
            times = ENGINES[engine](args.workers, n, args.repeats)
            q = statistics.quantiles(times, n=10)
            rows.append({"engine": engine, "versions": _versions(engine), "workers": args.workers, "n": n,
                         "bytes_per_round_trip": 2 * 8 * n * args.workers,
                         "median_ms": 1e3 * statistics.median(times), "p10_ms": 1e3 * q[0],
                         "p90_ms": 1e3 * q[-1], "repeats": args.repeats, "load_before": load})
            print(f"{engine:5s} n={n:7d}: median {rows[-1]['median_ms']:.2f} ms "
                  f"(p10 {rows[-1]['p10_ms']:.2f}, p90 {rows[-1]['p90_ms']:.2f}), load {load:.2f}")
    record = {"machine": {"node": platform.node(), "cpus": os.cpu_count(), "python": platform.python_version()},
              "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "command": " ".join(["python", "benchmarks/engine_overhead.py"] + list(sys.argv[1:] if argv is None
                                                                                      else argv)),
              "load_after": os.getloadavg(), "rows": rows, "data_keys": NOT_FROM_DATA}     # a machine benchmark
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(record, f, indent=1)


if __name__ == "__main__":
    main()
