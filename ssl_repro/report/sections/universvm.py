"""CCCP-TSVM beside UniverSVM (002)."""
import pandas as pd

from ssl_repro.report.record_text import Records, data_kind, short_commit, with_record
from ssl_repro.report.tables import NAMES, paired, pct, table, verdict


def section_universvm(records):
    return with_record(records, "## CCCP-TSVM beside UniverSVM (002)", "peers/universvm.csv", _universvm,
                       load=Records.csv)


#: The last column's words for "ours below UniverSVM" (:func:`~.tables.verdict`'s first word; what follows it,
#: "(1 split)" or the band, is kept).
LOWER = {"yes": "ours lower", "no": "UniverSVM lower"}


def lower_words(word):
    """:func:`~.tables.verdict`'s word for "ours below UniverSVM" in this table's words."""
    head, _, rest = word.partition(" ")
    return LOWER[head] + (f" {rest}" if rest else "") if head in LOWER else word


def _universvm(frame):
    rows = []
    for (dataset, l), cell in frame.groupby(["dataset", "n_labeled"]):
        numbers, word = verdict(paired(cell, "cccp-tsvm", "universvm-cccp", "transductive_error"), 100, " pt")
        peer = cell[cell["method"] == "universvm-cccp"]
        if "capped" in peer and peer["capped"].fillna(False).astype(bool).any():
            numbers, word = f"UniverSVM capped on {int(peer['capped'].fillna(False).astype(bool).sum())} of " \
                            f"{len(peer)} splits", "not compared"
        for method, part in cell.groupby("method"):
            rows.append([dataset, data_kind(dataset), l, NAMES.get(method, method), part["split"].nunique(),
                         _seconds_text(part), pct(part["transductive_error"].mean()),
                         pct(part["test_error"].mean()), "; ".join(sorted(set(map(str, part["parameters"])))),
                         ", ".join(sorted({short_commit(c) for c in part["git_commit"].dropna()})),
                         f"{numbers}: {lower_words(word)}" if method == "cccp-tsvm" else ""])
    return ["A check of our implementation, not a claim of the papers: 002 makes no claim about its program "
            "UniverSVM beside another implementation, so no row here is a verdict (002's claims on speed and "
            "scaling are in the claims table). Ours is the linear CCCP-TSVM (`LinearCCCPTSVM`), UniverSVM "
            "runs with a linear kernel on the same splits.", "",
            "`peers/universvm.csv`: means over the splits run; UniverSVM's seconds are its process's CPU "
            "seconds, \"> cap\" when it was killed at its CPU-time cap; the last column: ours minus UniverSVM's "
            "transductive error, paired over splits, and which is lower by the rules of the comparisons.", "",
            table(["dataset", "data", "labels", "method", "splits", "seconds", "transductive error",
                   "test error", "parameters", "code", "ours - UniverSVM"], rows)]


def _seconds_text(part):
    """Mean seconds of ``part``'s runs, or "> cap" when every run was killed at its cap."""
    capped = part["capped"].fillna(False).astype(bool) if "capped" in part else pd.Series(False, part.index)
    if capped.all():
        return f"> {part['cap_seconds'].max():g}"
    return f"{part.loc[~capped, 'seconds'].mean():.3g}" + (f" ({capped.sum()} capped)" if capped.any() else "")
