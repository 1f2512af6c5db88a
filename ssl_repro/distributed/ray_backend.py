"""The Ray backend: one actor per row partition, problems built from a matrix or from shards.

Why Ray (README, "Distributed backend"): the sweeps already go to clusters
through Hydra's Ray launcher, so one engine serves both; a stateful actor
is exactly a partition with its CG state; its round trip measured like
Dask's (``results/distributed/engine_overhead.json``); and Dask's
``distributed`` needs cloudpickle >= 3 while ``hydra-ray-launcher`` pins
cloudpickle < 3, so the two do not install together cleanly.

A researcher starts a cluster with ``ray start --head`` on one node and
``ray start --address=HEAD:6379`` on the others, then passes
``address="auto"`` (or ``backend.address=auto`` to ``run.py``); with
``address=None`` a local Ray instance with ``workers`` CPUs is started and
stopped with the backend.
"""
import numpy as np

from ..solvers.problem import Problem, from_mask
from ..solvers.validation import check_labels_pm1
from .operator import DistributedRows
from .partition import RowPartition
from .shards import MatrixRows, ShardRows, balanced_cuts, group_shards, read_labels, read_manifest


class RayBackend:
    """Row partitions of X on ``workers`` Ray actors (one CPU each).

    Parameters
    ----------
    workers : number of partitions (actors), >= 1
    address : a running Ray cluster (``"auto"``, ``"ray://host:10001"``, ...) or
        ``None`` to start a local instance with ``workers`` CPUs
    threads_per_worker : numba threads of each actor

    Use as a context manager (``with RayBackend(2) as backend:``): Ray is
    started on entry if it is not running, the actors are killed on exit,
    and a local instance this backend started is shut down.
    """

    def __init__(self, workers=2, address=None, threads_per_worker=1):
        if not isinstance(workers, (int, np.integer)) or isinstance(workers, bool) or workers < 1:
            raise ValueError(f"workers must be a positive integer, got {workers!r}")
        self.workers = int(workers)
        self.address = address
        self.threads_per_worker = int(threads_per_worker)
        self._actors = []
        self._started_ray = False

    def __enter__(self):
        import ray
        if not ray.is_initialized():
            local = self.address is None
            ray.init(address=self.address, num_cpus=self.workers if local else None, include_dashboard=False,
                     log_to_driver=False, configure_logging=False)
            self._started_ray = True
        return self

    def __exit__(self, *exc):
        import ray
        for actor in self._actors:
            ray.kill(actor)
        self._actors = []
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False

    def _operator(self, sources, bounds, n_features):
        import ray
        actor_class = ray.remote(num_cpus=1)(RowPartition)
        actors = [actor_class.remote(source, self.threads_per_worker) for source in sources]
        self._actors.extend(actors)
        return DistributedRows(actors, bounds, n_features)

    def operator_from_matrix(self, X):
        """A :class:`.operator.DistributedRows` of CSR ``X``: rows cut by nonzeros, each part sent once."""
        cuts = balanced_cuts(np.diff(X.indptr), self.workers)
        return self._operator([MatrixRows(X[a:b], int(a)) for a, b in zip(cuts[:-1], cuts[1:])], cuts, X.shape[1])

    def operator_from_shards(self, folder):
        """A :class:`.operator.DistributedRows` whose workers read their own shards of ``folder``."""
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
