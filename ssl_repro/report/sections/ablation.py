"""Annealing vs fixed temperature (000 Figs 12-13, 004 Sec. 1.5; 001 Fig 5 bottom)."""
from ssl_repro.report.record_text import cells, data_kind, sweep_frames
from ssl_repro.report.tables import cell_text, claim_lines, folder_line, objective, paired, pct, stopped, table, tally, verdict


def section_ablation(records):
    rows, words = [], []
    fixed = ("da-T1", "da-T0.1", "da-T0.001")
    for folder, dataset, frame in sweep_frames(records, "ablation_"):
        for l, u, cell in cells(frame):
            row = [dataset, data_kind(dataset), l, cell_text(cell, "da", "objective_eqn18", objective)]
            for t in fixed:
                numbers, word = verdict(paired(cell, "da", t, "objective_eqn18"))
                words.append(word)
                row.append(f"{cell_text(cell, t, 'objective_eqn18', objective)}: DA {numbers}, **{word}**")
            row += [cell_text(cell, m, "test_error", pct) for m in ("da",) + fixed]
            row.append(stopped(cell, ("da",) + fixed))
            rows.append(row)
    notes = [folder_line(records, folder, frame) for folder, _, frame in sweep_frames(records, "ablation_")]
    return ["## Annealing vs fixed temperature (annealing-ablation: 000 Figs 12-13, 004 Sec. 1.5; 001 Fig 5, "
            "bottom)", "",
            *claim_lines(records, "annealing-ablation"), *claim_lines(records, "aut-avn-fig5", "bottom"), "",
            *notes, "",
            "J (Eqn 18) of DA and of DA held at a fixed T; each fixed-T cell says whether DA's J is below it, paired "
            f"over splits: {tally(words)}. Test errors beside (Fig 13).", "",
            table(["dataset", "data", "labels", "J DA", "J fixed T=1", "J fixed T=0.1", "J fixed T=0.001",
                   "test error DA", "T=1", "T=0.1", "T=0.001", "not converged"], rows)]
