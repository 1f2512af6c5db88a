"""Every table and figure of the papers, and how this project regenerates it.

    python experiments/paper_artifacts.py list
    python experiments/paper_artifacts.py run ARTIFACT [--dataset pcmac] [--results results]

``run`` launches the artifact's sweep (``python run.py +experiment=...``,
resumable), aggregates its ``result.json`` files into
``<results>/<experiment>/`` (results.csv, summary.csv, summary.md) and draws
its figures there (PNG and PDF).  Loss-shape figures need no sweep.
Papers: 000 = tech report (spec), 003 = SIGIR 2006, 004 = book chapter.
"""
import argparse
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ssl_repro.harness import plots
from ssl_repro.harness.aggregate import write_tables

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Artifact:
    name: str
    papers: str          # where it appears in the papers
    sweep: str | None    # conf/experiment/<sweep>_<dataset>.yaml (None: a drawing, no runs)
    made_from: str       # what in the aggregated results makes it


ARTIFACTS = [
    Artifact("tsvm-loss", "Fig 1 (000), Fig 1.1 (004)", None, "plots.tsvm_loss_figure"),
    Artifact("da-loss", "Fig 2 (000), Fig 1.2 (004)", None, "plots.da_loss_figure"),
    Artifact("balance-root", "Fig 3 (000)", None, "plots.balance_figure (T = 1, r = 0.15, g in [-5, 5])"),
    Artifact("objective-minima", "Fig 4 (000), Fig 1.3 (004), Table 2 (003)", "learning_curve",
             "summary 'objective' of tsvm-S1, tsvm-Smax, da vs labels"),
    Artifact("learning-curves", "Figs 5-10 (000), Figs 1.4-1.5 (004), Table 3 (003)", "learning_curve",
             "summary 'test_error' and 'transductive_error' of every method vs labels"),
    Artifact("timing", "Fig 11 (000), Fig 1.6 (004), Table 9 (000)", "timing",
             "summary 'seconds' of TSVM S = 1, 10, 100, max and DA vs labels"),
    Artifact("annealing-ablation", "Figs 12-13 (000), Sec. 1.5 ablation (004), Table 5 (001)", "ablation",
             "summary 'objective' and 'test_error' of da vs da-T1, da-T0.1, da-T0.001"),
    Artifact("large-transductive", "Tables 1.2-1.7 (004): full-ccat, full-gcat, kdd99", "transductive",
             "summary.md tables of objective, transductive_error and seconds (datasets full-ccat, "
             "full-gcat, kdd99, kdd99-10)"),
]
DRAWINGS = {"tsvm-loss": plots.tsvm_loss_figure, "da-loss": plots.da_loss_figure,
            "balance-root": plots.balance_figure}


def experiment_name(artifact, dataset):
    return f"{artifact.sweep}_{dataset.replace('-', '_')}"


def regenerate(artifact, dataset, results):
    """Run (or resume) the artifact's sweep, aggregate it and draw its figures."""
    out = Path(results)
    if artifact.sweep is None:
        plots.save(DRAWINGS[artifact.name](), out / "figures", artifact.name)
        return out / "figures"
    experiment = experiment_name(artifact, dataset)
    runs = out / "runs"
    subprocess.run([sys.executable, str(ROOT / "run.py"), f"+experiment={experiment}",
                    f"results_dir={runs}"], check=True, cwd=ROOT)
    target = out / experiment
    _, summary = write_tables([runs / experiment], target)
    for stem, fig in plots.dataset_figures(summary, dataset).items():
        plots.save(fig, target, stem)
    return target


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("list")
    run = sub.add_parser("run")
    run.add_argument("artifact", choices=[a.name for a in ARTIFACTS])
    run.add_argument("--dataset", default="pcmac")
    run.add_argument("--results", default=str(ROOT / "results"))
    args = ap.parse_args(argv)
    if args.command == "list":
        for a in ARTIFACTS:
            sweep = f"+experiment={a.sweep}_<dataset>" if a.sweep else "(drawing)"
            print(f"{a.name:20s} {a.papers:55s} {sweep:35s} {a.made_from}")
        return
    artifact = next(a for a in ARTIFACTS if a.name == args.artifact)
    print(regenerate(artifact, args.dataset, args.results))


if __name__ == "__main__":
    main()
