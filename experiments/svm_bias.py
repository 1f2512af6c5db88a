"""Why the supervised SVM's pcmac error peaks at 7 labels: its bias against w.x on the test rows.

    python experiments/svm_bias.py [--dataset pcmac] [--labels 2 4 7 15] [--splits 10] [--out results/svm_bias]

Fits the SVM (L2-SVM-MFN, lambda = 0.001, the harness's ``method=svm``) on the labeled rows of each
split (:func:`ssl_repro.data.make_split`, the splits of the learning curves) and records, per label
count, the means over the splits of: the labeled positives, the bias b, the share of test rows with
w.x = 0 and with |w.x| < |b| (rows whose sign the bias decides), the share predicted positive, the
test error and the test rows' negative share.  Writes ``OUT/<dataset>.json`` with machine, date,
command, code commit, the fits' CPU seconds (``run all``'s estimate of this step) and the key of the data it was made from (``data_keys``: :func:`ssl_repro.data.keys.dataset_key`).  The data root is ``$SSL_REPRO_DATA``.
"""
import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))     # the code beside this script, not an installed copy

from ssl_repro.data import load_dataset, make_split  # noqa: E402
from ssl_repro.data.keys import dataset_key  # noqa: E402
from ssl_repro.estimators import LinearSVM, mask_labels  # noqa: E402
from ssl_repro.utils.provenance import provenance  # noqa: E402


def bias_rows(dataset, labels, splits):
    """{labels: {quantity: mean over splits}} of the SVM's bias against w.x on the test rows."""
    X, y = dataset.X.tocsr(), dataset.y
    rows = {}
    for n_labeled in labels:
        per_split = []
        for seed in range(splits):
            split = make_split(dataset, seed, n_labeled)
            model = LinearSVM(lam=1e-3).fit(X[split.labeled], mask_labels(y[split.labeled], np.arange(n_labeled)))
            b = float(np.ravel(model.intercept_)[0])
            wx = X[split.test] @ model.coef_[0]
            per_split.append({"labeled_positives": float(np.sum(y[split.labeled] > 0)), "bias": b,
                              "wx_zero": float(np.mean(wx == 0)), "bias_decides": float(np.mean(np.abs(wx) < abs(b))),
                              "predicted_positive": float(np.mean(wx + b > 0)),
                              "test_error": float(np.mean(np.where(wx + b > 0, 1, -1) != y[split.test])),
                              "negative_share": float(np.mean(y[split.test] < 0))})
        rows[str(n_labeled)] = {k: float(np.mean([s[k] for s in per_split])) for k in per_split[0]} | {
            "bias_min": min(s["bias"] for s in per_split), "bias_max": max(s["bias"] for s in per_split),
            "splits": splits}
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", default="pcmac")
    ap.add_argument("--labels", type=int, nargs="+", default=[2, 4, 7, 15])
    ap.add_argument("--splits", type=int, default=10)
    ap.add_argument("--out", default=str(ROOT / "results" / "svm_bias"))
    args = ap.parse_args(argv)
    dataset = load_dataset(args.dataset, root=os.environ.get("SSL_REPRO_DATA"), download=False)
    started = time.process_time()
    rows = bias_rows(dataset, args.labels, args.splits)
    record = {"provenance": provenance(), "dataset": args.dataset, "data_keys": {args.dataset: dataset_key(dataset)},
              "rows": rows, "cpu_seconds": time.process_time() - started}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{args.dataset}.json").write_text(json.dumps(record, indent=1) + "\n")
    print(f"wrote {out / f'{args.dataset}.json'}")


if __name__ == "__main__":
    main()
