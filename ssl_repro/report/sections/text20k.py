"""text20k: every linear method."""
from ssl_repro.data.keys import without_keys
from ssl_repro.report.record_text import with_record
from ssl_repro.report.tables import NAMES, pct, table


def section_text20k(records):
    return with_record(records, "## text20k: every linear method", "text20k_linear_methods/bench.json",
                       lambda record: _text20k(records, record))


def _text20k(records, record):
    rows = [[NAMES.get({"tsvm-1": "tsvm-S1", "tsvm-max": "tsvm-Smax", "nabla": "nabla_tsvm",
                        "cccp": "cccp_tsvm"}.get(m, m), m), f"{r['objective']:.6f}", pct(r["transductive_error"]),
             f"{r['seconds']:.3g}", r["cg_iterations"]] for m, r in without_keys(record).items()]
    return ["nabla-TSVM and CCCP-TSVM constrain the mean unlabeled output, TSVM and DA the fraction of positive "
            "labels: different feasible sets, so their J values are not ranked against each other.", "",
            "`text20k_linear_methods/bench.json` (median of the runs per method; code commit and date "
            "not recorded).", "",
            table(["method", "J (Eqn 18)", "transductive error", "seconds", "CG iterations"], rows)]
