"""The construction corners: the two learning-curve sweeps of :mod:`ssl_repro.claims.corners` (an analog's two
construction choices crossed, aut-avn's preprocessing a at lambda' = 1 and b at lambda' = 10), each aggregated into
``<results>/construction_corners_*/`` (results.csv, summary.csv, summary.md) and drawn there.

    python experiments/construction_corners.py [--results results] [--data-root DIR] [--download] [--launcher NAME] [--force]

A step of ``paper_artifacts.py run all`` (``construction-corners``), so that the corners' records are remade on the
run's commit with the curves they are judged beside.  Each sweep is resumable (re-running skips finished jobs);
its jobs' folders go to ``<results>/runs/<folder>``.  Without ``--force`` it stops before any job when the corners'
folders hold files an earlier run made, as ``paper_artifacts.py run`` does.
"""
import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ssl_repro.claims.corners import SWEEPS, overrides  # noqa: E402
from ssl_repro.data import availability  # noqa: E402
from ssl_repro.data.cache import in_words_of  # noqa: E402
from ssl_repro.harness.aggregate import write_tables  # noqa: E402

from artifact_table import OPTIONS, RUNS  # noqa: E402
from paper_artifacts import LAUNCHERS, render_folder, run_py  # noqa: E402


def commands(results, root=None, download=False, launcher=None):
    """[(folder, dataset, the ``run.py`` command of its sweep)] of the two corners (:data:`corners.SWEEPS`)."""
    runs = Path(results) / RUNS
    return [(folder, dataset, run_py("learning_curve", overrides(folder, dataset, lam_u), runs, root, download,
                                     launcher)) for folder, dataset, lam_u in SWEEPS]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default=str(ROOT / "results"))
    ap.add_argument("--data-root", help="where the real sets' files are (default: $SSL_REPRO_DATA, else "
                                        "scikit-learn's data home)")
    ap.add_argument("--download", action="store_true", help="let the loaders download missing files")
    ap.add_argument("--launcher", choices=LAUNCHERS, help="the sweeps' Hydra launcher (default: the recipe's)")
    ap.add_argument("--force", action="store_true", help="replace the corners' records an earlier run made")
    args = ap.parse_args(argv)
    planned = commands(args.results, args.data_root, args.download, args.launcher)
    held = [f for folder, _, _ in planned for f in (Path(args.results) / folder).rglob("*") if f.is_file()]
    if held and not args.force:
        raise SystemExit(f"Error: the construction corners would replace {len(held)} file(s) an earlier run made "
                         f"under {args.results}/construction_corners_*: give --force to replace them, or "
                         f"--results DIR to write into a scratch folder")
    for folder, dataset, command in planned:
        data = availability(dataset, args.data_root, args.download)
        if not data.runnable:
            raise SystemExit(f"Error: construction corner {folder} on {dataset}: {in_words_of(data.detail, *OPTIONS)}")
    for folder, dataset, command in planned:
        print(f"{folder}: {' '.join(['python'] + command[1:])}", flush=True)
        code = subprocess.run(command, cwd=ROOT).returncode
        if code:
            raise SystemExit(code)      # the sweep printed why
        target = Path(args.results) / folder
        write_tables([Path(args.results) / RUNS / folder], target)
        print(f"{target}: {render_folder(target)} figures", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
