"""results/README.md as an index: the summary, the claims table, one short section per artifact linking its
page (where the long tables are), every link to a page that exists, no line over 400 characters."""
import re
from pathlib import Path

from ssl_repro.report.page import LINE, SECTIONS, TITLES, wrap

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "results" / "README.md"


def test_no_line_of_the_results_readme_is_over_400_characters():
    lines = README.read_text().splitlines()
    assert max(len(line) for line in lines) <= LINE == 400
    long = "word " * 200
    assert all(len(line) <= 120 for line in wrap(long).splitlines()) and wrap(long).split() == long.split()


def test_each_artifact_has_a_short_section_linking_its_page_and_every_link_resolves():
    text = README.read_text()
    for key, *_ in SECTIONS:
        section = text.split(f"### {TITLES[key]}\n", 1)[1].split("\n### ", 1)[0]
        assert f"](../docs/results/{key}.md)" in section, key
        prose = [line for line in section.splitlines() if "/claims/" not in line]   # one line per claim beside
        assert len(prose) < 25 and "| " not in section, key                          # no table: the page has them
    links = re.findall(r"\]\((\.\./docs/results/[^)#]+)", text)
    assert links and all((README.parent / link).resolve().is_file() for link in links)
    assert text.count("\n| ") < 150 and len(text.splitlines()) < 840        # the claims table (83 claims), the matrices
