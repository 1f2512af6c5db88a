"""Write a data set as a shard folder for the distributed backend (layout: ssl_repro/distributed/shards.py).

From a dataset and split of the harness (its labeled and unlabeled rows, in row order; test rows left out):

    SSL_REPRO_DATA=DIR python benchmarks/write_shards.py \\
        --dataset text-like --n-labeled 64 --rows-per-shard 1000 --out /tmp/text-like-shards

or from a benchmark file (the format of text20k.npz):

    python benchmarks/write_shards.py --bench text20k.npz --rows-per-shard 5000 \\
        --out /tmp/text20k-shards

Labeled rows keep their label (+1/-1), the others get 0 (unlabeled).  Then
``RayBackend(workers).problem_from_shards(folder)`` gives a problem whose
workers read their own shards.  Shard folders hold data: never commit them.
"""
import argparse
import sys

import numpy as np


def _rows_of_split(args):
    from ssl_repro.data import load_dataset, make_split
    dataset = load_dataset(args.dataset, root=args.data_root, download=args.download)
    split = make_split(dataset, args.split, args.n_labeled, args.n_unlabeled)
    rows = np.sort(np.concatenate([split.labeled, split.unlabeled]))
    labels = np.where(np.isin(rows, split.labeled), dataset.y[rows], 0)
    X = dataset.X if rows.size == dataset.X.shape[0] else dataset.X[rows]
    return X, labels, f"{dataset.name} ({dataset.source}), split {args.split}, {split.labeled.size} labeled"


def _rows_of_bench(args):
    from ssl_repro.bench.files import load_bench_npz
    bench = load_bench_npz(args.bench)
    return bench.X, np.where(bench.labeled, bench.y, 0), f"benchmark file {args.bench}"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = ap.add_mutually_exclusive_group(required=True)
    source.add_argument("--dataset", help="a dataset name of the harness (conf/dataset/)")
    source.add_argument("--bench", help="a benchmark .npz file")
    ap.add_argument("--n-labeled", type=int, help="labeled rows of the split (with --dataset)")
    ap.add_argument("--split", type=int, default=0, help="split seed (0..9 in the experiments)")
    ap.add_argument("--n-unlabeled", type=int, default=None, help="a random subset of unlabeled rows")
    ap.add_argument("--data-root", default=None, help="data folder (default: $SSL_REPRO_DATA)")
    ap.add_argument("--download", action="store_true", help="download missing files")
    ap.add_argument("--rows-per-shard", type=int, required=True)
    ap.add_argument("--out", required=True, help="the shard folder to write (new)")
    args = ap.parse_args(argv)
    if args.dataset and args.n_labeled is None:
        ap.error("--dataset needs --n-labeled")
    from ssl_repro.distributed.shards import write_shards

    X, labels, what = _rows_of_split(args) if args.dataset else _rows_of_bench(args)
    command = " ".join(["python", "benchmarks/write_shards.py"] + list(sys.argv[1:] if argv is None else argv))
    manifest = write_shards(args.out, X, labels, args.rows_per_shard, source=f"{what}; {command}")
    print(f"{args.out}: {len(manifest['shards'])} shards, {manifest['n_rows']} rows x {manifest['n_features']} "
          f"features, {manifest['nnz']} nonzeros, {int(np.sum(labels != 0))} labeled")


if __name__ == "__main__":
    main()
