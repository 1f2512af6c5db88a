"""002's Fig 6 (Sec. 4.3) in the report: the heuristics C* = C and UC* = LC as unlabeled rows are added, on digits
(the analog of uspst) and on mnist-5k (a real subset of MNIST) for the larger sizes: lines of the section of
:mod:`.cccp_002_tables` (:func:`fig6_lines`) and one figure per set (:func:`fig6_figure`, drawn by
``paper_artifacts.py render``).  The records and the claims' test: :mod:`ssl_repro.claims.cccp_002_fig6_rules`;
the runs and what they reduce: ``experiments/cccp_002_fig6.py``.
"""
from ssl_repro.claims import cccp_002_fig6_rules as fig6

#: Each set's figure, under results/ (its name starts with its set: the docs caption it with its data kind).
FIGURES = {dataset: f"cccp_002/figures/{dataset}_fig6_heuristics" for dataset in fig6.RECORDS}
#: The heuristics in 002's notation (Fig 6's legend).
FIG6_LABELS = {"C*=C": "$C^* = C$", "UC*=LC": "$UC^* = LC$"}
#: Per set: its artifact (``experiments/artifact_table.py``), the command that makes its record and what it stands
#: for (a figure's title).
PARTS = {"digits": ("002-fig6", "python experiments/cccp_002_fig6.py", "the analog of uspst"),
         "mnist-5k": ("002-fig6-mnist5k", "python experiments/cccp_002_fig6.py --dataset mnist-5k",
                      "a real subset of MNIST")}
#: What a shown time is.
SECONDS_SAID = ("CPU seconds of the fit (one thread), taken while other work shared the machine: provisional, not "
                "timings")


def _protocol(dataset, frame):
    """The sentence saying what ``dataset``'s run is and what it reduces (``frame``: its record)."""
    splits, sizes = frame["split"].nunique(), f"{int(frame['n_unlabeled'].max()):,}"
    if dataset == "digits":
        return (f"digits stands for uspst (10 classes one-vs-rest, 50 labeled rows, a test part of "
                f"{int(frame['n_test'].iloc[0]):,} rows); the added rows are digits' others, up to {sizes} unlabeled "
                "rows (002 added up to 6,000 of USPS's training digits to 1,957). Reduced to keep the step to "
                f"minutes: {splits} splits of 002's 10, one kernel width (the median pairwise distance) and C = 10 "
                "instead of 002's best over gamma and C, s = 0")
    return (f"mnist-5k (5,000 of MNIST's digits, a real subset) reaches the larger sizes: 10 classes one-vs-rest, "
            f"50 labeled rows, a test part of {int(frame['n_test'].iloc[0]):,} rows, the added rows mnist-5k's "
            f"others, up to {sizes} unlabeled rows (002: about 2,000 to 8,000 on USPS). Reduced to keep the step to "
            f"minutes: {splits} split(s) of 002's 10, 002's MNIST width (gamma = 0.0128, Table 5) and C = 10 "
            "instead of the best over gamma and C, s = 0")


def fig6_lines(records, table):
    """The lines of Fig 6, one part per set of :data:`fig6.RECORDS` (or how to make it, when not run)."""
    lines = []
    for dataset, record in fig6.RECORDS.items():
        frame = records.csv(record)
        artifact, command, _ = PARTS[dataset]
        lines += [f"**Fig 6 on {dataset} ({artifact})**", ""]
        if frame is None:
            lines += [f"Not run yet: `{command}`.", ""]
            continue
        found = fig6.curves(frame)
        sizes = sorted({int(u) for xs, _, _ in found.values() for u in xs})
        rows = [[f"{u:,}", *(f"{100 * e[list(xs).index(u)]:.2f}" if u in xs else "-" for xs, e, _ in
                             (found.get(h, ((), (), 0)) for h in fig6.HEURISTICS))] for u in sizes]
        fits = frame.groupby("heuristic")["seconds"].agg(["size", "sum"])
        spent = "; ".join(f"{h} {int(r['size'])} fits, {r['sum']:.0f} s" for h, r in fits.iterrows())
        lines += [f"CCCP-TSVM's error (%) on each split's test part (uspst's rows in 002) as unlabeled rows are added, "
                  "mean over the splits, per heuristic (C* = C: lam_u = U / L; UC* = LC: lam_u = 1). "
                  f"{_protocol(dataset, frame)}. The figure (error axis in percent) is on the section's page.", "",
                  table(["unlabeled rows", "C* = C", "UC* = LC"], rows), "", f"Fits: {spent} ({SECONDS_SAID}).", ""]
    return lines


def fig6_figure(records, dataset):
    """Fig 6 as 002 draws it on ``dataset``: the test error (%) of each heuristic against the number of unlabeled
    rows (mean over the splits of its record, :data:`fig6.RECORDS`); None without the record."""
    frame = records.csv(fig6.RECORDS[dataset])
    if frame is None:
        return None
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    for (heuristic, (xs, errors, splits)), marker in zip(sorted(fig6.curves(frame).items()), "os"):
        ax.plot(xs, 100 * errors, marker=marker, label=f"{FIG6_LABELS.get(heuristic, heuristic)} ({splits} splits)")
    ax.set_xlabel("number of unlabeled examples")
    ax.set_ylabel("test error (%)")
    ax.set_title(f"Fig 6 (002) on {dataset}, {PARTS[dataset][2]}")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    return fig
