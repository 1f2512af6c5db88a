"""The papers' numbers beside ours: wherever ``experiments/paper_numbers.json`` holds a number of a table
(004 Tables 1.2-1.7, 000 Table 9 and 003 Table 4, 001 Tables 2, 4 and 5, 002 Tables 2-6 and Fig 3's
speed-ups), the number ours stands for, read from the records, and the difference, as one compact table on
the claim's page and on the artifact's page (paper, ours, difference, the rule's reading).

The difference is ours minus the paper's in points for an error, ours over the paper's for a time or a
speed-up, the relative gap for an objective minimum (J, Eqn 18 of 000), ours minus the paper's for a count
of successes.  The rule's reading is the bands of :mod:`ssl_repro.claims.rules` applied to the two numbers
(:func:`ssl_repro.claims.paper_evidence.error_band`, :func:`~ssl_repro.claims.paper_evidence.j_band`); times
have no threshold (the rules compare seconds only as ratios against a factor a claim states), so a time's
reading is its ratio alone.  The reading is no verdict: our data are often another set than the paper's (the
data column says which), and the claims' verdicts pair our splits (:mod:`ssl_repro.claims.rules`).

Where each ``where`` of paper_numbers.json finds ours is :data:`SOURCES`; a table with numbers and no source
(a claim appended later about another table) gets no rows, and a number whose record is absent shows ``-``.
"""
import re

import numpy as np
import pandas as pd

from ssl_repro.claims import cccp_002_large_rules as large
from ssl_repro.claims import cccp_002_mnist_rules as mnist
from ssl_repro.claims import cccp_002_rules as cccp
from ssl_repro.claims.paper_evidence import error_band, j_band
from ssl_repro.report.record_text import commit_note, data_kind, real_name, sweep_frames
from ssl_repro.report.tables import NAMES, table

#: A table whose numbers are another paper's: 003 Table 4 prints 000 Table 9's rows, its numbers not legible
#: in its text (the svmlight-speed section says so).
SAME_TABLE = {("003", "Table 4"): ("000", "Table 9")}


def _fraction(n):
    """A paper number in the unit ours is in: % to a fraction; the rest as printed."""
    return n["value"] / 100 if n.get("unit") == "%" else n["value"]


def our_table9_rows(records):
    """Our S=1, S=max, DA rows at the lowest label count, split 0, from the timing (else learning-curve)
    folders (000 Table 9's protocol: one run per set); once per render."""
    return records.once("our table 9 rows", lambda: _table9_rows(records))


def _table9_rows(records):
    rows = []
    for prefix in ("timing_", "learning_curve_"):
        for folder, dataset, frame in sweep_frames(records, prefix):
            if any(r["dataset"] == dataset for r in rows):
                continue
            low = frame[(frame["split"] == 0) & (frame["n_labeled"] == frame["n_labeled"].min())]
            for method in ("tsvm-S1", "tsvm-Smax", "da"):
                part = low[low["method"] == method]
                if not part.empty:
                    r = part.iloc[0]
                    rows.append({"dataset": dataset, "n_labeled": int(r["n_labeled"]), "method": method,
                                 "seconds": r["seconds"], "capped": False, "test_error": r["test_error"],
                                 "transductive_error": r["transductive_error"],
                                 "code": f"`{folder}`: {commit_note(part)}"})
    return pd.DataFrame(rows, columns=["dataset", "n_labeled", "method", "seconds", "capped", "test_error",
                                       "transductive_error", "code"])


def _table9(records, n):
    """000 Table 9: our seconds or test error of the method at the lowest label count, split 0 (SVM-light's
    from ``peers/table9.csv``; a run killed at its cap has no number)."""
    peers = records.csv("peers/table9.csv")
    frame = pd.concat([our_table9_rows(records), peers if peers is not None else None], ignore_index=True)
    column = "test_error" if n["quantity"] == "error" else "seconds"
    for r in frame[frame["method"] == n["method"]].itertuples():
        if real_name(r.dataset) == n["dataset"]:
            capped = bool(r.capped) if pd.notna(r.capped) else False
            yield r.dataset, f"l = {int(r.n_labeled)}, split 0", np.nan if capped else getattr(r, column)


def _transductive(records, n):
    """004 Tables 1.2-1.7: the mean over splits of the ``transductive_*`` cell at the paper's l and its u's rank
    (ours are smaller sets: the 10% kdd file, stand-ins of full-ccat's shape); minutes from seconds."""
    metric, key = n["quantity"].split(" ", 1)
    l, u = (int(x.split("=")[1]) for x in key.split())
    paper_us = sorted({int(m["quantity"].rsplit("u=", 1)[1]) for m in
                       records.paper_numbers(paper=n["paper"], dataset=n["dataset"], where=n["where"])
                       if m["quantity"].startswith(f"{metric} l={l} ")})
    for _, dataset, frame in sweep_frames(records, "transductive_"):
        at = frame[frame["n_labeled"] == l]
        ours_us = sorted(at["n_unlabeled"].unique())
        if real_name(dataset) != n["dataset"] or paper_us.index(u) >= len(ours_us):
            continue
        our_u = ours_us[paper_us.index(u)]
        rows = at[(at["n_unlabeled"] == our_u) & (at["method"] == n["method"])]
        value = rows["seconds"].mean() / 60 if metric == "minutes" else rows[metric].mean()
        yield dataset, f"l = {l:,}, u = {int(our_u):,}, {_splits(rows['split'].nunique())}", value


def _kernel_toy(records, n):
    """001 Table 2: our successes of 10 draws, best over the grid (``kernel_toy_table/grid.json``)."""
    grid = records.json("kernel_toy_table/grid.json")
    found = [g["successes"] for g in grid or [] if g["method"] == n["method"] and g["dataset"] == n["dataset"]]
    if found:
        yield f"{n['dataset']} (ours)", "10 draws, best over the grid", max(found)


def _kernel_benchmarks(records, n):
    """001 Tables 4-5: our error on the unlabeled (u) or test (t) rows, selected or best (``table.json``)."""
    record = records.json("kernel_benchmarks/table.json")
    row = (record or {}).get("rows", {}).get(n["method"])
    _, point, rows = n["quantity"].split()
    if row is not None:
        yield "pcmac (real)", f"{point}, {'unlabeled' if rows == 'u' else 'test'} rows, {_splits(row['splits'])}", \
            row[point][0 if rows == "u" else 1] / 100


def _cccp_tables(records, n):
    """002 Tables 2-3: our best mean error over the grid of the row's method and fixed settings."""
    grid = records.csv(f"{cccp.FOLDER}/grid.csv")
    spec = {key: (method, fixed) for _, key, method, fixed in cccp.TABLE2_ROWS if key} | \
        {key: ("cccp-tsvm", fixed) for _, key, fixed in cccp.TABLE3_ROWS}
    ours = {name: d for d, name in cccp.PAPER_SETS.items()}
    if grid is not None and n["method"] in spec and n["dataset"] in ours:
        found = cccp.best(grid, ours[n["dataset"]], *spec[n["method"]])
        if found:
            yield ours[n["dataset"]], f"best over the grid, {_splits(found[2])}", found[0]


def _cccp_table6(records, n):
    """002 Table 6: our mean error over the splits of the mode at its best C*, from the record of the number's
    column (Text: text's; MNIST-8: mnist-5k's 8 against the rest)."""
    for name in cccp.TABLE6_RECORDS:
        frame = records.csv(f"{cccp.FOLDER}/{name}")
        if frame is None or cccp.table6_column(frame)[0] != n["dataset"]:
            continue
        errors = cccp.table6_modes(frame).get(n["method"])
        if errors is not None:
            yield cccp.table6_column(frame)[1], _splits(errors.size), errors.mean()


def _cccp_speed(records, n):
    """002 Fig 3: the peer's CPU seconds over CCCP-TSVM's at our largest unlabeled-row count."""
    times = records.csv(f"{cccp.FOLDER}/times.csv")
    if times is not None:
        cells, _ = cccp.fig3_medians(times)
        ratio = cccp.speed_ups(cells).get(n["method"])
        if ratio is not None:
            yield "text", f"u = {int(cells['n_unlabeled'].max()):,}" + (", a lower bound" if ratio[1] else ""), ratio[0]


def _labels_cell(dataset, rows, n):
    """Our mean test error over the splits of ``rows`` (one per split and fit) at the paper number ``n``'s method,
    labels L and unlabeled rows U; nothing where ours has no such cell."""
    cell = None if rows is None else rows[(rows["method"] == n["method"]) & (rows["n_labeled"] == n["n_labeled"])
                                          & (rows["n_unlabeled"] == n["n_unlabeled"])]
    if cell is not None and not cell.empty:
        yield dataset, f"L = {n['n_labeled']:,}, U = {n['n_unlabeled']:,}, {_splits(len(cell))}", \
            cell["test_error"].mean()


def _cccp_large(records, n):
    """002 Table 4: our mean test error over the splits of the fit chosen on the validation rows at the paper's
    L and U, on the 20 Newsgroups analog of RCV1 (:func:`ssl_repro.claims.cccp_002_large_rules.table4`)."""
    frame = records.csv(large.RECORD)
    yield from _labels_cell(large.DATASET, large.table4(frame) if frame is not None else None, n)


def _cccp_mnist(records, n):
    """002 Table 5: our mean test error over the splits at the paper's L and U on mnist-5k, a real subset of
    MNIST (:mod:`ssl_repro.claims.cccp_002_mnist_rules`; 002's settings, one fit per cell); the paper's U
    beyond the subset's 4,000 unlabeled rows has no number of ours."""
    yield from _labels_cell(mnist.DATASET, records.csv(mnist.RECORD), n)


def _cell_named(n):
    """The paper's cell ``n`` is at, where it gives its labels and unlabeled rows (002 Tables 4-5): `` at L = 1,000,
    U = 60,000``, so that rows without a number of ours stay apart; else nothing."""
    return f" at L = {n['n_labeled']:,}, U = {n['n_unlabeled']:,}" if {"n_labeled", "n_unlabeled"} <= set(n) else ""


def _splits(k):
    return f"{k} split" + ("s" if k != 1 else "")


#: Where ours comes from, per (paper, where) of paper_numbers.json.
SOURCES = {**{("004", f"Table 1.{k}"): _transductive for k in range(2, 8)}, ("000", "Table 9"): _table9,
           ("001", "Table 2"): _kernel_toy, ("001", "Table 4"): _kernel_benchmarks,
           ("001", "Table 5"): _kernel_benchmarks, ("002", "Table 2"): _cccp_tables, ("002", "Table 3"): _cccp_tables,
           ("002", "Table 4"): _cccp_large, ("002", "Table 5"): _cccp_mnist, ("002", "Table 6"): _cccp_table6, ("002", "Sec. 4.2 (Fig 3)"): _cccp_speed}


def _kind(n):
    q = n["quantity"]
    return ("time" if q.split()[0] in ("seconds", "minutes", "speed-up") else "objective" if q.startswith("objective")
            else "count" if q.startswith("successes") else "error")


def compare(kind, paper, ours):
    """(difference, the rule's reading) of ``ours`` against ``paper`` (module doc)."""
    if ours is None or not np.isfinite(ours):
        return "-", "no number of ours (not run, or killed at its cap)"
    if kind == "error":
        return f"{100 * (ours - paper):+.2f} points", "ours " + error_band(ours, paper)
    if kind == "objective":
        return f"{100 * (ours - paper) / abs(paper):+.1f}%", "ours " + j_band(ours, paper)
    if kind == "count":
        return f"{ours - paper:+g}", "same" if ours == paper else "ours more" if ours > paper else "ours fewer"
    return (f"{ours / paper:.3g}x" if paper else "-"), "ratio only (no threshold: another machine and code)"


def _show(kind, n, value):
    if value is None or not np.isfinite(value):
        return "-"
    if kind == "error":
        return f"{100 * value:.2f}%"
    unit = {"s": " s", "min": " min", "x": "x"}.get(n.get("unit"), "")
    return f"{value:.4g}{unit}"


def _method(n):
    """The method as the page names it: the linear papers' keys are our record names (:data:`NAMES`); 001's and
    002's are their own table's rows."""
    return NAMES.get(n.get("method"), n.get("method")) if n["paper"] in ("000", "004") else n.get("method", "-")


def _quantity(n):
    """The quantity in words, its cell of the paper's table spelt out (``l=100 u=402107``: l = 100, u = 402,107)."""
    words = n["quantity"].replace("objective_eqn18", "J").replace("_error", " error")
    return re.sub(r"l=(\d+) u=(\d+)", lambda m: f"at l = {int(m[1]):,}, u = {int(m[2]):,}", words)


def beside_rows(records, tables):
    """[[table, paper set → our data: cell, method: quantity, paper, ours, difference, reading]] of ``tables``
    ([(paper, where)]): one row per paper number and our dataset standing for its set."""
    rows = []
    for paper, where in tables:
        source = SOURCES.get(SAME_TABLE.get((paper, where), (paper, where)))
        numbers = records.paper_numbers(**dict(zip(("paper", "where"), SAME_TABLE.get((paper, where), (paper, where)))))
        for n in numbers if source else []:
            kind, paper_value = _kind(n), _fraction(n)
            found = list(source(records, n)) or [("-", "no record" + _cell_named(n), None)]
            for dataset, cell, ours in found:
                diff, reading = compare(kind, paper_value, ours)
                kind_word = data_kind(dataset) if dataset != "-" and " (" not in dataset else ""
                rows.append([f"{n['paper']} {n['where']}", f"{n['dataset']} → {dataset}"
                             + (f" ({kind_word})" if kind_word else "") + f": {cell}",
                             f"{_method(n)}: {_quantity(n)}", _show(kind, n, paper_value), _show(kind, n, ours),
                             diff, reading])
    return rows


def claim_tables(claim):
    """[(paper, where)] of the tables ``claim``'s place names (``Sec. 1.5 (Table 1.2)``; 002's Fig 3 speed-ups)."""
    named = re.findall(r"Table \d+(?:\.\d+)?", claim.get("where", ""))
    named += ["Sec. 4.2 (Fig 3)"] if claim.get("paper") == "002" and "(Fig 3)" in claim.get("where", "") else []
    return [(claim["paper"], t) for t in named]


def beside_lines(records, tables):
    """The table of the papers' numbers beside ours for ``tables`` ([(paper, where)]) and its key; [] where
    none of them has a number with a source of ours."""
    rows = beside_rows(records, tables)
    if not rows:
        return []
    one = len({r[0] for r in rows}) == 1
    header = ["paper set → our data: cell", "method: quantity", "paper", "ours", "difference", "the rule's reading"]
    return ["", f"**The paper's numbers beside ours**{' (' + rows[0][0] + ')' if one else ''}:", "",
            table(header if one else ["table", *header], [[c.replace("|", "\\|") for c in (r[1:] if one else r)]
                                                            for r in rows]), "",
            "The paper's from `experiments/paper_numbers.json`, ours from the records. Difference: ours minus the "
            "paper's in points for an error, ours / paper for a time, the relative gap for J. Reading: the rules' "
            "bands on the two numbers (the equal threshold and bands stated once under \"How comparisons are decided\", "
            "ssl_repro/claims/rules.py); not a verdict, "
            "our data being often another set than the paper's (first column)."]
