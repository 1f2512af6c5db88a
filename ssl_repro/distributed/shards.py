"""Shards: a data set as a folder of row blocks that workers read on their own.

Layout of a shard folder (format ``ssl_repro-shards/1``)::

    manifest.json        {"format", "n_rows", "n_features", "nnz", "labels": "labels.npy",
                          "shards": [{"file": "shard-00000.npz", "row_start", "row_stop", "nnz"}, ...],
                          "source": what the rows came from}
    labels.npy           int8, one per row: +1 / -1 labeled, 0 unlabeled (the driver reads it)
    shard-00000.npz      CSR of rows [row_start, row_stop): arrays data (float64),
    shard-00001.npz      indices (int32), indptr (int64, starting at 0), shape

Shards cover the rows in order without gaps.  A worker of the distributed
backend reads only the shards of its row range (:class:`ShardRows`), so
no process ever holds all of X; the labels (one byte per row) are read
by the driver.  Files must be readable at the same path on every worker
(a shared file system, or the same copy on each node).
"""
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp

FORMAT = "ssl_repro-shards/1"
MANIFEST = "manifest.json"
LABELS = "labels.npy"


def write_shards(folder, X, labels, rows_per_shard, source=""):
    """Write CSR ``X`` and per-row ``labels`` (+1/-1, 0 = unlabeled) as a shard folder.

    Returns the manifest (a dict).  The folder must not hold a manifest yet.
    """
    X = sp.csr_matrix(X)
    labels = np.asarray(labels)
    if labels.shape != (X.shape[0],):
        raise ValueError(f"labels need one entry per row ({X.shape[0]}), got shape {labels.shape}")
    if not np.isin(labels, (-1, 0, 1)).all():
        raise ValueError("labels must be +1 or -1 (labeled) or 0 (unlabeled)")
    if rows_per_shard < 1:
        raise ValueError(f"rows_per_shard must be >= 1, got {rows_per_shard}")
    folder = Path(folder)
    if (folder / MANIFEST).exists():
        raise FileExistsError(f"{folder / MANIFEST} exists: write shards into a new folder")
    folder.mkdir(parents=True, exist_ok=True)
    if not X.has_sorted_indices:
        X = X.sorted_indices()
    entries = []
    for k, start in enumerate(range(0, X.shape[0], rows_per_shard)):
        stop = min(start + rows_per_shard, X.shape[0])
        block = X[start:stop]
        name = f"shard-{k:05d}.npz"
        np.savez(folder / name, data=block.data.astype(np.float64, copy=False),
                 indices=block.indices.astype(np.int32, copy=False),
                 indptr=block.indptr.astype(np.int64, copy=False), shape=np.array(block.shape, dtype=np.int64))
        entries.append({"file": name, "row_start": start, "row_stop": stop, "nnz": int(block.nnz)})
    np.save(folder / LABELS, labels.astype(np.int8))
    manifest = {"format": FORMAT, "n_rows": int(X.shape[0]), "n_features": int(X.shape[1]), "nnz": int(X.nnz),
                "labels": LABELS, "shards": entries, "source": source}
    tmp = folder / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=1))
    os.replace(tmp, folder / MANIFEST)          # the manifest appears last: a folder with one is complete
    return manifest


def read_manifest(folder):
    """The manifest of a shard folder, checked (format, contiguous row ranges)."""
    path = Path(folder) / MANIFEST
    if not path.exists():
        raise FileNotFoundError(f"{path} not found: not a shard folder (write one with benchmarks/write_shards.py)")
    manifest = json.loads(path.read_text())
    if manifest.get("format") != FORMAT:
        raise ValueError(f"{path}: format {manifest.get('format')!r}, expected {FORMAT!r}")
    expected = 0
    for entry in manifest["shards"]:
        if entry["row_start"] != expected or entry["row_stop"] <= entry["row_start"]:
            raise ValueError(f"{path}: shard {entry['file']} covers rows [{entry['row_start']}, "
                             f"{entry['row_stop']}), expected to start at {expected}")
        expected = entry["row_stop"]
    if expected != manifest["n_rows"]:
        raise ValueError(f"{path}: the shards cover {expected} rows, the manifest says {manifest['n_rows']}")
    return manifest


def read_labels(folder, manifest):
    """The per-row labels (+1/-1, 0 unlabeled) of a shard folder."""
    labels = np.load(Path(folder) / manifest["labels"])
    if labels.shape != (manifest["n_rows"],):
        raise ValueError(f"{folder}: {labels.shape[0]} labels for {manifest['n_rows']} rows")
    return labels


def balanced_cuts(sizes, n_groups):
    """Cut points 0 = c_0 < ... < c_n = len(sizes): ``n_groups`` runs of consecutive items of about
    equal total size (rows by nonzeros, shards by nonzeros); no run is empty."""
    n = len(sizes)
    if n < n_groups:
        raise ValueError(f"{n} row blocks cannot feed {n_groups} workers: give every worker at least one "
                         "(fewer workers, or smaller shards: --rows-per-shard)")
    cum = np.cumsum(np.asarray(sizes, dtype=np.float64) + 1.0)     # +1: empty rows still count
    cuts = np.concatenate([[0], np.searchsorted(cum, cum[-1] * np.arange(1, n_groups) / n_groups) + 1, [n]])
    for g in range(1, n_groups):
        cuts[g] = min(max(cuts[g], cuts[g - 1] + 1), n - (n_groups - g))
    return cuts.astype(np.int64)


def group_shards(manifest, n_groups):
    """The shards split into ``n_groups`` runs of consecutive shards (:func:`balanced_cuts` by nonzeros)."""
    shards = manifest["shards"]
    cuts = balanced_cuts([s["nnz"] for s in shards], n_groups)
    return [shards[a:b] for a, b in zip(cuts[:-1], cuts[1:])]


@dataclass
class ShardRows:
    """The rows of consecutive shards of a folder, read where :meth:`load` runs (on a worker)."""

    folder: str
    entries: list

    @property
    def start(self):
        return self.entries[0]["row_start"]

    def load(self):
        """(CSR of the shards' rows, global number of the first row)."""
        blocks = []
        for entry in self.entries:
            with np.load(Path(self.folder) / entry["file"]) as f:
                blocks.append(sp.csr_matrix((f["data"], f["indices"], f["indptr"]),
                                            shape=tuple(int(s) for s in f["shape"])))
        return sp.vstack(blocks, format="csr") if len(blocks) > 1 else blocks[0], self.start


@dataclass
class MatrixRows:
    """Rows already in memory, shipped to a worker once (the harness's in-memory data sets)."""

    X: sp.csr_matrix
    start: int

    def load(self):
        return self.X, self.start
