"""A record's command on a page names no folder of the machine it ran on (``record_text.published``)."""
import re
from pathlib import Path

from ssl_repro.report.record_text import provenance, published

ROOT = Path(__file__).resolve().parents[2]


def test_a_checkouts_paths_read_from_the_checkout_and_other_absolute_paths_lose_their_folders():
    assert published("python /a/b/run.py -m dataset=pcmac results_dir=/a/b/results/runs data_root=/srv/data") == (
        "python run.py -m dataset=pcmac results_dir=results/runs data_root=<local>/data")
    assert published("python /a/b/experiments/cccp_002.py table2 --universvm /opt/peers/universvm") == (
        "python experiments/cccp_002.py table2 --universvm <local>/universvm")
    assert published("python experiments/potts_vs_ovr.py --datasets digits") == (
        "python experiments/potts_vs_ovr.py --datasets digits")           # nothing to replace: unchanged


def test_a_records_earlier_runs_show_once_each_with_how_many_runs_made_them():
    """A script writing its record once per split leaves one ``earlier`` entry per write: the page names each
    command, day and commit once with its count, in the record's order (newest first)."""
    def run(command, date, commit):
        return {"command": command, "date": date, "git_commit": commit}
    record = {"provenance": run("python experiments/f.py", "2026-11-29T10:00:00", "a" * 40),
              "earlier": [run("python experiments/f.py", "2026-11-29T09:00:00", "a" * 40)] * 3
              + [run("python /x/experiments/g.py", "2026-11-28T09:00:00", "b" * 40)]}
    assert provenance(record) == (
        "command `python experiments/f.py`, 2026-11-29, code commit aaaaaaa; merged with 3 runs of command "
        "`python experiments/f.py`, 2026-11-29, code commit aaaaaaa; merged with the runs of command "
        "`python experiments/g.py`, 2026-11-28, code commit bbbbbbb")


def test_no_rendered_page_shows_an_absolute_path_in_a_command():
    """The committed pages (kept current by test_report's committed-render test) show every recorded command
    without the machine's folders."""
    pages = [ROOT / "README.md", ROOT / "results" / "README.md", *sorted((ROOT / "docs" / "results").rglob("*.md"))]
    command = re.compile(r"`python [^`]*`")
    found = [(page.name, c) for page in pages for c in command.findall(page.read_text())
             if re.search(r"(?<![\w.~<>])/[\w.-]+/", c)]
    assert found == []
