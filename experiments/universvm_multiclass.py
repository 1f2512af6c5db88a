"""002's K-class CCCP-TSVM: UniverSVM 1.22's ``-M k`` (the authors' program) beside our K-class LinearCCCPTSVM, on digits.

    python experiments/universvm_multiclass.py --universvm /path/to/universvm [--splits 3] [--cap 1800]

Rows: scikit-learn's digits (:func:`ssl_repro.data.multiclass.load_digits_k`, 10 classes, the uspst analog), on
``--splits`` random splits (:func:`potts_vs_ovr.split`: 100 labeled rows with every class, 1,000 unlabeled, the
other 697 test).  Both programs get the same rows; the error on the unlabeled rows is the transductive error,
on the test rows the test error; a row's class is the largest of the K outputs.

Parameters as ``universvm_compare.py`` maps them (its module doc): lambda = 0.001, lambda' = 1, C = 1/(2 l
lambda), UniverSVM's default C* = (l/u) C, a linear kernel (``-t 0``), its ramp ``-S -0.3`` (ours the squared
hinge and s = 0), and ``-M 10`` (its multi-class training: one machine per class, whose K outputs it writes
with ``-D`` as ``f{1}`` ... ``f{K}``; ``f{k}`` is the k-th class in the order the labeled rows of its training
file first show them, found by trying the two readings on a run and kept because it reproduces the accuracy it
prints on ``-T``'s rows, which every run checks).  Ours: :class:`~ssl_repro.estimators.LinearCCCPTSVM` one-vs-rest (002's scheme,
r per class the labeled rows' share), one solver thread.  Times are CPU seconds: ours the fit's, UniverSVM's its
process's (reading its text input included); a run past ``--cap`` CPU seconds is killed and recorded capped.
UniverSVM is GPL: build it outside the repository and only run it (``python -m ssl_repro.peers build universvm
--archive PATH`` builds it from its published archive; the script runs that build when ``--universvm`` is not given).

Without either only our rows are printed and nothing is written; with it, ``results/peers/
universvm_multiclass.csv`` and ``.json`` are written anew (rows, provenance, the binary's path, and the key of
digits' X and y, ``data_keys``).
"""
import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ssl_repro.data.keys import data_keys  # noqa: E402
from ssl_repro.data.multiclass import load_digits_k  # noqa: E402
from ssl_repro.harness.external import (add_peer_arguments, parse_peer_arguments, run_capped,  # noqa: E402
                                         write_svmlight, write_table)

from potts_vs_ovr import split  # noqa: E402
from universvm_compare import RAMP_S_HINGE, UNLABELED, universvm_cost  # noqa: E402

COLUMNS = ("dataset", "split", "n_labeled", "method", "seconds", "test_error", "transductive_error", "parameters")
OUT = ROOT / "results" / "peers" / "universvm_multiclass"
SIZES = (100, 1000, 697)
LAM, LAM_U = 1e-3, 1.0


def read_class_outputs(path, classes):
    """The (rows, K) outputs UniverSVM's ``-D`` writes in multi-class mode (``f{k} = [v1 ,v2 ,...];``, k = 1..K)."""
    text = Path(path).read_text()
    found = {int(k): body for k, body in re.findall(r"f\{(\d+)\}\s*=\s*\[([^\]]*)\]", text)}
    if sorted(found) != list(range(1, classes + 1)):
        raise RuntimeError(f"{path} holds the outputs f{{k}} of k = {sorted(found)}, not of k = 1..{classes}")
    return np.column_stack([np.array([float(v) for v in re.split(r"[,\s]+", found[k].strip()) if v])
                            for k in range(1, classes + 1)])


def printed_accuracy(log):
    """The (right, of) rows of UniverSVM's "Accuracy= a (right/of)" line, or None."""
    match = re.search(r"Accuracy=\s*[\d.]+\s*\((\d+)/(\d+)\)", log)
    return (int(match.group(1)), int(match.group(2))) if match else None


def universvm_row(universvm, X, y, rows_l, rows_u, rows_t, cap, workdir):
    """UniverSVM ``-M K`` on one split (module doc) as a row of the table."""
    work, K = Path(workdir), int(np.unique(y).size)
    write_svmlight(work / "train.svm", X[np.r_[rows_l, rows_u]], np.r_[y[rows_l], np.full(rows_u.size, UNLABELED)])
    scored = np.r_[rows_u, rows_t]
    write_svmlight(work / "scored.svm", X[scored], y[scored])
    cost = universvm_cost(rows_l.size, LAM)
    command = [str(universvm), "-t", "0", "-c", repr(cost), "-S", repr(RAMP_S_HINGE), "-M", str(K),
               "-T", str(work / "scored.svm"), "-D", str(work / "values.txt"), str(work / "train.svm")]
    cpu, capped, code = run_capped(command, cap, work / "universvm.log")
    row = {"method": "universvm-cccp-M", "seconds": float(cap) if capped else cpu, "capped": capped,
           "test_error": float("nan"), "transductive_error": float("nan"),
           "parameters": json.dumps({"-t": 0, "-c": cost, "-S": RAMP_S_HINGE, "-M": K, "-z": "default (l/u) C"})}
    if capped:
        return row
    log = (work / "universvm.log").read_text(errors="replace")
    if code != 0:
        raise RuntimeError(f"{command[0]} failed with exit code {code}:\n{log[-2000:]}")
    shown = np.array(list(dict.fromkeys(y[rows_l])))        # the classes in the order the file first shows them
    predicted = shown[np.argmax(read_class_outputs(work / "values.txt", K), axis=1)]
    right = printed_accuracy(log)
    if right is not None and right != (int(np.sum(predicted == y[scored])), scored.size):
        raise RuntimeError(f"UniverSVM printed accuracy {right[0]}/{right[1]}; its outputs' largest class gives "
                           f"{int(np.sum(predicted == y[scored]))}/{scored.size}: the f{{k}} are not read as it reads them")
    row["transductive_error"] = float(np.mean(predicted[:rows_u.size] != y[rows_u]))
    row["test_error"] = float(np.mean(predicted[rows_u.size:] != y[rows_t]))
    return row


def our_row(X, y, rows_l, rows_u, rows_t):
    """Our K-class LinearCCCPTSVM on one split, one solver thread; its seconds the CPU time of the fit."""
    from ssl_repro.estimators import LinearCCCPTSVM
    train = np.r_[rows_l, rows_u]
    model = LinearCCCPTSVM(lam=LAM, lam_u=LAM_U, r=None, s=0.0)
    start = time.process_time()
    model.fit(X[train], np.r_[y[rows_l], np.full(rows_u.size, -1)])
    seconds = time.process_time() - start
    return {"method": "cccp-tsvm", "seconds": seconds, "capped": False,
            "test_error": float(np.mean(model.predict(X[rows_t]) != y[rows_t])),
            "transductive_error": float(np.mean(model.transduction_[rows_l.size:] != y[rows_u])),
            "parameters": json.dumps({"lam": LAM, "lam_u": LAM_U, "r": "labeled rows' shares", "s": 0.0,
                                      "multiclass": "one-vs-rest"}),
            "converged": all(d.converged for d in model.diagnostics_)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_peer_arguments(ap, "--universvm", "UniverSVM's binary", 1800.0, OUT)
    ap.add_argument("--splits", type=int, default=3)
    args = parse_peer_arguments(ap, argv, "--universvm")
    from ssl_repro.harness.app import limit_threads
    from ssl_repro.solvers import warm_up_kernels
    limit_threads(1)
    warm_up_kernels()       # compilation is not the fit: not timed
    X, y = load_digits_k()
    rows = []
    for seed in range(args.splits):
        parts = split(y, *SIZES, seed)
        found = [our_row(X, y, *parts)]
        if args.universvm is not None:
            with tempfile.TemporaryDirectory(prefix="universvm-") as workdir:
                found.append(universvm_row(args.universvm, X, y, *parts, args.cap, workdir))
        for row in found:
            rows.append({"dataset": "digits", "split": seed, "n_labeled": SIZES[0], **row})
            print(f"digits split {seed} {row['method']}: {row['seconds']:.2f} CPU s, transductive "
                  f"{row['transductive_error']:.4f}, test {row['test_error']:.4f}", flush=True)
    if args.universvm is not None:
        for stale in (args.out.with_suffix(".json"), args.out.with_suffix(".csv")):
            stale.unlink(missing_ok=True)       # written anew: no rows of an earlier run are kept
        write_table(rows, args.out, COLUMNS, {"universvm": str(args.universvm)}, data_keys({"digits": (X, y)}))
        print(f"wrote {args.out.with_suffix('.json')}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
