"""Every table and figure of the papers, how this project regenerates it, and whether it has.

    python experiments/paper_artifacts.py list [--results results] [--markdown]
    python experiments/paper_artifacts.py run ARTIFACT [--dataset NAME] [--results results] [--dry-run] [--data-root DIR] [--download]
    python experiments/paper_artifacts.py run all [--dry-run] [--data-root DIR] [--download] [--svm-learn PATH] [--universvm PATH]
    python experiments/paper_artifacts.py render [--results results]
    python experiments/paper_artifacts.py report [--check] [--results results]

``list`` prints one line per artifact: where it is in the papers, the
command that makes it, and its status here: ``regenerated`` (every file it
needs is in ``results/``), ``partial`` (some datasets) or ``missing``, each
with the reason for what is not there.  ``run`` makes one artifact: a
drawing is drawn; a sweep is launched (``python run.py +experiment=... dataset=...``,
resumable), aggregated into ``<results>/<experiment>/`` (results.csv,
summary.csv, summary.md) and drawn there; a script is run.  ``run all``
runs every artifact (:func:`plan_all`: every sweep folder once, the real
sets this machine has, every SYNTHETIC stand-in), the stand-ins'
calibration and the peers' scripts (SVM-light for 000 Table 9 with
``--svm-learn``, UniverSVM for 002 with ``--universvm``; skipped, with the
reason, without them), after printing an estimate of the time from the
committed records' seconds and with a progress line per step; then it
re-renders and writes the report.  ``--dry-run`` prints the plan and the
estimate only (``run ARTIFACT --dry-run``: the commands it would run).
A sweep on a real set runs only when its loader finds the files under the
data root (``--data-root``, default $SSL_REPRO_DATA, else scikit-learn's
data home) or, with ``--download``, may fetch them; otherwise it stops
before any job with one message naming the missing file and where to put
it (and the sweep itself loads its dataset once before launching a job).  ``render`` re-renders every sweep folder's summary.csv,
summary.md and figures from its committed results.csv (no job is run),
the loss-shape drawings, then the report.  ``report`` writes
results/README.md and the documentation's Results pages (``docs/results/``)
from the records (:mod:`ssl_repro.harness.report`, verdicts by
:mod:`ssl_repro.harness.claims`); ``report --check`` exits 1, printing a
diff, when a committed file differs from a fresh render.
Papers: 000 = tech report (spec), 001 = ICML 2006 (kernel DA), 002 = JMLR
2006 (CCCP-TSVM), 003 = SIGIR 2006, 004 = book chapter; their numbers and
claims, quoted, are in ``experiments/paper_numbers.json``.
"""
import argparse
import difflib
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from ssl_repro.data import availability, data_root, dataset_info
from ssl_repro.data.cache import in_words_of
from ssl_repro.data.registry import DATASETS
from ssl_repro.harness import plots, report
import pandas as pd

from ssl_repro.harness.aggregate import read_results, write_summaries, write_tables

ROOT = Path(__file__).resolve().parents[1]
#: The documentation's Results pages, rendered from the same records as results/README.md.
DOCS_RESULTS = ROOT / "docs" / "results"
#: The papers' medium-size datasets (Figs 1.3-1.6 of 004, Figs 4-13 of 000, Tables 2-3 of 003).
MEDIUM = ("aut-avn", "real-sim", "ccat", "gcat", "33-vs-36", "pcmac")
#: Their real-text analogs (20 Newsgroups sets standing for paper sets not here: ``DatasetInfo.analog_of``).
ANALOGS = tuple(sorted(name for name, info in DATASETS.items() if info.analog_of))
#: Their SYNTHETIC stand-ins (text-like data of their shapes, ssl_repro/data/registry.py).
STAND_INS = tuple(f"synthetic-{d}" for d in MEDIUM if d != "pcmac")
#: The datasets of the medium-size sweeps: the papers' own, their real-text analogs, their stand-ins.
SWEEP_SETS = MEDIUM + ANALOGS + STAND_INS
NOT_DOWNLOADABLE = ("the records hold no run on the real SRAA, RCV1 and (proprietary) 33-vs-36 sets, absent where "
                    "they were made: SYNTHETIC stand-ins of their shapes instead (dataset=synthetic-<name>); the "
                    "splits and methods each record holds are in its table in results/README.md")
#: How this tool's options are named in a missing-data message (:func:`ssl_repro.data.cache.in_words_of`).
OPTIONS = ("--data-root DIR (or SSL_REPRO_DATA)", "--download")
TRANSDUCTIVE_STAND_INS = ("RCV1 (full-ccat, full-gcat) and the full KDD file are not here: kdd99-10 (the 10% file) "
                          "and SYNTHETIC stand-ins of full-ccat's shape instead (results/README.md)")


CCCP_NOT_HERE = "002's coil20 and uspst are not here (g50c and text only)"


@dataclass(frozen=True)
class Artifact:
    """One table or figure of the papers.

    ``kind`` is ``drawing`` (needs no runs), ``sweep`` (a Hydra multirun
    ``python run.py +experiment=<sweep> dataset=<dataset>``, into ``<sweep>_<dataset>/``, then
    aggregation and figures) or ``script`` (``command`` writes ``files``).
    ``files`` name, relative to ``results/``, what holds the artifact for
    each dataset (``{d}``: the dataset, ``{e}``: the experiment folder);
    ``why_not`` says why what is missing is missing.  ``record`` (a CSV under ``results/`` with a
    ``dataset`` column) holds the whole artifact: its datasets are the ones done.  A figure that
    :func:`ssl_repro.harness.plots.figure_plan` refuses (flat, one method) is held by its folder's
    ``summary.md`` table instead.
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
    record: str | None = None


ARTIFACTS = [
    Artifact("tsvm-loss", "Fig 1 (000), Fig 1.1 (004)", "drawing", ("figures/fig_tsvm_loss.png",)),
    Artifact("da-loss", "Fig 2 (000), Fig 2 (003), Fig 1.2 (004)", "drawing", ("figures/fig_da_loss.png",)),
    Artifact("balance-root", "Fig 3 (000): B(nu), T = 1, r = 0.15, g in [-5, 5]", "drawing",
             ("figures/fig_balance_B_nu.png",)),
    Artifact("dataset-table", "Table 8 (000), Table 1 (003), Table 1.1 (004)", "script",
             ("dataset_table/table.md",), command="python experiments/dataset_table.py"),
    Artifact("objective-minima", "Fig 4 (000), Table 2 (003), Fig 1.3 (004)", "sweep",
             ("{e}/figures/{d}_objective.png",), SWEEP_SETS, "learning_curve", why_not=NOT_DOWNLOADABLE,
             default_dataset="pcmac"),
    Artifact("learning-curves", "Figs 5-10 (000), Table 3 (003), Figs 1.4-1.5 (004)", "sweep",
             ("{e}/figures/{d}_test_error.png", "{e}/figures/{d}_transductive_error.png"), SWEEP_SETS,
             "learning_curve", why_not=NOT_DOWNLOADABLE, default_dataset="pcmac"),
    Artifact("timing", "Fig 11 (000), Fig 3 (003), Fig 1.6 (004)", "sweep", ("{e}/figures/{d}_seconds.png",), SWEEP_SETS,
             "timing", why_not=NOT_DOWNLOADABLE, default_dataset="pcmac"),
    Artifact("svmlight-speed", "Table 9 (000), Table 4 (003): S=1, S=max, DA beside SVMlight", "script",
             ("peers/table9.csv",), ("pcmac",) + STAND_INS, record="peers/table9.csv",
             command="python experiments/svmlight_table9.py --svm-learn PATH",
             why_not="SVM-light is built outside the repository (its licence forbids redistribution: PATH is its "
                     "svm_learn); " + NOT_DOWNLOADABLE),
    Artifact("annealing-ablation", "Figs 12-13 (000), Fig 4 (003), fixed-T ablation of Sec. 1.5 (004)", "sweep",
             ("{e}/figures/{d}_ablation_objective.png", "{e}/figures/{d}_ablation_test_error.png"),
             SWEEP_SETS, "ablation", why_not=NOT_DOWNLOADABLE, default_dataset="pcmac"),
    Artifact("aut-avn-fig5", "Fig 5 (001): AUT-AVN, linear DA vs JTSVM (TSVM S=max): minimum objective and test error "
             "(top, middle); its bottom panel, fixed T, is annealing-ablation's", "sweep",
             ("{e}/figures/{d}_objective.png", "{e}/figures/{d}_test_error.png"),
             ("aut-avn", *(a for a in ANALOGS if DATASETS[a].analog_of == "aut-avn"), "synthetic-aut-avn"),
             "learning_curve", why_not=NOT_DOWNLOADABLE, default_dataset="synthetic-aut-avn"),
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
             why_not="PC-MAC only (USPS2, COIL6 and ESET2 are not here), on a reduced grid of 001's (the grid "
                     "points and fits are in results/kernel_benchmarks/table.json)"),
    Artifact("universvm-002", "Table 2 (002), CCCP-TSVM's column: ours (linear, LinearCCCPTSVM) beside UniverSVM "
             "(002's authors' program) on pcmac and text20k", "script", ("peers/universvm.csv",),
             ("pcmac", "text20k"), record="peers/universvm.csv",
             command="python experiments/universvm_compare.py --universvm PATH",
             why_not="UniverSVM is built outside the repository (PATH is its binary); 002's sets (g50c, coil20, "
                     "text, uspst) are not here: pcmac and text20k instead"),
    Artifact("002-table1", "Table 1 (002): the small-scale sets", "script", ("cccp_002/sets.csv",), ("g50c", "text"),
             record="cccp_002/sets.csv", command="python experiments/cccp_002.py sets", why_not=CCCP_NOT_HERE),
    Artifact("002-table2", "Table 2 (002): errors of SVM, nabla-TSVM, CCCP-TSVM (three rows) and UniverSVM on g50c and "
             "text, best over the grid", "script", ("cccp_002/grid.csv",), ("g50c", "text"), record="cccp_002/grid.csv",
             command="python experiments/cccp_002.py table2 --dataset g50c --universvm PATH", why_not=CCCP_NOT_HERE),
    Artifact("002-heuristics", "Table 3 (002): the heuristics C* = C and UC* = LC on g50c and text", "script",
             ("cccp_002/grid.csv",), ("g50c", "text"), record="cccp_002/grid.csv",
             command="python experiments/cccp_002.py table2 --dataset g50c", why_not=CCCP_NOT_HERE),
    Artifact("002-ramp-s", "Fig 7 (002): the effect of s on g50c and text", "script", ("cccp_002/grid.csv",),
             ("g50c", "text"), record="cccp_002/grid.csv", command="python experiments/cccp_002.py table2 --dataset text",
             why_not=CCCP_NOT_HERE),
    Artifact("002-fig5", "Fig 5 (002): training time over the hyperparameter grid on g50c (provisional seconds beside "
             "SMO steps)", "script", ("cccp_002/grid.csv",), ("g50c",), record="cccp_002/grid.csv",
             command="python experiments/cccp_002.py table2 --dataset g50c --universvm PATH",
             why_not="SVM-light's TSVM is not on this machine; seconds taken under load"),
    Artifact("002-table6", "Table 6 (002): transductive vs semi-supervised CCCP-TSVM on text", "script",
             ("cccp_002/table6.csv",), ("text",), record="cccp_002/table6.csv",
             command="python experiments/cccp_002.py table6", why_not="MNIST-8 (Table 6's other column) is not here"),
    Artifact("002-fig4", "Fig 4 (002): objective and error over the CCCP iterations", "script",
             ("cccp_002/path.csv",), ("g50c", "text"), record="cccp_002/path.csv",
             command="python experiments/cccp_002.py fig4 --dataset g50c"),
    Artifact("002-fig3", "Fig 3 (002): training time against unlabeled rows on text (provisional seconds beside work "
             "counts)", "script", ("cccp_002/times.csv",), ("text",), record="cccp_002/times.csv",
             command="python experiments/cccp_002.py fig3 --universvm PATH",
             why_not="SVM-light's TSVM is not on this machine; g50c's panel not run; seconds taken under load"),
    Artifact("002-large", "Table 4, Fig 8 (002): errors and times against unlabeled rows, on RCV1's 20 Newsgroups "
             "analog 20ng-ccat-vs-gcat", "script", ("cccp_002/large.csv",), ("20ng-ccat-vs-gcat",),
             record="cccp_002/large.csv", command="python experiments/cccp_002.py large",
             why_not="RCV1 (CCAT vs GCAT) is not here: its 20 Newsgroups analog instead; seconds taken under load"),
    *(Artifact(f"002-{name}", f"{where} (002): {what}", "not reproduced", (), why_not=why)
      for name, where, what, why in (
        ("fig6", "Fig 6", "the heuristics C* = C and UC* = LC as unlabeled rows are added", "uspst and USPS are not "
         "here"),
        ("mnist", "Table 5, Fig 9", "MNIST, errors and times up to 60,000 unlabeled rows",
         "a 10-class kernel problem; MNIST is not here"))),
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
    if artifact.kind == "not reproduced":
        return "missing", [], artifact.why_not
    if artifact.record:
        path = results / artifact.record
        held = set(pd.read_csv(path)["dataset"]) if path.exists() else set()
        done = [d for d in artifact.datasets if d in held]
    elif artifact.kind != "sweep":
        done = list(artifact.files) if all((results / f).exists() for f in files_of(artifact)) else []
    else:
        done = [d for d in artifact.datasets if all(held_in(results, artifact, d, f) for f in files_of(artifact, d))]
    if not done:
        return "missing", [], artifact.why_not or "not run"
    complete = len(done) == len(artifact.datasets) if artifact.datasets else True
    return ("regenerated" if complete and not artifact.why_not else "partial"), done, artifact.why_not


def held_in(results, artifact, dataset, file):
    """Whether ``file`` (a path under ``results``) is there, or is a figure that the records make a table
    instead (:func:`ssl_repro.harness.plots.figure_plan` refuses it) and the folder's summary.md holds."""
    if (results / file).exists():
        return True
    folder = results / sweep_folder(artifact, dataset)
    if not ((folder / "summary.csv").exists() and (folder / "summary.md").exists()):
        return False
    plan = plots.figure_plan(pd.read_csv(folder / "summary.csv"), dataset)
    stem = Path(file).stem
    return stem in plan and plan[stem][3] is not None


def command_of(artifact, dataset=None):
    """The command that makes ``artifact`` (on ``dataset`` for a sweep)."""
    if artifact.kind == "drawing":
        return f"python experiments/paper_artifacts.py run {artifact.name}"
    if artifact.kind == "script":
        return artifact.command
    if artifact.kind == "not reproduced":
        return "-"
    return f"python experiments/paper_artifacts.py run {artifact.name} --dataset {dataset or '<dataset>'}"


def regenerate(artifact, dataset, results, dry_run=False, root=None, download=False, launcher=None):
    """Make ``artifact``: draw it, run its script, or run (resume) its sweep, aggregate and draw; with
    ``dry_run``, print what it would run and run nothing.  A sweep on a real set runs only when its
    loader finds the files under the data root ``root`` (default: $SSL_REPRO_DATA, else scikit-learn's
    data home) or, with ``download``, may fetch them; else it stops before any job, saying which file to
    put where (:func:`ssl_repro.data.availability`).  ``launcher``: the sweep's Hydra launcher
    (``conf/hydra/launcher/``, e.g. ``ray_cluster`` or ``slurm``; None: the recipe's)."""
    out = Path(results)
    if dry_run:
        print(dry_run_text(artifact, dataset, out, root, download, launcher))
        return None
    if artifact.kind == "not reproduced":
        raise SystemExit(f"{artifact.name}: not reproduced here: {artifact.why_not}")
    if artifact.kind == "drawing":
        stem, draw = DRAWINGS[artifact.name]
        plots.save(draw(), out / "figures", stem)
        return out / "figures"
    if artifact.kind == "script":
        if artifact.record:
            raise SystemExit(f"{artifact.name}: run {artifact.command} (PATH: the peer's program), or run all "
                             f"with that option")
        if not artifact.command.startswith("python "):
            raise SystemExit(f"{artifact.name}: {artifact.why_not}")
        subprocess.run([sys.executable, *artifact.command.split()[1:]], check=True, cwd=ROOT)
        return out / Path(artifact.files[0]).parent
    dataset = dataset or artifact.default_dataset
    if dataset not in artifact.datasets:
        raise SystemExit(f"{artifact.name} is made on {', '.join(artifact.datasets)}, not {dataset!r}")
    folder, runs = sweep_folder(artifact, dataset), out / "runs"
    data = availability(dataset, root, download)
    if not data.runnable:
        raise SystemExit(f"{artifact.name} on {dataset}: {in_words_of(data.detail, *OPTIONS)}")
    status_ = subprocess.run(sweep_command(artifact, dataset, runs, root, download, launcher), cwd=ROOT).returncode
    if status_:
        raise SystemExit(status_)     # the sweep printed why
    target = out / folder
    write_tables([runs / folder], target)
    render_folder(target)
    return target


def sweep_command(artifact, dataset, runs, root=None, download=False, launcher=None):
    """The ``run.py`` command of a sweep ``artifact`` on ``dataset`` into ``runs``, reading the data root
    ``root`` (:func:`ssl_repro.data.data_root`), downloading missing files only with ``download``, on the
    Hydra launcher ``launcher`` (None: the recipe's)."""
    experiment = experiment_name(artifact)
    if not (ROOT / "conf" / "experiment" / f"{experiment}.yaml").exists():
        raise SystemExit(f"{artifact.name}: no experiment recipe conf/experiment/{experiment}.yaml")
    return [sys.executable, str(ROOT / "run.py"), f"+experiment={experiment}", f"dataset={dataset}",
            f"results_dir={runs}", f"data_root={data_root(root)}", f"download={str(download).lower()}"] + (
        [f"hydra/launcher={launcher}"] if launcher else [])


def dry_run_text(artifact, dataset, out, root=None, download=False, launcher=None):
    """What :func:`regenerate` would do, as the commands it would run (nothing is run)."""
    if artifact.kind == "not reproduced":
        return f"{artifact.name}: would run nothing: not reproduced here: {artifact.why_not}"
    if artifact.kind == "drawing":
        return f"{artifact.name}: would draw {out / 'figures' / DRAWINGS[artifact.name][0]}.png and .pdf"
    if artifact.kind == "script":
        return f"{artifact.name}: would run {artifact.command}" + (f" ({artifact.why_not})" if artifact.why_not else "")
    dataset = dataset or artifact.default_dataset
    if dataset not in artifact.datasets:
        raise SystemExit(f"{artifact.name} is made on {', '.join(artifact.datasets)}, not {dataset!r}")
    command = " ".join(["python"] + sweep_command(artifact, dataset, out / "runs", root, download, launcher)[1:])
    folder = sweep_folder(artifact, dataset)
    return (f"{artifact.name} on {dataset}: would run the sweep (its data loaded once first; resumable)\n"
            f"    {command}\n"
            f"    then aggregate {out / 'runs' / folder} into {out / folder} and draw its figures")


def render_folder(folder):
    """Re-render a sweep folder's summary.csv, summary.md and figures/ from its results.csv alone
    (no job is run): the old figures are removed, the figures of ``plots.figure_plan`` drawn, the
    timing figures titled with the records' code commit."""
    folder = Path(folder)
    table = read_results(folder / "results.csv")
    summary = write_summaries(table, folder, f"{folder.name}/results.csv")
    figures = folder / "figures"
    for old in list(figures.glob("*.png")) + list(figures.glob("*.pdf")):
        old.unlink()
    note = report.commit_note(table)
    drawn = 0
    for dataset in sorted(summary["dataset"].unique()):
        for stem, fig in plots.dataset_figures(summary, dataset, note=note).items():
            plots.save(fig, figures, stem)
            drawn += 1
    return drawn


def render_all(results):
    """Re-render every sweep folder's summaries and figures and the drawings from the committed records."""
    results = Path(results)
    for name, (stem, draw) in DRAWINGS.items():
        plots.save(draw(), results / "figures", stem)
    for folder in sorted(p.parent for p in results.glob("*/results.csv")):
        print(f"{folder.name}: {render_folder(folder)} figures", flush=True)


@dataclass
class Step:
    """One step of ``run all``: a name, the argv it runs (None: skipped, ``why`` says why), the seconds its
    records took (None: not recorded) and what the estimate is based on."""

    name: str
    argv: list | None
    seconds: float | None
    basis: str
    why: str = ""


def recorded_seconds(results, artifact, dataset=None):
    """(seconds, basis) of an artifact's committed records: the sum of results.csv's ``seconds`` for a
    sweep folder, of the fits' seconds for the kernel scripts; (None, reason) when not recorded."""
    results = Path(results)
    if artifact.kind == "sweep":
        csv = results / sweep_folder(artifact, dataset) / "results.csv"
        if csv.exists():
            table = read_results(csv)
            return float(table["seconds"].sum()), f"{len(table)} jobs of {csv.parent.name}/results.csv"
        return None, "no record"
    if artifact.name == "kernel-toy-table" and (results / "kernel_toy_table/grid.json").exists():
        grid = json.loads((results / "kernel_toy_table/grid.json").read_text())
        return float(sum(g["seconds_10_draws"] for g in grid)), "kernel_toy_table/grid.json"
    if artifact.name == "kernel-benchmarks" and (results / "kernel_benchmarks/runs.jsonl").exists():
        runs = [json.loads(line) for line in (results / "kernel_benchmarks/runs.jsonl").read_text().splitlines()]
        return float(sum(r["seconds"] for r in runs)), "kernel_benchmarks/runs.jsonl"
    if artifact.kind == "drawing":
        return 0.0, "a drawing"
    return None, "seconds not recorded"


#: The peers' and the calibration's scripts (written beside this one): (name, script, the option giving the
#: program's path or None, the record under results/ whose ``seconds`` column estimates the time).
EXTRA_SCRIPTS = (("calibration", "calibrate_standins.py", None, None),
                 ("svmlight-table9", "svmlight_table9.py", "--svm-learn", "peers/table9.csv"),
                 ("universvm-002", "universvm_compare.py", "--universvm", "peers/universvm.csv"),
                 ("002-large", "cccp_002_large.py", None, "cccp_002/large.csv"))
#: The scripts among them that only ``--scale`` runs (hours of kernel fits).
SCALE_SCRIPTS = ("002-large",)


def data_plan(root=None, download=False):
    """Per dataset of a sweep artifact, its :class:`ssl_repro.data.Availability` under the data root
    ``root``: what its loader finds there (or, with ``download``, may fetch), asked without loading."""
    names = dict.fromkeys(d for a in ARTIFACTS if a.kind == "sweep" for d in a.datasets)
    return {d: availability(d, root, download) for d in names}


def plan_all(results, programs, root=None, download=False, launcher=None, stand_ins=False, scale=False):
    """The steps of ``run all``: every artifact (each sweep folder once: every SYNTHETIC stand-in, every
    real set and real-text analog whose loader finds its files under the data root ``root`` or, with
    ``download``, may fetch them (:func:`data_plan`); the others are skipped, saying which file to put
    where), then the calibration and the peers' scripts (``programs`` maps their option to a path;
    without one a peer is skipped).  SYNTHETIC stand-ins run only with ``stand_ins`` and the large
    transductive tables (minutes a job) only with ``scale`` (:func:`optional`)."""
    steps, seen = [], set()
    data = data_plan(root, download)
    passed = (["--data-root", str(data_root(root))] + (["--download"] if download else [])
              + (["--launcher", launcher] if launcher else []))
    for a in ARTIFACTS:
        if a.record or a.kind == "not reproduced":    # a peer's record: made by EXTRA_SCRIPTS below
            continue
        if a.kind != "sweep":
            seconds, basis = recorded_seconds(results, a)
            argv = ([sys.executable, __file__, "run", a.name, "--results", str(results)] if a.kind == "drawing"
                    else [sys.executable, *a.command.split()[1:]])
            steps.append(Step(a.name, argv, seconds, basis))
            continue
        for d in a.datasets:
            folder = sweep_folder(a, d)
            if folder in seen:
                continue
            seen.add(folder)
            seconds, basis = recorded_seconds(results, a, d)
            why = optional(a, d, stand_ins, scale)
            if why:
                steps.append(Step(f"{a.name} {d}", None, seconds, basis, why))
                continue
            argv = [sys.executable, __file__, "run", a.name, "--dataset", d, "--results", str(results), *passed]
            runnable = data[d].runnable
            steps.append(Step(f"{a.name} {d}", argv if runnable else None, seconds, basis,
                              "" if runnable else in_words_of(data[d].detail, *OPTIONS)))
    for name, script, option, record in EXTRA_SCRIPTS:
        path = ROOT / "experiments" / script
        seconds, basis = None, "seconds not recorded"
        if record and (Path(results) / record).exists():
            seconds, basis = float(pd.read_csv(Path(results) / record)["seconds"].sum()), record
        if not path.exists():
            steps.append(Step(name, None, seconds, basis, f"experiments/{script} is not in this checkout"))
        elif name in SCALE_SCRIPTS and not scale:
            steps.append(Step(name, None, seconds, basis, SCALE_STEP))
        elif option and not programs.get(option):
            steps.append(Step(name, None, seconds, basis, f"no {option} PATH given"))
        else:
            steps.append(Step(name, [sys.executable, str(path)] + ([option, programs[option]] if option else []),
                              seconds, basis))
    return steps


#: Why ``run all`` leaves a step out unless asked (:func:`optional`).
STAND_IN_STEP = "SYNTHETIC stand-ins (no error or optimization verdict rests on one): --stand-ins runs them"
SCALE_STEP = ("scale experiments (004's large transductive tables, minutes a job; 002's large experiment, "
              "hours): --scale runs them")


def optional(artifact, dataset, stand_ins, scale):
    """Why ``run all`` leaves the sweep of ``artifact`` on ``dataset`` out (None: it runs): a SYNTHETIC
    stand-in without ``stand_ins``, a large transductive table without ``scale``."""
    if artifact.name == "large-transductive" and not scale:
        return SCALE_STEP
    if dataset.startswith("synthetic-") and not stand_ins:
        return STAND_IN_STEP
    return None


def print_data_plan(root=None, download=False):
    """Say up front which real sets run (their files here, or to be downloaded) and which are missing,
    with the file to put where."""
    data = data_plan(root, download)
    real = {d: a for d, a in data.items() if a.state != "generated"}
    runs = [f"{d} ({a.state})" for d, a in real.items() if a.runnable]
    print(f"data root {data_root(root)}: real sets that run: {', '.join(runs) or 'none'}; missing: "
          f"{', '.join(d for d, a in real.items() if not a.runnable) or 'none'}"
          + ("" if download else " (downloads not allowed: --download lets the loaders fetch what they can)"),
          flush=True)
    for d, a in real.items():
        if not a.runnable:
            print(f"missing {d}: {in_words_of(a.detail, *OPTIONS)}", flush=True)


def run_all(results, programs, dry_run=False, runner=subprocess.run, root=None, download=False, launcher=None,
            stand_ins=False, scale=False):
    """Run every step of :func:`plan_all` with a progress line, after saying which real sets run and which
    are missing (:func:`print_data_plan`) and an estimate of the time from the records' seconds; then
    re-render the summaries and figures and write the report."""
    print_data_plan(root, download)
    steps = plan_all(results, programs, root, download, launcher, stand_ins, scale)
    todo = [s for s in steps if s.argv]
    known = sum(s.seconds for s in todo if s.seconds is not None)
    unknown = [s.name for s in todo if s.seconds is None]
    print(f"run all: {len(todo)} steps, {len(steps) - len(todo)} skipped; estimate {known / 3600:.1f} h of "
          f"training (the committed records' seconds, one job at a time; a recipe may launch more jobs than its "
          f"record holds)"
          + (f", plus {', '.join(unknown)} (time not recorded)" if unknown else ""), flush=True)
    skipped = {}
    for s in steps:
        if not s.argv:
            skipped.setdefault(s.why, []).append(s.name)
    for why, names in skipped.items():
        print(f"skip {', '.join(names)}: " + ("missing data (above)" if why.startswith("dataset ") else why),
              flush=True)
    done = 0.0
    for k, s in enumerate(todo, 1):
        estimate = "?" if s.seconds is None else f"{s.seconds:.0f} s"
        print(f"[{k}/{len(todo)}] {s.name} (recorded {estimate}, {s.basis}; {done / max(known, 1e-9):.0%} of the "
              f"estimate done): {' '.join(s.argv[1:])}", flush=True)
        if not dry_run:
            runner(s.argv, check=True, cwd=ROOT)
        done += s.seconds or 0.0
    if dry_run:
        return steps
    render_all(results)
    write_report(results)
    return steps


def by_kind(datasets):
    """``real: pcmac; stand-in: synthetic-ccat, ...``: the datasets grouped by what they are."""
    words = {report.claims.REAL: "real", report.claims.ANALOG: "analog", report.claims.STAND_IN: "stand-in"}
    groups = {}
    for d in datasets:
        groups.setdefault(words[report.claims.data_kind(d)], []).append(d)
    return "; ".join(f"{w}: {', '.join(ds)}" for w, ds in groups.items())


def dataset_table_kinds(results):
    """(status, what) of the dataset table from ``dataset_table/table.json``: its rows grouped as real
    (regenerated from our copy), stand-in (d, l+u and t the paper's by construction), analog (a real-text
    set standing for a paper set, listed under it) and not here; ``regenerated`` only when every paper set
    is real, else ``partial``."""
    path = Path(results) / "dataset_table" / "table.json"
    if not path.exists():
        return None, ""
    rows = json.loads(path.read_text())["rows"]
    groups = {"real, regenerated": [r["dataset"] for r in rows if r.get("ours")],
              "stand-in, the paper's d, l+u and t by construction": [
                  r["dataset"] for r in rows if not r.get("ours") and r.get("stand_in")],
              "real-text analog": [f"{a['dataset']} (for {r['dataset']})" for r in rows for a in r.get("analogs", [])],
              "not here": [r["dataset"] for r in rows if not r.get("ours") and not r.get("stand_in")]}
    papers = [r["dataset"] for r in rows if not r["dataset"].endswith("-10")]
    real = [d for d in groups["real, regenerated"] if d in papers]
    state = "regenerated" if len(real) == len(papers) else "partial"
    return state, "; ".join(f"{w}: {', '.join(ds)}" for w, ds in groups.items() if ds)


def _entries(results):
    """Per artifact: (artifact, status with the datasets done by kind (real / analog / stand-in), reason for
    the rest, command)."""
    for a in ARTIFACTS:
        state, done, why = status(a, results)
        what = by_kind(done) if a.datasets and done else ""
        if a.name == "dataset-table" and done:
            state, what = dataset_table_kinds(results)
        yield a, state + (f" ({what})" if what else ""), why, command_of(a, a.default_dataset)


def listing(results, root=None):
    """The ``list`` lines: name, papers, status with what is done and why the rest is not, command; then
    which of the papers' real sets this machine has under the data root ``root`` (files here, or
    to be downloaded with ``--download``), asked of :func:`ssl_repro.data.availability`."""
    lines = [f"{a.name}: {a.papers}\n    status: {state}" + (f"; {why}" if why else "")
             + f"\n    command: {command}" for a, state, why, command in _entries(results)]
    real = {d: availability(d, root, download=True) for d in MEDIUM}
    lines.append(f"on this machine (data root {data_root(root)}): " + "; ".join(
        f"{d} {'here' if a.state == 'here' else 'downloadable with --download' if a.runnable else 'missing'}"
        for d, a in real.items()))
    return "\n".join(lines)


def markdown_listing(results):
    """The listing as a markdown table (results/README.md embeds it)."""
    lines = ["| artifact | papers | status | command |", "|---|---|---|---|"]
    lines += [f"| {a.name} | {a.papers} | {state}" + (f": {why}" if why else "") + f" | `{command}` |"
              for a, state, why, command in _entries(results)]
    return "\n".join(lines)


def report_text(results):
    """results/README.md as rendered now from the records under ``results``."""
    return report.render(results, ROOT, markdown_listing(results))


def rendered_files(results):
    """{path: text} of everything ``report`` writes: ``results``/README.md and, for the repository's own
    results folder, the documentation's Results pages (``docs/results/*.md``)."""
    listing = markdown_listing(results)
    files = {Path(results) / "README.md": report.render(results, ROOT, listing)}
    if Path(results).resolve() == (ROOT / "results").resolve():
        files.update({DOCS_RESULTS / name: text for name, text in report.docs_pages(results, ROOT, listing).items()})
    return files


def write_report(results, check=False):
    """Write ``results``/README.md (and the docs' Results pages), or with ``check`` compare them with a
    fresh render: 0 when equal, 1 (after printing a unified diff per file, and naming stale pages) when not."""
    files = rendered_files(results)
    if not check:
        for target, fresh in files.items():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(fresh)
            print(f"wrote {target}")
        return 0
    differ = []
    for target, fresh in files.items():
        current = target.read_text() if target.exists() else ""
        if current != fresh:
            differ.append(target)
            sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), fresh.splitlines(True),
                                                       f"{target} (committed)", f"{target} (fresh render)"))
    if DOCS_RESULTS in {t.parent for t in files}:
        differ += [f for f in sorted(DOCS_RESULTS.rglob("*.md")) if f not in files]
    if not differ:
        print(f"{', '.join(str(t) for t in files)}: up to date" if len(files) < 3 else
              f"{len(files)} rendered files up to date")
        return 0
    print(f"\n{', '.join(str(t) for t in differ)} differ from a fresh render (or are not rendered): run "
          "python experiments/paper_artifacts.py report")
    return 1


#: The Hydra launchers a sweep may run on (conf/hydra/launcher/*.yaml).
LAUNCHERS = sorted(p.stem for p in (ROOT / "conf" / "hydra" / "launcher").glob("*.yaml"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    ls = sub.add_parser("list")
    ls.add_argument("--results", default=str(ROOT / "results"))
    ls.add_argument("--markdown", action="store_true", help="a markdown table (as in results/README.md)")
    ls.add_argument("--data-root", help="where the real sets' files are (default: $SSL_REPRO_DATA, else "
                                        "scikit-learn's data home)")
    run = sub.add_parser("run", help="make one artifact, or 'all': every artifact, then render and report")
    run.add_argument("artifact", choices=[a.name for a in ARTIFACTS] + ["all"])
    run.add_argument("--dry-run", action="store_true",
                     help="print what would run (all: the plan and the estimate) and run nothing")
    run.add_argument("--stand-ins", action="store_true", help="all: also the SYNTHETIC stand-ins' sweeps")
    run.add_argument("--scale", action="store_true",
                     help="all: also 004's large transductive tables and 002's large experiment")
    run.add_argument("--svm-learn", help="all: SVM-light's svm_learn, for 000 Table 9's peer column")
    run.add_argument("--universvm", help="all: UniverSVM's binary, for the 002 rows")
    run.add_argument("--dataset", help="for sweeps: the dataset (default: the artifact's own default)")
    run.add_argument("--results", default=str(ROOT / "results"))
    run.add_argument("--data-root", help="where the real sets' files are (default: $SSL_REPRO_DATA, else "
                                         "scikit-learn's data home)")
    run.add_argument("--download", action="store_true",
                     help="let the loaders download missing files (default: run only the sets that are here)")
    run.add_argument("--launcher", choices=LAUNCHERS,
                     help="the sweeps' Hydra launcher (conf/hydra/launcher/: ray_cluster, slurm; default: the "
                          "recipes', jobs in parallel on this machine); with 'all', passed to every sweep")
    rep = sub.add_parser("report", help="write results/README.md from the records (--check: exit 1 on a difference)")
    rep.add_argument("--check", action="store_true")
    rep.add_argument("--results", default=str(ROOT / "results"))
    ren = sub.add_parser("render", help="re-render every summary and figure from the committed results.csv "
                                        "files (no job is run), then the report")
    ren.add_argument("--results", default=str(ROOT / "results"))
    args = ap.parse_args(argv)
    if args.command == "list":
        print(markdown_listing(args.results) if args.markdown else listing(args.results, args.data_root))
        return
    if args.command == "report":
        sys.exit(write_report(args.results, args.check))
    if args.command == "render":
        render_all(args.results)
        sys.exit(write_report(args.results))
    if args.artifact == "all":
        run_all(args.results, {"--svm-learn": args.svm_learn, "--universvm": args.universvm}, args.dry_run,
                root=args.data_root, download=args.download, launcher=args.launcher, stand_ins=args.stand_ins,
                scale=args.scale)
        return
    artifact = next(a for a in ARTIFACTS if a.name == args.artifact)
    made = regenerate(artifact, args.dataset, args.results, args.dry_run, args.data_root, args.download,
                      args.launcher)
    if made is not None:
        print(made)


if __name__ == "__main__":
    main()
