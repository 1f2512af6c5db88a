"""The Results pages in a real browser: the docs build, loaded in headless Chromium at 1,400 px wide, must
show every table cell and column inside its box (nothing clipped or scrolled sideways).

Chromium (Debian's ``chromium``; ``.ci/run`` installs it) loads a copy of the built page with a small
script appended that measures, after the page's load, every table's scroll container and every cell
(``scrollWidth > clientWidth``) and writes what overflows into the DOM, which ``--dump-dom`` prints.
Where Chromium is not installed the tests fail, naming the command that installs it (a machine that runs the
suite checks the pages).  Besides the tables' cells: no page scrolls sideways, no code block overflows (the
landing page's install block), no table row is a paragraph (:data:`ROW`), and the Beyond matrix fits one
screen, on the landing page, the Results page, the Beyond page and a claim page.
"""
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WIDTH, HEIGHT = 1400, 1000

#: The tallest a table row may be (px): three lines of text, not a paragraph.
ROW = 90
#: The command that installs the browser (Debian's package, as .ci/run does).
INSTALL = "apt-get install -y chromium"

pytestmark = [pytest.mark.slow]


@pytest.fixture(scope="module", autouse=True)
def chromium():
    """Fail, naming the install command, where Chromium is missing: the pages are checked wherever the suite runs."""
    if CHROMIUM is None:
        pytest.fail(f"Chromium is not installed: the Results pages cannot be checked in a browser; install it with "
                    f"`{INSTALL}` (as root; .ci/run does), then run the slow suite again", pytrace=False)
    return CHROMIUM

#: Appended to a copy of the page: on load, the tables' containers and cells whose content is wider than
#: their box, and the bottom of the claims overview's tenth row, written into <pre id="overflow-report">.
PROBE = """<script>
window.addEventListener("load", () => {
  const out = [];
  const article = document.querySelector("article") || document.body;
  article.querySelectorAll("table").forEach((table, t) => {
    const box = table.parentElement;
    if (box.scrollWidth > box.clientWidth + 1 || table.scrollWidth > box.clientWidth + 1)
      out.push(`table ${t}: ${table.scrollWidth} px in a box of ${box.clientWidth} px`);
    table.querySelectorAll("th, td").forEach((cell) => {
      if (cell.scrollWidth > cell.clientWidth + 1)
        out.push(`table ${t} cell "${cell.textContent.trim().slice(0, 40)}": ${cell.scrollWidth} > ${cell.clientWidth} px`);
    });
  });
  article.querySelectorAll("pre").forEach((block, k) => {
    if (block.scrollWidth > block.clientWidth + 1)
      out.push(`code block ${k}: ${block.scrollWidth} px in a box of ${block.clientWidth} px`);
  });
  const rows = article.querySelectorAll("table tbody tr");
  const tenth = rows.length >= 10 ? Math.round(rows[9].getBoundingClientRect().bottom) : -1;
  const tables = [...article.querySelectorAll("table")].map((t) => [Math.round(t.getBoundingClientRect().height),
    Math.max(0, ...[...t.querySelectorAll("tbody tr")].map((r) => Math.round(r.getBoundingClientRect().height)))]);
  const verdicts = [...article.querySelectorAll("strong")].find((b) => b.textContent.startsWith("Verdicts of the"));
  const summary = verdicts ? Math.round(verdicts.getBoundingClientRect().bottom) : -1;
  const page = document.documentElement.scrollWidth - document.documentElement.clientWidth;
  const pre = document.createElement("pre");
  pre.id = "overflow-report";
  pre.textContent = JSON.stringify({overflow: out, tenth_row_bottom: tenth, width: window.innerWidth,
                                    page_overflow: page, tables: tables, summary_bottom: summary});
  document.body.appendChild(pre);
});
</script>"""


def measure(page, tmp_path):
    """{overflow: [...], tenth_row_bottom, width} of the built ``page`` at WIDTH x HEIGHT in Chromium."""
    probe = page.with_name(f"{page.stem}.probe.html")
    probe.write_text(page.read_text().replace("</body>", PROBE + "</body>"))
    try:
        dom = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
             f"--user-data-dir={tmp_path / 'chromium-profile'}", f"--window-size={WIDTH},{HEIGHT}",
             "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()],
            capture_output=True, text=True, timeout=120).stdout
    finally:
        probe.unlink()
    found = re.search(r'<pre id="overflow-report"[^>]*>(.*?)</pre>', dom, re.S)
    assert found, "the probe did not run (no report in the dumped DOM)"
    return json.loads(found.group(1).replace("&quot;", '"').replace("&gt;", ">").replace("&lt;", "<")
                      .replace("&amp;", "&"))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The documentation built once (``sphinx -b html docs``) into a temporary folder."""
    out = tmp_path_factory.mktemp("docs-html")
    subprocess.run([sys.executable, "-m", "sphinx", "-q", "-b", "html", str(ROOT / "docs"), str(out)],
                   check=True, timeout=1200)
    return out


def test_the_results_page_opens_with_the_summary_and_the_claims_overview_fits_1400_px(site, tmp_path):
    report = measure(site / "results" / "index.html", tmp_path)
    assert report["width"] == WIDTH
    assert report["overflow"] == [], report["overflow"]
    assert 0 < report["summary_bottom"] <= 900, report               # the verdict counts on the first screen
    assert 0 < report["tenth_row_bottom"] <= 900 + HEIGHT, report     # ten claims by the second


@pytest.mark.parametrize("page", ["claims/000-fig4.html", "objective-minima.html", "learning-curves.html",
                                  "claims/004-table1-4.html", "large-transductive.html"])   # the paper beside ours
def test_a_claim_page_and_the_artifact_pages_keep_their_tables_in_their_boxes(site, tmp_path, page):
    assert measure(site / "results" / page, tmp_path)["overflow"] == []


def test_the_check_fails_on_a_deliberately_over_wide_table(site, tmp_path):
    index = site / "results" / "index.html"
    wide = index.with_name("wide.html")
    row = "<tr>" + "".join(f"<td>{'x' * 120}</td>" for _ in range(6)) + "</tr>"
    wide.write_text(index.read_text().replace("<h1>", f"<table class='table'><tbody>{row}</tbody></table><h1>", 1))
    try:
        overflow = measure(wide, tmp_path)["overflow"]
    finally:
        wide.unlink()
    assert any(line.startswith("table 0") for line in overflow), overflow


#: Per page, the table whose height is checked (its index on the page) and the most it may take: a row at
#: most :data:`ROW` px (the claims overview, the Beyond matrix), or the whole table about one screen (a claim's
#: evidence per set, whose cells are sentences): :data:`SCREEN` px, a 900-px screen and a row, since each
#: analog's robustness check has its own row (000-fig4's table: 970 px at 1400 px wide, 2026-11-28).
TABLES = {"results/index.html": (0, "rows"), "results/beyond.html": (0, "rows"),
          "results/claims/000-fig4.html": (0, "screen")}
SCREEN = 1000


@pytest.mark.parametrize("page", ["index.html", "results/index.html", "results/beyond.html",
                                  "results/claims/000-fig4.html"])
def test_no_page_scrolls_sideways_and_its_main_table_keeps_a_readable_height(site, tmp_path, page):
    report = measure(site / page, tmp_path)
    assert report["page_overflow"] <= 0, report
    assert report["overflow"] == [], report["overflow"]           # the landing page's install block fits its box
    if page in TABLES:
        k, limit = TABLES[page]
        height, tallest_row = report["tables"][k]
        assert (tallest_row <= ROW) if limit == "rows" else (height <= SCREEN), (page, report["tables"])


def test_the_beyond_matrix_fits_one_screen(site, tmp_path):
    report = measure(site / "results" / "beyond.html", tmp_path)
    assert report["tables"] and report["tables"][0][0] <= 900 - 200, report      # below the page's heading
