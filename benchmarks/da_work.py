"""The work LinearDA does on a benchmark file, beside the C++ reference's, and where its CPU time goes.

    python benchmarks/da_work.py --data FILE.npz [--reference-log LOG] [--json OUT]

Run from the project root.  Fits deterministic annealing (Table 5 of the
tech report; lambda = 0.001, lambda' = 1, r = the file's r_true, the
settings of ``bench_solvers.py``) on a file in the format of
``write_bench_file.py``'s, with one numba thread, and prints what does not
depend on the machine's load:

- the work: temperatures, OPTIMIZE-W calls (Table 7; the first, cold-start
  fit counted apart), Newton iterations of L2-SVM-MFN, CG iterations of
  CGLS (Table 2), and the reads of X they make: one fused pass per CG
  iteration (q = X p and X^T C q in one read of the active rows), the exact
  residual products (one at the start of an MFN call, one each time the
  recurrence meets the test), and the partial products (outputs of the
  rows off the active set, the residual's change on the rows whose cost or
  target changed), as rows and nonzeros read;
- the CPU seconds of the fit split into the compiled CG steps, the other
  products with X, OPTIMIZE-P (Table 6) and the rest (Python and the small
  compiled helpers); with one thread the CPU time is the one least exposed
  to other processes (though not to the caches they share);
- the CPU seconds and page faults (``resource.getrusage``) of a second fit
  without the counting (which makes temporaries of its own).

``--reference-log`` reads the printed output of the reference (SVMlin v1.0,
``svmlin -A 3 -W 0.001 -U 1 -R r examples labels``, built and run outside
this repository) and prints the same counts from it: its temperatures
("Finished outer_iter"), OPTIMIZE-W calls ("Optimizing weights", plus its
initial fit), Newton iterations, CG iterations and rows read (Table 2's two
products per CG iteration, each over the active rows), its objective and
its own seconds (which it measures as CPU time).  The line "bound at 2
threads" is ours at one thread with the compiled products (CG steps and
the other products) divided by 2 and the rest kept serial, over the
reference's seconds: the best ratio two cores could give this work.
"""
import argparse
import json
import os
import re
import resource
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from ssl_repro.solvers.engine.biased_rows import BiasedRows  # noqa: E402


class CountingRows(BiasedRows):
    """:class:`BiasedRows` that counts the rows and nonzeros each kind of product reads, and their CPU time."""

    def __init__(self, X, **kwargs):
        super().__init__(X, **kwargs)
        self.work = {kind: {"calls": 0, "rows": 0, "nonzeros": 0, "cpu_seconds": 0.0}
                     for kind in ("cg_pass", "residual", "partial")}
        self._lengths = np.diff(self.X.indptr)

    def _count(self, kind, n_rows, nonzeros, times=1, seconds=0.0):
        entry = self.work[kind]
        entry["calls"] += times
        entry["rows"] += times * n_rows
        entry["nonzeros"] += times * nonzeros
        entry["cpu_seconds"] += seconds

    def _timed(self, kind, n_rows, nonzeros, product, *args):
        start = time.process_time()
        out = product(*args)
        self._count(kind, n_rows, nonzeros, seconds=time.process_time() - start)
        return out

    def _nonzeros(self, rows):
        return int(self._lengths[rows].sum())

    def matvec(self, w, rows):
        return self._timed("partial", rows.shape[0], self._nonzeros(rows), super().matvec, w, rows)

    def matvec_beside(self, w, rows, known, values):
        # the product reads the rows off the ``known`` positions only
        nonzeros = self._nonzeros(rows) - self._nonzeros(rows[known])
        return self._timed("partial", rows.shape[0] - known.shape[0], nonzeros, super().matvec_beside, w, rows,
                           known, values)

    def rmatvec(self, z, rows):
        # CGLS's exact residual reads the active rows; the residual's change between two Newton
        # systems reads the changed rows only: a product over half the last active rows or more counts
        # as an exact residual
        kind = "residual" if 2 * rows.shape[0] >= self._active_rows else "partial"
        return self._timed(kind, rows.shape[0], self._nonzeros(rows), super().rmatvec, z, rows)

    def cg_steps(self, rows, c, lam, tol):
        steps = super().cg_steps(rows, c, lam, tol)
        self._active_rows = rows.shape[0]
        run, distinct = steps.run, steps.args[3]          # the distinct active rows the pass reads
        nonzeros = self._nonzeros(distinct)

        def counted_run(*args):
            start = time.process_time()
            done, met = run(*args)
            self._count("cg_pass", distinct.shape[0], nonzeros, times=done, seconds=time.process_time() - start)
            return done, met

        steps.run = counted_run
        return steps

    _active_rows = 0


def ours(path):
    """Fit DA on the file with :class:`CountingRows`; the work and CPU seconds as a dict."""
    import numba
    import ssl_repro.solvers.annealing as annealing
    from ssl_repro.bench.files import load_bench_npz
    from ssl_repro.solvers import warm_up_kernels
    from ssl_repro.solvers.engine.problem import from_mask

    warm_up_kernels()
    bench = load_bench_npz(path)
    y = np.where(bench.y[bench.labeled] > 0, 1.0, -1.0)
    plain = from_mask(bench.X, y, bench.labeled)
    faults, start = resource.getrusage(resource.RUSAGE_SELF).ru_minflt, time.process_time()
    annealing.deterministic_annealing(plain, 0.001, 1.0, bench.r_true)
    plain_cpu = time.process_time() - start
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
    del plain
    problem = from_mask(bench.X, y, bench.labeled, operator=CountingRows)
    optimize_p = {"calls": 0, "cpu_seconds": 0.0}
    beliefs_for_gaps = annealing.beliefs_for_gaps

    def timed_optimize_p(*args):
        start = time.process_time()
        out = beliefs_for_gaps(*args)
        optimize_p["calls"] += 1
        optimize_p["cpu_seconds"] += time.process_time() - start
        return out

    annealing.beliefs_for_gaps = timed_optimize_p
    try:
        start = time.process_time()
        _, info = annealing.deterministic_annealing(problem, 0.001, 1.0, bench.r_true)
        cpu = time.process_time() - start
    finally:
        annealing.beliefs_for_gaps = beliefs_for_gaps
    work = problem.op.work
    compiled = work["cg_pass"]["cpu_seconds"] + work["residual"]["cpu_seconds"] + work["partial"]["cpu_seconds"]
    return {"objective": info.objective, "temperatures": len(info.temperatures),
            "optimize_w_calls": info.mfn_calls - 1, "newton_iterations": info.newton_iterations,
            "cg_iterations": info.cg_iterations, "products": work, "optimize_p": optimize_p,
            "cpu_seconds": cpu, "compiled_cpu_seconds": compiled,
            "plain_cpu_seconds": plain_cpu, "plain_page_faults": faults,
            "rest_cpu_seconds": cpu - compiled - optimize_p["cpu_seconds"],
            "threads": numba.get_num_threads(), "nonzeros": int(bench.X.nnz), "rows": int(bench.X.shape[0])}


def reference(log_path):
    """The same counts from the reference's printed output."""
    text = open(log_path).read()
    cg = [int(v) for v in re.findall(r"CGLS converged in (\d+) iteration", text)]
    newton_active = [int(v) for v in re.findall(r"L2_SVM_MFN Iteration# \d+ \((\d+) active", text)]
    # each Newton iteration runs one CGLS on its active rows: Table 2's two products per CG iteration
    row_reads = 2 * sum(n * a for n, a in zip(cg, newton_active))
    return {"objective": float(re.findall(r"Objective Value = ([0-9.eE+-]+)", text)[-1]),
            "temperatures": len(re.findall(r"Finished outer_iter", text)),
            "optimize_w_calls": len(re.findall(r"Optimizing weights", text)),
            "newton_iterations": len(newton_active), "cg_iterations": sum(cg), "row_reads": row_reads,
            "seconds": float(re.findall(r"took ([0-9.eE+-]+) seconds", text)[-1])}


def report(o, ref):
    p = o["products"]
    rows = [("J (Eqn 18)", f"{o['objective']:.9f}", ref and f"{ref['objective']:.6f}"),
            ("temperatures", o["temperatures"], ref and ref["temperatures"]),
            ("OPTIMIZE-W calls (+ the first fit)", o["optimize_w_calls"], ref and ref["optimize_w_calls"]),
            ("Newton iterations (all MFN calls)", o["newton_iterations"], ref and ref["newton_iterations"]),
            ("CG iterations", o["cg_iterations"], ref and ref["cg_iterations"]),
            ("rows read: CG passes", p["cg_pass"]["rows"], ref and ref["row_reads"]),
            ("rows read: exact residuals", f"{p['residual']['rows']} ({p['residual']['calls']} products)",
             ref and "(in the CG rows)"),
            ("rows read: partial products", f"{p['partial']['rows']} ({p['partial']['calls']} products)", None)]
    print(f"{'':38s} {'ours':>22s} {'reference':>16s}")
    for name, a, b in rows:
        print(f"{name:38s} {str(a):>22s} {'' if b is None else str(b):>16s}")
    nnz = p["cg_pass"]["nonzeros"] + p["residual"]["nonzeros"] + p["partial"]["nonzeros"]
    print(f"nonzeros read: {nnz / 1e6:.0f} M ({p['cg_pass']['nonzeros'] / 1e6:.0f} M in CG passes, "
          f"{p['residual']['nonzeros'] / 1e6:.0f} M exact residuals); X has {o['nonzeros'] / 1e6:.2f} M")
    cpu = o["cpu_seconds"]
    shares = [("CG steps", p["cg_pass"]["cpu_seconds"]), ("exact residuals", p["residual"]["cpu_seconds"]),
              ("partial products", p["partial"]["cpu_seconds"]), ("OPTIMIZE-P", o["optimize_p"]["cpu_seconds"]),
              ("rest", o["rest_cpu_seconds"])]
    print(f"CPU seconds ({o['threads']} thread): {cpu:.2f}: "
          + ", ".join(f"{name} {100 * s / cpu:.1f}%" for name, s in shares)
          + f"; {1e3 * p['cg_pass']['cpu_seconds'] / max(o['cg_iterations'], 1):.2f} ms per CG iteration")
    print(f"uncounted fit: {o['plain_cpu_seconds']:.2f} CPU seconds, {o['plain_page_faults']} page faults")
    if ref:
        bound = (o["compiled_cpu_seconds"] / 2 + cpu - o["compiled_cpu_seconds"]) / ref["seconds"]
        print(f"reference seconds (its CPU clock): {ref['seconds']:.2f}; ours / reference at 1 thread "
              f"{cpu / ref['seconds']:.2f}; bound at 2 threads {bound:.2f}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="npz file in the format of write_bench_file.py's")
    ap.add_argument("--reference-log", help="the reference's printed output for DA on the same file")
    ap.add_argument("--json", dest="json_out", help="write the figures as JSON here")
    args = ap.parse_args(argv)
    o = ours(args.data)
    ref = reference(args.reference_log) if args.reference_log else None
    report(o, ref)
    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"ours": o, "reference": ref}, f, indent=1)


if __name__ == "__main__":
    main()
