"""The Ray backend: one actor per row partition, problems built from a matrix or from shards.

Why Ray (docs/user_guide/06_distributed.md): the sweeps already go to clusters
through Hydra's Ray launcher, so one engine serves both; a stateful actor
is exactly a partition with its CG state; its round trip measured like
Dask's (``results/distributed/engine_overhead.json``); and Dask's
``distributed`` declares cloudpickle >= 3 while ``hydra-ray-launcher``
declares cloudpickle < 3, so the two install together only with a conflict.

A researcher starts a cluster with ``ray start --head`` on one node and
``ray start --address=HEAD:6379`` on the others, then passes
``address="auto"`` (or ``backend.address=auto`` to ``run.py``); with
``address=None`` a local Ray instance with ``workers`` CPUs is started and
stopped with the backend.
"""
import os
import socket
import threading

import numpy as np

from ssl_repro.solvers.engine.problem import Problem, from_mask
from ssl_repro.solvers.engine.data_checks import check_labels_pm1
from ssl_repro.distributed.distributed_rows import DistributedRows
from ssl_repro.distributed.partition import PartitionHost
from ssl_repro.distributed.shards import MatrixRows, ShardRows, balanced_cuts, group_shards, read_labels, read_manifest


class RayBackend:
    """Row partitions of X on ``workers`` Ray actors of ``cpus_per_worker`` CPUs each.

    Parameters
    ----------
    workers : number of partitions (actors), >= 1
    address : a running Ray cluster (``"auto"``, ``"ray://host:10001"``, ...) or
        ``None`` to start a local instance with ``workers * cpus_per_worker`` CPUs
    threads_per_worker : numba threads of each actor
    cpus_per_worker : CPUs each actor reserves in Ray's scheduler
    start_timeout : seconds to wait for the cluster at ``address`` to answer and
        for the actors to start (an address where no Ray cluster answers, or a
        cluster without the CPUs for them, would otherwise wait forever)

    Use as a context manager (``with RayBackend(2) as backend:``): Ray is
    started if it is not running and the actors
    (:class:`.partition.PartitionHost`) are started on entry; on exit they
    are killed and a local instance this backend started is shut down.
    The backend holds one problem at a time: building a problem loads its
    rows into the actors and makes the previous problem's operator refuse
    further calls (:class:`.partition.StaleProblem`).  A local instance's
    workers run at normal priority (Ray's default is nice 15, which lets
    any busy process starve a partition, and each CG iteration waits for
    the slowest one); on a cluster of your own, start the nodes with
    ``RAY_worker_niceness=0`` in the environment for the same.
    """

    def __init__(self, workers=2, address=None, threads_per_worker=1, cpus_per_worker=1, start_timeout=120.0):
        if not isinstance(workers, (int, np.integer)) or isinstance(workers, bool) or workers < 1:
            raise ValueError(f"workers must be a positive integer, got {workers!r}")
        self.workers = int(workers)
        self.address = address
        self.threads_per_worker = int(threads_per_worker)
        self.cpus_per_worker = float(cpus_per_worker)
        self.start_timeout = float(start_timeout)
        self._started_ray = False
        self._hosts = []
        self._problems = 0

    def __enter__(self):
        import ray
        if not ray.is_initialized():
            local = self.address is None
            if local:
                os.environ.setdefault("RAY_worker_niceness", "0")
            settings = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
            if local:
                ray.init(num_cpus=int(np.ceil(self.workers * self.cpus_per_worker)), **settings)
            else:
                self._connect(ray, settings)
            self._started_ray = True
        try:
            host = ray.remote(num_cpus=self.cpus_per_worker)(PartitionHost)
            self._hosts = [host.remote(self.threads_per_worker) for _ in range(self.workers)]
            ready, _ = ray.wait([h.ready.remote() for h in self._hosts], num_returns=self.workers,
                                timeout=self.start_timeout)
            if len(ready) < self.workers:
                raise RuntimeError(
                    f"{len(ready)} of {self.workers} Ray workers started within {self.start_timeout:g} s: the cluster "
                    f"has {ray.available_resources().get('CPU', 0.0):g} free CPUs, {self.cpus_per_worker:g} per "
                    "worker are needed (fewer workers, a smaller cpus_per_worker, or more nodes)")
        except BaseException:
            self.__exit__()
            raise
        return self

    def _connect(self, ray, settings):
        """``ray.init(address=self.address)`` within ``start_timeout`` seconds, else an error naming the
        address (Ray itself retries an address that does not answer without end)."""
        def unreachable(reason):
            return ConnectionError(
                f"no Ray cluster answers at address {self.address} ({reason}; start_timeout {self.start_timeout:g} s): "
                "start one there (ray start --head), or give the address of a running cluster "
                "(backend.address=auto for the cluster started on this node, or backend.address=null for a "
                "local instance); backend.start_timeout sets the wait")
        host, _, port = self.address.removeprefix("ray://").rpartition(":")
        if host and port.isdigit():             # a host:port address: is anything listening there?
            try:
                socket.create_connection((host, int(port)), timeout=self.start_timeout).close()
            except OSError as error:
                raise unreachable(error.strerror or type(error).__name__) from None
        outcome = {}

        def init():
            try:
                ray.init(address=self.address, **settings)
            except BaseException as error:      # handed to the caller below
                outcome["error"] = error
        connecting = threading.Thread(target=init, daemon=True, name="ray.init")
        connecting.start()
        connecting.join(self.start_timeout)
        if connecting.is_alive():
            raise unreachable("it does not speak Ray's protocol")
        if "error" in outcome:
            raise outcome["error"]

    def __exit__(self, *exc):
        import ray
        for host in self._hosts:
            ray.kill(host)
        self._hosts = []
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False

    def _operator(self, sources, bounds, n_features):
        if not self._hosts:
            raise RuntimeError("the backend is not started: use it as a context manager (with RayBackend(...) as b:)")
        self._problems += 1
        key = self._problems
        DistributedRows.gather([h.load.remote(key, source) for h, source in zip(self._hosts, sources)])
        return DistributedRows(self._hosts, key, bounds, n_features)

    def operator_from_matrix(self, X):
        """A :class:`.distributed_rows.DistributedRows` of CSR ``X``: rows cut by nonzeros, each part sent once."""
        cuts = balanced_cuts(np.diff(X.indptr), self.workers)
        return self._operator([MatrixRows(X[a:b], int(a)) for a, b in zip(cuts[:-1], cuts[1:])], cuts, X.shape[1])

    def operator_from_shards(self, folder):
        """A :class:`.distributed_rows.DistributedRows` whose workers read their own shards of ``folder``."""
        manifest = read_manifest(folder)
        groups = group_shards(manifest, self.workers)
        bounds = [g[0]["row_start"] for g in groups] + [manifest["n_rows"]]
        return self._operator([ShardRows(str(folder), g) for g in groups], bounds, manifest["n_features"])

    def problem_from_mask(self, X, y_pm1, labeled_mask):
        """:func:`ssl_repro.solvers.from_mask` with X spread over the workers."""
        return from_mask(X, y_pm1, labeled_mask, operator=self.operator_from_matrix)

    def problem_from_shards(self, folder):
        """The problem of a shard folder: labeled rows (label +1/-1) and unlabeled ones (0)."""
        manifest = read_manifest(folder)
        labels = read_labels(folder, manifest)
        labeled = np.flatnonzero(labels != 0).astype(np.int64)
        y = check_labels_pm1(labels[labeled].astype(np.float64), labeled.shape[0])
        return Problem(self.operator_from_shards(folder), labeled, y, np.flatnonzero(labels == 0).astype(np.int64))
