"""The artifacts' listing: ``paper_artifacts.py list`` (one entry per artifact: where it is in the papers,
its status here with the datasets done by kind, why the rest is not, the command that makes it) and the same
as the markdown table that results/README.md embeds (``paper_artifacts.py report``).  The artifacts and
their status come from ``experiments/artifact_table.py``."""
import json
from pathlib import Path

from ssl_repro.claims import verdicts
from ssl_repro.data import availability, data_root

from artifact_table import ARTIFACTS, MEDIUM, status


def command_of(artifact, dataset=None):
    """The command that makes ``artifact`` (on ``dataset`` for a sweep)."""
    if artifact.kind == "drawing":
        return f"python experiments/paper_artifacts.py run {artifact.name}"
    if artifact.kind == "script":
        return artifact.command
    if artifact.kind == "not reproduced":
        return "-"
    return f"python experiments/paper_artifacts.py run {artifact.name} --dataset {dataset or '<dataset>'}"


def by_kind(datasets):
    """``real: pcmac; stand-in: synthetic-ccat, ...``: the datasets grouped by what they are."""
    groups = {}
    for d in datasets:
        groups.setdefault(verdicts.SHORT_KIND[verdicts.data_kind(d)], []).append(d)
    return "; ".join(f"{w}: {', '.join(ds)}" for w, ds in groups.items())


def dataset_table_kinds(results):
    """(status, what) of the dataset table from ``dataset_table/table.json``: its rows grouped as real
    (regenerated from our copy), stand-in (d, l+u and t the paper's by construction), analog (a real-text
    set standing for a paper set, listed under it) and not here; ``regenerated`` only when every paper set
    is real, else ``partial``."""
    path = Path(results) / "dataset_table" / "table.json"
    if not path.exists():
        return None, ""
    rows = json.loads(path.read_text())["rows"]
    groups = {"real, regenerated": [r["dataset"] for r in rows if r.get("ours")],
              "stand-in, the paper's d, l+u and t by construction": [
                  r["dataset"] for r in rows if not r.get("ours") and r.get("stand_in")],
              "real-text analog": [f"{a['dataset']} (for {r['dataset']})" for r in rows for a in r.get("analogs", [])],
              "not here": [r["dataset"] for r in rows if not r.get("ours") and not r.get("stand_in")]}
    papers = [r["dataset"] for r in rows if not r["dataset"].endswith("-10")]
    real = [d for d in groups["real, regenerated"] if d in papers]
    state = "regenerated" if len(real) == len(papers) else "partial"
    return state, "; ".join(f"{w}: {', '.join(ds)}" for w, ds in groups.items() if ds)


def entries(results):
    """Per artifact: (artifact, status with the datasets done by kind (real / analog / stand-in), reason for
    the rest, command)."""
    for a in ARTIFACTS:
        state, done, why = status(a, results)
        what = by_kind(done) if a.datasets and done else ""
        if a.name == "dataset-table" and done:
            state, what = dataset_table_kinds(results)
        yield a, state + (f" ({what})" if what else ""), why, command_of(a, a.default_dataset)


def listing(results, root=None):
    """The ``list`` lines: name, papers, status with what is done and why the rest is not, command; then
    which of the papers' real sets this machine has under the data root ``root`` (files here, or
    to be downloaded with ``--download``), asked of :func:`ssl_repro.data.availability`."""
    lines = [f"{a.name}: {a.papers}\n    status: {state}" + (f"; {why}" if why else "")
             + f"\n    command: {command}" for a, state, why, command in entries(results)]
    real = {d: availability(d, root, download=True) for d in MEDIUM}
    lines.append(f"on this machine (data root {data_root(root)}): " + "; ".join(
        f"{d} {'here' if a.state == 'here' else 'downloadable with --download' if a.runnable else 'missing'}"
        for d, a in real.items()))
    return "\n".join(lines)


def markdown_listing(results):
    """The listing as a markdown table (results/README.md embeds it)."""
    lines = ["| artifact | papers | status | command |", "|---|---|---|---|"]
    lines += [f"| {a.name} | {a.papers} | {state}" + (f": {why}" if why else "") + f" | `{command}` |"
              for a, state, why, command in entries(results)]
    return "\n".join(lines)
