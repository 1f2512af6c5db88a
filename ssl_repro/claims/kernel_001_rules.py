"""Verdicts on 001's kernel experiments (Sindhwani, Keerthi & Chapelle, *Deterministic Annealing for
Semi-supervised Kernel Machines*, ICML 2006): Table 2's successes on the generated two-moons and
two-circles sets, and Tables 4-5's errors on PC-MAC, from the records of ``experiments/kernel_toy_table.py``
and ``experiments/kernel_benchmarks.py``; error gaps by :func:`ssl_repro.claims.rules.equal_within`.
"""
import numpy as np
import pandas as pd

from ssl_repro.claims.registry import register
from ssl_repro.claims.rules import equal_within
from ssl_repro.claims.verdicts import FAILS, GENERATED, HOLDS, UNTESTABLE, Verdict, combine



@register("kernel_toy")
def check_kernel_toy(records, test):
    """001 Table 2: per set, DA's successes above nabla-TSVM's, and nabla-TSVM's above the best JTSVM's
    (best over the grid; each "above" a part of its own, so equal counts make the claim mixed)."""
    grid = records.json("kernel_toy_table/grid.json")
    if grid is None:
        return Verdict(UNTESTABLE, "-", "kernel_toy_table/grid.json absent")
    best = pd.DataFrame(grid).groupby(["dataset", "method"])["successes"].max()
    parts = []
    for d in sorted({k[0] for k in best.index}):
        b = best[d]
        counts = {"DA": b.get("DA (l1)", np.nan), "nabla-TSVM": b.get("nabla-TSVM", np.nan),
                  "JTSVM": b[[m for m in b.index if m.startswith("JTSVM")]].max()}
        for high, low in (("DA", "nabla-TSVM"), ("nabla-TSVM", "JTSVM")):
            parts.append(Verdict(HOLDS if counts[high] > counts[low] else FAILS, f"{d} (generated, as the paper's)",
                                 f"{d}: {high} {counts[high]:g} vs {low} {counts[low]:g} of 10", kind=GENERATED))
    return combine(parts)


@register("kernel_benchmarks")
def check_kernel_benchmarks(records, test):
    """001 Tables 4-5 on PC-MAC: error on the unlabeled rows (means over splits of the selected and the
    best grid point) of ``a`` below ``b``'s by more than the error threshold (means: the record keeps no
    per-split errors, so no paired test)."""
    record = records.json("kernel_benchmarks/table.json")
    if record is None:
        return Verdict(UNTESTABLE, "-", "kernel_benchmarks/table.json absent")
    rows = record["rows"]
    pairs = [(a, b) for a in test["a"] for b in (test["b"] if isinstance(test["b"], list)
                                                  else [m for m in rows if m.startswith(test["b"])])
             if a in rows and b in rows]
    parts = []
    for a, b in pairs:
        for point in ("selected", "best"):
            x, y = rows[a][point][0] / 100, rows[b][point][0] / 100
            ok = x < y and not equal_within("transductive_error", x - y, x, y)
            parts.append(Verdict(HOLDS if ok else FAILS, "pcmac (real)",
                                 f"{a} {100 * x:.1f}% vs {b} {100 * y:.1f}% ({point})", kind="real"))
    return combine(parts)
