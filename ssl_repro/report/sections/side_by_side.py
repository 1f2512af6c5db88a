"""Speed and agreement with the C++ reference (SVMlin)."""
from ssl_repro.report.record_text import NOT_YET, short_commit
from ssl_repro.report.tables import table


def section_side_by_side(records):
    lines = ["## Speed and agreement with the C++ reference (SVMlin)", ""]
    for folder, what in (("benchmarks", "speed"), ("reference_agreement", "agreement")):
        frame = records.csv(f"{folder}/side_by_side.csv")
        if frame is None:
            lines += [f"`{folder}/`: {NOT_YET}.", ""]
            continue
        meta = records.json(f"{folder}/side_by_side.json") or []
        codes = sorted({short_commit(m.get("code")) for m in meta})
        rows = [[r["label"], r["method"], r["date_utc"], f"{r['ours_s']:.3g}", f"{r['reference_s']:.3g}",
                 f"{r['ratio']:.3g}", r["J_ours"], r["J_reference"], f"{r['J_rel_diff']:.1e}", r["err_ours"],
                 r["err_reference"]] for _, r in frame.iterrows()]
        lines += [f"`{folder}/side_by_side.csv` ({what}; code commits {', '.join(codes) or 'not recorded'}; "
                  "commands in the record): seconds ours / the reference's (ratio below 1: ours faster).", "",
                  table(["label", "method", "date", "ours (s)", "reference (s)", "ratio", "J ours", "J reference",
                         "J relative difference", "error ours", "error reference"], rows), ""]
    return lines
