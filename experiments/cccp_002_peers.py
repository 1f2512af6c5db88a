"""002's peers on the same rows as ``experiments/cccp_002.py``'s fits: UniverSVM (002's authors' program) and
SVM-light's TSVM, each run as a capped child process (:mod:`ssl_repro.harness.external`), its error on the
unlabeled rows and its process's CPU seconds."""
import tempfile
from pathlib import Path

import numpy as np

from ssl_repro.harness.external import run_capped, svmlight_transduce, version_line, write_svmlight

from cccp_002_data import error

UNIVERSVM_UNLABELED = -3
CAP = 1800.0
#: Default CPU seconds per SVM-light fit (``--svmlight-cap``): a fit past it is recorded ``capped``.
SVMLIGHT_CAP = 600.0


def universvm_fit(universvm, X, y, labeled, unlabeled, gamma, C, s):
    """UniverSVM's RBF CCCP-TSVM (``-t 2 -g gamma -c C -S s``, default C* = (L/U) C, balance: the labeled
    mean label) on the same rows: its error on the unlabeled rows and its process's CPU seconds."""
    with tempfile.TemporaryDirectory(prefix="universvm-") as work:
        work = Path(work)
        write_svmlight(work / "train.svm", X[np.concatenate([labeled, unlabeled])],
                       np.r_[y[labeled], np.full(unlabeled.size, UNIVERSVM_UNLABELED)])
        write_svmlight(work / "scored.svm", X[unlabeled], y[unlabeled])
        # float(): numpy 2's repr of an np.float64 is "np.float64(...)", which UniverSVM would read as 0
        command = [str(universvm), "-t", "2", "-g", repr(float(gamma)), "-c", repr(float(C)), "-S", repr(float(s)),
                   "-T", str(work / "scored.svm"), "-D", str(work / "values.txt"), str(work / "train.svm")]
        cpu, capped, code = run_capped(command, CAP, work / "log.txt")
        if capped or code != 0:
            return {"seconds": cpu, "transductive_error": float("nan"), "converged": False}
        text = (work / "values.txt").read_text()
        values = np.array(text[text.index("[") + 1:text.rindex("]")].replace(",", " ").split(), dtype=float)
    return {"seconds": cpu, "transductive_error": error(values, y[unlabeled])}


def svmlight_fit(svm_learn, X, y, labeled, unlabeled, gamma, C, cap):
    """SVM-light's TSVM (Joachims' transductive SVM, V6.02) on the same rows: ``-t 2 -g gamma -c C`` (the RBF
    kernel exp(-gamma ||a - b||^2), the grid point's C on the labeled rows; SVM-light raises the unlabeled rows'
    C* to C in its own schedule, nabla-TSVM's final C* = C), ``-p`` = the labeled rows' positive fraction
    (what SVM-light estimates when ``-p`` is not given; stated explicitly so the record shows it), otherwise its
    defaults; the unlabeled rows labelled 0 in its file (:func:`ssl_repro.harness.external.svmlight_transduce`).
    Its error: of the labels it assigns the unlabeled rows (``-l``).  Its seconds: CPU seconds of its process
    (user + system, reading the file included; the timing protocol counts a waited-for child as the job),
    beside ``svmlight_runtime``, the optimization's "Runtime in cpu-seconds" it prints, and its work:
    ``svmlight_iterations`` (its optimizer's iterations) and ``kernel_evaluations`` (as it counts them), which claim
    75's rule shows beside the seconds.  A fit past ``cap`` CPU seconds is killed and recorded ``capped`` (its
    seconds: those spent, at least the cap; error NaN); one SVM-light ends itself for slow progress, writing no
    labels (:data:`ssl_repro.harness.external.GAVE_UP`), is recorded ``svmlight_gave_up`` and not converged (its
    seconds: those spent, short of a finished fit's; error NaN), so that the grid goes on."""
    p = float(np.mean(y[labeled] > 0))
    options = ["-t", "2", "-g", repr(float(gamma)), "-c", repr(float(C)), "-p", f"{p:.6f}"]
    labels = np.r_[y[labeled], np.zeros(unlabeled.size, dtype=int)]
    with tempfile.TemporaryDirectory(prefix="svmlight-") as work:
        run = svmlight_transduce(svm_learn, X[np.concatenate([labeled, unlabeled])], labels, options, cap, work)
    row = {"seconds": run.cpu, "capped": run.capped, "svmlight_p": p, "converged": not (run.capped or run.gave_up)}
    if run.capped:
        return {**row, "transductive_error": float("nan")}
    row.update(svmlight_runtime=run.runtime, svmlight_iterations=run.iterations,
               kernel_evaluations=run.kernel_evaluations, svmlight_gave_up=run.gave_up)
    if run.gave_up:
        return {**row, "transductive_error": float("nan")}
    return {**row, "transductive_error": float(np.mean(run.assigned != y[unlabeled])),
            "positive_fraction": float(np.mean(run.assigned > 0))}


def svmlight_binary(svm_learn):
    """SVM-light's binary and its version line for the provenance, or None."""
    return {"path": str(svm_learn), "version": version_line(svm_learn)} if svm_learn else None
