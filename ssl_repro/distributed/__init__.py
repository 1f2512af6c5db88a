"""A single problem spread over a cluster by rows: Ray actors hold the partitions.

:class:`RayBackend` makes problems whose operator (:class:`DistributedRows`)
lives on the workers, from an in-memory matrix or from a shard folder
(:mod:`.shards`); the solver functions and estimators run on them
unchanged (see :mod:`ssl_repro.distributed.backend`).
"""
from ssl_repro.distributed.distributed_rows import DistributedRows, WorkerLost
from ssl_repro.distributed.ray_backend import RayBackend
from ssl_repro.distributed.shards import read_manifest, write_shards

__all__ = ["DistributedRows", "RayBackend", "WorkerLost", "read_manifest", "write_shards"]
