"""The distributed backend's scaling record."""
from .records import with_record
from .tables import table


def section_distributed(records):
    return with_record(records, "## Distributed backend (distributed)", "distributed/scaling.json",
                       lambda record: _distributed(records, record))


def _distributed(records, record):
    rows = [["single process", f"{1000 * record['single_process']['cg_iteration_s']:.1f}", "-"]]
    rows += [[d["workers"], f"{1000 * d['cg_iteration_s']:.1f}", f"{1000 * d['overhead_s']:.1f}"]
             for d in record["distributed"]]
    return [f"`distributed/scaling.json` (command `{record['command']}`, {record['date'][:10]}; code commit "
                    "not recorded); "
                    "the model of larger clusters and the solves are in `distributed/scaling.md`.", "",
                    table(["workers", "CG iteration (ms)", "engine overhead (ms)"], rows)]
