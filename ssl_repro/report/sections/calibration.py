"""Calibration of the SYNTHETIC stand-ins against the papers' errors."""
from ssl_repro.report.record_text import provenance, with_record
from ssl_repro.report.tables import pct, table, yes_no


def section_calibration(records):
    return with_record(records, "## Calibration of the SYNTHETIC stand-ins", "calibration/calibration.json",
                       _calibration)


def _calibration(record):
    """The calibration rows; ``paper_error`` and ``reached_error`` share a unit: percent when the paper's
    error is above 1 (Table 9's 20.81), else fractions."""
    rows = []
    for r in record["rows"]:
        scale = 100.0 if r["paper_error"] > 1 else 1.0
        paper, reached = r["paper_error"] / scale, r["reached_error"] / scale
        gap = 100 * (reached - paper)
        rows.append([r["dataset"], pct(paper), r["paper_source"], r["matched"], pct(reached), f"{gap:+.2f} pt",
                     yes_no(abs(gap) <= 2), ", ".join(f"{k}={v}" for k, v in r.get("generator", {}).items())])
    return [f"`calibration/calibration.json` ({provenance(record)}): TSVM S=max's error on split 0 at the "
            "lowest label count against the paper's; within 2 points is the target.", "",
            table(["stand-in", "paper error", "source", "matched", "reached", "difference", "within 2 pt",
                   "generator"], rows)]
