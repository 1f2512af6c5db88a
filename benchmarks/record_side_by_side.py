"""Run the side-by-side timing against the C++ reference and keep its figures as a record in ``results/benchmarks/``.

    python benchmarks/record_side_by_side.py --side-by-side SIDE_BY_SIDE --label text20k \\
        --data text20k.npz --methods tsvm-max,da --pairs 3
    python benchmarks/record_side_by_side.py --side-by-side SIDE_BY_SIDE --label text20k-one-core-busy \\
        --busy-loops 1 --data text20k.npz --methods tsvm-max --pairs 3
    python benchmarks/record_side_by_side.py --side-by-side SIDE_BY_SIDE --label text20k-one-core-busy-one-thread \\
        --busy-loops 1 --env NUMBA_NUM_THREADS=1 --data text20k.npz --methods tsvm-max --pairs 3
    python benchmarks/record_side_by_side.py --render --readme   # tables from the records only
    python benchmarks/record_side_by_side.py --check             # is README.md's speed list up to date?

``SIDE_BY_SIDE`` is the timing script kept beside the papers' C++ reference
(SVMlin, GPL, built separately ``-O3``; neither is part of this repository):
it times ``benchmarks/bench_solvers.py`` and the reference in turn on the
file.  ``text20k.npz``: ``python benchmarks/write_bench_file.py --text-bench
--out text20k.npz``.  Run from the project root.  Each run adds (or replaces, by label) one
record in ``results/benchmarks/side_by_side.json`` holding the date (UTC),
the machine (:func:`ssl_repro.utils.provenance.machine`: cores, CPU model, RAM, OS, package versions), its state before and after
(load averages, the busiest processes; after the runs also the cores
other processes kept busy meanwhile: /proc/stat's busy time minus the CPU
time of this script and its children, as the timing protocol reads it:
:func:`ssl_repro.harness.timing_protocol.others_busy`), the exact command,
the git commit of the code timed, ``side_by_side.py``'s figures per method (median
training seconds both sides, pairwise ratios, both objectives and errors),
and our side's per-run details from ``bench_solvers.py`` (CG iterations,
peak resident memory of training against the CSR matrix's size, numba
threads).  ``--busy-loops N`` starts N ``python -c "while True: pass"``
processes beside the runs (and stops them); ``--env K=V`` sets variables
for the runs of both sides.  ``side_by_side.md`` and ``side_by_side.csv``
beside the JSON are regenerated from all records, and so is the speed
table of ``README.md`` (between its two ``speed`` markers: one row per
record, the ratio of each method, its pairs, code commit and date; the commands are in side_by_side.md);
``--check`` exits 1 if that table is not what the records give.
"""
import argparse
import csv
import datetime
import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# this checkout's ssl_repro (the code the runs time, see run()), so that "code" names its commit
sys.path.insert(0, str(ROOT))
from ssl_repro.claims.record_file import RecordError, read_json  # noqa: E402
from ssl_repro.data.keys import NOT_FROM_DATA  # noqa: E402
from ssl_repro.harness import timing_protocol  # noqa: E402
from ssl_repro.utils.marked_block import with_block  # noqa: E402
from ssl_repro.utils.provenance import git_commit, machine  # noqa: E402

OUT = ROOT / "results" / "benchmarks"
BUSY = [sys.executable, "-c", "while True: pass"]


def state():
    """Load averages and the five busiest processes right now."""
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    top = subprocess.run(["ps", "-eo", "pcpu,etime,args", "--sort=-pcpu"], capture_output=True, text=True).stdout
    return {"loadavg": [float(x) for x in load], "busiest": [line.strip()[:120] for line in top.splitlines()[1:6]]}


def data_meta(path):
    """The ``.meta.json`` that ``write_bench_file.py`` writes beside a data file ({} when there is none)."""
    meta = Path(str(Path(path).with_suffix("")) + ".meta.json")
    return json.loads(meta.read_text()) if meta.exists() else {}


def data_values(path):
    """(value type, MiB of the same matrix as float64 CSR) of a benchmark file, from its arrays' headers.

    The float64 CSR size is what the memory figures are taken over (int32
    indices and row pointers, as :func:`ssl_repro.bench.files.load_bench_npz`
    loads them when they fit), so that float32 rows compare with float64 ones.
    """
    import zipfile

    import numpy as np

    def header(z, name):
        with z.open(name + ".npy") as f:
            version = np.lib.format.read_magic(f)
            read = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
            return read(f)

    with zipfile.ZipFile(path) as z:
        (nnz,), _, dtype = header(z, "data")
        (n_ptr,), _, _ = header(z, "indptr")
    index_bytes = 4 if nnz < np.iinfo(np.int32).max else 8
    return np.dtype(dtype).name, (nnz * (8 + index_bytes) + n_ptr * index_bytes) / 2**20


def run(args):
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    for item in args.env:
        key, _, value = item.partition("=")
        env[key] = value
    with tempfile.TemporaryDirectory() as tmp:
        out, log = Path(tmp) / "side_by_side.json", Path(tmp) / "ours.jsonl"
        env["SSL_REPRO_BENCH_LOG"] = str(log)
        cmd = [sys.executable, args.side_by_side, "--data", args.data, "--methods", args.methods,
               "--pairs", str(args.pairs), "--json", str(out)]
        before = state()
        start = timing_protocol.reading()
        busy = [subprocess.Popen(BUSY) for _ in range(args.busy_loops)]
        started = datetime.datetime.now(datetime.timezone.utc)
        try:
            subprocess.run(cmd, cwd=ROOT, env=env, check=True)
        finally:
            for proc in busy:
                proc.kill()
                proc.wait()
        others = timing_protocol.others_busy(start, timing_protocol.reading())
        after = state()
        # cores kept busy during the runs by processes other than ours (both sides, busy loops)
        after["others_busy_cores_during_run"] = None if others is None else round(others, 3)
        figures = json.loads(out.read_text())
        ours = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    for method, res in figures.items():
        res["ours_runs"] = [{k: run_[k] for k in ("seconds", "cg_iterations", "mfn_calls", "switches",
                                                   "train_peak_mb", "peak_mb", "matrix_mb", "threads",
                                                   "before_training_mb", "libraries_mb") if k in run_}
                            for run_ in ours if run_["method"] == method]
        res["objective_relative_difference"] = (res["ours_objective"] / res["reference_objective"] - 1.0)
    shown = " ".join(f"{k}={shlex.quote(v)}" for k, v in (e.partition("=")[::2] for e in args.env))
    values, float64_csr_mb = data_values(args.data)
    return {
        "label": args.label,
        "values": values,
        "float64_csr_mb": round(float64_csr_mb, 3),
        "date_utc": started.strftime("%Y-%m-%d %H:%M"),
        "command": (shown + " " if shown else "") + "python SIDE_BY_SIDE " + " ".join(
            shlex.quote(Path(a).name if b == "--data" else a) for b, a in zip(cmd[1:-3], cmd[2:-2])),
        "busy_loops": args.busy_loops,
        "record_command": clone_command({"record_command": "python benchmarks/record_side_by_side.py " + " ".join(
            shlex.quote(a) for a in sys.argv[1:])}),         # no machine's paths: as it runs from a clone
        "data_command": data_meta(args.data).get("command"),
        "code": git_commit(),
        "machine": machine(),
        "state_before": before,
        "state_after": after,
        "methods": figures,
        "data_keys": NOT_FROM_DATA,       # a timing on a benchmark file (its data_command says how it was made)
    }


def render(records, out=OUT):
    """side_by_side.md and side_by_side.csv in ``out`` from all records."""
    rows = []
    for rec in records:
        for method, res in rec["methods"].items():
            runs = res.get("ours_runs", [])
            train_peak = max((r["train_peak_mb"] for r in runs), default=float("nan"))
            before = max((r.get("before_training_mb", float("nan")) for r in runs), default=float("nan"))
            libraries = max((r.get("libraries_mb", float("nan")) for r in runs), default=float("nan"))
            matrix = runs[0]["matrix_mb"] if runs else float("nan")
            # records without "values" predate float32 data: float64, and the CSR was float64
            values = rec.get("values", "float64")
            csr64 = rec.get("float64_csr_mb", matrix)
            rows.append({
                "label": rec["label"] + (f" ({values})" if values != "float64" else ""), "values": values,
                "method": method, "date_utc": rec["date_utc"],
                "busy_loops": rec["busy_loops"], "pairs": len(res["all_ratios"]),
                "ours_s": round(res["ours_seconds"], 3), "reference_s": round(res["reference_seconds"], 3),
                "ratio": round(res["ratio"], 3), "all_ratios": " ".join("%.3f" % x for x in res["all_ratios"]),
                "J_ours": "%.6f" % res["ours_objective"], "J_reference": "%.6f" % res["reference_objective"],
                "J_rel_diff": "%.1e" % res["objective_relative_difference"],
                "err_ours": "%.4f" % res["ours_transductive_error"],
                "err_reference": "%.4f" % res["reference_transductive_error"],
                "cg_iterations": " ".join(str(r["cg_iterations"]) for r in runs),
                "threads": " ".join("/".join(str(t) for t in r["threads"]) for r in runs),
                "train_peak_mb": round(train_peak, 1), "matrix_mb": round(matrix, 1),
                "peak_over_matrix": round(train_peak / matrix, 2) if runs else float("nan"),
                "before_training_over_matrix": round(before / matrix, 2) if runs else float("nan"),
                "libraries_mb": round(libraries, 1),
                "data_and_training_over_matrix": round((train_peak - libraries) / matrix, 2) if runs else float("nan"),
                "data_and_training_over_float64_csr": (round((train_peak - libraries) / csr64, 2) if runs
                                                       else float("nan")),
                "command": rec["command"],
            })
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "side_by_side.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]) if rows else ["label"])
        writer.writeheader()
        writer.writerows(rows)
    lines = ["# Side by side with the C++ reference (g++ -O3)", "",
             "Written by `benchmarks/record_side_by_side.py` from `side_by_side.json` (do not edit).",
             "ratio = median of the pairwise ratios ours / reference of training seconds; "
             "peak/CSR = peak resident memory while training over the CSR arrays' size; before/CSR = "
             "resident memory just before training (interpreter, libraries, compiled kernels, the data) over "
             "the same; (peak-lib)/CSR = the peak minus the resident memory of the process before it loaded "
             "the data (interpreter, libraries, compiled kernels: lib MB), over the same: what the data and "
             "training take (nan in records older than a figure); (peak-lib)/CSR64 = the same over the size the "
             "matrix has as float64 CSR (equal to (peak-lib)/CSR for float64 data). Labels marked (float32): the "
             "file's values are float32 (the reference reads the same values).", "",
             "| label | method | busy loops | pairs | ours s | reference s | ratio (pairs) | J ours | J reference "
             "| J rel. diff | error ours / ref | CG its | threads | peak/CSR | before/CSR | lib MB | (peak-lib)/CSR "
             "| (peak-lib)/CSR64 |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['label']} | {r['method']} | {r['busy_loops']} | {r['pairs']} | {r['ours_s']} | "
                     f"{r['reference_s']} | **{r['ratio']}** ({r['all_ratios']}) | {r['J_ours']} | "
                     f"{r['J_reference']} | {r['J_rel_diff']} | {r['err_ours']} / {r['err_reference']} | "
                     f"{r['cg_iterations']} | {r['threads']} | {r['peak_over_matrix']} "
                     f"({r['train_peak_mb']} / {r['matrix_mb']} MB) | {r['before_training_over_matrix']} | "
                     f"{r['libraries_mb']} | {r['data_and_training_over_matrix']} | "
                     f"{r['data_and_training_over_float64_csr']} |")
    lines += ["", "Commands, machines and machine states:", ""]
    for rec in records:
        m, before = rec["machine"], rec["state_before"]
        made = data_command(rec)
        lines.append(f"- **{rec['label']}** ({rec['date_utc']} UTC, code {rec['code'][:12]}): `{clone_command(rec)}`"
                     + (f" (data file: `{made}`)" if made else " (the data file's command was not recorded)")
                     + f"{' beside %d busy loop(s)' % rec['busy_loops'] if rec['busy_loops'] else ''}; "
                     f"{m['cores']} x {m['cpu']}, {m['memory_gib']} GiB; load before "
                     f"{before['loadavg']}, after {rec['state_after']['loadavg']}; cores kept busy by other "
                     f"processes during the runs: {rec['state_after'].get('others_busy_cores_during_run', 'n/a')}.")
    (out / "side_by_side.md").write_text("\n".join(lines) + "\n")
    return rows


README = ROOT / "README.md"
SPEED_START = "<!-- speed: rendered by benchmarks/record_side_by_side.py from results/benchmarks/side_by_side.json -->"
SPEED_END = "<!-- end of speed -->"
METHOD_NAMES = {"tsvm-max": "TSVM S=max", "da": "DA"}


def clone_command(rec):
    """The command that makes ``rec`` as it runs from a clone: ``python benchmarks/record_side_by_side.py`` with
    the side-by-side script named ``SIDE_BY_SIDE`` (it lives beside the C++ reference, outside the repository)
    and the data file by its name (made by :func:`data_command`); no machine's paths.  Records made before
    the script took ``--side-by-side`` get it added."""
    words = shlex.split(rec.get("record_command") or "python benchmarks/record_side_by_side.py")
    out = []
    for k, word in enumerate(words):
        before = words[k - 1] if k else ""
        out.append("SIDE_BY_SIDE" if before == "--side-by-side" else Path(word).name if before == "--data" else word)
    if "--side-by-side" not in out:
        at = out.index("benchmarks/record_side_by_side.py") + 1
        out[at:at] = ["--side-by-side", "SIDE_BY_SIDE"]
    return " ".join(shlex.quote(w) if w != shlex.quote(w) and "=" not in w else w for w in out)


def data_command(rec):
    """The command that made the record's data file (``write_bench_file.py``'s, from the ``.meta.json`` beside
    the file when the record was made), or None for records made before it was kept."""
    return rec.get("data_command")


def readme_speed(records):
    """README.md's speed table: per record, ours / reference of each method, its pairs, code and date (the
    commands are in side_by_side.md and the benchmarks guide)."""
    methods = list(dict.fromkeys(m for rec in records for m in rec["methods"]))
    lines = ["| file (record) | " + " | ".join(f"{METHOD_NAMES.get(m, m)} ours / C++" for m in methods)
             + " | pairs | code, date |", "|---" * (len(methods) + 3) + "|"]
    for rec in sorted(records, key=lambda r: r["label"]):
        ratios = " | ".join(f"**{rec['methods'][m]['ratio']:.2f}x**" if m in rec["methods"] else "-" for m in methods)
        pairs = min(len(res["all_ratios"]) for res in rec["methods"].values())
        values = ", float32 values" if rec.get("values", "float64") != "float64" else ""
        busy = f", {rec['busy_loops']} core(s) kept busy" if rec["busy_loops"] else ""
        lines.append(f"| {rec['label']}{values}{busy} | {ratios} | {pairs} | {rec['code'][:7]}, {rec['date_utc'][:10]} |")
    return lines


def readme_with_speed(text, records):
    """``text`` (README.md) with the lines between the speed markers rendered from ``records``."""
    return with_block(text, SPEED_START, SPEED_END, readme_speed(records))


def readme_table(rows):
    """A compact table of the records (same figures as side_by_side.md, fewer columns)."""
    lines = ["| record (label) | method | ours s | C++ -O3 s | ours / C++ (each pair) | J ours / C++ | "
             "error ours / C++ | peak RSS / CSR (before training) | data + training / CSR |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['label']} | {r['method']} | {r['ours_s']:.2f} | {r['reference_s']:.2f} | "
                     f"**{r['ratio']:.2f}** ({r['all_ratios']}) | {r['J_ours']} / {r['J_reference']} | "
                     f"{r['err_ours']} / {r['err_reference']} | {r['peak_over_matrix']} "
                     f"({r['before_training_over_matrix']}) | {r['data_and_training_over_matrix']} |")
    return "\n".join(lines)


#: The options of a run (not read by ``--render`` or ``--check``, which run nothing).
RUN_OPTIONS = ("--label", "--side-by-side", "--data", "--methods", "--pairs", "--busy-loops", "--env")


def refusal(args, argv):
    """The ``Error:`` line for a command line refused before anything runs or is rewritten, or None: a run's
    option given to ``--render``/``--check``; ``--render``/``--check`` without the record (``--render`` would
    empty README.md's speed list); an ``--out`` that is a file; a ``--pairs`` below 1, a ``--busy-loops``
    below 0, an ``--env`` that is not K=V; a ``--side-by-side`` script or ``--data`` file that is missing."""
    if args.out.exists() and not args.out.is_dir():
        return f"Error: --out {args.out} is a file: give the folder of the records (default {OUT})"
    if args.render or args.check:
        given = [a.split("=")[0] for a in argv if a.split("=")[0] in RUN_OPTIONS]
        if given:
            return (f"Error: {', '.join(dict.fromkeys(given))} is not read by {'--check' if args.check else '--render'}, "
                    "which runs nothing: drop it")
        if not (args.out / "side_by_side.json").is_file():
            return (f"Error: {args.out / 'side_by_side.json'} is missing: {'--check' if args.check else '--render'} "
                    "reads the records there" + ("" if args.check else " (and would empty README.md's speed list)")
                    + ": restore it (git checkout -- results/benchmarks/side_by_side.json) or give --out the folder "
                    "that holds it")
        return None
    if args.pairs < 1:
        return f"Error: --pairs {args.pairs}: give at least 1 (each pair times both sides once)"
    if args.busy_loops < 0:
        return f"Error: --busy-loops {args.busy_loops}: give 0 or more busy processes"
    odd = [e for e in args.env if "=" not in e or not e.partition("=")[0]]
    if odd:
        return f"Error: --env {odd[0]} is not K=V: give it as e.g. --env NUMBA_NUM_THREADS=1"
    for option, value in (("--side-by-side", args.side_by_side), ("--data", args.data)):
        if value and not Path(value).is_file():
            return (f"Error: {option} {value}: no such file (" + ("the timing script kept beside the C++ reference"
                    if option == "--side-by-side" else "make it with python benchmarks/write_bench_file.py "
                    "--text-bench --out text20k.npz") + ")")
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--label", help="name of the record (a record with the same label is replaced)")
    ap.add_argument("--side-by-side", metavar="PATH",
                    help="the side-by-side timing script kept beside the C++ reference (built separately)")
    ap.add_argument("--data", help="benchmark file (format of text20k.npz)")
    ap.add_argument("--methods", default="tsvm-max,da")
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--busy-loops", type=int, default=0, help="busy processes to run beside the benchmark")
    ap.add_argument("--env", action="append", default=[], metavar="K=V", help="environment of the runs")
    ap.add_argument("--render", action="store_true", help="only rewrite the tables from the records")
    ap.add_argument("--readme", action="store_true", help="also print a compact table of the records")
    ap.add_argument("--check", action="store_true", help="only check that README.md's speed list is up to date")
    ap.add_argument("--out", type=Path, default=OUT,
                    help="folder of the records (default results/benchmarks; e.g. results/reference_agreement "
                         "for runs that compare results, not speed, on a busy machine)")
    args = ap.parse_args(argv)
    message = refusal(args, argv if argv is not None else sys.argv[1:])
    if message:
        sys.exit(message)
    path = args.out / "side_by_side.json"
    try:
        records = read_json(path) if path.exists() else []
    except RecordError as error:
        sys.exit(f"Error: {error}")
    if args.check:
        text = README.read_text()
        if readme_with_speed(text, records) != text:
            sys.exit("Error: README.md's speed list differs from the records: run "
                     "python benchmarks/record_side_by_side.py --render")
        print("README.md's speed list is up to date")
        return
    if not args.render:
        if not (args.label and args.data and args.side_by_side):
            sys.exit("Error: --side-by-side, --label and --data are needed for a run (or --render, --check)")
        record = run(args)
        records = [r for r in records if r["label"] != args.label] + [record]
        args.out.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(records, indent=1) + "\n")
    rows = render(records, args.out)
    if args.out == OUT:
        README.write_text(readme_with_speed(README.read_text(), records))
    if args.readme:
        print(readme_table(rows))


if __name__ == "__main__":
    main()
