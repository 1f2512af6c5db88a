"""Calibrate the SYNTHETIC stand-ins' difficulty against 000 Table 9 and record it.

Each stand-in keeps the shape of the set it stands for (rows, features,
nonzeros per row, r: :attr:`~ssl_repro.data.registry.DatasetInfo.shape`);
its difficulty, (topic_mix, label_noise) in
:data:`~ssl_repro.data.registry.SYNTHETIC_DIFFICULTY`, is chosen so that
TSVM S=max's *transductive* error on split 0 at the lowest label count of
the curve is within 2 points of the S=max error of 000 Table 9 for that set.
Table 9 reports one "error rate" per method; it is matched as transductive
error because Table 9 compares with SVM-light run transductively (its error
is on the unlabeled rows it labels) and the paper's section before it
(Figs 5-7) is the transduction error.

``python experiments/calibrate_standins.py`` evaluates the registry's
parameters and writes ``results/calibration/calibration.json`` (paper
figure, reached error, every generator parameter; ``data_keys``: each
stand-in's key, of the X and y it fitted on); ``--search`` first
finds, for each set's registry ``topic_mix``, the ``label_noise`` that
reaches the target (the error floor rises by about the flipped fraction,
:func:`~ssl_repro.data.embedded.flip_balanced`) and prints it for the
registry.
"""
import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ssl_repro.utils.atomic import atomic_write  # noqa: E402
from ssl_repro.data import DATASETS, Dataset, make_split  # noqa: E402
from ssl_repro.data.embedded import flip_balanced, text_like  # noqa: E402
from ssl_repro.data.keys import matrix_key  # noqa: E402
from ssl_repro.data.registry import standin_parameters  # noqa: E402
from ssl_repro.estimators import LinearTSVM, mask_labels  # noqa: E402
from ssl_repro.utils.provenance import provenance  # noqa: E402

#: TSVM S=max error rate of 000 Table 9, in percent, per set.
TARGETS = {"aut-avn": 5.75, "real-sim": 14.26, "ccat": 20.81, "gcat": 6.39, "33-vs-36": 21.36}
MATCHED = "transductive error"
TOLERANCE = 2.0
OUT = ROOT / "results" / "calibration" / "calibration.json"


def tsvm_smax_errors(name, X, y):
    """(transductive, test) error in percent of TSVM S=max on split 0 at the lowest label count
    of ``synthetic-<name>`` with rows ``X`` and truth ``y``, as the harness runs it."""
    info = DATASETS[f"synthetic-{name}"]
    split = make_split(Dataset(info.name, X, y, "embedded", info), 0, info.label_grid[0])
    train = np.concatenate([split.labeled, split.unlabeled])
    tsvm = LinearTSVM(lam=info.lam, lam_u=info.lam_u, r=split.r, switches="max")
    tsvm.fit(X[train], mask_labels(y[train], np.arange(split.labeled.size)))

    def error(rows):
        return 100.0 * float(np.mean(np.where(tsvm.decision_function(X[rows]) > 0, 1, -1) != y[rows]))
    return error(split.unlabeled), error(split.test)


def search_noise(name, topic_mix, rounds=7):
    """The label_noise (a fraction, 3 decimals) at which TSVM S=max's transductive error on
    ``synthetic-<name>`` with ``topic_mix`` is within 0.5 points of :data:`TARGETS`, by bisection
    on [0, 2 min(r, 1 - r)] (the error grows with the noise; past some noise TSVM loses the
    clusters and jumps to ~50%, so secant steps would overshoot)."""
    parameters = dict(standin_parameters(name), topic_mix=topic_mix)
    parameters.pop("label_noise")
    X, y = text_like(**parameters)
    low, high = 0.0, 2 * min(np.mean(y > 0), np.mean(y < 0))
    noise, reached = 0.0, tsvm_smax_errors(name, X, y)[0]
    for _ in range(rounds):
        if abs(reached - TARGETS[name]) < 0.5:
            break
        if reached < TARGETS[name]:
            low = noise
        else:
            high = noise
        noise = round((low + high) / 2 if noise else min(TARGETS[name] / 100.0, high), 3)
        reached = tsvm_smax_errors(name, X, flip_balanced(y, noise, parameters["seed"]))[0]
        print(f"  {name}: topic_mix {topic_mix} label_noise {noise}: {reached:.2f}%", flush=True)
    return noise, reached


def calibration_row(name):
    """The record of one stand-in at the registry's parameters, with the key of the rows it was made from
    (``data_key``, :func:`~ssl_repro.data.keys.matrix_key`)."""
    from ssl_repro.data.embedded import standin
    parameters = standin_parameters(name)
    X, y = standin(parameters)
    transductive, test = tsvm_smax_errors(name, X, y)
    return {"data_key": matrix_key(X, y), "dataset": f"synthetic-{name}", "paper_error": TARGETS[name], "paper_source": "000 Table 9",
            "matched": MATCHED, "reached_error": round(transductive, 2), "test_error": round(test, 2),
            "within_tolerance": abs(transductive - TARGETS[name]) <= TOLERANCE,
            "method": "tsvm-Smax", "split": 0, "n_labeled": DATASETS[f"synthetic-{name}"].label_grid[0],
            "generator": parameters}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(TARGETS), choices=list(TARGETS))
    parser.add_argument("--search", action="store_true", help="search label_noise for each set first")
    parser.add_argument("--topic-mix", type=float, help="with --search: this topic_mix instead of the registry's")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    if args.search:
        for name in args.datasets:
            topic_mix = args.topic_mix or standin_parameters(name)["topic_mix"]
            noise, reached = search_noise(name, topic_mix)
            print(f"{name}: ({topic_mix}, {noise}) reaches {reached:.2f}% (target {TARGETS[name]}%)")
        return 0
    rows = []
    for name in args.datasets:
        rows.append(calibration_row(name))
        print(json.dumps({k: v for k, v in rows[-1].items() if k != "generator"}), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with atomic_write(args.out, "w") as f:
        json.dump({"provenance": provenance(), "data_keys": {row["dataset"]: row["data_key"] for row in rows},
                   "rows": rows}, f, indent=1)
        f.write("\n")
    return 0 if all(row["within_tolerance"] for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
