"""Datasets (000 Table 8, 003 Table 1, 004 Table 1.1): the paper's sizes beside ours."""
from ssl_repro.claims import verdicts
from ssl_repro.report.record_text import provenance, with_record
from ssl_repro.report.tables import fmt, table


def section_dataset_table(records):
    return with_record(records, "## Datasets (dataset-table: 000 Table 8, 003 Table 1, 004 Table 1.1)",
                       "dataset_table/table.json", lambda record: _dataset_table(records, record))


def _dataset_table(records, record):
    """One row per set of the papers' dataset tables: the paper's d, n0, l+u, t (000 Table 8, else 004
    Table 1.1 for the large sets) beside ours: the real set's, or the stand-in's, whose d, l+u and t are
    the paper's by construction (not a check)."""
    rows = []
    for r in record["rows"]:
        ours = r.get("ours") or r.get("stand_in") or {}
        kind = (verdicts.data_kind(r["dataset"]) if r.get("ours")
                else verdicts.STAND_IN if r.get("stand_in") else "not here")
        paper, source = {}, {}
        for k in ("d", "n0", "l+u", "t"):
            for where in ("000 Table 8", "004 Table 1.1"):
                value = records.paper_value(paper=where[:3], where=where[4:], dataset=r["dataset"], quantity=k)
                if value is not None:
                    paper[k], source[k] = value, where
                    break
        checked = [k for k in ("d", "l+u", "t") if paper.get(k) is not None and ours.get(k) is not None]
        same = [k for k in checked if ours.get(k) == paper[k]]
        n0 = (f"{100 * (ours['n0'] / paper['n0'] - 1):+.1f}%" if paper.get("n0") and ours.get("n0") else "-")
        equal = "-" if not checked else f"{len(same)} of {len(checked)}" + (
            " (by construction)" if kind == verdicts.STAND_IN else "")
        rows.append([r["dataset"], kind, ", ".join(sorted(set(source.values()))) or "-",
                     *(f"{fmt(paper.get(k))} / {fmt(ours.get(k))}" for k in ("d", "n0", "l+u", "t")), n0, equal])
        rows += [[r["dataset"], f"{verdicts.data_kind(a['dataset'])}: {a['dataset']}",
                  ", ".join(sorted(set(source.values()))) or "-",
                  *(f"{fmt(paper.get(k))} / {fmt((a['figures'] or {}).get(k))}" for k in ("d", "n0", "l+u", "t")),
                  "-", "-"] for a in r.get("analogs", [])]
    return [f"From `dataset_table/table.json` ({provenance(record)}); the paper's columns from "
            "`experiments/paper_numbers.json` (000 Table 8; 004 Table 1.1 for full-ccat, full-gcat and kdd99, "
            "which 000 does not list). A stand-in's d, l+u and t are set to the paper's, so their equality is "
            "no check; its n0 is generated.", "",
            table(["dataset", "data", "paper", "d: paper / ours", "n0: paper / ours", "l+u: paper / ours",
                   "t: paper / ours", "n0 ours vs paper", "d, l+u, t equal"], rows), "", *key_lines(records)]


def key_lines(records):
    """Which records carry the key of their dataset's definition, and each whose key is not today's
    (``report --check`` fails on those)."""
    keyed, stale = records.dataset_keys(), records.stale()
    lines = [f"Records and their data: {len(keyed)} {'record carries' if len(keyed) == 1 else 'records carry'} the key of the dataset "
             "definition they were made from (`ssl_repro/data/registry.py`, `definition_key`: groups, parts "
             "removed, vectorizer settings, split sizes); records made before keys were stamped carry none. "
             + (f"{len(stale)} differ from today's definition (re-run them):" if stale else
                "None differs from today's definition.")]
    return lines + [f"- **made from another definition of {d}**: `{path}` (key {key}, today {today})"
                    for path, d, key, today in stale]
