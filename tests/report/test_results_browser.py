"""The Results pages in a real browser: the docs build, loaded in headless Chromium at 1,400 px wide, must
show every table cell and column inside its box (nothing clipped or scrolled sideways).

Chromium (Debian's ``chromium``; ``.ci/run`` installs it) loads a copy of the built page with a small
script appended that measures, after the page's load, every table's scroll container and every cell
(``scrollWidth > clientWidth``) and writes what overflows into the DOM, which ``--dump-dom`` prints.
The test skips with the reason when Chromium is not installed.
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

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs Debian's "
                                                          "chromium with apt-get; where apt is unavailable the "
                                                          "browser check is skipped)")]

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
  const rows = article.querySelectorAll("table tbody tr");
  const tenth = rows.length >= 10 ? Math.round(rows[9].getBoundingClientRect().bottom) : -1;
  const pre = document.createElement("pre");
  pre.id = "overflow-report";
  pre.textContent = JSON.stringify({overflow: out, tenth_row_bottom: tenth, width: window.innerWidth});
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


def test_the_claims_overview_fits_1400_px_and_shows_ten_verdicts_on_the_first_screen(site, tmp_path):
    report = measure(site / "results" / "index.html", tmp_path)
    assert report["width"] == WIDTH
    assert report["overflow"] == [], report["overflow"]
    assert 0 < report["tenth_row_bottom"] <= HEIGHT, report


@pytest.mark.parametrize("page", ["claims/000-fig4.html", "objective-minima.html", "learning-curves.html"])
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
