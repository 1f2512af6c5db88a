"""DA's path: the OPTIMIZE-W steps of one annealing run."""

from ssl_repro.claims.record_file import read_json
from ssl_repro.report.record_text import NOT_YET, provenance
from ssl_repro.report.tables import pct


def section_da_path(records):
    lines = ["## DA's path (da_path)", ""]
    files = sorted((records.results / "da_path").glob("*.json"))
    if not files:
        return lines + [NOT_YET]
    for f in files:
        record = read_json(f)
        path = record["path"]
        returned = next(i for i, step in enumerate(path) if step["returned"])
        lines += [f"`da_path/{f.name}` ({record['dataset']}, {record['n_labeled']} labels, split {record['split']}; "
                  f"{provenance(record)}): {len(path)} OPTIMIZE-W steps, T from {path[0]['T']:.3g} to "
                  f"{path[-1]['T']:.3g}; the returned weights (lowest J, {path[returned]['J']:.4f}) are step "
                  f"{returned + 1}, with {pct(path[returned]['positive_fraction'])} positive outputs; the last step's "
                  f"J {path[-1]['J']:.4f} with {pct(path[-1]['positive_fraction'])} positive outputs.", ""]
    return lines
