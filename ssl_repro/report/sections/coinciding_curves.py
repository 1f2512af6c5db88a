"""Why the SVM's and RLS's learning curves coincide (the figures' legend "rls (= svm)"), counted in the
records and explained from the solvers."""
from ssl_repro.report.record_text import sweep_frames


def _same_runs(records):
    """{dataset: (runs where SVM and RLS have the same test error, runs of both)} over the learning curves,
    paired by split and label count."""
    counts = {}
    for _, dataset, frame in sweep_frames(records, "learning_curve_"):
        keys = ["split", "n_labeled", "n_unlabeled"]
        svm = frame[frame["method"] == "svm"].set_index(keys)["test_error"]
        rls = frame[frame["method"] == "rls"].set_index(keys)["test_error"]
        both = svm.index.intersection(rls.index)
        if len(both):
            counts[dataset] = (int((svm[both] == rls[both]).sum()), len(both))
    return counts


def svm_rls_lines(records):
    """Where a figure's legend says "rls (= svm)": the count of equal runs, and why they are equal."""
    counts = _same_runs(records)
    if not counts:
        return []
    same = "; ".join(f"{d} {k} of {n}" for d, (k, n) in counts.items())
    return ["", "**SVM and RLS** (a figure's legend says \"rls (= svm)\" where the two curves are the same): the "
            f"same test error on the same split and labels in {same} runs. The L2-SVM is solved by L2-SVM-MFN "
            "(000 Table 1) from w = 0, where every labeled example is inside the margin (y o < 1) and so "
            "active: its first Newton step solves the same regularized least-squares system as RLS (the same "
            "lambda and costs; `ssl_repro/solvers/supervised.py`, `ssl_repro/solvers/mfn.py`). When that "
            "solution keeps every labeled example inside the margin, the squared hinge loss equals the squared "
            "loss on all of them, the step is optimal and the SVM returns the RLS weights (up to the CG "
            "tolerance); where the errors differ, the RLS solution puts some labeled example at or beyond the "
            "margin and the SVM's Newton steps go on from there."]
