"""DA's one-class runs on the learning curves: which cells, whether DA's error there equals the SVM's, and
why (the recorded annealing path and the C++ reference's J on the same job)."""

from ssl_repro.claims.record_file import read_json
from ssl_repro import claims
from ssl_repro.report.record_text import cells, sweep_frames


def _one_class_cells(records):
    """[(dataset, labels, one-class DA runs, DA runs, DA's mean test error, the SVM's, equal)] of every
    learning-curve cell where DA is one-class on some split (:func:`ssl_repro.claims.rules.one_class`);
    ``equal``: DA's and the SVM's paired test errors are equal by the error threshold."""
    found = []
    for _, dataset, frame in sweep_frames(records, "learning_curve_"):
        for l, _, cell in cells(frame):
            da = cell[cell["method"] == "da"]
            if da.empty or not {"r", "transductive_error"} <= set(da):
                continue
            k = int(claims.one_class(da).sum())
            c = claims.compare(cell, "da", "svm", "test_error")
            if k and c is not None:
                found.append((dataset, l, k, len(da), c.a_mean, c.b_mean,
                              claims.equal_within("test_error", c.mean, c.a_mean, c.b_mean)))
    return found


def _path_lines(records):
    """The recorded annealing paths (``da_path/*.json``): which step DA returned, and the C++ reference's J
    on the same job (``reference_agreement/side_by_side.csv``, label ``<dataset>-l<l>-split<split>``)."""
    reference = records.csv("reference_agreement/side_by_side.csv")
    lines = []
    for f in sorted((records.results / "da_path").glob("*.json")):
        record = read_json(f)
        path = record["path"]
        step = next(i for i, s in enumerate(path) if s["returned"])
        job = f"{record['dataset']}-l{record['n_labeled']}-split{record['split']}"
        text = (f"On the path recorded in `da_path/{f.name}` ({record['dataset']}, {record['n_labeled']} labels, "
                f"split {record['split']}) DA returned step {step + 1} of {len(path)} (T = {path[step]['T']:.3g}"
                f"{', the first temperature' if step == 0 else ''}), the lowest J of the path "
                f"({path[step]['J']:.4f}), with {100 * path[step]['positive_fraction']:.2f}% positive outputs: "
                "the paper's rule returns the lowest J on the annealing path, and Eqn 18 has no balance term, so "
                "weights of one class can have the lowest J.")
        if reference is not None:
            same = reference[(reference["label"] == job) & (reference["method"] == "da")]
            if not same.empty:
                r = same.iloc[0]
                text += (f" The C++ reference (SVMlin) on the same job: J {r['J_reference']} against ours "
                         f"{r['J_ours']} (`reference_agreement/side_by_side.csv`).")
        lines.append(text)
    return lines


def one_class_lines(records):
    """The learning curves' cells where DA is one-class, named, with DA's and the SVM's errors."""
    found = _one_class_cells(records)
    if not found:
        return []
    name = lambda t: f"{t[0]} l = {t[1]} ({t[2]} of {t[3]} splits)"                   # noqa: E731
    errors = lambda t: f"{t[0]} l = {t[1]} ({100 * t[4]:.2f}% vs {100 * t[5]:.2f}%)"  # noqa: E731
    equal = [errors(t) for t in found if t[6]]
    differ = [errors(t) for t in found if not t[6]]
    return ["", "DA is one-class (it labels nearly every unlabeled row one class; the rule is in the claims "
            "section) in " + "; ".join(name(t) for t in found) + ". "
            + (f"There its test error equals the SVM's (within the error threshold) at {'; '.join(equal)}"
               if equal else "Its test error equals the SVM's in none of them")
            + (f"; it does not at {'; '.join(differ)} (DA vs SVM, mean test error)." if differ else ".")
            + " A one-class run never counts as a win in the verdicts."] + [x for t in _path_lines(records)
                                                                            for x in ("", t)]
