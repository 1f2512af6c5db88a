"""Datasets (000 Table 8, 003 Table 1, 004 Table 1.1): the paper's sizes beside ours."""
from ssl_repro.claims import verdicts
from ssl_repro.report.key_check import keyed_later, record_files
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
    """How the records know their data (:mod:`ssl_repro.report.key_check`): how many record files carry keys,
    how many of them were keyed after they were made (``keyed_at``: the commit that computed their keys from the
    data they name), and that ``report --check`` recomputes every key from today's data."""
    files = record_files(records.results)
    later = [f.relative_to(records.results).as_posix() for f in files if keyed_later(f)]
    return [f"Records and their data: each of the {len(files)} record files under results/ carries the keys of the "
            "data it was made from (`ssl_repro/data/keys.py`: a digest of the matrix and the labels, and of each "
            "job's labeled, unlabeled and test rows), or says it was made from no dataset; `paper_artifacts.py "
            "report --check` recomputes every key from the data as this checkout loads it and fails on a record "
            "whose keys are missing or not today's."
            + (f" {len(later)} of them were made before jobs stamped keys: their keys were computed later from the "
               "data they name, at the commit their `keyed_at` field gives, so they attest that the data was today's "
               "at that commit, not what their jobs loaded (each table quoting one says so beside its commit)."
               if later else "")]
