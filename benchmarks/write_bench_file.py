"""Write a benchmark file (the format of text20k.npz): the text20k model, a harness split, or a conversion.

    python benchmarks/write_bench_file.py --text-bench --out text20k.npz
    python benchmarks/write_bench_file.py --text-bench --model m=804414 n=47236 tokens_mean=95 \\
        n_labeled=1000 pos_frac=0.47 --out /tmp/fullccat.npz
    SSL_REPRO_DATA=DIR python benchmarks/write_bench_file.py \\
        --dataset kdd99-10 --n-labeled 1000 --out /tmp/kdd99-10-l1000.npz
    python benchmarks/write_bench_file.py --from text20k.npz --float32 --out /tmp/text20k-f32.npz

``--text-bench`` generates the benchmark matrix text20k
(:mod:`ssl_repro.bench.text_model`; ``--model KEY=VALUE ...`` changes its
parameters, e.g. to the full-ccat size above);
``--float32`` stores the values as float32 (the solvers read them as such;
the reference reads the same float32-rounded values, printed exactly);
``--from`` converts an existing benchmark file instead of a split.
The rows are the split's labeled and unlabeled rows in their order in the
dataset (test rows left out); ``r_true`` is the positive fraction of the
unlabeled rows.  Beside the file, ``OUT.meta.json`` records the dataset,
its source, the split and the command.  Data files are never committed.
"""
import argparse
import json
import sys
from pathlib import Path

import numpy as np


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    source = ap.add_mutually_exclusive_group(required=True)
    source.add_argument("--dataset", help="a dataset name of the harness (conf/dataset/)")
    source.add_argument("--from", dest="from_file", help="a benchmark file to convert (e.g. with --float32)")
    source.add_argument("--text-bench", action="store_true",
                        help="generate the benchmark matrix text20k (ssl_repro.bench.text_model), or with --model another")
    ap.add_argument("--model", nargs="+", default=[], metavar="KEY=VALUE",
                    help="parameters of the text20k model to change (with --text-bench), e.g. m=804414")
    ap.add_argument("--n-labeled", type=int, help="labeled rows of the split (with --dataset)")
    ap.add_argument("--float32", action="store_true", help="store the values as float32")
    ap.add_argument("--split", type=int, default=0, help="split seed (0..9 in the experiments)")
    ap.add_argument("--n-unlabeled", type=int, default=None, help="a random subset of unlabeled rows")
    ap.add_argument("--data-root", default=None, help="data folder (default: $SSL_REPRO_DATA)")
    ap.add_argument("--download", action="store_true", help="download missing files")
    ap.add_argument("--out", required=True, help="the .npz file to write")
    args = ap.parse_args(argv)
    from ssl_repro.bench.files import bench_rows_of_split, load_bench_npz, save_bench_npz
    from ssl_repro.data import load_dataset, make_split

    dtype = np.float32 if args.float32 else np.float64
    if args.text_bench:
        from ssl_repro.bench.text_model import TextBenchModel, make_text_bench
        model = TextBenchModel(**_model_overrides(ap, args.model))
        X, y, labeled = make_text_bench(model)
        meta = {"text_bench_model": model.as_dict()}
    elif args.from_file:
        bench = load_bench_npz(args.from_file)
        X, y, labeled = bench.X, bench.y, bench.labeled
        meta = {"from": args.from_file}
    else:
        if args.n_labeled is None:
            ap.error("--dataset needs --n-labeled")
        dataset = load_dataset(args.dataset, root=args.data_root, download=args.download)
        split = make_split(dataset, args.split, args.n_labeled, args.n_unlabeled)
        X, y, labeled = bench_rows_of_split(dataset, split)
        meta = {"dataset": dataset.name, "source": dataset.source, "split": args.split}
    save_bench_npz(args.out, X, y, labeled, dtype=dtype)
    meta |= {"dtype": np.dtype(dtype).name,
            "n_labeled": int(labeled.sum()), "n_unlabeled": int((~labeled).sum()),
            "shape": list(X.shape), "nnz": int(X.nnz), "r_true": float(np.mean(y[~labeled] > 0)),
            "command": " ".join(["python", "benchmarks/write_bench_file.py"] + list(sys.argv[1:] if argv is None else argv))}
    Path(str(Path(args.out).with_suffix("")) + ".meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"{args.out}: {X.shape[0]} rows x {X.shape[1]} features, {X.nnz} nonzeros, "
          f"{meta['n_labeled']} labeled, r_true {meta['r_true']:.4f}")


def _model_overrides(ap, pairs):
    """``{key: value}`` of ``--model key=value ...``, each value of the type of its default."""
    from dataclasses import fields

    from ssl_repro.bench.text_model import TextBenchModel
    types = {f.name: type(f.default) for f in fields(TextBenchModel)}
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or key not in types:
            ap.error(f"--model {pair!r}: expected KEY=VALUE with KEY one of {', '.join(types)}")
        try:
            out[key] = tuple(float(v) for v in value.split(",")) if types[key] is tuple else types[key](value)
        except ValueError:
            ap.error(f"--model {pair!r}: {value!r} is not a {types[key].__name__}")
    return out


if __name__ == "__main__":
    main()
