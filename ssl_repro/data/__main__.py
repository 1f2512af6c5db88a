"""``python -m ssl_repro.data info NAME [--root DIR] [--download]``: what a dataset loads as, in JSON.

Decision: ``info`` asks what is here, so it downloads nothing unless ``--download`` says so (a
missing file is one ``error:`` line naming it, where to put it and this tool's options)."""
import argparse
import json
import time

import numpy as np

from ssl_repro.data import DatasetNotAvailable, load_dataset
from ssl_repro.data.cache import ENV_VAR


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m ssl_repro.data")
    sub = ap.add_subparsers(dest="command", required=True)
    info = sub.add_parser("info", help="rows, features, nonzeros, positive fraction and source of a dataset")
    info.add_argument("name")
    info.add_argument("--root", default=None, help="data root (default: $SSL_REPRO_DATA or sklearn's data home)")
    info.add_argument("--download", action="store_true", help="download a missing public file (default: "
                                                                 "say which file to put where, download nothing)")
    info.add_argument("--path", help="the file of 'svmlight' / '33-vs-36'")
    info.add_argument("--examples", help="the features file of 'svmlin'")
    info.add_argument("--labels", help="the labels file of 'svmlin' (+1/-1, 0 = unlabeled)")
    args = ap.parse_args(argv)
    paths = {k: getattr(args, k) for k in ("path", "examples", "labels") if getattr(args, k)}
    start = time.perf_counter()
    try:
        ds = load_dataset(args.name, root=args.root, download=args.download, **paths)
    except DatasetNotAvailable as exc:
        ap.exit(2, f"{ap.prog} info: error: {exc.in_words_of(f'--root DIR (or {ENV_VAR})', '--download')}\n")
    except (OSError, ValueError) as exc:
        ap.exit(2, f"{ap.prog} info: error: {exc}\n")
    seconds = time.perf_counter() - start
    print(json.dumps({
        "name": ds.name, "rows": ds.X.shape[0], "features": ds.X.shape[1], "nonzeros": int(ds.X.nnz),
        "nonzeros_per_row": round(ds.X.nnz / max(ds.X.shape[0], 1), 2),
        "positive_fraction": round(float(np.mean(ds.y[ds.y != 0] > 0)), 4),
        "rows_without_label": int(np.sum(ds.y == 0)), "source": ds.source,
        "load_seconds": round(seconds, 2)}, indent=1))


if __name__ == "__main__":
    main()
