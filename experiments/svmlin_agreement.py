"""The papers' C++ reference (SVMlin v1.0) on the harness's own splits and settings, beside the records.

    python experiments/svmlin_agreement.py --svmlin /path/to/svmlin --dataset 20ng-aut-avn-like \\
        --splits 0 1 2 --n-labeled 2 45

For each (split, n_labeled) of ``--dataset`` it gives SVMlin the split's
labeled and unlabeled rows (test rows left out) with the dataset's lambda,
lambda' and the split's r, exactly as a harness job of the learning-curve
sweep runs (:mod:`ssl_repro.harness.runner`), and runs multi-switch TSVM
(``-A 2``, S = max) and DA (``-A 3``).  Its input files hold the values
with 8 significant digits, and both programs are non-convex searches whose
switches follow floating-point sums, so objectives agree closely, not to
the last bit; what the table answers is whether the two land in the same
region (e.g. both with DA's J far above TSVM's).  Each row holds SVMlin's objective
(Eqn 18, as it prints it) and transductive error beside those of the
committed record of the same job (``results/learning_curve_<dataset>/results.csv``),
and the wall seconds of SVMlin's run (no timing: what ``run all`` estimates this step by),
so a reader can see whether a surprising record (e.g. DA's J above TSVM's)
is the algorithm's or this implementation's.  Rows go to
``results/reference_agreement/svmlin_<dataset>.csv`` and ``.json`` (with
provenance and the key of the dataset's X and y, ``data_keys``); rows of other jobs from earlier runs are kept.

SVMlin is GPL: build it outside the repository from its public source
(``g++ -O3``) and only run it.
"""
import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ssl_repro.data import dataset_info, load_dataset, make_split  # noqa: E402
from ssl_repro.data.keys import data_keys  # noqa: E402
from ssl_repro.harness.aggregate import read_results  # noqa: E402
from ssl_repro.harness.external import (add_peer_arguments, earlier_rows, merge, parse_peer_arguments,  # noqa: E402
                                         run_capped, write_svmlin_pair, write_table)
from ssl_repro.utils.provenance import provenance  # noqa: E402

COLUMNS = ("dataset", "split", "n_labeled", "method", "lam", "lam_u", "r", "objective_svmlin",
           "objective_record", "objective_relative_difference", "transductive_error_svmlin",
           "transductive_error_record", "seconds", "git_commit", "date", "command")
#: SVMlin's algorithm number of each recorded method (``-A``; TSVM runs with S = max, its default).
ALGORITHMS = {"tsvm-Smax": 2, "da": 3}
OBJECTIVE = re.compile(r"Objective Value = ([-+0-9.eE]+)")


def svmlin_row(binary, X, y, labeled, unlabeled, method, lam, lam_u, r, cap, workdir):
    """SVMlin's objective and transductive error for ``method`` on the labeled and unlabeled rows."""
    work = Path(workdir)
    rows = np.concatenate([labeled, unlabeled])
    labels = np.concatenate([y[labeled], np.zeros(unlabeled.size, dtype=y.dtype)])
    examples = work / "examples"
    write_svmlin_pair(examples, work / "labels", X[rows], labels)
    command = [str(binary), "-A", str(ALGORITHMS[method]), "-W", repr(lam), "-U", repr(lam_u), "-R", repr(r),
               str(examples), str(work / "labels")]
    _, capped, code = run_capped(command, cap, work / "svmlin.log", cwd=work)    # it writes its outputs there
    log = (work / "svmlin.log").read_text(errors="replace")
    if capped or code != 0:
        raise RuntimeError(f"{command[0]} {'capped' if capped else f'failed with exit code {code}'}:\n{log[-2000:]}")
    outputs = np.loadtxt(work / "examples.outputs")[labeled.size:]
    return {"objective_svmlin": float(OBJECTIVE.findall(log)[-1]),
            "transductive_error_svmlin": float(np.mean(np.where(outputs > 0, 1, -1) != y[unlabeled]))}


def recorded(dataset, results):
    """The committed learning-curve records of ``dataset``, indexed by (method, split, n_labeled)."""
    path = results / f"learning_curve_{dataset_info(dataset).folder}" / "results.csv"
    frame = read_results(path)
    return frame.set_index(["method", "split", "n_labeled"]), path


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_peer_arguments(ap, "--svmlin", "SVMlin's binary (the papers' C++ reference)", 1800.0, None)
    ap.add_argument("--dataset", required=True)
    ap.add_argument("--splits", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--n-labeled", type=int, nargs="+", required=True)
    ap.add_argument("--methods", nargs="+", default=list(ALGORITHMS), choices=list(ALGORITHMS))
    ap.add_argument("--results", type=Path, default=ROOT / "results")
    args = parse_peer_arguments(ap, argv, "--svmlin")
    if args.svmlin is None:
        ap.error("--svmlin PATH is needed (or SVMlin built by python -m ssl_repro.peers build svmlin --archive PATH): "
                 "this script compares SVMlin with the records")
    out = args.out or args.results / "reference_agreement" / f"svmlin_{dataset_info(args.dataset).folder}"
    records, source = recorded(args.dataset, args.results)
    dataset = load_dataset(args.dataset)
    stamp, rows = provenance(), []
    for n_labeled in args.n_labeled:
        for seed in args.splits:
            split = make_split(dataset, seed, n_labeled)
            for method in args.methods:
                record = records.loc[(method, seed, n_labeled)]
                settings = {k: float(record[k]) for k in ("lam", "lam_u", "r")}
                started = time.perf_counter()
                with tempfile.TemporaryDirectory(prefix="svmlin-") as workdir:
                    found = svmlin_row(args.svmlin, dataset.X, dataset.y, split.labeled, split.unlabeled, method,
                                       *settings.values(), args.cap, workdir)
                row = {"dataset": args.dataset, "split": seed, "n_labeled": n_labeled, "method": method, **settings,
                       **found, "objective_record": float(record["objective_eqn18"]),
                       "transductive_error_record": float(record["transductive_error"]),
                       "seconds": time.perf_counter() - started,
                       "git_commit": stamp["git_commit"], "date": stamp["date"], "command": stamp["command"]}
                row["objective_relative_difference"] = (row["objective_record"] / row["objective_svmlin"]) - 1
                rows.append(row)
                print(f"{args.dataset} split {seed} l={n_labeled} {method}: J svmlin {row['objective_svmlin']:.6f} "
                      f"record {row['objective_record']:.6f}; transductive error svmlin "
                      f"{row['transductive_error_svmlin']:.4f} record {row['transductive_error_record']:.4f}",
                      flush=True)
    write_table(merge(earlier_rows(out), rows, ("dataset", "split", "n_labeled", "method")), out, COLUMNS,
                {"svmlin": str(args.svmlin), "records": str(source.relative_to(args.results.parent))},
                data_keys({args.dataset: dataset}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
