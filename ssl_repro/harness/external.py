"""Running other people's programs on the project's splits: the papers' peers (SVM-light, UniverSVM).

The scripts ``experiments/svmlight_table9.py``, ``experiments/cccp_002.py`` and
``experiments/universvm_compare.py`` use these pieces: write rows in
svmlight/LIBSVM text format, run a binary with a CPU-time cap (and a wall-time
guard for a binary that stops using the CPU), and write a table as CSV plus JSON with the
provenance of :func:`ssl_repro.utils.provenance.provenance`.
"""
import contextlib
import json
import math
import os
import re
import resource
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ssl_repro.peers import peer_program
from ssl_repro.utils.atomic import atomic_write
from ssl_repro.utils.provenance import merged_keys, provenance


def run_capped(command, cap, log_path, wall_guard=None, cwd=None):
    """Run ``command`` (stdout and stderr to ``log_path``, in folder ``cwd``, by default the log's folder)
    with ``cap`` seconds of CPU time.

    The default folder keeps what a program writes into its working folder beside its log, in the
    caller's scratch folder: the reference svmlin writes ``<examples file>.outputs`` and ``.weights``
    there, which a run from the repository root once left there.

    The cap is CPU time, not wall time, so a run on a busy machine is not cut short: the child gets
    ``RLIMIT_CPU`` = ``cap`` (the kernel sends SIGXCPU there, SIGKILL a second later). A child that
    does not spend CPU (blocked, sleeping) is killed with its process group after ``wall_guard``
    seconds of wall time (default ``4 * cap``). ``cap`` None: neither limit.  A caller interrupted while it
    waits (Ctrl-C; SIGTERM, which raises KeyboardInterrupt meanwhile) kills the child's process group first.
    Returns (CPU seconds of the child, user + system; capped; exit code or None when killed)."""
    guard = None if cap is None else (4 * cap if wall_guard is None else wall_guard)
    limit = None if cap is None else _cpu_limit(cap)
    with open(log_path, "w") as log, _terminate_interrupts():
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                   preexec_fn=limit, cwd=Path(log_path).absolute().parent if cwd is None else cwd)
        start, guarded = time.perf_counter(), False
        try:
            while True:
                pid, status, usage = os.wait4(process.pid, os.WNOHANG)
                if pid:
                    break
                if guard is not None and time.perf_counter() - start > guard:
                    pid, status, usage = _kill_group(process)
                    guarded = True
                    break
                time.sleep(0.02)
        except BaseException:       # the caller is interrupted: its program (its own session) ends with it
            _kill_group(process)
            raise
    process.returncode = code = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    capped = guarded or code == -signal.SIGXCPU or (code == -signal.SIGKILL and cpu >= cap)
    return cpu, capped, None if capped else code


def _kill_group(process):
    """Kill the process group ``process`` leads and reap it: (pid, wait status, resource usage)."""
    os.killpg(process.pid, signal.SIGKILL)
    return os.wait4(process.pid, 0)


@contextlib.contextmanager
def _terminate_interrupts():
    """Inside the block SIGTERM raises KeyboardInterrupt (in the main thread; elsewhere nothing changes), so a
    caller stopped by ``run all``'s step runner (it sends SIGTERM) or by ``kill`` unwinds: the program
    it runs in its own session is killed and the caller's scratch folders removed, none left running or behind."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum, frame):
        raise KeyboardInterrupt(f"stopped by signal {signum}")
    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _cpu_limit(cap):
    """A ``preexec_fn`` that sets the child's CPU-time limit to ``cap`` seconds (rounded up)."""
    seconds = max(1, math.ceil(cap))

    def set_limit():
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
    return set_limit


def _features(X, i):
    """Row ``i`` of CSR ``X`` as ``id:value`` pairs, ids 1-based."""
    start, end = X.indptr[i], X.indptr[i + 1]
    return " ".join(f"{j + 1}:{v:.8g}" for j, v in zip(X.indices[start:end], X.data[start:end]))


def write_svmlight(path, X, labels):
    """Rows ``X`` (CSR) with integer labels (e.g. +1, -1, 0 or -3 for unlabeled) in svmlight
    format, features 1-based."""
    with open(path, "w") as f:
        for i in range(X.shape[0]):
            f.write(f"{int(labels[i])} {_features(X, i)}\n")


def write_svmlin_pair(examples, labels_path, X, labels):
    """Rows ``X`` (CSR) as the reference software's pair of files: ``examples`` holds one line of
    ``id:value`` pairs per row (1-based), ``labels_path`` one label per line (+1, -1, 0 = unlabeled)."""
    with open(examples, "w") as f:
        for i in range(X.shape[0]):
            f.write(_features(X, i) + "\n")
    with open(labels_path, "w") as f:
        f.writelines(f"{int(label)}\n" for label in labels)


class SvmlightRun(NamedTuple):
    """One transductive run of SVM-light's ``svm_learn`` (:func:`svmlight_transduce`)."""
    cpu: float                          #: CPU seconds of the child process (user + system)
    capped: bool                        #: stopped by the CPU cap
    runtime: float | None               #: the "Runtime in cpu-seconds" it printed (optimization alone), or None
    assigned: np.ndarray | None         #: its labels (+1/-1) of the unlabeled rows, in order; None when capped
    log: str                            #: what it printed
    iterations: int | None = None       #: the "(N iterations)" of its optimizer it printed, or None
    kernel_evaluations: int | None = None   #: the "Number of kernel evaluations: N" it printed, or None
    gave_up: bool = False               #: it stopped for slow progress (:data:`GAVE_UP`) and wrote no labels


#: What SVM-light prints when it ends its optimization for slow progress; it then exits with 0 and writes no
#: transductive labels (seen on g50c, 002's grid: split 2, RBF width 0.5 x the median distance, C = 1).
GAVE_UP = "Relaxing KT-Conditions due to slow progress! Terminating!"


def svmlight_transduce(svm_learn, X, labels, options, cap, work):
    """Run SVM-light's ``svm_learn`` transductively in folder ``work``: rows ``X`` (CSR) with ``labels`` +1/-1
    (labeled) and 0 (unlabeled) in svmlight format, ``options`` (e.g. ``-p``, ``-t``, ``-g``, ``-c``) before
    ``-l``, under a CPU cap of ``cap`` seconds (:func:`run_capped`).  The model is ``work``/model.txt.
    A run that gave up for slow progress (:data:`GAVE_UP`, no label file) is returned with ``gave_up`` and no labels;
    a failing run (exit code not 0), one that wrote no label file otherwise, or a label file of the wrong length
    raises RuntimeError with its output."""
    work = Path(work)
    write_svmlight(work / "train.svm", X, labels)
    command = [str(svm_learn), *options, "-l", str(work / "transduction.txt"), str(work / "train.svm"),
               str(work / "model.txt")]
    cpu, capped, code = run_capped(command, cap, work / "svm_learn.log")
    log = (work / "svm_learn.log").read_text(errors="replace")
    if capped:
        return SvmlightRun(cpu, True, None, None, log)
    if code != 0:
        raise RuntimeError(f"{command[0]} failed with exit code {code}:\n{log[-2000:]}")
    if not (work / "transduction.txt").exists():
        if GAVE_UP in log:
            return SvmlightRun(cpu, False, cpu_seconds(log), None, log, *work_counts(log), gave_up=True)
        raise RuntimeError(f"{command[0]} wrote no {work / 'transduction.txt'}:\n{log[-2000:]}")
    assigned = read_transduction(work / "transduction.txt")
    unlabeled = int(np.sum(np.asarray(labels) == 0))
    if assigned.size != unlabeled:
        raise RuntimeError(f"{work / 'transduction.txt'} has {assigned.size} labels for {unlabeled} unlabeled rows")
    return SvmlightRun(cpu, False, cpu_seconds(log), assigned, log, *work_counts(log))


def read_transduction(path):
    """SVM-light's ``-l`` file: per unlabeled row "<value>:<label> <value>:<label>", the first
    label the one it assigned. Returns the assigned labels (+1/-1)."""
    labels = []
    for line in Path(path).read_text().splitlines():
        if line.strip():
            labels.append(1 if line.split()[0].split(":")[1].startswith("+") else -1)
    return np.array(labels, dtype=np.int8)


def cpu_seconds(log_text):
    """The "Runtime in cpu-seconds: N" SVM-light prints, or None."""
    found = re.findall(r"Runtime in cpu-seconds:\s*([0-9.eE+-]+)", log_text)
    return float(found[-1]) if found else None


def work_counts(log_text):
    """(iterations, kernel evaluations) SVM-light printed at the end of a run ("done. (8539 iterations)",
    "Number of kernel evaluations: 625437"), each None where it printed none: its work, beside its seconds."""
    counts = [re.findall(pattern, log_text) for pattern in (r"\((\d+) iterations\)", r"kernel evaluations:\s*(\d+)")]
    return tuple(int(found[-1]) if found else None for found in counts)


def version_line(binary):
    """The first non-empty line ``binary -?`` prints (its version), or None."""
    result = subprocess.run([str(binary), "-?"], capture_output=True, text=True, errors="replace")
    lines = [line.strip() for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    return lines[0] if lines else None


def merge(old_rows, new_rows, key):
    """``old_rows`` less those whose ``key`` (a tuple of column names) is in ``new_rows``, then ``new_rows``."""
    fresh = {tuple(row[k] for k in key) for row in new_rows}
    return [row for row in old_rows if tuple(row[k] for k in key) not in fresh] + new_rows


def earlier_rows(out):
    """The rows of ``out``.json from an earlier run, or []."""
    path = out.with_suffix(".json")
    return json.loads(path.read_text())["rows"] if path.exists() else []


def write_table(rows, out, columns, extra, data_keys):
    """``out``.csv (``columns`` first, then any others) and ``out``.json (provenance, the keys of the data this
    run used, ``data_keys``, merged with those of the earlier record whose rows ``rows`` keeps
    (:func:`~ssl_repro.utils.provenance.merged_keys`), ``extra``, rows)."""
    import pandas as pd
    out.parent.mkdir(parents=True, exist_ok=True)
    earlier = out.with_suffix(".json")
    keys = merged_keys(json.loads(earlier.read_text()) if earlier.exists() else {}, data_keys)
    frame = pd.DataFrame(rows)
    frame = frame[list(columns) + [c for c in frame.columns if c not in columns]]
    with atomic_write(out.with_suffix(".csv"), "w") as f:
        frame.to_csv(f, index=False)
    with atomic_write(out.with_suffix(".json"), "w") as f:
        json.dump({"provenance": provenance(), **keys, **extra, "rows": frame.to_dict(orient="records")}, f, indent=1)
        f.write("\n")


def add_peer_arguments(parser, flag, what, cap, out):
    """The options every peer script has: ``flag`` (the binary; omitted: the one built by
    ``python -m ssl_repro.peers build``, else only the project's rows), ``--cap`` (CPU seconds per run,
    default ``cap``) and ``--out`` (default ``out``)."""
    parser.add_argument(flag, type=Path, help=f"{what} (omit: the one python -m ssl_repro.peers built, if any; "
                                              "else only the project's rows)")
    parser.add_argument("--cap", type=float, default=cap, help="CPU seconds per run of the binary (see run_capped)")
    parser.add_argument("--out", type=Path, default=out, help="output stem (.csv and .json)")


def parse_peer_arguments(parser, argv, flag):
    """``parser``'s arguments, the peer's binary the one built in the peers' cache when ``flag`` is not
    given (:func:`ssl_repro.peers.peer_program`), refusing a binary that is not an executable file and a
    cap <= 0."""
    args = parser.parse_args(argv)
    name = flag.lstrip("-").replace("-", "_")
    binary = peer_program(flag, getattr(args, name))
    setattr(args, name, binary)
    if binary is not None and not os.access(binary, os.X_OK):
        parser.error(f"{flag} {binary}: not an executable file")
    if args.cap <= 0:
        parser.error(f"--cap {args.cap}: must be positive (seconds)")
    return args
