"""002's Fig 6 (Sec. 4.3) on digits, the analog of uspst, and on mnist-5k, a real subset of MNIST, for the larger
sizes: the heuristics C* = C and UC* = LC as unlabeled rows are added.

The runs are ``experiments/cccp_002_fig6.py``'s (its docstring states the protocol and what was reduced); its
records (:data:`RECORDS`: ``results/cccp_002/fig6.csv`` on digits, ``fig6_mnist5k.csv`` on mnist-5k) hold one row
per split, heuristic (``C*=C``, ``UC*=LC``) and unlabeled size ``n_unlabeled``: ``transductive_error``, the error
on the split's test part (uspst's rows in 002).

Test (``kind: cccp_002``, ``what: fig6``, ``record``: one of :data:`RECORDS`): 002 "The results indicate that C* = C
works poorly for large U" (and Fig 6's caption: "the UC* = LC heuristic ... empirically performs better"): at
the largest U of the record, UC* = LC's error below C* = C's, paired over the splits by
:func:`ssl_repro.claims.rules.compare` (beyond the error thresholds, p < 0.05): holds; not significant when the
gap is beyond the thresholds with p >= 0.05; does not hold when the errors are equal or C* = C's is lower.  The
evidence adds how C* = C's error moves from the smallest U to the largest (002: "no improvement").
"""
from ssl_repro.claims.rules import compare
from ssl_repro.claims.verdicts import FAILS, HOLDS, NOT_SIGNIFICANT, UNTESTABLE, Verdict, data_kind, SHORT_KIND, \
    edge_note

#: The record of each set.
RECORDS = {"digits": "cccp_002/fig6.csv", "mnist-5k": "cccp_002/fig6_mnist5k.csv"}
#: The heuristics as the record names them, in 002's legend order.
HEURISTICS = ("C*=C", "UC*=LC")


def curves(frame):
    """{heuristic: (the unlabeled sizes, the mean error over the splits at each, splits)} of ``frame``."""
    out = {}
    for heuristic, rows in frame.groupby("heuristic"):
        cells = rows.groupby("n_unlabeled")["transductive_error"]
        out[heuristic] = (cells.mean().index.to_numpy(), cells.mean().to_numpy(), int(rows["split"].nunique()))
    return out


def check(frame):
    """The verdict of ``fig6`` on ``frame`` (the record, module doc)."""
    dataset = str(frame["dataset"].iloc[0])
    if not set(HEURISTICS) <= set(frame["heuristic"]):
        return Verdict(UNTESTABLE, "-", f"Fig 6 on {dataset}: a heuristic has no fit")
    kind = SHORT_KIND[data_kind(dataset)]
    largest = int(frame["n_unlabeled"].max())
    top = frame[frame["n_unlabeled"] == largest]
    top = top.assign(method=top["heuristic"])       # compare pairs "methods": here the two heuristics
    c = compare(top, "UC*=LC", "C*=C", "transductive_error")
    if c is None:
        return Verdict(UNTESTABLE, "-", f"Fig 6 on {dataset}: no split with both heuristics at U = {largest:,}")
    word = HOLDS if c.outcome == "lower" else NOT_SIGNIFICANT if c.outcome == "not significant" and c.mean < 0 \
        else FAILS
    sizes, errors, _ = curves(frame)["C*=C"]
    edges = c.edges(f"{dataset} at U = {largest:,}: UC*=LC vs C*=C, {c.evidence_word}")
    return Verdict(word, f"{dataset} ({kind})",
                   f"{dataset} at U = {largest:,}: UC* = LC {100 * c.a_mean:.2f}% vs C* = C {100 * c.b_mean:.2f}% "
                   f"({c.evidence_word}{'' if c.p is None else f', p = {c.p:.2g}'}, wins {c.wins} of {c.n}); C* = C "
                   f"{100 * errors[0]:.2f}% at U = {int(sizes[0]):,} to {100 * errors[-1]:.2f}% at U = {largest:,}"
                   + edge_note(edges), kind=kind, edges=tuple(edges))
