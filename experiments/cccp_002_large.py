"""002's large experiment (Sec. 5.1, Table 4, Fig 8) with the kernel CCCP-TSVM on a 20 Newsgroups analog.

    python experiments/cccp_002.py large [--labels 100 1000] [--unlabeled 500 1000 2000 5000 10000 all]
                                         [--splits 6] [--cache-mib 1024]
    python experiments/cccp_002.py large --measure     # one fit at U = 2,000 and one at the largest U: the cost
    python experiments/cccp_002.py large --time [--splits 3] [--repeats 3]    # Fig 8 by the timing protocol
    python experiments/cccp_002.py large --data rcv1 [--download] [...]       # the same on 002's own data

(``python experiments/cccp_002_large.py ...`` is the same.)  A rerun fits only what ``large.csv`` lacks.

**The analog.**  002 separates "the two largest top-level categories CCAT (CORPORATE/INDUSTRIAL) and GCAT
(GOVERNMENT/SOCIAL)" of RCV1's training part: 17,754 documents, TF.IDF, unit length.  RCV1 is not on this
project's machines, and the committed records are its analog's.  Its analog is ``20ng-ccat-vs-gcat`` (:data:`ssl_repro.data.text.CCAT_VS_GCAT`): the groups of the package's
ccat-like task (comp.* + sci.*, +1) against those of its gcat-like task (talk.* + alt.atheism +
soc.religion.christian, -1), 13,892 documents of 20 Newsgroups (bydate, all), vectorized as the package's
20 Newsgroups tasks are (:func:`ssl_repro.data.text.vectorize` over the task's documents: TF-IDF,
sublinear tf, unit length).  The sizes, 002's beside ours:

    ===============================  ========================  ======================================
    size                             002 (RCV1)                ours (20 Newsgroups)
    documents                        17,754                    13,892 (8,843 +1, 5,049 -1)
    labeled rows L                   100 and 1,000             100 and 1,000 (the 100 inside the 1,000)
    validation rows (labeled)        2,000 (L = 100), 4,000    2,000 for both (fewer documents here)
    test rows                        12,754                    10,892
    unlabeled rows U (from the test) 500 ... 12,500            500, 1,000, 2,000, 5,000, 10,000, 10,892
    ===============================  ========================  ======================================

**002's own data** (``--data rcv1``): RCV1-v2 as prepared by Lewis et al. (2004), 002's reference, which
scikit-learn's ``fetch_rcv1`` downloads (its archives, cached under the data root's ``RCV1/``; ``--download``
allows it) and :func:`ssl_repro.data.rcv1.load_rcv1` reads as ``rcv1-ccat-vs-gcat`` (the training portion's
documents with exactly one of CCAT and GCAT; its docstring).  Without the cache and without ``--download`` the run
stops in one ``Error:`` line naming the files and the folder to put them in.  The protocol is the analog's: the
same labeled, validation and unlabeled sizes (so 2,000 validation rows at L = 1,000 too, where 002 has 4,000), its
records in ``results/cccp_002/rcv1/`` beside the analog's.  The report reads the analog's records only: no run on
RCV1 has been made (the machines this was written on are offline).

**Protocol** (002 Sec. 5.1; constants in :mod:`ssl_repro.claims.cccp_002_large_rules`).  Split s (seed s) draws,
stratified by class, a labeled pool of 1,000 rows (L = 100: its first rows of each class), 2,000
validation rows and leaves the rest as test rows; the U unlabeled rows are the first U of one permutation
of the test rows (nested U sets, as 002's come from its test set).  SVM (U = 0): scikit-learn's SVC on the
L rows over a grid of C and sigma (factor x the median pairwise distance), chosen on the validation rows.
CCCP-TSVM (:class:`~ssl_repro.estimators.kernel_cccp.KernelCCCPTSVM`, RBF): C and sigma chosen once per L by
"training a TSVM using the validation set as the unlabeled data" (002), at s = -0.3 and C* = C, lowest error
on the validation rows; then at each U the grid of C* (C* / C) and s, chosen on the validation rows.  Test
error: on every test row.  Every fit is a row of ``results/cccp_002/large.csv``; Table 4 is read from it by
:func:`ssl_repro.claims.cccp_002_large_rules.chosen`.

**Times** (Fig 8): CPU seconds of each fit (``time.process_time``, one thread) with the work counts beside
(CCCP steps, SMO steps, kernel evaluations).  The grid's fits run while the machine may be shared: their
rows say ``provisional`` and the 1-minute load.  ``--time`` re-times the selected fit of each split, L and U
by the timing protocol (:mod:`ssl_repro.harness.timing_protocol`: one fit at a time on an idle machine,
``--repeats`` repeats outermost, on ``--splits`` splits) into ``large_times.csv``; Fig 8 and the
quadratic-trend claim read its medians where it has them.  ``--measure`` times one fit at U = 2,000 and one at
the largest U (L = 1,000, the middle of the grids), writes them to ``large_cost.csv`` and prints the full
run's cost extrapolated with the exponent of the two (every fit's n = L + U).

**Memory**: no Gram matrix; the SMO's kernel-row cache holds ``--cache-mib`` (default 1 GiB: 11,286 of the
largest problem's 11,892 rows, 8 bytes a value).  Before any fit the largest problem's cache is checked
against the memory available (:func:`ssl_repro.kernel.rows.cache_rows_for`), and refused with the rows,
bytes and limit.
"""
import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "experiments"))

from cccp_002_data import OUT, error, write  # noqa: E402
from ssl_repro.data import DatasetNotAvailable, data_root  # noqa: E402
from ssl_repro.data.keys import data_keys  # noqa: E402
from ssl_repro.data.rcv1 import CCAT_VS_GCAT as RCV1_CCAT_VS_GCAT, load_rcv1  # noqa: E402
from ssl_repro.data.text import CCAT_VS_GCAT, load_newsgroups  # noqa: E402
from ssl_repro.estimators import mask_labels  # noqa: E402
from ssl_repro.claims import cccp_002_large_rules as protocol  # noqa: E402
from ssl_repro.harness.timing_protocol import flat, measured  # noqa: E402
from ssl_repro.kernel.rows import cache_rows_for  # noqa: E402
from ssl_repro.estimators.kernel_cccp import KernelCCCPTSVM, expansion, sampled_sigma  # noqa: E402
from ssl_repro.utils.provenance import add_provenance  # noqa: E402

KEY = ("dataset", "split", "stage", "method", "n_labeled", "n_unlabeled", "factor", "C", "s", "c_star_ratio")
TIMING = "provisional: taken while the machine was shared, to be re-timed"
#: The grid point of ``--measure`` (the middle of the grids) and its label count.
MEASURE = {"factor": 2.0, "C": 10.0, "s": -0.3, "ratio": 1.0, "n_labeled": 1000}


#: ``--data``: (the records' dataset name, their folder under :data:`OUT`, the loader (data root, download) ->
#: (X, y, source)).
DATA = {"analog": (protocol.DATASET, ".", lambda root, download: load_newsgroups(CCAT_VS_GCAT, root, download)),
        "rcv1": (RCV1_CCAT_VS_GCAT, "rcv1", lambda root, download: load_rcv1(RCV1_CCAT_VS_GCAT, root, download))}


def records(data):
    """(the dataset name, the folder) of ``data``'s records."""
    name, folder, _ = DATA[data]
    return name, OUT / folder


def load(data, download=False):
    """(X, y) of ``data`` (module doc: the analog, or RCV1), from the data root; a missing file is one ``Error:``
    line naming it."""
    try:
        X, y, _ = DATA[data][2](data_root(), download)
    except DatasetNotAvailable as exc:
        raise SystemExit(f"Error: {exc} (here: --download)") from None
    return X, np.asarray(y, dtype=np.int64)


def split_rows(y, seed, labels=protocol.LABELS, validation=protocol.VALIDATION_ROWS):
    """The rows of split ``seed``: ``{"labeled": {L: rows}, "validation": rows, "test": rows, "order":
    the test rows permuted (U rows: its first U)}``, every part stratified by class (module doc)."""
    rng = np.random.default_rng(seed)
    r = float(np.mean(y > 0))
    per_class = {c: rng.permutation(np.flatnonzero(y == c)) for c in (1, -1)}

    def counts(total):
        positive = int(round(total * r))
        return {1: positive, -1: total - positive}

    pool, valid = counts(max(labels)), counts(validation)
    labeled = {L: np.sort(np.concatenate([per_class[c][:counts(L)[c]] for c in (1, -1)])) for L in labels}
    validation_rows = np.sort(np.concatenate([per_class[c][pool[c]:pool[c] + valid[c]] for c in (1, -1)]))
    test = np.sort(np.concatenate([per_class[c][pool[c] + valid[c]:] for c in (1, -1)]))
    return {"labeled": labeled, "validation": validation_rows, "test": test, "order": rng.permutation(test)}


def unlabeled_sizes(requested, n_test):
    """The U values: ``requested`` (None or "all": every test row), each at most ``n_test``."""
    sizes = [n_test if u in (None, "all") else int(u) for u in requested]
    too_many = [u for u in sizes if not 0 < u <= n_test]
    if too_many:
        raise SystemExit(f"Error: --unlabeled {too_many}: U must lie in 1..{n_test:,} (the test rows; 'all' is "
                         f"{n_test:,})")
    return sorted(set(sizes))


def check_memory(n_rows, cache_bytes):
    """Refuse, before any fit, a kernel-row cache for ``n_rows`` rows beyond the memory available."""
    try:
        return cache_rows_for(n_rows, cache_bytes, f"002's large experiment ({n_rows:,} training rows)")
    except ValueError as exc:
        raise SystemExit(f"Error: {exc} (here: --download)") from None


def svm_fit(X, y, rows, L, sigma, C):
    """The SVM on the L labeled rows: its errors on the validation and test rows (its outputs computed by
    :func:`~ssl_repro.estimators.kernel_cccp.expansion`: libsvm's sparse prediction is far slower here)."""
    from sklearn.svm import SVC
    labeled = rows["labeled"][L]
    gamma = 1.0 / (2.0 * sigma ** 2)
    start = time.process_time()
    svm = SVC(C=C, gamma=gamma).fit(X[labeled], y[labeled])
    seconds = time.process_time() - start
    coef = sp.csr_matrix(svm.dual_coef_).toarray()[0]      # sparse, as the support vectors, after a sparse fit
    support = sp.csr_matrix(svm.support_vectors_)
    values = lambda part: expansion(X[rows[part]], support, coef, gamma) + svm.intercept_[0]     # noqa: E731
    return {"seconds": seconds, "converged": True,
            **{f"{part}_error": error(values(part), y[rows[part]]) for part in ("validation", "test")}}


def tsvm_fit(X, y, labeled, unlabeled, scored, sigma, C, s, ratio, cache_bytes):
    """One CCCP-TSVM fit (C* = ``ratio`` C: lam_u = ratio U / L) with its errors on the ``scored`` rows
    ({name: rows}), CPU seconds and work counts."""
    L, U = labeled.size, unlabeled.size
    train = np.concatenate([labeled, unlabeled])
    est = KernelCCCPTSVM(lam=1.0 / (C * L), lam_u=ratio * U / L, s=s, sigma=sigma, cache_bytes=cache_bytes)
    load_avg = os.getloadavg()[0]
    start = time.process_time()
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        est.fit(X[train], mask_labels(y[train], np.arange(L)))
    seconds = time.process_time() - start
    info = est.diagnostics_
    row = {"seconds": seconds, "load_1min": load_avg, "timing": TIMING, "C_star": est.C_star_,
           "cccp_iterations": info.cccp_iterations, "smo_iterations": info.smo_iterations,
           "kernel_evaluations": info.kernel_evaluations, "converged": info.converged,
           "unlabeled_positive_fraction": info.positive_fraction}
    for name, part in scored.items():
        row[f"{name}_error"] = error(est.decision_function(X[part]), y[part])
    return row


def done_keys(folder):
    """The keys (:data:`KEY`) of the fits ``folder``'s ``large.csv`` already holds."""
    path = folder / "large.csv"
    if not path.exists():
        return set()
    frame = pd.read_csv(path)
    return {tuple(None if pd.isna(v) else v for v in row) for row in frame[list(KEY)].itertuples(index=False)}


def run(labels, unlabeled, splits, cache_bytes, data="analog", download=False):
    """The protocol (module doc) for ``labels`` and ``unlabeled`` over ``splits`` on ``data``, into large.csv."""
    name, folder = records(data)
    X, y = load(data, download)
    note(f"labels {list(labels)}, U {list(unlabeled)}, splits {splits}", X, y, data)   # first: an interrupted run is traceable
    median = sampled_sigma(X)
    done = done_keys(folder)
    for split in range(splits):
        rows = split_rows(y, split)
        sizes = unlabeled_sizes(unlabeled, rows["test"].size)
        check_memory(max(labels) + max(sizes), cache_bytes)
        for L in labels:
            labeled = rows["labeled"][L]
            base = {"dataset": name, "split": split, "n_labeled": L}

            def record(key, fit):
                full = {**base, **key}
                if tuple(full.get(k) for k in KEY) in done:
                    return
                write(folder / "large.csv", [{**full, **fit()}], KEY)
                print(f"{name} split {split} {key}: done", flush=True)

            for factor in protocol.SVM_FACTORS:
                for C in protocol.SVM_C:
                    record({"stage": "table4", "method": "svm", "n_unlabeled": 0, "factor": factor, "C": C},
                           lambda f=factor, C=C: svm_fit(X, y, rows, L, f * median, C))
            for factor in protocol.SELECT_FACTORS:
                for C in protocol.SELECT_C:
                    record({"stage": "select", "method": "cccp-tsvm", "n_unlabeled": rows["validation"].size,
                            "factor": factor, "C": C, "s": protocol.SELECT_S, "c_star_ratio": protocol.SELECT_RATIO},
                           lambda f=factor, C=C: tsvm_fit(X, y, labeled, rows["validation"],
                                                          {"validation": rows["validation"]}, f * median, C,
                                                          protocol.SELECT_S, protocol.SELECT_RATIO, cache_bytes))
            frame = pd.read_csv(folder / "large.csv")
            best = protocol.chosen(frame[(frame["stage"] == "select") & (frame["split"] == split)
                                         & (frame["n_labeled"] == L)]).iloc[0]
            for U in sizes:
                for ratio in protocol.RATIO_GRID:
                    for s in protocol.S_GRID:
                        record({"stage": "table4", "method": "cccp-tsvm", "n_unlabeled": U, "factor": best.factor,
                                "C": best.C, "s": s, "c_star_ratio": ratio},
                               lambda U=U, ratio=ratio, s=s: tsvm_fit(
                                   X, y, labeled, rows["order"][:U], {p: rows[p] for p in ("validation", "test")},
                                   best.factor * median, best.C, s, ratio, cache_bytes))


def measure(cache_bytes, data="analog", download=False):
    """One fit at U = 2,000 and one at the largest U (module doc); prints the full run's extrapolated cost."""
    name, folder = records(data)
    X, y = load(data, download)
    median = sampled_sigma(X)
    rows = split_rows(y, 0)
    largest = rows["test"].size
    L = MEASURE["n_labeled"]
    check_memory(L + largest, cache_bytes)
    found = []
    for U in (2000, largest):
        fit = tsvm_fit(X, y, rows["labeled"][L], rows["order"][:U], {"test": rows["test"]}, MEASURE["factor"] * median,
                       MEASURE["C"], MEASURE["s"], MEASURE["ratio"], cache_bytes)
        found.append({"dataset": name, "split": 0, "n_labeled": L, "n_unlabeled": U, **MEASURE, **fit})
        print(found[-1], flush=True)
    write(folder / "large_cost.csv", found, ("dataset", "n_labeled", "n_unlabeled"))
    (n0, t0), (n1, t1) = [(L + f["n_unlabeled"], f["seconds"]) for f in found]
    p = np.log(t1 / t0) / np.log(n1 / n0)
    cost = lambda n: t0 * (n / n0) ** p       # noqa: E731
    sizes = unlabeled_sizes(protocol.UNLABELED, largest)
    per_split = sum(len(protocol.SELECT_FACTORS) * len(protocol.SELECT_C) * cost(Lx + protocol.VALIDATION_ROWS)
                    + len(protocol.RATIO_GRID) * len(protocol.S_GRID) * sum(cost(Lx + U) for U in sizes)
                    for Lx in protocol.LABELS)
    print(f"seconds ~ n^{p:.2f}; the full protocol's CCCP-TSVM fits: about {per_split / 60:.0f} CPU minutes a split "
          f"(each fit's time extrapolated from these two)", flush=True)
    note("measure", X, y, data)


def time_chosen(splits, repeats, cache_bytes, unlabeled, data="analog", download=False):
    """Fig 8 by the timing protocol (module doc): each selected CCCP-TSVM fit of splits ``0..splits-1`` at
    the U of ``unlabeled`` (:func:`unlabeled_sizes`) refit ``repeats`` times, one fit at a time on an idle
    machine, the repeats outermost, into ``large_times.csv``."""
    name, folder = records(data)
    picks = protocol.table4(pd.read_csv(folder / "large.csv"))
    picks = picks[(picks["method"] == "cccp-tsvm") & (picks["split"] < splits)]
    X, y = load(data, download)
    parts = {split: split_rows(y, split) for split in range(splits)}
    picks = picks[[u in unlabeled_sizes(unlabeled, parts[split]["test"].size)
                   for split, u in zip(picks["split"], picks["n_unlabeled"])]]
    missing = sorted(set(range(splits)) - set(picks["split"]))
    if missing:
        raise SystemExit(f"Error: --time --splits {splits}: large.csv has no selected fit on split(s) {missing}: "
                         f"run `python experiments/cccp_002.py large --splits {splits}` first")
    note(f"time: splits {splits}, repeats {repeats}, U {list(unlabeled)}", X, y, data)
    median = sampled_sigma(X)
    check_memory(max(protocol.LABELS) + max(p["test"].size for p in parts.values()), cache_bytes)
    found = []
    for repeat in range(repeats):
        for pick in picks.itertuples():
            rows = parts[pick.split]
            with measured(None) as timing:
                wall = time.perf_counter()
                fit = tsvm_fit(X, y, rows["labeled"][pick.n_labeled], rows["order"][:pick.n_unlabeled], {},
                               pick.factor * median, pick.C, pick.s, pick.c_star_ratio, cache_bytes)
                wall = time.perf_counter() - wall
            fit.pop("timing"), fit.pop("load_1min")
            found.append({"dataset": name, "split": pick.split, "repeat": repeat,
                          "n_labeled": pick.n_labeled, "n_unlabeled": pick.n_unlabeled, "factor": pick.factor,
                          "C": pick.C, "s": pick.s, "c_star_ratio": pick.c_star_ratio, **fit, "wall_seconds": wall,
                          **flat(timing)})
            print(f"{name} time repeat {repeat} split {pick.split} L={pick.n_labeled} "
                  f"U={pick.n_unlabeled}: {fit['seconds']:.2f} CPU s, {wall:.2f} s "
                  f"(others {timing['others_busy_during']:.2f} cores)", flush=True)
            write(folder / "large_times.csv", found, ("repeat", "split", "n_labeled", "n_unlabeled"))


def note(what, X, y, data="analog"):
    """Provenance of ``data``'s large.csv (this run's and the earlier ones') and the key of the rows ``X`` and
    truth ``y`` this run used (``data_keys``)."""
    name, folder = records(data)
    add_provenance(folder / "large_provenance.json", data_keys=data_keys({name: (X, y)}), last=what)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="cccp_002.py large", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--labels", nargs="+", type=int, choices=protocol.LABELS, default=list(protocol.LABELS))
    ap.add_argument("--unlabeled", nargs="+", default=["all" if u is None else str(u) for u in protocol.UNLABELED],
                    help="U values (a number or 'all': every test row); --time: the U re-timed")
    ap.add_argument("--splits", type=int, default=None,
                    help=f"splits 0..N-1 (default {protocol.SPLITS}; --time: {protocol.TIMED_SPLITS})")
    ap.add_argument("--cache-mib", type=int, default=1024, help="the kernel-row cache (MiB)")
    ap.add_argument("--measure", action="store_true", help="time one fit at U = 2,000 and one at the largest U")
    ap.add_argument("--time", action="store_true",
                    help="Fig 8 by the timing protocol: refit the selected fits of --splits, one at a time")
    ap.add_argument("--repeats", type=int, default=3, help="--time: the protocol's repeats")
    ap.add_argument("--data", choices=sorted(DATA), default="analog",
                    help="analog: 20 Newsgroups (the committed records); rcv1: 002's RCV1 (module doc)")
    ap.add_argument("--download", action="store_true", help="fetch the data when missing (RCV1: scikit-learn's fetch_rcv1)")
    args = ap.parse_args(argv)
    from ssl_repro.harness.app import limit_threads
    limit_threads(1)
    KernelCCCPTSVM.warm_up()
    cache_bytes = args.cache_mib * 2**20
    unlabeled = [u if u == "all" else int(u) for u in args.unlabeled]
    source = {"data": args.data, "download": args.download}
    if args.measure:
        measure(cache_bytes, **source)
    elif args.time:
        time_chosen(args.splits or protocol.TIMED_SPLITS, args.repeats, cache_bytes, unlabeled, **source)
    else:
        run(sorted(args.labels), unlabeled, args.splits or protocol.SPLITS, cache_bytes, **source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
