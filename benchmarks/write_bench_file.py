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
import zipfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))      # this checkout's ssl_repro
from ssl_repro.bench.files import bench_rows_of_split, load_bench_npz, save_bench_npz  # noqa: E402
from ssl_repro.data import load_dataset, make_split  # noqa: E402
from ssl_repro.harness.app import unwritable_file  # noqa: E402


#: The options each source reads (the rest are refused with it, not ignored).
READS = {"dataset": ("--n-labeled", "--split", "--n-unlabeled", "--data-root", "--download"),
         "from_file": (), "text_bench": ("--model",)}
SOURCE_OPTIONS = ("--model", "--n-labeled", "--split", "--n-unlabeled", "--data-root", "--download")


def refusal(args, argv):
    """The ``Error:`` line for a command line refused before any data is built or read, or None: an option its
    source does not read (``--model`` with ``--dataset``, ``--n-labeled`` with ``--text-bench``), ``--dataset``
    without ``--n-labeled``, an ``--out`` whose folder is missing or cannot be written, or that is a folder."""
    source = next(name for name in READS if getattr(args, name))
    flag = "--" + source.replace("_file", "").replace("_", "-")
    unread = [o for o in dict.fromkeys(a.split("=")[0] for a in argv) if o in SOURCE_OPTIONS and o not in READS[source]]
    if unread:
        return f"Error: {', '.join(unread)} is not read with {flag}: drop it" + (
            " (--model changes the generated text20k: --text-bench)" if "--model" in unread else "")
    if source == "dataset" and args.n_labeled is None:
        return "Error: --dataset needs --n-labeled N (the labeled rows of the split)"
    return unwritable_file(args.out, "--out")


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
    argv = sys.argv[1:] if argv is None else list(argv)
    message = refusal(args, argv)
    if message:
        sys.exit(message)
    try:
        X, y, labeled, meta, dtype = rows_of(args)
    except (ValueError, OSError) as error:      # a refused value, a missing or unreadable file: named in it
        sys.exit(f"Error: {' '.join(str(error).split())}")
    save_bench_npz(args.out, X, y, labeled, dtype=dtype)
    meta |= {"dtype": np.dtype(dtype).name,
            "n_labeled": int(labeled.sum()), "n_unlabeled": int((~labeled).sum()),
            "shape": list(X.shape), "nnz": int(X.nnz), "r_true": float(np.mean(y[~labeled] > 0)),
            "command": " ".join(["python", "benchmarks/write_bench_file.py"] + argv)}
    Path(str(Path(args.out).with_suffix("")) + ".meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    print(f"{args.out}: {X.shape[0]} rows x {X.shape[1]} features, {X.nnz} nonzeros, "
          f"{meta['n_labeled']} labeled, r_true {meta['r_true']:.4f}")


def rows_of(args):
    """(X, y, labeled, meta, dtype) of the source the command line names; a value the source refuses, or a file
    it cannot read, raises ValueError or OSError with a message naming it."""
    dtype = np.float32 if args.float32 else np.float64
    if args.text_bench:
        from ssl_repro.bench.text_model import TextBenchModel, make_text_bench
        model = TextBenchModel(**_model_overrides(args.model))
        X, y, labeled = make_text_bench(model)
        return X, y, labeled, {"text_bench_model": model.as_dict()}, dtype
    if args.from_file:
        try:
            bench = load_bench_npz(args.from_file)
        except (ValueError, KeyError, zipfile.BadZipFile, EOFError) as error:
            raise ValueError(f"--from {args.from_file} is not a benchmark file ({error}): give a file "
                             "write_bench_file.py wrote") from None
        except FileNotFoundError:
            raise ValueError(f"--from {args.from_file}: no such file") from None
        return bench.X, bench.y, bench.labeled, {"from": args.from_file}, dtype
    if args.split < 0:
        raise ValueError(f"--split {args.split}: give a seed of 0 or more (0..9 in the experiments)")
    try:
        dataset = load_dataset(args.dataset, root=args.data_root, download=args.download)
    except ValueError as error:
        raise ValueError(f"--dataset {args.dataset}: {error}") from None
    try:
        split = make_split(dataset, args.split, args.n_labeled, args.n_unlabeled)
    except ValueError as error:
        raise ValueError(f"--dataset {args.dataset} --n-labeled {args.n_labeled}: {error}") from None
    X, y, labeled = bench_rows_of_split(dataset, split)
    return X, y, labeled, {"dataset": dataset.name, "source": dataset.source, "split": args.split}, dtype


def _model_overrides(pairs):
    """``{key: value}`` of ``--model key=value ...``, each value of the type of its default (ValueError naming
    the pair otherwise)."""
    from dataclasses import fields

    from ssl_repro.bench.text_model import TextBenchModel
    types = {f.name: type(f.default) for f in fields(TextBenchModel)}
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or key not in types:
            raise ValueError(f"--model {pair!r}: expected KEY=VALUE with KEY one of {', '.join(types)}")
        try:
            out[key] = tuple(float(v) for v in value.split(",")) if types[key] is tuple else types[key](value)
        except ValueError:
            raise ValueError(f"--model {pair!r}: {value!r} is not a {types[key].__name__}") from None
        values = out[key] if isinstance(out[key], tuple) else (out[key],)
        lowest = 0 if key in ("seed", "zipf_bg", "zipf_topic") or types[key] is tuple else 1e-300
        if min(values) < lowest or (key == "pos_frac" and out[key] >= 1) or (
                types[key] is tuple and abs(sum(values) - 1) > 1e-9):
            need = {"pos_frac": "a fraction in (0, 1)", "mix": "fractions >= 0 that sum to 1"}.get(
                key, "0 or more" if lowest == 0 else "more than 0")
            raise ValueError(f"--model {pair!r}: {key} must be {need}")
    return out


if __name__ == "__main__":
    main()
