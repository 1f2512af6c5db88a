"""J and a digest of the weights of TSVM S=max and DA on text20k, from float64 and from float32 values.

    PYTHONPATH=. python benchmarks/weights_digest.py --label this-branch
    PYTHONPATH=../other-checkout python benchmarks/weights_digest.py --label main

Run from the project root.  Fits ``LinearTSVM(switches="max")`` and
``LinearDA`` (lambda = 0.001, lambda' = 1, r = r_true) on
``text20k.npz`` (``write_bench_file.py --text-bench``) as stored (float64) and on its values rounded
to float32 (a float32 CSR matrix), and records J (Eqn 18, full precision)
and the SHA-256 of the weights (w then the bias, float64 bytes).  Two code
versions that agree bit for bit on float64 data have equal float64 rows; the
float32 rows equal the float64 rows of the same rounded values (what the
solvers compute from float32 data), whether the code keeps float32 or
converts it.  Each run adds (or replaces, by ``--label``) one record, with
its provenance, in ``results/benchmarks/weights_digest.json``.
"""
import argparse
import hashlib
import json
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
#: the benchmark matrix, made by ``python benchmarks/write_bench_file.py --text-bench --out text20k.npz``
TEXT20K = "text20k.npz"


def digests(path):
    from ssl_repro.bench.files import load_bench_npz
    from ssl_repro.estimators import LinearDA, LinearTSVM, mask_labels
    data = load_bench_npz(path)
    y = mask_labels(data.y, data.labeled)
    X32 = data.X.astype(np.float32)
    rows = []
    for values, X in (("float64", data.X), ("float64 of the float32-rounded values", X32.astype(np.float64)),
                      ("float32", X32)):
        for name, model in (("tsvm-max", LinearTSVM(lam=1e-3, r=data.r_true, switches="max")),
                            ("da", LinearDA(lam=1e-3, r=data.r_true))):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model.fit(X, y)
            w = np.r_[model.coef_[0], model.intercept_]
            rows.append({"values": values, "method": name, "objective": float(model.diagnostics_.objective),
                         "weights_sha256": hashlib.sha256(w.tobytes()).hexdigest()})
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--label", required=True, help="name of this record (replaces an earlier one)")
    parser.add_argument("--data", default=TEXT20K, help="the benchmark matrix (default: text20k.npz here)")
    parser.add_argument("--out", default=str(ROOT / "results" / "benchmarks" / "weights_digest.json"))
    args = parser.parse_args(argv)
    from ssl_repro.utils.atomic import atomic_write
    from ssl_repro.data.keys import NOT_FROM_DATA
    from ssl_repro.utils.provenance import provenance
    out = Path(args.out)
    records = json.loads(out.read_text()) if out.exists() else {}
    records[args.label] = {"provenance": provenance(), "data": args.data, "fits": digests(args.data)}
    records["data_keys"] = NOT_FROM_DATA      # beside the labels: a benchmark file's determinism check
    with atomic_write(out, "w") as f:
        json.dump(records, f, indent=1)
    for row in records[args.label]["fits"]:
        print(f"{row['values']:>40} {row['method']:>9} J {row['objective']!r} {row['weights_sha256'][:16]}")


if __name__ == "__main__":
    main()
