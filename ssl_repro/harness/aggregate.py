"""Collect ``result.json`` files into one tidy table, and summarize it like the paper's tables.

    python -m ssl_repro.harness.aggregate DIR [DIR ...] --out OUT [--keep OUT/results.csv]

writes ``OUT/results.csv`` (one row per job), ``OUT/summary.csv`` (mean and
standard deviation over splits per dataset x labels x unlabeled rows x
method) and ``OUT/summary.md`` (the same as markdown tables, "mean ± std",
one table per metric: rows dataset x labels x unlabeled rows, columns
methods).  The unlabeled rows are part of a cell because a transductive
sweep runs one label count with several u (Tables 1.2-1.6 of 004: every
unlabeled row and a random half); on a learning curve u follows l.  Each job's
``converged`` flag is a column of results.csv; summary.csv counts the
runs that stopped on an iteration cap per cell (``n_not_converged``) and
summary.md appends "(k not converged)" to such cells.  ``seconds`` is the fit alone and
``compile_seconds`` the numba compilation (or cache load) before it; ``git_commit``,
``date`` and ``command`` come from the record's ``provenance`` (empty for records written
without one), so each row names the code it was measured on and the command that ran it.

A ``result.json`` that is not a complete record (truncated, not JSON, ``{}``, a ``NaN`` or ``Infinity``
written by hand: the rule of
:func:`~ssl_repro.harness.result_files.read_result`, by which ``run.py`` computes such a job
again) is skipped with a warning naming the file, and counted (decision: named and left out, not
refused, as an incomplete record is: the other records' summary stands, ``n_splits`` counts what was
averaged, and the same command after the job is run again counts it too); so is a record holding a value
this project never writes (:func:`~ssl_repro.harness.result_files.wrong_value`: ``split: "zero"``,
``n_labeled: "8"``, ``converged: "false"``, ``test_error: "0.25"`` or ``1e999``) and one made from other data
than the other records of its dataset (:func:`without_other_data`).  The command fails (exit 1, no
``--out`` folder created, nothing written) only when no record is readable, and names a DIR that does not
exist.  After a sweep that stopped early it says how many of the sweep's jobs are done ("6 of the 12 jobs",
from the sweep's job list, :func:`planned_jobs`).
"""
import argparse
import json
import sys
import warnings
from pathlib import Path

import pandas as pd

from ssl_repro.harness.progress import MANIFEST, count_done
from ssl_repro.harness.result_files import iter_results, refuse_committed


class SkippedResult(UserWarning):
    """An incomplete ``result.json`` left out of the table (the message names the file)."""

RECORD_COLUMNS = ("dataset", "method", "split", "n_labeled", "n_unlabeled", "n_test", "r", "lam", "lam_u",
                  "test_error", "transductive_error", "unlabeled_positive_fraction", "objective_own", "objective_eqn18",
                  "seconds", "cpu_seconds", "compile_seconds", "converged", "construction")
DIAGNOSTIC_COLUMNS = ("switches", "mfn_calls", "cg_iterations")
#: What a timing job's record says of how it was measured (:mod:`.timing_protocol`): its repeat, the
#: 1-minute load average before and after, the other processes' CPU use (cores) before and during it.
TIMING_COLUMNS = ("repeat", "load_before", "load_after", "others_busy_before", "others_busy_during", "disturbed")
PROVENANCE_COLUMNS = ("git_commit", "date", "command", "dataset_key", "split_key")
METRICS = ("test_error", "transductive_error", "objective_own", "objective_eqn18", "seconds")
GROUP = ["dataset", "n_labeled", "n_unlabeled", "method"]


def collect(*dirs):
    """One row per job found under ``dirs``; each incomplete ``result.json`` is left out with a
    :class:`SkippedResult` warning naming it.  A missing directory is refused (FileNotFoundError)."""
    for directory in dirs:
        if not Path(directory).is_dir():
            raise FileNotFoundError(f"{directory} does not exist or is not a folder (a sweep folder holding "
                                    "result.json files, e.g. results/runs/learning_curve_pcmac)")
    rows, skipped = [], []
    for record in iter_results(*dirs, skipped=skipped):
        row = {key: record.get(key) for key in RECORD_COLUMNS}
        # records written before "converged" existed: the solver's own flag, if any
        row["converged"] = bool(record.get("converged", record["diagnostics"].get("converged", True)))
        row.update({key: record["diagnostics"].get(key) for key in DIAGNOSTIC_COLUMNS})
        row.update({key: record.get("provenance", {}).get(key) for key in PROVENANCE_COLUMNS})
        row.update(timing_columns(record))
        row["path"] = record["path"]
        rows.append(row)
    columns = (list(RECORD_COLUMNS) + list(DIAGNOSTIC_COLUMNS) + list(PROVENANCE_COLUMNS)
               + (list(TIMING_COLUMNS) if any("repeat" in row for row in rows) else []) + ["path"])
    table = pd.DataFrame(rows, columns=columns)
    table, other_data = without_other_data(table)
    for problem in skipped + other_data:
        warnings.warn(f"skipped {problem}", SkippedResult, stacklevel=2)
    return label_settings(table).sort_values(GROUP + ["split"], ignore_index=True)


def without_other_data(table):
    """``table`` less the records of a dataset made from other data than most of that dataset's records (their
    ``dataset_key``, :mod:`ssl_repro.data.keys`: a record copied in from an older checkout, or edited), and a
    line naming each one left out.  Records without a key (made before keys) are kept.  When no key holds most
    of a dataset's keyed records (a tie) the command is refused (ValueError): which data is today's cannot be
    told from the records."""
    keyed = table.dropna(subset=["dataset_key"])
    dropped, lines = [], []
    for dataset, part in keyed.groupby("dataset"):
        counts = part["dataset_key"].value_counts()
        if len(counts) < 2:
            continue
        if counts.iloc[0] == counts.iloc[1]:
            raise ValueError(f"the records of {dataset} were made from {len(counts)} different data (dataset keys "
                             + ", ".join(f"{k}: {n} records" for k, n in counts.items())
                             + "): aggregate the folders of one checkout, or run the jobs again")
        for _, row in part[part["dataset_key"] != counts.index[0]].iterrows():
            dropped.append(row.name)
            lines.append(f"{row['path']}: made from other data than the other {counts.iloc[0]} records of {dataset} "
                         f"(dataset key {row['dataset_key']}, theirs {counts.index[0]}): run the job again")
    return table.drop(index=dropped), lines


def timing_columns(record):
    """The :data:`TIMING_COLUMNS` of a timing job's record (none for other records)."""
    timing = record.get("timing")
    if not timing:
        return {}
    return {"repeat": record["config"].get("repeat"), "load_before": timing["load_before"][0],
            "load_after": timing["load_after"][0], "others_busy_before": timing["others_busy_before"],
            "others_busy_during": timing["others_busy_during"], "disturbed": timing["disturbed"]}


def label_settings(table):
    """Tell apart runs of one method with different lambda / lambda' (e.g. a sweep over
    ``method.lam``): where a dataset's method ran with several, its label gets them appended,
    e.g. ``da lam=0.01``, so they are summarized apart instead of as extra splits."""
    for (dataset, method), part in table.groupby(["dataset", "method"]):
        for key in ("lam", "lam_u"):
            if part[key].nunique(dropna=False) > 1:
                rows = part.index
                table.loc[rows, "method"] = table.loc[rows, "method"] + f" {key}=" + table.loc[rows, key].map(str)
    return table


def summarize(table):
    """Mean, standard deviation (over splits) and count per dataset x labels x method; for timing jobs
    (:data:`TIMING_COLUMNS`) also the median and range of the seconds, CPU seconds and CG iterations
    over every split and repeat, and how many runs were disturbed (the timing protocol's figures)."""
    grouped = table.groupby(GROUP)[list(METRICS)]
    summary = grouped.mean().add_suffix("_mean").join(grouped.std(ddof=1).add_suffix("_std"))
    summary["n_splits"] = table.groupby(GROUP).size()
    summary["n_not_converged"] = table.groupby(GROUP)["converged"].apply(lambda c: int((~c.astype(bool)).sum()))
    if "repeat" in table:
        timed = table.groupby(GROUP)[["seconds", "cpu_seconds", "cg_iterations"]]
        summary = summary.join(timed.median().add_suffix("_median")).join(timed.min().add_suffix("_min")).join(
            timed.max().add_suffix("_max"))
        summary["n_disturbed"] = table.groupby(GROUP)["disturbed"].apply(lambda d: int(d.astype(bool).sum()))
    return summary.reset_index()


def markdown(summary, metric, digits=4):
    """A markdown table of ``metric``: rows dataset x labels x unlabeled rows, columns methods, 'mean ± std'
    (``metric`` None: the summary's own ``cell`` column)."""
    def cell(m, s, unconverged):
        text = f"{m:.{digits}f} ± {s:.{digits}f}" if pd.notna(s) else f"{m:.{digits}f}"
        return text + (f" ({unconverged} not converged)" if unconverged else "")

    cells = summary if metric is None else summary.assign(cell=[cell(m, s, n) for m, s, n in zip(
        summary[f"{metric}_mean"], summary[f"{metric}_std"], summary["n_not_converged"])])
    wide = cells.pivot_table(index=GROUP[:-1], columns="method", values="cell", aggfunc="first")
    header = "| dataset | labels | unlabeled | " + " | ".join(wide.columns) + " |"
    lines = [header, "|" + "---|" * (len(wide.columns) + 3)]
    for (dataset, n_labeled, n_unlabeled), row in wide.iterrows():
        lines.append(f"| {dataset} | {n_labeled} | {n_unlabeled} | "
                     + " | ".join(str(v) if pd.notna(v) else "" for v in row) + " |")
    return "\n".join(lines)


#: Columns of older results.csv files under today's names.
RENAMED_COLUMNS = {"objective": "objective_own"}


def read_results(csv):
    """A results.csv as a table with today's column names (older records wrote ``objective``
    for ``objective_own``); a record without ``converged`` keeps it absent (not recorded)."""
    return pd.read_csv(csv).rename(columns=RENAMED_COLUMNS)


#: The columns that tell one job of a sweep from another (its settings that change the result).
JOB_IDENTITY = GROUP + ["split", "lam", "lam_u", "r", "repeat"]


def _same_job(rows, table):
    """Mask of ``rows`` whose :data:`JOB_IDENTITY` values (those both tables have) match a row of ``table``."""
    columns = [c for c in JOB_IDENTITY if c in rows and c in table]
    if table.empty:
        return pd.Series(False, index=rows.index)
    index = pd.MultiIndex.from_frame(identity_text(table[columns]))
    return pd.Series(pd.MultiIndex.from_frame(identity_text(rows[columns])).isin(index), index=rows.index)


def identity_text(frame):
    """``frame``'s values as text that compares equal across a CSV round trip (numbers to 12 digits,
    so 1457 and 1457.0 match)."""
    def text(value):
        try:
            return f"{float(value):.12g}"
        except (TypeError, ValueError):
            return str(value)
    return frame.apply(lambda column: column.map(text))


def with_earlier_rows(table, earlier_csvs):
    """``table`` plus the rows of earlier ``results.csv`` files whose job it does not hold: jobs
    aggregated before whose result folders are not on this machine any more (results/runs/ is not
    committed) stay in the table, and a job run again replaces its earlier row.  A job is its
    ``path`` or, when the folder naming changed between the runs, its :data:`JOB_IDENTITY` values,
    so a job is never counted twice.  An earlier CSV without ``path``, ``dataset`` and ``method`` is
    refused (ValueError naming it)."""
    earlier = [read_results(f) for f in earlier_csvs]
    for csv, rows in zip(earlier_csvs, earlier):
        missing = [c for c in ("path", "dataset", "method") if c not in rows]
        if missing:
            raise ValueError(f"--keep {csv} has no column {', '.join(missing)}: it is not a results.csv this command "
                             "wrote; give the results.csv of an earlier aggregation, or drop --keep")
    if not earlier:
        return table
    kept = pd.concat(earlier, ignore_index=True)
    kept = kept[~kept["path"].isin(table["path"]) & ~_same_job(kept, table)]
    kept = kept.reindex(columns=table.columns)       # columns an earlier table lacks stay empty
    merged = pd.concat([table, kept], ignore_index=True) if len(table) else kept
    return merged.sort_values(GROUP + ["split"], ignore_index=True)


def write_tables(dirs, out, keep=()):
    """Write results.csv, summary.csv and summary.md into ``out`` from the result.json files under
    ``dirs`` and the rows of the earlier results.csv files ``keep`` (:func:`with_earlier_rows`);
    return (table, summary).  Without any row nothing is written (SystemExit; ``out`` is not created)."""
    out = Path(out)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SkippedResult)
        table = with_earlier_rows(collect(*dirs), keep)
    skipped = [w for w in caught if issubclass(w.category, SkippedResult)]
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)    # to the caller's filters
    if table.empty:
        raise SystemExit(f"Error: no readable result.json under {', '.join(map(str, dirs))}"
                         + (f" ({len(skipped)} incomplete, skipped)" if skipped else ""))
    sources = ", ".join(map(str, dirs)) + "".join(f" and the earlier rows of {f}" for f in keep)
    summary, text = summaries(table, sources)       # everything computed before any file is written
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "results.csv", index=False)
    return table, write_summaries(table, out, sources, (summary, text))


def write_summaries(table, out, sources, made=None):
    """Write summary.csv and summary.md of the jobs ``table`` into ``out`` (``sources`` names where the
    jobs came from, for summary.md's title; ``made``: :func:`summaries` already computed); return the summary."""
    summary, text = made or summaries(table, sources)
    summary.to_csv(Path(out) / "summary.csv", index=False)
    (Path(out) / "summary.md").write_text(text)
    return summary


def summaries(table, sources):
    """(summary, summary.md's text) of the jobs ``table``."""
    summary = summarize(table if "converged" in table else table.assign(converged=True))
    parts = [f"# Results from {sources}\n",
             "Mean ± standard deviation over splits.\n"]
    if "converged" not in table:
        parts.append("Convergence is not recorded in these jobs' records.\n")
    for metric in METRICS:
        if metric == "seconds" and "repeat" in table:
            continue                    # a timing record's seconds: medians by the protocol, below
        heading = metric if metric != "seconds" else (
            "seconds (sweep throughput: jobs ran side by side, so not a timing; see the timing protocol)")
        parts.append(f"\n## {heading}\n\n{markdown(summary, metric)}\n")
    if "seconds_median" in summary:
        parts.append("\n## seconds by the timing protocol\n\nMedian (range) of the wall seconds over every split and "
                     "repeat; CPU seconds and CG iterations (medians) beside; runs disturbed by other processes "
                     "counted.\n\n" + markdown(summary.assign(cell=[
                         f"{m:.3g} s ({lo:.3g}-{hi:.3g}); CPU {c:.3g} s; {g:.0f} CG it." + (f"; {d} disturbed" if d else "")
                         for m, lo, hi, c, g, d in zip(summary["seconds_median"], summary["seconds_min"],
                                                       summary["seconds_max"], summary["cpu_seconds_median"],
                                                       summary["cg_iterations_median"], summary["n_disturbed"])]),
                         None) + "\n")
    return summary, "".join(parts)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m ssl_repro.harness.aggregate", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+", help="sweep directories holding result.json files")
    ap.add_argument("--out", required=True, help="folder for results.csv, summary.csv, summary.md")
    ap.add_argument("--force", action="store_true", help="write into the repository's committed results/ "
                                                           "(replacing its record there)")
    ap.add_argument("--keep", action="append", default=[], metavar="CSV",
                    help="an earlier results.csv whose jobs stay in the table unless found again under dirs "
                         "(their result folders need not exist here); may be repeated")
    args = ap.parse_args(argv)
    try:
        refuse_committed(args.out, args.force)
        if Path(args.out).exists() and not Path(args.out).is_dir():
            raise ValueError(f"--out {args.out} is a file: name a folder (results.csv, summary.csv and summary.md "
                             "go into it)")
    except ValueError as error:
        raise SystemExit(f"Error: {error}") from None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", SkippedResult)
        try:
            table, summary = write_tables(args.dirs, args.out, args.keep)
        except (OSError, ValueError) as error:         # a missing DIR, a --keep that is not a results.csv
            raise SystemExit(f"Error: {error}") from None
        finally:
            for w in caught:
                print(f"warning: {w.message}", file=sys.stderr)
    skipped = sum(issubclass(w.category, SkippedResult) for w in caught)
    planned = planned_jobs(args.dirs)
    print(f"{len(table)} jobs, {len(summary)} groups -> {args.out}"
          + (f"; {skipped} result.json skipped (see the warnings above)" if skipped else ""))
    if planned and planned[0] > planned[1]:
        print(f"warning: {planned[1]} of the {planned[0]} jobs of the sweep{'s' * (len(args.dirs) > 1)} "
              f"{', '.join(args.dirs)} are done, {planned[0] - planned[1]} not (stopped, failed or still running): "
              "the means cover the done ones; run the sweep again to finish it, then aggregate again",
              file=sys.stderr)


def planned_jobs(dirs):
    """(jobs planned, jobs done) of the sweeps ``dirs`` by their job lists (``.sweep/jobs.json``, written by
    the sweep before any job runs: :mod:`.progress`), or None when no folder holds one (a folder of records
    copied from elsewhere)."""
    jobs = []
    for directory in dirs:
        try:
            jobs += json.loads((Path(directory) / MANIFEST).read_text())["jobs"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return (len(jobs), count_done(jobs)) if jobs else None


if __name__ == "__main__":
    main()
