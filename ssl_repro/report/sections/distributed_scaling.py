"""The distributed backend's scaling record: per worker count the CG iteration's seconds, the engine's
overhead and the solves, each with the machine's cores and the load average the record measured before it."""
from ssl_repro.report.record_text import published, with_record
from ssl_repro.report.tables import table


def section_distributed(records):
    return with_record(records, "## Distributed backend (distributed)", "distributed/scaling.json",
                       lambda record: _distributed(records, record))


def _load(entry):
    load = entry.get("load_before")
    return "-" if load is None else f"{load:.1f}"


def _solves(entry):
    """``tsvm-max 186 s (load 4.1); da 299 s (load 4.4)``: the solves of one row, each with its load."""
    return "; ".join(f"{s['method']} {s['seconds']:.3g} s (load {_load(s)})" for s in entry.get("solves", [])) or "-"


def _distributed(records, record):
    single = record["single_process"]
    rows = [[f"single process ({single.get('threads', '?')} threads)", f"{1000 * single['cg_iteration_s']:.1f}", "-",
             _load(single), _solves(single)]]
    rows += [[d["workers"], f"{1000 * d['cg_iteration_s']:.1f}", f"{1000 * d['overhead_s']:.1f}", _load(d),
              _solves(d)] for d in record["distributed"]]
    loads = [e["load_before"] for e in [single, *record["distributed"]]
             for e in [e, *e.get("solves", [])] if e.get("load_before") is not None]
    cores = record.get("machine", {}).get("cpus", "?")
    return [f"`distributed/scaling.json` (command `{published(record['command'])}`, {record['date'][:10]}; code commit "
            "not recorded); the model of larger clusters is in `distributed/scaling.md`. Measured on a machine "
            f"of {cores} cores, shared: the load average before each measurement was {min(loads):.1f} to "
            f"{max(loads):.1f} (the table's load column): every worker count ran on the same {cores} cores beside "
            "other work, so the rows are not a measure of scaling over machines.", "",
            table(["workers", "CG iteration (ms)", "engine overhead (ms)", "load before", "solves (load before)"],
                  rows)]
