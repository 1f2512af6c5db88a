"""000 Table 9 / 003 Table 4: SVM-light's transductive SVM beside TSVM S=1, S=max and DA.

    python experiments/svmlight_table9.py --svm-learn /path/to/svm_learn [--cap 600] [--datasets ...]

On the first split (seed 0) at the lowest label count of each set's learning
curve (real pcmac and every SYNTHETIC stand-in), as 000 Sec. 4 says
("at its default optimization settings on the first split at the lowest end
of the learning curves"): SVM-light V6.02 (Joachims) runs transductively
with its defaults and ``-p r`` (r the true positive fraction of the
split's unlabeled rows, the r the project's methods get); its input is
the labeled rows (+1/-1) and the unlabeled rows (0) in svmlight format, its
transductive labels (``-l``) give the transductive error and
``svm_classify`` (beside ``svm_learn``, if present) the test error.  Its
time is the "Runtime in cpu-seconds" it prints (the optimization; reading
the file excluded, as the harness's ``seconds`` excludes loading); a run
that has used ``--cap`` seconds of CPU time is killed and recorded with
``capped`` true and the cap as its time ("> cap"): a CPU-time cap, so a
busy machine does not cut a run short
(:func:`ssl_repro.harness.external.run_capped`).  The project's
methods run as the harness runs them (:func:`ssl_repro.harness.runner.run_job`,
one solver thread).

SVM-light's licence forbids redistribution, so the repository does not hold it:
``python -m ssl_repro.peers build svm-light`` builds it outside the repository (from the registry's
``svmlight`` 0.4 sdist, ``gcc -O3``) and this script runs that build when ``--svm-learn`` is not given.
(An earlier note here said plain ``-O3`` made its transductive optimizer zig-zag; with gcc 12.2 that
build printed the same lines, runtime aside, and the same transductive labels as a ``-O3
-fno-strict-aliasing`` build on two text-like problems of 1,500 and 3,000 rows, 30,898 and 59,214
iterations, and gave pcmac's committed errors: checked 2026-12-07.)  Writes ``results/peers/table9.csv`` and ``table9.json``
(rows + provenance, the binary's path and version line, and the keys of the
sets the rows were made from, ``data_keys``); rows of earlier
runs of other (dataset, method) pairs are kept, read again before each
write, so runs over other datasets may go in parallel.
"""
import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ssl_repro.data import load_dataset, make_split  # noqa: E402
from ssl_repro.data.keys import data_keys  # noqa: E402
from ssl_repro.harness.external import (add_peer_arguments, earlier_rows, merge, parse_peer_arguments,  # noqa: E402
                                         svmlight_transduce, version_line, write_svmlight, write_table)
from ssl_repro.harness.methods import recipe_variants  # noqa: E402
from ssl_repro.utils.provenance import provenance  # noqa: E402

DATASETS = ("pcmac", "synthetic-aut-avn", "synthetic-real-sim", "synthetic-ccat", "synthetic-gcat",
            "synthetic-33-vs-36")
#: The project's methods of Table 9 (the variants tagged ``svmlight_table9``), record string -> job config.
OURS = {v.record_name: v.resolved() for v in recipe_variants("svmlight_table9")}
COLUMNS = ("dataset", "data", "n_labeled", "method", "seconds", "capped", "cap_seconds", "test_error",
           "transductive_error", "git_commit", "date", "command")
OUT = ROOT / "results" / "peers" / "table9"


def svmlight_row(dataset, split, svm_learn, cap, workdir):
    """SVM-light's transductive SVM on ``split`` of ``dataset`` (see module doc): a row of the table."""
    X, y = dataset.X, dataset.y
    train = np.concatenate([split.labeled, split.unlabeled])
    labels = np.concatenate([y[split.labeled], np.zeros(split.unlabeled.size, dtype=np.int8)])
    work = Path(workdir)
    run = svmlight_transduce(svm_learn, X[train], labels, ["-p", f"{split.r:.6f}"], cap, work)
    row = {"method": "svmlight-tsvm", "capped": run.capped, "cap_seconds": cap, "test_error": float("nan"),
           "transductive_error": float("nan"), "cpu_seconds": run.cpu}
    if run.capped:
        return {**row, "seconds": float(cap)}
    if run.gave_up:                     # it ended itself for slow progress, without labels: no error to record
        return {**row, "seconds": run.cpu, "converged": False}
    row["seconds"] = run.cpu if run.runtime is None else run.runtime
    row["transductive_error"] = float(np.mean(run.assigned != y[split.unlabeled]))
    svm_classify = Path(svm_learn).with_name("svm_classify")
    if split.test.size and svm_classify.exists():
        write_svmlight(work / "test.svm", X[split.test], y[split.test])
        subprocess.run([str(svm_classify), str(work / "test.svm"), str(work / "model.txt"),
                        str(work / "test_outputs.txt")], check=True, capture_output=True)
        outputs = np.loadtxt(work / "test_outputs.txt")
        row["test_error"] = float(np.mean(np.where(outputs > 0, 1, -1) != y[split.test]))
    return row


def our_row(name, n_labeled, method):
    """The harness's record of ``method`` (a key of :data:`OURS`) on split 0 as a row of the table."""
    from ssl_repro.harness.app import limit_threads
    from ssl_repro.harness.runner import run_job
    limit_threads(1)
    record = run_job({"dataset": {"name": name}, "method": OURS[method],
                      "split": 0, "n_labeled": n_labeled})
    return {"method": method, "seconds": record["seconds"], "capped": False, "cap_seconds": None,
            "test_error": record["test_error"], "transductive_error": record["transductive_error"],
            "converged": record["converged"]}


def table_rows(dataset, svm_learn, cap, methods):
    """Every row of the loaded ``dataset``: SVM-light (when ``svm_learn`` is given) and ``methods``."""
    name = dataset.name
    n_labeled = dataset.info.curve_labels[0]
    split = make_split(dataset, 0, n_labeled)
    common = {"dataset": name, "data": "SYNTHETIC" if dataset.info.embedded else "real", "n_labeled": n_labeled}
    rows = []
    if svm_learn is not None:
        with tempfile.TemporaryDirectory(prefix="svmlight-") as workdir:
            rows.append({**common, **svmlight_row(dataset, split, svm_learn, cap, workdir)})
        print(f"{name} svmlight-tsvm: {rows[-1]}", flush=True)
    for method in methods:
        rows.append({**common, **our_row(name, n_labeled, method)})
        print(f"{name} {method}: {rows[-1]}", flush=True)
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_peer_arguments(ap, "--svm-learn", "SVM-light's svm_learn binary", 600.0, OUT)
    ap.add_argument("--datasets", nargs="+", default=list(DATASETS))
    ap.add_argument("--methods", nargs="*", default=list(OURS), choices=list(OURS))
    args = parse_peer_arguments(ap, argv, "--svm-learn")
    stamp = provenance()
    binary = {"path": str(args.svm_learn), "version": version_line(args.svm_learn) if args.svm_learn else None}
    rows, used = [], {}
    for name in args.datasets:
        used[name] = load_dataset(name)
        for row in table_rows(used[name], args.svm_learn, args.cap, args.methods):
            rows.append({**row, "git_commit": stamp["git_commit"], "date": stamp["date"],
                         "command": stamp["command"]})
        write_table(merge(earlier_rows(args.out), rows, ("dataset", "method")), args.out, COLUMNS,
                    {"svm_learn": binary}, data_keys(used))
    return 0


if __name__ == "__main__":
    sys.exit(main())
