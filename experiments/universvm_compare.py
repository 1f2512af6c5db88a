"""002's CCCP-TSVM: UniverSVM 1.22 (the authors' program) beside the project's LinearCCCPTSVM.

    python experiments/universvm_compare.py --universvm /path/to/universvm [--cap 1800] [--keep-capped]

Rows: real pcmac on its 10 splits at the lowest and the highest label count
of its learning curve (2 and 584), and text20k (:mod:`ssl_repro.bench.text_model`:
its 100 labeled rows, the other 19,900 unlabeled).  Both programs get the
same labeled and unlabeled rows; the error on the unlabeled rows (truth
from the data) is the transductive error, on pcmac's test rows the test
error.

Parameter map.  The project's objective (:mod:`ssl_repro.solvers.cccp`) is
lambda/2 ||w||^2 + 1/(2l) sum_labeled H + lambda'/(2u) sum_unlabeled
[R_s(o) + R_s(-o)]; divided by lambda it is 002's form 1/2 ||w||^2 +
C sum_labeled + C* sum_unlabeled with C = 1/(2 l lambda) and
C* = lambda'/(2 u lambda).  So UniverSVM runs with ``-t 0 -c C`` and its
default ``-z`` = (l/u) C, which is C* at lambda' = 1 (002's heuristic
UC* = LC; the project's lambda' = 1 on both sets), lambda = 0.001 (the
papers').  Losses differ: UniverSVM uses the hinge and 002's ramp
plateau ``-S -0.3``; the project the squared hinge and s = 0 (its
counterpart, see :mod:`ssl_repro.solvers.cccp`), so the two minimize
different objectives: compare errors and time, not objective values.
Balance: UniverSVM constrains the mean unlabeled output to the labeled
rows' mean label (002); the project's model gets r = None, which is the
same constraint.

Times are CPU seconds, so that a busy machine slows neither side's figure: the
project's the CPU time of the fit (one solver thread); UniverSVM's the CPU
time of its process, which includes reading its text input (it prints no
training time); a run that has used ``--cap`` CPU seconds is killed and
recorded as capped (:func:`ssl_repro.harness.external.run_capped`); with ``--keep-capped`` (``run all``'s
step) an earlier run's capped row of the same problem, cap, parameters, binary and data is kept instead of
run again (:func:`kept_capped`).  UniverSVM is GPL: build it outside the repository and only run it
(``python -m ssl_repro.peers build universvm --archive PATH``; without ``--universvm`` the script runs that
build, if any).  Writes
``results/peers/universvm.csv`` and ``.json`` (rows, provenance and the keys of the sets the rows were made
from, ``data_keys``: pcmac's and text20k's X and y); rows of
earlier runs of other (dataset, split, n_labeled, method) are kept.
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

from ssl_repro.data import load_dataset, make_split  # noqa: E402
from ssl_repro.data.keys import data_keys  # noqa: E402
from ssl_repro.estimators.comparison import LinearCCCPTSVM  # noqa: E402
from ssl_repro.estimators import mask_labels  # noqa: E402
from ssl_repro.harness.external import (add_peer_arguments, earlier_rows, merge, parse_peer_arguments,  # noqa: E402
                                         run_capped, write_svmlight, write_table)
from ssl_repro.utils.provenance import provenance  # noqa: E402

COLUMNS = ("dataset", "split", "n_labeled", "method", "seconds", "test_error", "transductive_error",
           "parameters", "git_commit", "date", "command")
OUT = ROOT / "results" / "peers" / "universvm"
LAM, LAM_U, RAMP_S_HINGE, RAMP_S_OURS = 1e-3, 1.0, -0.3, 0.0
#: UniverSVM's label for an unlabeled training row.
UNLABELED = -3


def universvm_cost(n_labeled, lam=LAM):
    """UniverSVM's C for the project's lambda on ``n_labeled`` rows: C = 1/(2 l lambda) (module doc)."""
    return 1.0 / (2.0 * n_labeled * lam)


def read_function_values(path):
    """The decision values UniverSVM's ``-D`` writes ("f{1} = [ v1 ,v2 ,...];")."""
    text = Path(path).read_text()
    body = text[text.index("[") + 1:text.rindex("]")]
    return np.array([float(v) for v in re.split(r"[,\s]+", body.strip()) if v])


class Problem:
    """One comparison: rows ``X``, truth ``y`` (+1/-1), the labeled, unlabeled and test rows."""

    def __init__(self, dataset, split, X, y, labeled, unlabeled, test):
        self.dataset, self.split, self.X, self.y = dataset, split, X, y
        self.labeled, self.unlabeled, self.test = labeled, unlabeled, test

    def error(self, values, rows):
        return float(np.mean(np.where(values > 0, 1, -1) != self.y[rows])) if rows.size else float("nan")


def pcmac_problems(labels):
    """pcmac's 10 splits at each of ``labels`` (label counts)."""
    dataset = load_dataset("pcmac")
    for n_labeled in labels:
        for seed in range(10):
            s = make_split(dataset, seed, n_labeled)
            yield Problem("pcmac", seed, dataset.X, dataset.y, s.labeled, s.unlabeled, s.test)


def text20k_problem():
    """text20k's labeled rows and the rest unlabeled (no test rows), generated (:mod:`ssl_repro.bench.text_model`)."""
    from ssl_repro.bench.text_model import make_text_bench
    X, y, labeled = make_text_bench()
    return Problem("text20k", 0, X, y, np.flatnonzero(labeled), np.flatnonzero(~labeled), np.array([], int))


def universvm_row(problem, universvm, cap, workdir):
    """UniverSVM's linear CCCP-TSVM on ``problem`` (module doc) as a row of the table."""
    p, work = problem, Path(workdir)
    train = np.concatenate([p.labeled, p.unlabeled])
    write_svmlight(work / "train.svm", p.X[train],
                   np.concatenate([p.y[p.labeled], np.full(p.unlabeled.size, UNLABELED)]))
    scored = np.concatenate([p.unlabeled, p.test])
    write_svmlight(work / "scored.svm", p.X[scored], p.y[scored])
    cost = universvm_cost(p.labeled.size)
    command = [str(universvm), "-t", "0", "-c", repr(cost), "-S", repr(RAMP_S_HINGE),
               "-T", str(work / "scored.svm"), "-D", str(work / "values.txt"), str(work / "train.svm")]
    cpu, capped, code = run_capped(command, cap, work / "universvm.log")
    row = {"method": "universvm-cccp", "seconds": float(cap) if capped else cpu, "capped": capped,
           "cap_seconds": cap, "test_error": float("nan"), "transductive_error": float("nan"),
           "parameters": universvm_parameters(cost)}
    if capped:
        return row
    if code != 0:
        log = (work / "universvm.log").read_text(errors="replace")
        raise RuntimeError(f"{command[0]} failed with exit code {code}:\n{log[-2000:]}")
    values = read_function_values(work / "values.txt")
    if values.size != scored.size:
        raise RuntimeError(f"{work / 'values.txt'} has {values.size} values for {scored.size} rows")
    row["transductive_error"] = p.error(values[:p.unlabeled.size], p.unlabeled)
    row["test_error"] = p.error(values[p.unlabeled.size:], p.test)
    return row


def universvm_parameters(cost):
    """The ``parameters`` cell of UniverSVM's row at the cost ``-c`` = ``cost``."""
    return json.dumps({"-t": 0, "-c": cost, "-S": RAMP_S_HINGE, "-z": "default (l/u) C",
                       "balance": "labeled rows' mean label", "loss": "hinge"})


def kept_capped(earlier, problem, universvm, cap):
    """The capped UniverSVM row of ``problem`` that the earlier record ``earlier`` (its JSON, or {}) holds, when
    a run now could only repeat it: the same binary path, the same cap, the same parameters and the same data
    (its ``data_keys`` entry); None otherwise.  The row keeps its own commit, date and command.

    Decision (``--keep-capped``, what ``run all`` passes): a capped fit says only that UniverSVM needs more
    than the cap's CPU seconds; run again at the same cap on the same data it says it again, at the cost of the
    whole cap (text20k: 1,800 CPU s, 95% of the step in the run of 2026-11-29).  So it is run once and kept, its
    cap stated in the row (``cap_seconds``); no verdict reads it (the UniverSVM section is a check of our
    implementation).  Not a lower cap: the row would then say less (a bound of the lower cap).  A binary
    rebuilt at the same path is not told apart: give another path, or leave ``--keep-capped`` out."""
    if earlier.get("universvm") != str(universvm) or earlier.get("data_keys", {}).get(problem.dataset) != \
            data_keys({problem.dataset: (problem.X, problem.y)})[problem.dataset]:
        return None
    parameters = universvm_parameters(universvm_cost(problem.labeled.size))
    return next((row for row in earlier.get("rows", []) if row["method"] == "universvm-cccp" and row.get("capped")
                 and row.get("cap_seconds") == cap and row.get("parameters") == parameters
                 and (row["dataset"], row["split"], row["n_labeled"]) == (problem.dataset, problem.split,
                                                                           int(problem.labeled.size))), None)


def our_row(problem):
    """The project's LinearCCCPTSVM on ``problem`` at the mapped parameters, one solver thread; its
    seconds are the process's CPU time of the fit, as UniverSVM's are its process's CPU time."""
    from ssl_repro.harness.app import limit_threads
    from ssl_repro.solvers import warm_up_kernels
    limit_threads(1)
    warm_up_kernels()       # compilation is not the fit: not timed
    p = problem
    train = np.concatenate([p.labeled, p.unlabeled])
    model = LinearCCCPTSVM(lam=LAM, lam_u=LAM_U, r=None, s=RAMP_S_OURS)
    start = time.process_time()
    model.fit(p.X[train], mask_labels(p.y[train], np.arange(p.labeled.size)))
    seconds = time.process_time() - start
    return {"method": "cccp-tsvm", "seconds": seconds, "capped": False, "cap_seconds": None,
            "test_error": p.error(model.decision_function(p.X[p.test]), p.test) if p.test.size else float("nan"),
            "transductive_error": p.error(model.decision_function(p.X[p.unlabeled]), p.unlabeled),
            "parameters": json.dumps({"lam": LAM, "lam_u": LAM_U, "r": None, "s": RAMP_S_OURS,
                                      "balance": "labeled rows' mean label", "loss": "squared hinge"}),
            "converged": bool(model.diagnostics_.converged)}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_peer_arguments(ap, "--universvm", "UniverSVM's binary", 1800.0, OUT)
    ap.add_argument("--sets", nargs="+", default=["pcmac", "text20k"], choices=["pcmac", "text20k"])
    ap.add_argument("--keep-capped", action="store_true",
                    help="keep an earlier run's capped UniverSVM row of the same problem, cap, parameters, binary "
                         "path and data instead of running it again (its cap stated in the row)")
    args = parse_peer_arguments(ap, argv, "--universvm")
    earlier = json.loads(args.out.with_suffix(".json").read_text()) if args.out.with_suffix(".json").exists() else {}
    problems = []
    if "pcmac" in args.sets:
        grid = load_dataset("pcmac").info.curve_labels
        problems.append(pcmac_problems((grid[0], grid[-1])))
    if "text20k" in args.sets:
        problems.append([text20k_problem()])
    stamp, rows, used = provenance(), [], {}
    for problem in (p for group in problems for p in group):
        used.setdefault(problem.dataset, (problem.X, problem.y))
        common = {"dataset": problem.dataset, "split": problem.split, "n_labeled": int(problem.labeled.size),
                  "git_commit": stamp["git_commit"], "date": stamp["date"], "command": stamp["command"]}
        found = [our_row(problem)]
        kept = kept_capped(earlier, problem, args.universvm, args.cap) if args.keep_capped and args.universvm else None
        if kept is not None:        # its own commit, date and command stay (``{**common, **row}`` below)
            print(f"{problem.dataset} split {problem.split}: UniverSVM's capped row of {kept['date']} kept "
                  f"(capped at {kept['cap_seconds']:g} CPU s; --keep-capped)", flush=True)
            found.append(kept)
        elif args.universvm is not None:
            with tempfile.TemporaryDirectory(prefix="universvm-") as workdir:
                found.append(universvm_row(problem, args.universvm, args.cap, workdir))
        for row in found:
            rows.append({**common, **row})
            print(f"{problem.dataset} split {problem.split} l={problem.labeled.size} {row['method']}: "
                  f"{row['seconds']:.2f} s, transductive {row['transductive_error']:.4f}, "
                  f"test {row['test_error']:.4f}", flush=True)
        write_table(merge(earlier_rows(args.out), rows, ("dataset", "split", "n_labeled", "method")), args.out, COLUMNS,
                    {"universvm": str(args.universvm) if args.universvm else None}, data_keys(used))
    return 0


if __name__ == "__main__":
    sys.exit(main())
