"""DA's stopping rule at a fractional r*u: temperatures, stop, warning, J and time per fit.

    PYTHONPATH=. SSL_REPRO_DATA=DIR python benchmarks/da_stopping.py --label this-branch
    python benchmarks/da_stopping.py --render        # da_stopping.md from the records only

Run from the project root.  Fits :class:`~ssl_repro.estimators.LinearDA`
(defaults but ``r``) on

- text20k (``text20k.npz`` (``write_bench_file.py --text-bench``), lambda = 0.001, lambda' = 1) with
  r*u = 7960 (an integer) and 7960.5 (u = 19,900);
- pcmac, splits 0-9 x l = 37, 74, 147, 294, 584 (the learning curve's extra
  labels), with r the positive fraction of the training (labeled +
  unlabeled) rows, as the papers set it, so r*u is fractional;

and records per fit the temperatures visited, ``stop_reason``,
``converged``, the ConvergenceWarnings raised, J (Eqn 18), the training
seconds (wall and CPU: with one thread the CPU time is the less exposed to
other processes) and the work done (OPTIMIZE-W calls, CG iterations: the
time saved independent of the machine's load).  Each run adds (or replaces, by ``--label``) one record in
``results/benchmarks/da_stopping.json`` with its provenance (the git
commit of the ``ssl_repro`` imported: run with ``PYTHONPATH`` at another
checkout to measure other code); ``da_stopping.md`` compares the records.
Solves use one thread (``NUMBA_NUM_THREADS=1`` unless set), so that the
time saved is less exposed to other processes.
"""
import argparse
import json
import os
import time
import warnings
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np  # noqa: E402
from sklearn.exceptions import ConvergenceWarning  # noqa: E402

from ssl_repro.data.keys import without_keys  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "results" / "benchmarks"
#: the benchmark matrix, made by ``python benchmarks/write_bench_file.py --text-bench --out text20k.npz``
TEXT20K = "text20k.npz"
TEXT20K_MASS = (7960.0, 7960.5)
PCMAC_SPLITS, PCMAC_LABELS = range(10), (37, 74, 147, 294, 584)


def fit(X, y_fit, lam, lam_u, r, trace=False):
    """One DA fit; its figures (J to full precision).  ``trace``: also the entropy the stopping rule
    compared with u*eps (Eqn 17), initial beliefs first then after each temperature, as
    ``unsettled_entropy_path`` (records of code before that rule hold ``excess_entropy_path``,
    H(p) - h(f))."""
    import ssl_repro.solvers.annealing as annealing

    from ssl_repro.estimators import LinearDA
    seen, unsettled_entropy = [], annealing.unsettled_entropy
    if trace:
        annealing.unsettled_entropy = lambda g, T, r: seen.append(unsettled_entropy(g, T, r)) or seen[-1]
    try:
        row = _fit(LinearDA(lam=lam, lam_u=lam_u, r=r), X, y_fit)
    finally:
        annealing.unsettled_entropy = unsettled_entropy
    if trace:
        row["unsettled_entropy_path"] = seen
    return row


def _fit(model, X, y_fit):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        start, cpu = time.perf_counter(), time.process_time()
        model.fit(X, y_fit)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    info = model.diagnostics_
    return {"r": model.r, "temperatures": len(info.temperatures), "stop_reason": info.stop_reason,
            "converged": bool(info.converged), "warnings": [str(w.message) for w in caught
                                                           if issubclass(w.category, ConvergenceWarning)],
            "objective": float(info.objective), "seconds": round(seconds, 4), "cpu_seconds": round(cpu, 4),
            "mfn_calls": info.mfn_calls, "cg_iterations": info.cg_iterations}


def text20k_fits(path):
    from ssl_repro.bench.files import load_bench_npz
    from ssl_repro.estimators import mask_labels
    data = load_bench_npz(path)
    u = int(np.sum(~data.labeled))
    y_fit = mask_labels(data.y, data.labeled)
    return [{"dataset": "text20k", "r_times_u": mass, **fit(data.X, y_fit, 1e-3, 1.0, mass / u, trace=True)}
            for mass in TEXT20K_MASS]


def pcmac_fits():
    from ssl_repro.data import load_dataset, make_split
    from ssl_repro.estimators import mask_labels
    dataset = load_dataset("pcmac", download=False)
    rows = []
    for n_labeled in PCMAC_LABELS:
        for seed in PCMAC_SPLITS:
            split = make_split(dataset, seed, n_labeled)
            train = np.concatenate([split.labeled, split.unlabeled])
            r = float(np.mean(dataset.y[train] > 0))
            y_fit = mask_labels(dataset.y[train], np.arange(split.labeled.size))
            row = fit(dataset.X[train], y_fit, dataset.info.lam, dataset.info.lam_u, r)
            rows.append({"dataset": "pcmac", "split": seed, "n_labeled": n_labeled,
                         "r_times_u": r * split.unlabeled.size, **row})
    return rows


def render(records):
    """Markdown: per record, the text20k fits and pcmac's totals; then pcmac fit by fit beside each other."""
    records = without_keys(records)
    lines = ["# DA's stopping rule at a fractional r*u", "",
             "Written by `benchmarks/da_stopping.py` from `da_stopping.json` (one record per code version).", ""]
    for label, rec in records.items():
        prov = rec["provenance"]
        pcmac = [f for f in rec["fits"] if f["dataset"] == "pcmac"]
        lines += [f"## {label}", "",
                  f"Commit {prov['git_commit']}, {prov['date']}, load average before "
                  f"{prov['machine']['load_average']}, NUMBA_NUM_THREADS={rec['numba_threads']}; "
                  f"`{prov['command']}`", "",
                  "| data | r*u | temperatures | stop | warnings | J (Eqn 18) | seconds (CPU) | OPTIMIZE-W "
                  "| CG iterations |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for f in rec["fits"]:
            if f["dataset"] == "text20k":
                lines.append(f"| text20k | {f['r_times_u']} | {f['temperatures']} | {f['stop_reason']} | "
                             f"{len(f['warnings'])} | {f['objective']:.9g} | {f['seconds']:.2f} "
                             f"({f.get('cpu_seconds', float('nan')):.2f}) | {f.get('mfn_calls', '')} | "
                             f"{f.get('cg_iterations', '')} |")
        traces = {"excess_entropy_path": "H(p) - h(f)",
                  "unsettled_entropy_path": "entropy at the nearest integer mass"}
        for f in rec["fits"]:
            for key, name in traces.items():
                if key in f:
                    path = ", ".join(f"{h:.3g}" for h in f[key][-5:])
                    lines.append(f"| (text20k {f['r_times_u']}: {name} after the last 5 temperatures: "
                                 f"{path}) | | | | | | | | |")
        if pcmac:
            lines.append(f"| pcmac, {len(pcmac)} fits | fractional | {sum(f['temperatures'] for f in pcmac)} "
                         f"| {sum(f['stop_reason'] == 'tolerance' for f in pcmac)} tolerance | "
                         f"{sum(len(f['warnings']) > 0 for f in pcmac)} fits | mean "
                         f"{np.mean([f['objective'] for f in pcmac]):.9g} | "
                         f"{sum(f['seconds'] for f in pcmac):.2f} "
                         f"({sum(f.get('cpu_seconds', float('nan')) for f in pcmac):.2f}) | "
                         f"{sum(f.get('mfn_calls', 0) for f in pcmac)} | {sum(f.get('cg_iterations', 0) for f in pcmac)} |")
        lines.append("")
    labels = list(records)
    if len(labels) >= 2:
        a, b = labels[0], labels[-1]
        lines += [f"## pcmac fit by fit: {a} vs {b}", "",
                  "| l | split | temperatures | J | J relative change | seconds (CPU) | CG iterations |",
                  "|---|---|---|---|---|---|---|"]
        old = {(f["n_labeled"], f["split"]): f for f in records[a]["fits"] if f["dataset"] == "pcmac"}
        for f in records[b]["fits"]:
            o = old.get((f.get("n_labeled"), f.get("split")))
            if f["dataset"] != "pcmac" or o is None:
                continue
            change = (f["objective"] - o["objective"]) / abs(o["objective"])
            lines.append(f"| {f['n_labeled']} | {f['split']} | {o['temperatures']} -> {f['temperatures']} | "
                         f"{o['objective']:.9g} -> {f['objective']:.9g} | {change:+.2e} | "
                         f"{o['seconds']:.3f} -> {f['seconds']:.3f} ({o.get('cpu_seconds', float('nan')):.3f} -> "
                         f"{f.get('cpu_seconds', float('nan')):.3f}) | {o.get('cg_iterations', '')} -> "
                         f"{f.get('cg_iterations', '')} |")
        lines.append("")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--label", help="name of this record (replaces an earlier one of that name)")
    parser.add_argument("--text20k", default=TEXT20K, help="the benchmark matrix (default: text20k.npz here)")
    parser.add_argument("--out", default=str(OUT), help="folder of da_stopping.json and .md")
    parser.add_argument("--render", action="store_true", help="only rewrite da_stopping.md from the records")
    args = parser.parse_args(argv)
    out = Path(args.out)
    path = out / "da_stopping.json"
    records = json.loads(path.read_text()) if path.exists() else {}
    if not args.render:
        if not args.label:
            parser.error("--label is required to run (or pass --render)")
        from ssl_repro.utils.atomic import atomic_write
        from ssl_repro.utils.provenance import provenance
        record = {"provenance": provenance(), "numba_threads": os.environ["NUMBA_NUM_THREADS"],
                  "fits": text20k_fits(args.text20k) + pcmac_fits()}
        records[args.label] = record
        out.mkdir(parents=True, exist_ok=True)
        with atomic_write(path, "w") as f:
            json.dump(records, f, indent=1)
    from ssl_repro.utils.atomic import atomic_write
    with atomic_write(out / "da_stopping.md", "w") as f:
        f.write(render(records))
    print(render(records))


if __name__ == "__main__":
    main()
