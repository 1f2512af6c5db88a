"""Every table and figure of the papers, how this project regenerates it, and whether it has.

    python experiments/paper_artifacts.py list [--results results] [--markdown]
    python experiments/paper_artifacts.py run ARTIFACT [--dataset NAME] [--results results]

``list`` prints one line per artifact: where it is in the papers, the
command that makes it, and its status here: ``regenerated`` (every file it
needs is in ``results/``), ``partial`` (some datasets) or ``missing``, each
with the reason for what is not there.  ``run`` makes one artifact: a
drawing is drawn; a sweep is launched (``python run.py +experiment=... dataset=...``,
resumable), aggregated into ``<results>/<experiment>/`` (results.csv,
summary.csv, summary.md) and drawn there; a script is run.
Papers: 000 = tech report (spec), 001 = ICML 2006 (kernel DA), 003 = SIGIR
2006, 004 = book chapter.
"""
import argparse
import difflib
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ssl_repro.data import dataset_info
from ssl_repro.harness import plots, report
from ssl_repro.harness.aggregate import write_tables

ROOT = Path(__file__).resolve().parents[1]
#: The papers' medium-size datasets (Figs 1.3-1.6 of 004, Figs 4-13 of 000, Tables 2-3 of 003).
MEDIUM = ("aut-avn", "real-sim", "ccat", "gcat", "33-vs-36", "pcmac")
#: Their SYNTHETIC stand-ins (text-like data of their shapes, ssl_repro/data/registry.py).
STAND_INS = tuple(f"synthetic-{d}" for d in MEDIUM if d != "pcmac")
NOT_DOWNLOADABLE = ("the real sets are not here (SRAA, RCV1 and the proprietary 33-vs-36 cannot be fetched on "
                    "this machine): their SYNTHETIC stand-ins (dataset=synthetic-<name>, 23k-83k rows) ran on "
                    "split 0 only, learning curves with svm, rls, TSVM S=max and DA (S=1, nabla-TSVM and "
                    "CCCP-TSVM only on pcmac), timing (S=1, S=max, DA) on synthetic-ccat, the fixed-T ablation "
                    "on synthetic-ccat and synthetic-gcat; splits 1-9 would take about 2.3 more hours of one "
                    "core for those four methods alone (results/README.md)")
TRANSDUCTIVE_STAND_INS = ("RCV1 (full-ccat, full-gcat) and the full KDD file are not here: kdd99-10 (the 10% file) "
                          "and full-size SYNTHETIC stand-ins of full-ccat/full-gcat (804,414 x 47,236) instead, "
                          "one split, one solver thread (results/README.md)")


@dataclass(frozen=True)
class Artifact:
    """One table or figure of the papers.

    ``kind`` is ``drawing`` (needs no runs), ``sweep`` (a Hydra multirun
    ``python run.py +experiment=<sweep> dataset=<dataset>``, into ``<sweep>_<dataset>/``, then
    aggregation and figures) or ``script`` (``command`` writes ``files``).
    ``files`` name, relative to ``results/``, what holds the artifact for
    each dataset (``{d}``: the dataset, ``{e}``: the experiment folder);
    ``why_not`` says why what is missing is missing.
    """

    name: str
    papers: str
    kind: str
    files: tuple
    datasets: tuple = ()
    sweep: str | None = None
    command: str = ""
    why_not: str = ""
    default_dataset: str | None = None


ARTIFACTS = [
    Artifact("tsvm-loss", "Fig 1 (000), Fig 1.1 (004)", "drawing", ("figures/fig_tsvm_loss.png",)),
    Artifact("da-loss", "Fig 2 (000), Fig 2 (003), Fig 1.2 (004)", "drawing", ("figures/fig_da_loss.png",)),
    Artifact("balance-root", "Fig 3 (000): B(nu), T = 1, r = 0.15, g in [-5, 5]", "drawing",
             ("figures/fig_balance_B_nu.png",)),
    Artifact("dataset-table", "Table 8 (000), Table 1 (003), Table 1.1 (004)", "script",
             ("dataset_table/table.md",), command="python experiments/dataset_table.py"),
    Artifact("objective-minima", "Fig 4 (000), Table 2 (003), Fig 1.3 (004)", "sweep",
             ("{e}/figures/{d}_objective.png",), MEDIUM + STAND_INS, "learning_curve", why_not=NOT_DOWNLOADABLE,
             default_dataset="pcmac"),
    Artifact("learning-curves", "Figs 5-10 (000), Table 3 (003), Figs 1.4-1.5 (004)", "sweep",
             ("{e}/figures/{d}_test_error.png", "{e}/figures/{d}_transductive_error.png"), MEDIUM + STAND_INS,
             "learning_curve", why_not=NOT_DOWNLOADABLE, default_dataset="pcmac"),
    Artifact("timing", "Fig 11 (000), Fig 1.6 (004)", "sweep", ("{e}/figures/{d}_seconds.png",), MEDIUM + STAND_INS,
             "timing", why_not=NOT_DOWNLOADABLE, default_dataset="pcmac"),
    Artifact("svmlight-speed", "Table 9 (000), Table 4 (003): S=1, S=max, DA beside SVMlight", "sweep",
             ("{e}/summary.md",), ("pcmac",), "timing", default_dataset="pcmac",
             why_not="SVMlight is not installable here (no PyPI or Debian package): our three methods' "
                     "row only (results/README.md)"),
    Artifact("annealing-ablation", "Figs 12-13 (000), fixed-T ablation of Sec. 1.5 (004)", "sweep",
             ("{e}/figures/{d}_ablation_objective.png", "{e}/figures/{d}_ablation_test_error.png"), MEDIUM + STAND_INS,
             "ablation", why_not=NOT_DOWNLOADABLE, default_dataset="pcmac"),
    Artifact("large-transductive", "Tables 1.2-1.7 (004): objective, error, time on full-ccat, full-gcat, kdd99",
             "sweep", ("{e}/summary.md",), ("full-ccat", "full-gcat", "kdd99", "kdd99-10", "synthetic-full-ccat",
                                            "synthetic-full-gcat"), "transductive",
             default_dataset="kdd99-10",
             why_not=TRANSDUCTIVE_STAND_INS),
    Artifact("kernel-toy-table", "Table 2 (001): 2MOONS, 2CIRCLES successes of JTSVM, nabla-TSVM and DA", "script",
             ("kernel_toy_table/table.md",), command="python experiments/kernel_toy_table.py"),
    Artifact("kernel-benchmarks", "Tables 3-5 (001): USPS2, COIL6, PC-MAC, ESET2; kernel DA vs fixed T",
             "script", ("kernel_benchmarks/table.md",),
             command="python experiments/kernel_benchmarks.py --splits 10 --lambdas 1e-3 --widths 0.5 1 2",
             why_not="PC-MAC only (USPS2, COIL6 and ESET2 are not here), on 001's 10 splits but 3 grid points "
                     "(lambda 1e-3, widths 1/2, 1, 2) instead of 28: the 240 fits took 15 minutes on one core, the "
                     "full grid would take hours"),
]
DRAWINGS = {"tsvm-loss": ("fig_tsvm_loss", plots.tsvm_loss_figure),
            "da-loss": ("fig_da_loss", plots.da_loss_figure),
            "balance-root": ("fig_balance_B_nu", plots.balance_figure)}


def experiment_name(artifact):
    """The experiment recipe (conf/experiment/<name>.yaml) of a sweep ``artifact``."""
    return artifact.sweep


def sweep_folder(artifact, dataset):
    """The sweep's folder under results/ (``timing_pcmac``): what the recipe's ``sweep_name`` gives."""
    return f"{artifact.sweep}_{dataset_info(dataset).folder}"


def files_of(artifact, dataset=None):
    """The files under results/ that hold ``artifact`` (for one dataset of a sweep)."""
    if artifact.kind != "sweep":
        return list(artifact.files)
    return [f.format(d=dataset, e=sweep_folder(artifact, dataset)) for f in artifact.files]


def status(artifact, results):
    """(``regenerated`` | ``partial`` | ``missing``, the datasets or files done, the reason for the rest)."""
    results = Path(results)
    if artifact.kind != "sweep":
        done = all((results / f).exists() for f in files_of(artifact))
        if done:
            return ("partial" if artifact.why_not else "regenerated"), list(artifact.files), artifact.why_not
        return "missing", [], artifact.why_not or "not run"
    done = [d for d in artifact.datasets if all((results / f).exists() for f in files_of(artifact, d))]
    if len(done) == len(artifact.datasets) and not artifact.why_not:
        return "regenerated", done, ""
    return ("partial" if done else "missing"), done, artifact.why_not


def command_of(artifact, dataset=None):
    """The command that makes ``artifact`` (on ``dataset`` for a sweep)."""
    if artifact.kind == "drawing":
        return f"python experiments/paper_artifacts.py run {artifact.name}"
    if artifact.kind == "script":
        return artifact.command
    return f"python experiments/paper_artifacts.py run {artifact.name} --dataset {dataset or '<dataset>'}"


def regenerate(artifact, dataset, results):
    """Make ``artifact``: draw it, run its script, or run (resume) its sweep, aggregate and draw."""
    out = Path(results)
    if artifact.kind == "drawing":
        stem, draw = DRAWINGS[artifact.name]
        plots.save(draw(), out / "figures", stem)
        return out / "figures"
    if artifact.kind == "script":
        if not artifact.command.startswith("python "):
            raise SystemExit(f"{artifact.name}: {artifact.why_not}")
        subprocess.run([sys.executable, *artifact.command.split()[1:]], check=True, cwd=ROOT)
        return out / Path(artifact.files[0]).parent
    dataset = dataset or artifact.default_dataset
    if dataset not in artifact.datasets:
        raise SystemExit(f"{artifact.name} is made on {', '.join(artifact.datasets)}, not {dataset!r}")
    experiment, folder = experiment_name(artifact), sweep_folder(artifact, dataset)
    if not (ROOT / "conf" / "experiment" / f"{experiment}.yaml").exists():
        raise SystemExit(f"{artifact.name}: no experiment recipe conf/experiment/{experiment}.yaml")
    runs = out / "runs"
    subprocess.run([sys.executable, str(ROOT / "run.py"), f"+experiment={experiment}", f"dataset={dataset}",
                    f"results_dir={runs}"], check=True, cwd=ROOT)
    target = out / folder
    _, summary = write_tables([runs / folder], target)
    for stem, fig in plots.dataset_figures(summary, dataset).items():
        plots.save(fig, target / "figures", stem)
    return target


def _entries(results):
    """Per artifact: (artifact, status with the datasets done, reason for the rest, command)."""
    for a in ARTIFACTS:
        state, done, why = status(a, results)
        what = f" ({', '.join(done)})" if a.kind == "sweep" and done else ""
        yield a, state + what, why, command_of(a, a.default_dataset)


def listing(results):
    """The ``list`` lines: name, papers, status with what is done and why the rest is not, command."""
    return "\n".join(f"{a.name}: {a.papers}\n    status: {state}" + (f"; {why}" if why else "")
                     + f"\n    command: {command}" for a, state, why, command in _entries(results))


def markdown_listing(results):
    """The listing as a markdown table (results/README.md embeds it)."""
    lines = ["| artifact | papers | status | command |", "|---|---|---|---|"]
    lines += [f"| {a.name} | {a.papers} | {state}" + (f": {why}" if why else "") + f" | `{command}` |"
              for a, state, why, command in _entries(results)]
    return "\n".join(lines)


def report_text(results):
    """results/README.md as rendered now from the records under ``results``."""
    return report.render(results, ROOT, markdown_listing(results))


def write_report(results, check=False):
    """Write ``results``/README.md, or with ``check`` compare it with a fresh render: 0 when equal,
    1 (after printing a unified diff) when not."""
    target = Path(results) / "README.md"
    fresh = report_text(results)
    if not check:
        target.write_text(fresh)
        print(f"wrote {target}")
        return 0
    current = target.read_text() if target.exists() else ""
    if current == fresh:
        print(f"{target} is up to date")
        return 0
    sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), fresh.splitlines(True),
                                               f"{target} (committed)", f"{target} (fresh render)"))
    print(f"\n{target} differs from a fresh render: run python experiments/paper_artifacts.py report")
    return 1


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    ls = sub.add_parser("list")
    ls.add_argument("--results", default=str(ROOT / "results"))
    ls.add_argument("--markdown", action="store_true", help="a markdown table (as in results/README.md)")
    run = sub.add_parser("run")
    run.add_argument("artifact", choices=[a.name for a in ARTIFACTS])
    run.add_argument("--dataset", help="for sweeps: the dataset (default: the artifact's own default)")
    run.add_argument("--results", default=str(ROOT / "results"))
    rep = sub.add_parser("report", help="write results/README.md from the records (--check: exit 1 on a difference)")
    rep.add_argument("--check", action="store_true")
    rep.add_argument("--results", default=str(ROOT / "results"))
    args = ap.parse_args(argv)
    if args.command == "list":
        print(markdown_listing(args.results) if args.markdown else listing(args.results))
        return
    if args.command == "report":
        sys.exit(write_report(args.results, args.check))
    artifact = next(a for a in ARTIFACTS if a.name == args.artifact)
    print(regenerate(artifact, args.dataset, args.results))


if __name__ == "__main__":
    main()
