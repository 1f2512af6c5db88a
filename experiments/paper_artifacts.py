"""Every table and figure of the papers, how this project regenerates it, and whether it has.

    python experiments/paper_artifacts.py list [--results results] [--markdown]
    python experiments/paper_artifacts.py run ARTIFACT [--dataset NAME] [--results results] [--force] [--dry-run] [--data-root DIR] [--download]
    python experiments/paper_artifacts.py run all [--force] [--resume] [--dry-run] [--data-root DIR] [--download] [--svm-learn PATH] [--universvm PATH] [--svmlin PATH]
    python experiments/paper_artifacts.py render [--force] [--results results]
    python experiments/paper_artifacts.py report [--check] [--results results]

``list`` prints one line per artifact: where it is in the papers, the
command that makes it, and its status here: ``regenerated`` (every file it
needs is in ``results/``), ``partial`` (some datasets) or ``missing``, each
with the reason for what is not there.  ``run`` makes one artifact: a
drawing is drawn; a sweep is launched (``python run.py +experiment=... dataset=...``,
resumable), aggregated into ``<results>/<experiment>/`` (results.csv,
summary.csv, summary.md) and drawn there; a script is run.  ``run all``
runs every artifact (``experiments/run_all_plan.py``: every sweep folder
once, the real sets this machine has, the SYNTHETIC stand-ins with
``--stand-ins``), the stand-ins' calibration, the peers' scripts
(SVM-light for 000 Table 9 with ``--svm-learn``, UniverSVM for 002 with
``--universvm``, SVMlin for the reference agreement with ``--svmlin``, each
by default the program ``python -m ssl_repro.peers build`` built, found in
the peers' cache (:func:`peer_programs`); skipped, with the reason, without one) and the scripts of the records the
pages read besides the artifacts (``experiments/script_steps.py``), after printing an
estimate of the time (each sweep's record's seconds per job, times the jobs
its recipe launches now, over the jobs it runs at once) and with a progress
line per step; then it re-renders and writes the report.  The artifacts
themselves are listed in ``experiments/artifact_table.py``, the ``list`` lines made by
``experiments/artifact_listing.py``.  ``--dry-run`` prints the plan and the
estimate only (``run ARTIFACT --dry-run``: the commands it would run).
A sweep on a real set runs only when its loader finds the files under the
data root (``--data-root``, default $SSL_REPRO_DATA, else scikit-learn's
data home) or, with ``--download``, may fetch them; otherwise it stops
before any job with one message naming the missing file and where to put
it (and the sweep itself loads its dataset once before launching a job).  ``render`` re-renders every sweep folder's summary.csv,
summary.md and figures from its committed results.csv (no job is run),
the loss-shape drawings, then the report.  ``report`` writes
results/README.md and the documentation's Results pages (``docs/results/``)
from the records (:mod:`ssl_repro.report`, verdicts by
:mod:`ssl_repro.claims.rules`); ``report --check`` exits 1, printing a
diff, when a committed file differs from a fresh render, and with an ``Error:`` line per record that does not carry the keys of the data it was made
from or whose keys are not today's (:mod:`ssl_repro.report.key_check`: every results.csv row's ``dataset_key``
and ``split_key``, every JSON record's ``data_keys``, recomputed from the data as this checkout loads it).
Papers: 000 = tech report (spec), 001 = ICML 2006 (kernel DA), 002 = JMLR
2006 (CCCP-TSVM), 003 = SIGIR 2006, 004 = book chapter; their numbers and
claims, quoted, are in ``experiments/paper_numbers.json``.
"""
import argparse
import difflib
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))      # this checkout's package, not an installed one
from ssl_repro.data import availability, data_root
from ssl_repro.data.cache import in_words_of
from ssl_repro.peers import OPTIONS as PEER_NAMES, PEERS, peer_program
from ssl_repro.peers.cache import ENV_VAR as PEERS_VAR, OFF
from ssl_repro.report import plots
from ssl_repro.claims.record_file import RecordError, check_all
from ssl_repro.claims.records import Records
from ssl_repro.data.key_cache import KeyCache
from ssl_repro.report.key_check import key_problems
from ssl_repro.report.docs import docs_pages
from ssl_repro.report.page import render, render_sections
from ssl_repro.report.readme_blocks import with_blocks
from ssl_repro.report.record_text import commit_note
from ssl_repro.report.sections import beyond_table as beyond
from ssl_repro.report.sections import cccp_002_fig6 as fig6_section
from ssl_repro.harness.aggregate import read_results, write_summaries, write_tables

from artifact_table import (ARTIFACTS, DRAWINGS, OPTIONS, PEER_PROGRAMS, ROOT, RUNS, experiment_name, option, refusal,
                            refuse_replacing, refuse_rewriting, sweep_folder)
from run_all_plan import run_all
from artifact_listing import listing, markdown_listing
from data_keys import remake_command, todays_keys

#: The documentation's Results pages, rendered from the same records as results/README.md.
DOCS_RESULTS = ROOT / "docs" / "results"
#: The pages with blocks the report renders (:mod:`ssl_repro.report.readme_blocks`): the README's verdict tally
#: and method names, the harness guide's method names, the estimators' guide's costs of the K-class options.
BLOCK_PAGES = (ROOT / "README.md", ROOT / "docs" / "user_guide" / "01_harness.md",
               ROOT / "docs" / "user_guide" / "03_methods.md")


def regenerate(artifact, dataset, results, dry_run=False, root=None, download=False, launcher=None, force=False):
    """Make ``artifact``: draw it, run its script, or run (resume) its sweep, aggregate and draw; with
    ``dry_run``, print what it would run and run nothing.  A sweep on a real set runs only when its
    loader finds the files under the data root ``root`` (default: $SSL_REPRO_DATA, else scikit-learn's
    data home) or, with ``download``, may fetch them; else it stops before any job, saying which file to
    put where (:func:`ssl_repro.data.availability`).  ``launcher``: the sweep's Hydra launcher
    (``conf/hydra/launcher/``, e.g. ``ray_cluster`` or ``slurm``; None: the recipe's).  Without ``force`` it
    replaces no file a run made before (:func:`refuse_replacing`; the command line's default)."""
    out = Path(results)
    if dry_run:
        print(dry_run_text(artifact, dataset, out, root, download, launcher))
        return None
    if artifact.kind == "not reproduced":
        raise SystemExit(f"Error: {artifact.name}: not reproduced here: {artifact.why_not}")
    if artifact.kind == "drawing":
        refuse_replacing(artifact, dataset, out, force)
        stem, draw = DRAWINGS[artifact.name]
        plots.save(draw(), out / "figures", stem)
        return out / "figures"
    if artifact.kind == "script":
        if artifact.record:
            raise SystemExit(f"Error: {artifact.name}: run {artifact.command} (PATH: the peer's program), or run all "
                             f"with that option")
        if not artifact.command.startswith("python "):
            raise SystemExit(f"Error: {artifact.name}: {artifact.why_not}")
        refuse_replacing(artifact, dataset, out, force)
        subprocess.run([sys.executable, *artifact.command.split()[1:]], check=True, cwd=ROOT)
        return out / Path(artifact.files[0]).parent
    dataset = dataset or artifact.default_dataset
    if dataset not in artifact.datasets:
        raise SystemExit(f"Error: {artifact.name} is made on {', '.join(artifact.datasets)}, not {dataset!r}: give "
                             f"--dataset one of them")
    refuse_replacing(artifact, dataset, out, force)
    folder, runs = sweep_folder(artifact, dataset), out / RUNS
    data = availability(dataset, root, download)
    if not data.runnable:
        raise SystemExit(f"Error: {artifact.name} on {dataset}: {in_words_of(data.detail, *OPTIONS)}")
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
        raise SystemExit(f"Error: {artifact.name}: no experiment recipe conf/experiment/{experiment}.yaml")
    return run_py(experiment, [f"dataset={dataset}"], runs, root, download, launcher)


def run_py(experiment, overrides, runs, root=None, download=False, launcher=None):
    """The ``run.py`` command of recipe ``experiment`` with ``overrides`` (``dataset=...`` first) into ``runs``
    (:func:`sweep_command`'s other arguments)."""
    return [sys.executable, str(ROOT / "run.py"), f"+experiment={experiment}", *overrides,
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
        raise SystemExit(f"Error: {artifact.name} is made on {', '.join(artifact.datasets)}, not {dataset!r}: give "
                             f"--dataset one of them")
    command = " ".join(["python"] + sweep_command(artifact, dataset, out / RUNS, root, download, launcher)[1:])
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
    note = commit_note(table)
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
    plots.save(beyond.figure(Records(results, ROOT)), results / "figures", Path(beyond.FIGURE).name)
    for dataset, stem in fig6_section.FIGURES.items():
        fig6 = fig6_section.fig6_figure(Records(results, ROOT), dataset)
        if fig6 is not None:
            plots.save(fig6, results / Path(stem).parent, Path(stem).name)
    for folder in sorted(p.parent for p in results.glob("*/results.csv")):
        print(f"{folder.name}: {render_folder(folder)} figures", flush=True)


def report_text(results):
    """results/README.md as rendered now from the records under ``results``."""
    return rendered_files(results)[Path(results) / "README.md"]


def rendered_files(results):
    """{path: text} of everything ``report`` writes: ``results``/README.md and, for the repository's own
    results folder, the documentation's Results pages (``docs/results/*.md``) and the rendered blocks of
    :data:`BLOCK_PAGES`.  One render: the files share
    one :class:`~ssl_repro.Records` of ``results`` and its sections, so each record is read,
    each claim's verdict evaluated and each section rendered once; the next render reads everything anew."""
    records, listing = Records(results, ROOT), markdown_listing(results)
    sections = render_sections(records)
    files = {Path(results) / "README.md": render(records, listing, sections)}
    if Path(results).resolve() == (ROOT / "results").resolve():
        pages = docs_pages(records, listing, sections)
        files.update({DOCS_RESULTS / name: text for name, text in pages.items()})
        files.update({page: with_blocks(page.read_text(), records) for page in BLOCK_PAGES})
    return files


def check_files(files, pages=DOCS_RESULTS):
    """Compare ``files`` ({path: fresh text}, as :func:`rendered_files` renders them) with the files on disk:
    0 when all are equal and no page is stale, else 1, after printing a unified diff per differing file and
    naming them.  A stale page is a ``*.md`` under ``pages`` (the docs' Results pages) that ``files`` does not
    hold; it is looked for when ``files`` holds that folder's pages."""
    differ = []
    for target, fresh in files.items():
        current = target.read_text() if target.exists() else ""
        if current != fresh:
            differ.append(target)
            sys.stdout.writelines(difflib.unified_diff(current.splitlines(True), fresh.splitlines(True),
                                                       f"{target} (committed)", f"{target} (fresh render)"))
    if pages in {t.parent for t in files}:
        differ += [f for f in sorted(pages.rglob("*.md")) if f not in files]
    if not differ:
        print(f"{', '.join(str(t) for t in files)}: up to date" if len(files) < 3 else
              f"{len(files)} rendered files up to date")
        return 0
    print(f"\n{', '.join(str(t) for t in differ)} differ from a fresh render (or are not rendered): run "
          "python experiments/paper_artifacts.py report")
    return 1


def checked_records(results, pages=False):
    """Stop with one ``Error:`` line naming the file, the line and the value when a record under ``results``
    is malformed (:func:`ssl_repro.claims.record_file.check_all`), before anything is rendered or written;
    with ``pages``, also when a value a page reads is (a missing key, text, NaN: the pages are rendered
    once, and dropped).  Decision: ``render`` pays that one extra render of the pages (about 20 s) so that a
    bad record stops it before it redraws a figure, not after."""
    try:
        check_all(Path(results))
        if pages:
            rendered_files(results)
    except RecordError as error:
        raise SystemExit(f"Error: {error}") from None


def check_keys(results, root=None, fresh=False):
    """0 when every record under ``results`` carries the keys of the data it was made from and they are today's
    (:func:`ssl_repro.report.key_check.key_problems`, today's data loaded from the data root ``root``), else 1
    after one ``Error:`` line per record file: what is wrong and the command that remakes it.  A key whose
    data were made from the same code, libraries and files as last time comes from the key cache
    (:mod:`ssl_repro.data.key_cache`; ``fresh``: every key computed again); one line says how many were
    computed."""
    cache = KeyCache(fresh=fresh)
    found = key_problems(results, todays_keys(root, cache))
    print(cache.summary() + ("" if cache.save() else " (not saved: the cache file cannot be written)"))
    for relative, problems in found:
        remake = remake_command(results, relative)
        print(f"Error: {Path(results).name}/{relative}: {'; '.join(problems)}: "
              + (f"remake it with {remake}" if remake else "remake it with the command in its provenance"))
    return 1 if found else 0


def write_report(results, check=False, fresh_keys=False):
    """Write ``results``/README.md (and the docs' Results pages), or with ``check`` compare them with a
    fresh render (:func:`check_files`) and the records' keys with today's data (:func:`check_keys`;
    ``fresh_keys``: no key from the cache): 0 when equal, 1 when not.  A malformed record stops it first with
    one ``Error:`` line naming the file (:func:`checked_records`)."""
    checked_records(results)
    try:
        files = rendered_files(results)
    except RecordError as error:        # a value a page reads (a missing key, text, NaN), named with its file
        raise SystemExit(f"Error: {error}") from None
    if check:
        return max(check_files(files), check_keys(results, fresh=fresh_keys))
    for target, fresh in files.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(fresh)
        print(f"wrote {target}")
    return 0


LAUNCHERS = sorted(p.stem for p in (ROOT / "conf" / "hydra" / "launcher").glob("*.yaml"))


def peer_programs(args):
    """``run all``'s peers: {option: path} from its options, else from the peers' cache
    (:func:`ssl_repro.peers.peer_program`, which says on stderr which path it found), else None (a line says
    how to build it). Its steps then look up nothing themselves (``SSL_REPRO_PEERS=none`` in their
    environment): a step runs a peer exactly when the plan passes the peer's path on its command line."""
    programs = {}
    for name in PEER_PROGRAMS:
        flag = option(name)
        found = peer_program(flag, getattr(args, name))
        programs[flag] = None if found is None else str(found)
        if found is None:
            print(f"{flag} not given and not built (python -m ssl_repro.peers build {PEER_NAMES[flag]}"
                  + ("" if PEERS[PEER_NAMES[flag]].from_registry else " --archive PATH") + "): its steps are skipped",
                  file=sys.stderr)
    os.environ[PEERS_VAR] = OFF
    return programs


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
    run.add_argument("--force", action="store_true",
                     help="replace the files an earlier run made (the committed records under results/); without "
                          "it a run that would replace one stops first")
    run.add_argument("--resume", action="store_true",
                     help="all: continue the last run under --results on the commit it started on (its finished "
                          "steps skipped, its record one run)")
    run.add_argument("--stand-ins", action="store_true", help="all: also the SYNTHETIC stand-ins' sweeps")
    run.add_argument("--scale", action="store_true",
                     help="all: also 004's large transductive tables and 002's large experiment")
    run.add_argument("--svm-learn", help="all: SVM-light's svm_learn, for 000 Table 9's peer column")
    run.add_argument("--universvm", help="all: UniverSVM's binary, for the 002 rows and the K-class comparison")
    run.add_argument("--svmlin", help="all: SVMlin's binary (the papers' C++), for the reference agreement")
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
    rep.add_argument("--no-cache", action="store_true",
                     help="with --check: compute every data key again (default: a key whose data were made from "
                          "the same code, libraries and files as last time comes from the key cache)")
    rep.add_argument("--results", default=str(ROOT / "results"))
    ren = sub.add_parser("render", help="re-render every summary and figure from the committed results.csv "
                                        "files (no job is run), then the report")
    ren.add_argument("--results", default=str(ROOT / "results"))
    ren.add_argument("--force", action="store_true", help="replace the summaries and figures under --results")
    args = ap.parse_args(argv)
    message = refusal(args)
    if message:
        raise SystemExit(message)
    if args.command == "list":
        print(markdown_listing(args.results) if args.markdown else listing(args.results, args.data_root))
        return
    if args.command == "report":
        sys.exit(write_report(args.results, args.check, args.no_cache))
    if args.command == "render":
        refuse_rewriting(args.results, args.force, "render")
        checked_records(args.results, pages=True)
        render_all(args.results)
        sys.exit(write_report(args.results))
    if args.artifact == "all":
        if not (args.dry_run or args.resume):
            refuse_rewriting(args.results, args.force, "run all")
        run_all(args.results, peer_programs(args), args.dry_run,
                root=args.data_root, download=args.download, launcher=args.launcher, stand_ins=args.stand_ins,
                scale=args.scale, force=args.force, resume=args.resume, finish=lambda: (render_all(args.results), write_report(args.results)))
        return
    artifact = next(a for a in ARTIFACTS if a.name == args.artifact)
    made = regenerate(artifact, args.dataset, args.results, args.dry_run, args.data_root, args.download,
                      args.launcher, args.force)
    if made is not None:
        print(made)


if __name__ == "__main__":
    main()
