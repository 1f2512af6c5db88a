"""002's small-scale experiments with the kernel CCCP-TSVM (KernelCCCPTSVM): Table 2, Fig 4, Fig 3.

    python experiments/cccp_002.py sets
    python experiments/cccp_002.py linear-diagnosis
    python experiments/cccp_002.py table2 --dataset g50c|text|digits [--splits 10] [--universvm PATH] [--svm-learn PATH] [--fresh]
    python experiments/cccp_002.py fig4 [--dataset g50c|text]         (default: both, g50c then text)
    python experiments/cccp_002.py fig3 [--universvm PATH] [--svm-learn PATH] [--methods ...] [--sizes 200 all]
                                        [--splits 3] [--repeats 3] [--svmlight-cap 600]
    python experiments/cccp_002.py table6 [--dataset text|mnist-5k] [--splits 10]
    python experiments/cccp_002.py large [...]     (Table 4, Fig 8: experiments/cccp_002_large.py)

Data, splits, the error and the records: ``experiments/cccp_002_data.py``.  Table 2 reports the best
mean error over the hyperparameter grid (tuned on the test rows, as 002 says).  Its uspst column runs on
``digits`` (the analog, 10 classes one-vs-rest, record ``grid_digits.csv``) on a reduced grid and 2 splits
(:data:`GRIDS`: each fit there is ten binary ones).

Grid (:data:`GRIDS`; text's is smaller: each fit there costs about 20 times g50c's, and the runs
shared a loaded machine): the RBF width sigma = factor x the median pairwise
distance (gamma = 1/(2 sigma^2)), C (lam = 1/(C L)), and for CCCP-TSVM s and
lam_u (C* = lam_u L C / U; lam_u = 1 is UC* = LC).  Table 2's rows:
SVM (sklearn's SVC on the labeled rows), nabla-TSVM (KernelNablaTSVM, C* = C
at the end of its schedule: lam_u = U / L), CCCP-TSVM with s = 0 and UC* = LC
(2 hyperparameters), with s tuned (3), with s and C* tuned (4), and UniverSVM
(002's authors' program, ``-t 2 -g gamma -c C -S s``, its default C* = (L/U) C)
at the grid points of the 3-parameter row, and SVM-light's TSVM (V6.02, built
outside the repository: ``--svm-learn``, by default the one ``python -m ssl_repro.peers build svm-light``
built; ``cccp_002_peers.svmlight_fit``) at the grid points of nabla-TSVM's row.  Without either its rows
are absent, and the records say so (likewise UniverSVM's without ``--universvm`` or its build).

Fig 4: J^s and the error on the unlabeled rows after each CCCP step, split 0,
at the best grid point of the s = 0, UC* = LC row.  Fig 3: training time
against the number of unlabeled rows on text, splits 0-2, at the best grid point
of each method, by the timing protocol (3 repeats on 3 splits, one fit at a
time on an idle machine, :func:`fig3`): CPU seconds of the fit
(``time.process_time``, one thread; UniverSVM's and SVM-light's process's) and wall seconds, and
beside them the work counts (CCCP steps, SMO steps, kernel evaluations;
L-BFGS iterations for nabla-TSVM; the iterations and kernel evaluations SVM-light prints).

``linear-diagnosis``: why the linear CCCP-TSVM is one-sided with few labels (``experiments/cccp_002_linear.py``).

Table 6 (002 Sec. 6.2) on text and on MNIST-8 (mnist-5k, 8 against the rest): the labeled rows (text 50,
MNIST-8 100) and the rest cut in two halves A and B (seed = split); 002's kernel, C and s per set
(:data:`TABLE6`), C* over its grid there; the error is always on B; "semi-supervised" trains with A
unlabeled, "transductive" with B; SVM on the labeled rows.  MNIST-8's halves are 2,450 rows each (mnist-5k
less 100 labeled ones): 002's halves, cut from MNIST's 70,000, are not printed; its run-all step fits 002's
10 splits (a split's 6 fits take about a minute of CPU).
"""
import argparse
import itertools
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ssl_repro.estimators import mask_labels  # noqa: E402
from ssl_repro.labels import mask_classes  # noqa: E402
from ssl_repro.peers import peer_program  # noqa: E402
from ssl_repro.harness.timing_protocol import flat, measured  # noqa: E402
from ssl_repro.kernel.cccp import kernel_cccp_tsvm  # noqa: E402
from ssl_repro.solvers import warm_up_kernels  # noqa: E402
from ssl_repro.kernel.rows import RowCache  # noqa: E402
from ssl_repro.estimators.kernel_cccp import KernelCCCPTSVM, sampled_sigma  # noqa: E402
from ssl_repro.estimators.kernel import KernelNablaTSVM  # noqa: E402

from cccp_002_data import N_LABELED, OUT, error, load, note, split_rows, write  # noqa: E402
from cccp_002_peers import SVMLIGHT_CAP, svmlight_binary, svmlight_fit, universvm_fit  # noqa: E402

#: 002's other heuristic (Table 3), C* = C: recorded as its lam_u, U / L, with ``heuristic`` "C*=C".
C_STAR_IS_C = "C*=C"
#: digits (the uspst analog, 10 classes one-vs-rest: each fit is ten; nabla-TSVM about 70 CPU s a fit there,
#: CCCP-TSVM about 9) has the smallest grid, so that its step takes minutes: one width (the median distance;
#: 002's uspst grid is not printed), one C, the two s of text's grid and lam_u 1 (UC* = LC) and 3.
GRIDS = {"g50c": {"factor": (0.5, 1.0, 2.0, 4.0), "C": (0.1, 1.0, 10.0, 100.0), "s": (0.0, -0.2, -0.4, -0.6),
                  "lam_u": (0.3, 1.0, 3.0, C_STAR_IS_C)},
         "digits": {"factor": (1.0,), "C": (10.0,), "s": (0.0, -0.3), "lam_u": (1.0, 3.0)},
         "text": {"factor": (1.0, 2.0, 4.0), "C": (10.0, 100.0), "s": (0.0, -0.3), "lam_u": (1.0, C_STAR_IS_C)}}
#: Unlabeled-row counts of Fig 3 on text (the last: all of them), and its protocol's repeats and splits.
FIG3_SIZES = (200, 400, 800, 1200, 1600, None)
FIG3_REPEATS, FIG3_SPLITS = 3, 3
#: Peers run at another method's best grid point (Fig 3): SVM-light's TSVM at nabla-TSVM's (module doc).
POINT_OF = {"svmlight-tsvm": "nabla-tsvm"}
#: The peers' programs: method -> the option naming its binary.
PEERS = {"universvm": "--universvm", "svmlight-tsvm": "--svm-learn"}


def work(info, field):
    """A work count of a solver's record, summed over the K records of a one-vs-rest fit (a list)."""
    return sum(getattr(i, field) for i in info) if isinstance(info, list) else getattr(info, field)


def fit_row(method, X, y, labeled, unlabeled, sigma, C, s=None, lam_u=None, universvm=None, svm_learn=None,
            svmlight_cap=SVMLIGHT_CAP, scored=None):
    """One fit: the method at the grid point, its error on the unlabeled rows (``scored``: on these rows, some of
    the unlabeled ones: Fig 6's test part, our methods only), CPU seconds and work.  A K-class
    set (truth 0..K-1: digits) is fitted one-vs-rest with each binary problem's r its class's share, as 002
    does (the package's estimators; SVM: scikit-learn's one-vs-rest SVC), and scored by the largest output;
    the work counts are summed over the K problems."""
    L, U = labeled.size, unlabeled.size
    scored = unlabeled if scored is None else scored
    train = np.concatenate([labeled, unlabeled])
    multi = not set(np.unique(y)) <= {-1, 1}
    y_fit = mask_classes(y[train], np.arange(L)) if multi else mask_labels(y[train], np.arange(L))
    gamma = 1.0 / (2.0 * sigma ** 2)
    row = {"method": method, "C": C, "sigma": sigma, "s": s, "lam_u": U / L if lam_u == C_STAR_IS_C else lam_u,
           "heuristic": {C_STAR_IS_C: C_STAR_IS_C, 1.0: "UC*=LC"}.get(lam_u), "n_unlabeled": U, "converged": True}
    start = time.process_time()
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        if method == "svm":
            from sklearn.multiclass import OneVsRestClassifier
            from sklearn.svm import SVC
            svc = OneVsRestClassifier(SVC(C=C, gamma=gamma)) if multi else SVC(C=C, gamma=gamma)
            values = svc.fit(X[labeled], y[labeled]).decision_function(X[scored])
        elif method == "nabla-tsvm":
            est = KernelNablaTSVM(lam=1.0 / (C * L), lam_u=U / L, sigma=sigma, max_rows=None).fit(X[train], y_fit)
            values = est.decision_function(X[scored])
            row.update(lbfgs_iterations=work(est.diagnostics_, "lbfgs_iterations"),
                       converged=all(i.converged for i in est.diagnostics_) if multi else est.diagnostics_.converged)
        elif method == "cccp-tsvm":
            est = KernelCCCPTSVM(lam=1.0 / (C * L), lam_u=lam_u, s=s, sigma=sigma).fit(X[train], y_fit)
            info = est.diagnostics_
            values = est.decision_function(X[scored]) if multi or scored is not unlabeled else \
                np.where(est.transduction_[L:] == est.classes_[1], 1.0, -1.0)
            row.update(cccp_iterations=work(info, "cccp_iterations"), smo_iterations=work(info, "smo_iterations"),
                       kernel_evaluations=work(info, "kernel_evaluations"),
                       converged=all(i.converged for i in info) if multi else info.converged,
                       objective=work(info, "own_objective"),
                       positive_fraction=None if multi else info.positive_fraction)
        elif method == "svmlight-tsvm":
            return {**row, **svmlight_fit(svm_learn, X, y, labeled, unlabeled, gamma, C, svmlight_cap)}
        else:
            return {**row, **universvm_fit(universvm, X, y, labeled, unlabeled, gamma, C, s)}
    row["seconds"] = time.process_time() - start
    row["transductive_error"] = error(values, y[scored])
    return row


def grid_points(grid, method):
    base = itertools.product(grid["factor"], grid["C"])
    if method in ("svm", "nabla-tsvm", "svmlight-tsvm"):
        return [(f, C, None, None) for f, C in base]
    if method == "universvm":
        return [(f, C, s, 1.0) for (f, C), s in itertools.product(base, grid["s"])]
    return [(f, C, s, u) for (f, C), s, u in itertools.product(base, grid["s"], grid["lam_u"])]


#: Table 2's record per set: g50c's and text's in grid.csv, digits' (the uspst column, 10 classes) in a file of
#: its own, so that the claims and tables of g50c and text read what they read before it.
GRID_FILES = {"digits": "grid_digits.csv"}


def grid_file(dataset):
    """The record of ``dataset``'s Table 2 grid (:data:`GRID_FILES`, else grid.csv)."""
    return OUT / GRID_FILES.get(dataset, "grid.csv")


def table2(dataset, splits, universvm, svm_learn=None, svmlight_cap=SVMLIGHT_CAP, fresh=False):
    """Table 2's grid on ``dataset`` (module doc), into its record (:func:`grid_file`); on a K-class set (digits)
    the peers (two-class programs here) are not run.  A rerun fits only the points the record lacks (an
    interrupted run resumes); ``fresh`` fits every point again (``run all``: a record of one commit),
    replacing those rows; a peer's rows are replaced only when its binary is given."""
    X, y = load(dataset)
    median = sampled_sigma(X)
    binary = set(np.unique(y)) <= {-1, 1}
    methods = ["svm", "nabla-tsvm", "cccp-tsvm"] + (["universvm"] if universvm and binary else []) + \
        (["svmlight-tsvm"] if svm_learn and binary else [])
    rows = []
    done_before = set() if fresh else done_points(dataset)
    for split in range(splits):
        labeled, unlabeled = split_rows(y, split)
        for method in methods:
            for factor, C, s, lam_u in grid_points(GRIDS[dataset], method):
                if (split, method, factor, C, s, lam_u) in done_before:
                    continue
                row = fit_row(method, X, y, labeled, unlabeled, factor * median, C, s, lam_u, universvm, svm_learn,
                              svmlight_cap)
                rows.append({"dataset": dataset, "split": split, "n_labeled": labeled.size, "factor": factor, **row})
            print(f"{dataset} split {split} {method}: {sum(r['split'] == split and r['method'] == method for r in rows)} "
                  "grid points fitted", flush=True)
        write(grid_file(dataset), rows, ("dataset", "split", "method", "factor", "C", "s", "lam_u"))
    note(universvm, f"table2 {dataset}", {dataset: (X, y)}, svmlight_binary(svm_learn))


def done_points(dataset):
    """The (split, method, factor, C, s, lam_u) already in ``dataset``'s grid record (a rerun adds the others)."""
    if not grid_file(dataset).exists():
        return set()
    grid = pd.read_csv(grid_file(dataset))
    grid = grid[grid["dataset"] == dataset]
    heuristic = grid["heuristic"] if "heuristic" in grid else pd.Series(None, index=grid.index)
    lam_u = [C_STAR_IS_C if h == C_STAR_IS_C else (None if pd.isna(u) else u) for h, u in zip(heuristic, grid["lam_u"])]
    s = [None if pd.isna(v) else v for v in grid["s"]]
    return set(zip(grid["split"], grid["method"], grid["factor"], grid["C"], s, lam_u))


def best_point(dataset, method="cccp-tsvm", s=0.0, lam_u=1.0):
    """The grid point of the lowest mean error over the splits (the s = 0, UC* = LC row for CCCP)."""
    grid = pd.read_csv(OUT / "grid.csv")
    rows = grid[(grid["dataset"] == dataset) & (grid["method"] == method)]
    if method in ("cccp-tsvm", "universvm"):
        rows = rows[(rows["s"] == s) & (rows["lam_u"] == lam_u)]
    means = rows.groupby(["factor", "C"])["transductive_error"].mean()
    return means.idxmin()


def fig4(dataset):
    X, y = load(dataset)
    labeled, unlabeled = split_rows(y, 0)
    factor, C = best_point(dataset)
    sigma = factor * sampled_sigma(X)
    L, U = labeled.size, unlabeled.size
    X_train = X[np.concatenate([labeled, unlabeled])]
    gamma = 1.0 / (2.0 * sigma ** 2)
    rows = RowCache(X_train, "rbf", gamma, 2)
    K_u = np.array([rows.row(d) for d in range(L, L + U)])     # K(unlabeled, training rows)
    errors = []
    _, _, _, info = kernel_cccp_tsvm(X_train, np.arange(L), y[labeled].astype(float), np.arange(L, L + U), C,
                                     L * C / U, s=0.0, gamma=gamma,
                                     on_step=lambda step, coef, b: errors.append(error(K_u @ coef + b, y[unlabeled])))
    rows = [{"dataset": dataset, "split": 0, "factor": factor, "C": C, "s": 0.0, "lam_u": 1.0, "step": step,
             "objective": value, "transductive_error": e} for (step, value), e in zip(info.objective_path, errors)]
    write(OUT / "path.csv", rows, ("dataset", "step"))
    note(None, f"fig4 {dataset}", {dataset: (X, y)})


def fig3(universvm, methods=None, svm_learn=None, sizes=FIG3_SIZES, repeats=FIG3_REPEATS, splits=FIG3_SPLITS,
         svmlight_cap=SVMLIGHT_CAP):
    """Fig 3 by the timing protocol (:mod:`ssl_repro.harness.timing_protocol`): ``repeats`` repeats
    (outermost, so each repeat runs every method and size before the next) on ``splits`` splits (defaults
    :data:`FIG3_REPEATS`, :data:`FIG3_SPLITS`), at ``sizes`` (a subset of :data:`FIG3_SIZES`; None: all the
    unlabeled rows), one fit at a time on an idle machine, load and the other processes' CPU use recorded
    before and during each fit; CPU and wall seconds beside the work counts.  Each method at its best grid
    point on text (:func:`best_point`), SVM-light's TSVM at nabla-TSVM's (:data:`POINT_OF`: the same objective,
    hinge losses on both kinds of rows with C* = C at the end; 002 ran SVM-light at the others' settings)."""
    X, y = load("text")
    methods = methods or ["cccp-tsvm", "nabla-tsvm"] + (["universvm"] if universvm else []) + \
        (["svmlight-tsvm"] if svm_learn else [])
    points = {m: best_point("text", POINT_OF.get(m, m)) for m in methods}
    sigma = sampled_sigma(X)
    rows = []
    for repeat, split, method, size in itertools.product(range(repeats), range(splits), methods, sizes):
        labeled, unlabeled = split_rows(y, split)
        factor, C = points[method]
        subset = unlabeled if size is None else np.random.default_rng(split).choice(unlabeled, size, replace=False)
        with measured(None) as timing:
            wall = time.perf_counter()
            row = fit_row(method, X, y, labeled, np.sort(subset), factor * sigma, C, 0.0, 1.0, universvm, svm_learn,
                          svmlight_cap)
            wall = time.perf_counter() - wall
        rows.append({"dataset": "text", "split": split, "repeat": repeat, "factor": factor, **row,
                     "wall_seconds": wall, **flat(timing)})
        print(f"text {method} split {split} repeat {repeat} U={row['n_unlabeled']}: {row['seconds']:.2f} CPU s, "
              f"{wall:.2f} s (others {timing['others_busy_during']:.2f} cores)", flush=True)
        write(OUT / "times.csv", rows, ("repeat", "split", "method", "n_unlabeled"))
    note(universvm, "fig3", {"text": (X, y)}, svmlight_binary(svm_learn))


def fig3_sizes(values):
    """``--sizes``: unlabeled-row counts of :data:`FIG3_SIZES` ("all": every unlabeled row), in its order."""
    chosen = {None if v == "all" else int(v) for v in values}
    unknown = chosen - set(FIG3_SIZES)
    if unknown:
        raise ValueError(f"--sizes {sorted(unknown)}: not sizes of Fig 3; choose from "
                         + ", ".join("all" if v is None else str(v) for v in FIG3_SIZES))
    return tuple(v for v in FIG3_SIZES if v in chosen)


def sets():
    rows, used = [], {}
    for name in GRIDS:
        X, y = used[name] = load(name)
        rows.append({"dataset": name, "rows": X.shape[0], "features": X.shape[1], "nonzeros_per_row": X.nnz / X.shape[0],
                     "positive_share": float(np.mean(y > 0)), "labeled": N_LABELED})
    write(OUT / "sets.csv", rows, ("dataset",))
    note(None, "sets", used)


#: Table 6's two columns (002 Sec. 6.2), per set: its record under results/cccp_002/, the labeled rows, 002's C
#: and s, the kernel (estimator's and SVM's) and the class against the rest (None: two classes).  text: linear,
#: C = 1000, s = -0.3.  MNIST-8 on mnist-5k (a real subset): 002's gamma = 0.0128, C = 10; 002 prints neither its
#: s nor its labeled count: s is Table 5's -0.1, 100 labeled rows (002's SVM error 6.68% against a trivial ~10%
#: is that of few labels).  The C* grid (lam_u; 1 is UC* = LC), each mode at its best as in 002; MNIST-8's is one
#: step up (a first split's best was 3, text's edge: C* = 3 L C / U = 1.2, Table 5's C* at 100 labels).
TABLE6 = {"text": {"record": "table6.csv", "labeled": N_LABELED, "C": 1000.0, "s": -0.3, "kernel": {"kernel": "linear"},
                   "svm": {"kernel": "linear"}, "positive": None, "lam_u": (0.3, 1.0, 3.0)},
          "mnist-5k": {"record": "table6_mnist8.csv", "labeled": 100, "C": 10.0, "s": -0.1,
                       "kernel": {"sigma": float(np.sqrt(0.5 / 0.0128)), "max_rows": None}, "svm": {"gamma": 0.0128},
                       "positive": 8, "lam_u": (1.0, 3.0, 10.0)}}


def table6(splits, dataset="text"):
    """Table 6's column of ``dataset`` (:data:`TABLE6`; module doc) into its record: per split the SVM on the
    labeled rows and CCCP-TSVM in both modes at each C*, the error on half B, CPU and wall seconds of the fit
    (one thread; wall seconds on a shared machine are no timing)."""
    from sklearn.svm import SVC
    X, y_set = load(dataset)
    at = TABLE6[dataset]
    y = y_set if at["positive"] is None else np.where(y_set == at["positive"], 1, -1)
    rows = []
    for split in range(splits):
        labeled, rest = split_rows(y, split, at["labeled"])
        rest = np.random.default_rng(1000 + split).permutation(rest)
        half_a, half_b = np.sort(rest[:rest.size // 2]), np.sort(rest[rest.size // 2:])
        clock = time.process_time(), time.perf_counter()
        svm = SVC(C=at["C"], **at["svm"]).fit(X[labeled], y[labeled])
        rows.append({"dataset": dataset, "split": split, "mode": "svm", "lam_u": None,
                     "error": error(svm.decision_function(X[half_b]), y[half_b]), **_seconds(clock)})
        for mode, unlabeled in (("semi-supervised", half_a), ("transductive", half_b)):
            train = np.concatenate([labeled, unlabeled])
            for lam_u in at["lam_u"]:
                clock = time.process_time(), time.perf_counter()
                with warnings.catch_warnings(record=True):
                    warnings.simplefilter("always")
                    est = KernelCCCPTSVM(lam=1.0 / (at["C"] * labeled.size), lam_u=lam_u, s=at["s"], **at["kernel"]
                                         ).fit(X[train], mask_labels(y[train], np.arange(labeled.size)))
                rows.append({"dataset": dataset, "split": split, "mode": mode, "lam_u": lam_u,
                             "error": error(est.decision_function(X[half_b]), y[half_b]), **_seconds(clock),
                             "cccp_iterations": est.diagnostics_.cccp_iterations,
                             "converged": est.diagnostics_.converged})
        print(f"{dataset} table6 split {split}: {len(rows)} rows", flush=True)
        write(OUT / at["record"], rows, ("dataset", "split", "mode", "lam_u"))
        note(None, f"table6 {dataset}", {dataset: (X, y_set)})     # keyed with each split: a stopped run too


def _seconds(clock):
    """CPU and wall seconds since ``clock`` ((process_time, perf_counter) at the start)."""
    return {"seconds": time.process_time() - clock[0], "wall_seconds": time.perf_counter() - clock[1]}


def warm_up():
    """Load the compiled kernels (numba's cache) before anything is timed: the SMO's, and the linear engine's that
    nabla-TSVM's solver runs on (float64 rows, both CSR index types).  Without the latter, a run from a fresh clone
    timed their compilation inside its first nabla-TSVM fits (seconds against a fit's tenth of a second), which
    Fig 5's ranges (claim 75) would read as nabla-TSVM's own."""
    KernelCCCPTSVM.warm_up()
    warm_up_kernels(dtypes=(np.float64,))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["large"]:       # 002 Sec. 5.1 (Table 4, Fig 8): experiments/cccp_002_large.py
        from cccp_002_large import main as large
        return large(argv[1:])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["sets", "linear-diagnosis", "table2", "fig4", "fig3", "table6"])
    ap.add_argument("--dataset", choices=sorted(set(GRIDS) | set(TABLE6)), default=None,
                    help="table2: g50c (default), text or digits; fig4: g50c or text (default: both); "
                         "table6: text (default) or mnist-5k (MNIST-8)")
    ap.add_argument("--splits", type=int, default=None, help=f"table2, table6: default 10; fig3: {FIG3_SPLITS}")
    ap.add_argument("--methods", nargs="+", choices=["cccp-tsvm", "nabla-tsvm", *PEERS], default=None,
                    help="fig3: rerun only these methods (default: all, the peers whose binary is given)")
    ap.add_argument("--universvm", type=Path, default=None,
                    help="UniverSVM's binary (default: the one python -m ssl_repro.peers built, if any)")
    ap.add_argument("--svm-learn", type=Path, default=None,
                    help="SVM-light's svm_learn (V6.02; default: the one python -m ssl_repro.peers built, if any)")
    ap.add_argument("--svmlight-cap", type=float, default=SVMLIGHT_CAP,
                    help="CPU seconds per SVM-light fit; a fit past it is recorded capped")
    ap.add_argument("--sizes", nargs="+", default=None, help="fig3: unlabeled-row counts of "
                    + ", ".join("all" if v is None else str(v) for v in FIG3_SIZES) + " (default: all of them)")
    ap.add_argument("--repeats", type=int, default=FIG3_REPEATS, help="fig3: the protocol's repeats")
    ap.add_argument("--fresh", action="store_true",
                    help="table2: fit every grid point again (default: only those grid.csv lacks, resuming a run)")
    args = ap.parse_args(argv)
    args.universvm = peer_program("--universvm", args.universvm)
    args.svm_learn = peer_program("--svm-learn", args.svm_learn)
    if args.universvm is not None and not args.universvm.is_file():
        ap.error(f"--universvm {args.universvm}: no such file; build UniverSVM 1.22 with "
                 "python -m ssl_repro.peers build universvm --archive PATH and omit --universvm")
    if args.svm_learn is not None and not os.access(args.svm_learn, os.X_OK):
        ap.error(f"--svm-learn {args.svm_learn}: not an executable file; build SVM-light "
                 "V6.02 with python -m ssl_repro.peers build svm-light and omit --svm-learn")
    for method in set(args.methods or ()) & set(PEERS):
        if getattr(args, PEERS[method].lstrip("-").replace("-", "_")) is None:
            ap.error(f"--methods {method} needs {PEERS[method]} PATH (its binary), or the peer "
                     "built by python -m ssl_repro.peers build")
    wrong = {"table6": set(TABLE6), "table2": set(GRIDS), "fig4": {"g50c", "text"}}.get(args.what)
    if args.dataset is not None and wrong is not None and args.dataset not in wrong:
        ap.error(f"--dataset {args.dataset}: {args.what} runs on " + " or ".join(sorted(wrong)))
    if args.svmlight_cap <= 0 or args.repeats < 1 or (args.splits is not None and args.splits < 1):
        ap.error("--svmlight-cap, --repeats and --splits must be positive")
    try:
        sizes = FIG3_SIZES if args.sizes is None else fig3_sizes(args.sizes)
    except ValueError as exc:
        ap.error(str(exc))
    from ssl_repro.harness.app import limit_threads
    limit_threads(1)
    warm_up()
    if args.what == "sets":
        sets()
    elif args.what == "linear-diagnosis":
        from cccp_002_linear import linear_diagnosis
        linear_diagnosis()
    elif args.what == "table2":
        table2(args.dataset or "g50c", args.splits or 10, args.universvm, args.svm_learn, args.svmlight_cap, args.fresh)
    elif args.what == "table6":
        table6(args.splits or 10, args.dataset or "text")
    elif args.what == "fig4":
        for dataset in [args.dataset] if args.dataset else ["g50c", "text"]:     # Fig 4 has both sets
            fig4(dataset)
    else:
        fig3(args.universvm, args.methods, args.svm_learn, sizes, args.repeats, args.splits or FIG3_SPLITS,
             args.svmlight_cap)
    return 0


if __name__ == "__main__":
    sys.exit(main())
