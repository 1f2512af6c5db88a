"""DA's annealing path of one harness job: what the lowest-objective rule chose between.

    python experiments/da_path.py --dataset synthetic-gcat --n-labeled 44 [--split 0] [--out results/da_path]

Trains DA as the harness does (``run.py method=da``: the dataset's lambda', r
of the split) and writes, per OPTIMIZE-W of Table 5, the temperature, J of
Eqn 18 and the fraction of unlabeled outputs > 0, marking the weights DA
returns (the lowest J on the path, 000 Sec. 3.2), into
``OUT/<dataset>_l<labels>_split<split>.json`` (with machine, date, command and
``data_keys``: the dataset key the job stamped, :mod:`ssl_repro.data.keys`)
and a ``.md`` table beside it.  The data root is ``$SSL_REPRO_DATA``.
"""
import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))     # the code beside this script, not an installed copy

from ssl_repro.harness.runner import run_job  # noqa: E402
from ssl_repro.utils.provenance import provenance  # noqa: E402


def da_path(dataset, n_labeled, split=0):
    """The record of one DA job plus its path: [(T, J, positive fraction, returned?)]."""
    record = run_job({"dataset": {"name": dataset}, "method": {"name": "da", "variant": "da", "lam": None},
                      "split": split, "n_labeled": n_labeled})
    diag = record["diagnostics"]
    values = [value for _, value in diag["objective_path"]]
    chosen = int(np.argmin(values))
    path = [(T, value, positive, k == chosen)
            for k, ((T, value), positive) in enumerate(zip(diag["objective_path"], diag["positive_path"]))]
    return record, path


def markdown(record, path):
    """The path as a markdown table under the job's settings and the returned weights' figures."""
    lines = [f"# DA's path: {record['dataset']}, {record['n_labeled']} labels, split {record['split']}", "",
             f"r = {record['r']:.4f}, lambda' = {record['lam_u']}; returned: J = {record['objective_eqn18']:.6f}, "
             f"test error {record['test_error']:.4f}, transductive error {record['transductive_error']:.4f}.", "",
             "| step | T | J (Eqn 18) | unlabeled outputs > 0 | returned |", "|---|---|---|---|---|"]
    lines += [f"| {k + 1} | {T:.4g} | {value:.6f} | {positive:.4f} | {'yes' if chosen else ''} |"
              for k, (T, value, positive, chosen) in enumerate(path)]
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--n-labeled", type=int, required=True)
    ap.add_argument("--split", type=int, default=0)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "da_path")
    args = ap.parse_args(argv)
    record, path = da_path(args.dataset, args.n_labeled, args.split)
    args.out.mkdir(parents=True, exist_ok=True)
    stem = args.out / f"{args.dataset}_l{args.n_labeled}_split{args.split}"
    keys = ("dataset", "n_labeled", "n_unlabeled", "split", "r", "lam", "lam_u", "objective_eqn18", "test_error",
            "transductive_error", "seconds")
    stem.with_suffix(".json").write_text(json.dumps(
        {**provenance(), **{k: record[k] for k in keys},
         "data_keys": {record["dataset"]: record["provenance"]["dataset_key"]},
         "path": [{"T": T, "J": value, "positive_fraction": positive, "returned": chosen}
                  for T, value, positive, chosen in path]}, indent=1) + "\n")
    stem.with_suffix(".md").write_text(markdown(record, path))
    print(f"{len(path)} steps -> {stem}.json, .md")


if __name__ == "__main__":
    main()
