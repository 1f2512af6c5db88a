"""Learning curves (000 Figs 5-10, 003 Table 3, 004 Figs 1.4-1.5; 001 Fig 5 middle): test errors."""
import pandas as pd

from ssl_repro.report.sections.coinciding_curves import svm_rls_lines
from ssl_repro.report.sections.degenerate import one_class_lines
from ssl_repro.report.record_text import cells, data_kind, provenance, sweep_frames
from ssl_repro.report.tables import cell_text, claim_lines, paired, pct, stopped, table, tally, verdict


def section_learning_curves(records):
    rows, words = [], {"da": [], "svm": [], "s1": []}
    for folder, dataset, frame in sweep_frames(records, "learning_curve_"):
        for l, u, cell in cells(_with_timing_s1(records, dataset, frame)):
            da_numbers, da = verdict(paired(cell, "da", "tsvm-Smax", "test_error"), 100, " pt")
            _, svm = verdict(paired(cell, "tsvm-Smax", "svm", "test_error"))
            s1 = paired(cell, "tsvm-S1", "tsvm-Smax", "test_error")
            s1_text = ("-" if s1 is None else f"{100 * s1.mean:+.2f} pt"
                       + (f" ± {100 * s1.std:.2f} pt" if s1.n > 1 else " (1 split)"))
            for key, word in (("da", da), ("svm", svm)):
                words[key].append(word)
            rows.append([dataset, data_kind(dataset), l,
                         *(cell_text(cell, m, "test_error", pct) for m in ("svm", "tsvm-S1", "tsvm-Smax", "da")),
                         da_numbers, da, svm, s1_text, stopped(cell, ("svm", "tsvm-S1", "tsvm-Smax", "da"))])
    return ["## Learning curves (learning-curves: 000 Figs 5-10, 003 Table 3, 004 Figs 1.4-1.5; aut-avn-fig5: 001 "
            "Fig 5, middle)", "",
            *claim_lines(records, "learning-curves"), *claim_lines(records, "aut-avn-fig5", "middle"), "",
            "Test error, mean ± std over splits (`learning_curve_*/results.csv`). DA below TSVM S=max: "
            f"{tally(words['da'])}; TSVM S=max below the SVM (the benefit of unlabeled data): "
            f"{tally(words['svm'])}. S=1 - S=max is the mean ± std of the paired difference "
            "(\"nearly identical\"); where a learning curve has no TSVM S=1 runs, its S=1 column is the timing "
            "sweep's (`timing_*/results.csv`: the splits it ran, one repeat each).", "",
            table(["dataset", "data", "labels", "SVM", "TSVM S=1", "TSVM S=max", "DA",
                   "DA - TSVM S=max: wins, mean ± std, p", "DA lower", "TSVM S=max below SVM", "S=1 - S=max",
                   "not converged"], rows),
            *one_class_lines(records), "", "How hard each stand-in is, against the paper's set, is in the "
            "calibration section.", *svm_rls_lines(records), *svm_bias_lines(records)]


def svm_bias_lines(records):
    """Why the SVM's pcmac error peaks at 7 labels, from ``svm_bias/pcmac.json``
    (``experiments/svm_bias.py``); a value that is not a finite number is refused naming the record
    (:meth:`~ssl_repro.claims.record_file.Record.number`), not printed as "+nan"."""
    record = records.json("svm_bias/pcmac.json")
    if record is None:
        return []
    r = record["rows"]
    rows = [[l, f"{v.number('labeled_positives'):.0f} of {l}",
             f"{v.number('bias'):+.3f} ({v.number('bias_min'):+.3f} to {v.number('bias_max'):+.3f})",
             *(pct(v.number(k), 1) for k in ("wx_zero", "bias_decides", "predicted_positive", "test_error",
                                             "negative_share"))]
            for l, v in r.items()]
    seven = r.get("7")
    why = "" if seven is None else (
        f" At 7 labels every split labels 4 positives and 3 negatives (the stratified order of the split rule: "
        f"000's footnote 14, \"The class ratios are maintained in these splits\", asks no more), the fitted bias "
        f"is positive on every split ({seven['bias_min']:+.3f} to {seven['bias_max']:+.3f}), and on "
        f"{pct(seven['bias_decides'], 1)} of the test rows |w.x| is below it: with 7 short documents w is small "
        f"on most test rows (no test row has w.x = 0: {pct(seven['wx_zero'], 1)}), so the bias decides, "
        f"{pct(seven['predicted_positive'], 1)} are predicted positive and the error ({pct(seven['test_error'], 1)}) "
        f"is nearly the negative share ({pct(seven['negative_share'], 1)}). With 2 or 4 labels the classes are "
        "balanced and the bias is near 0; at 15 (8 of 15) it is smaller than at 7.")
    return ["", f"**The SVM at 7 pcmac labels** (`svm_bias/pcmac.json`, {provenance(record['provenance'])}: "
            f"the SVM refitted on the learning curve's splits, means over {seven['splits'] if seven else '?'} splits)."
            + why, "", table(["labels", "labeled positives", "bias b", "w.x = 0", "abs(w.x) < abs(b)",
                              "predicted positive", "test error", "negatives in test"], rows)]


def _with_timing_s1(records, dataset, frame):
    """A learning curve's rows plus TSVM S=1's from the same dataset's timing sweep when the curve has none
    (the stand-ins and the large analogs run S=1, the slowest method, in the timing sweep only): one row per
    split it ran, its first repeat (a timing sweep repeats each job by the protocol; the repeats' errors are
    the same fit's, so more of them would count one split several times)."""
    if (frame["method"] == "tsvm-S1").any():
        return frame
    for _, timing_dataset, timing in sweep_frames(records, "timing_"):
        if timing_dataset == dataset:
            s1 = timing[(timing["method"] == "tsvm-S1") & timing["n_labeled"].isin(frame["n_labeled"])]
            s1 = s1.sort_values("repeat", kind="stable") if "repeat" in s1 else s1
            s1 = s1.drop_duplicates(["n_labeled", "split"], keep="first")
            return pd.concat([frame, s1], ignore_index=True)
    return frame
