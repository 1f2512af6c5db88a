"""The summary that heads the Results pages: it opens each page and counts what the claims table shows."""
import json
import re
from collections import Counter
from pathlib import Path

from ssl_repro.claims import verdicts
from ssl_repro.claims.records import Records
from ssl_repro.report import summary

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "results" / "README.md"
INDEX = ROOT / "docs" / "results" / "index.md"


def table_rows(text):
    return [line for line in text.splitlines() if re.match(r"\| \d+ \| \[", line)]


def test_the_summary_comes_before_the_claims_table_on_every_results_page_and_the_landing_page():
    readme = README.read_text()
    assert readme.index("## Summary") < readme.index("**Verdicts of the") < readme.index("| # |")
    # short: the tally, one line per data kind (four since mnist-5k, a real subset), the words
    assert readme.splitlines()[0] == "# Results" and len(readme[:readme.index("| # |")].splitlines()) < 27
    index = INDEX.read_text()
    assert index.index("**Verdicts of the") < index.index("| # |")
    landing = (ROOT / "docs" / "index.md").read_text()
    assert 0 < landing.index("```{include} results/summary.md") < landing.index("pip install")      # it heads the page
    assert (ROOT / "docs" / "results" / "summary.md").read_text().strip() in index


def test_the_summary_counts_the_rows_and_cells_the_claims_table_shows():
    index = INDEX.read_text()
    rows = table_rows(index)
    verdict_line = re.search(r"\*\*Verdicts of the (\d+) claims:\*\* (.*)\.", index)
    assert int(verdict_line.group(1)) == len(rows)
    overall = {w: int(k) for w, k in re.findall(r"([a-z][a-z -]*?) (\d+)(?: ·|$)", verdict_line.group(2))}
    assert sum(overall.values()) == len(rows)
    # the table's verdict column (the fourth), counted here from the table itself
    assert overall == Counter(r.split(" | ")[3].strip("*") for r in rows)
    # per data kind: the table's cells "real: **holds**", counted here from the table itself
    cells = Counter(re.findall(r"(\w[\w-]*): \*\*([^*]+)\*\*", "\n".join(rows)))
    for kind, counts, total in re.findall(r"^- \*\*([\w-]+)\*\* \(.*\): (.*) \(of (\d+) claims?\)\.$", index, re.M):
        stated = {w: int(k) for w, k in re.findall(r"([a-z][a-z -]*?) (\d+)(?: ·|$)", counts)}
        assert stated == {w: k for (kd, w), k in cells.items() if kd == kind}, kind
        assert sum(stated.values()) == int(total) == sum(f"{kind}: **" in r for r in rows)


def test_the_summary_counts_a_changed_verdict_with_the_table(monkeypatch):
    """A claim whose verdict changes moves from one count to another in the summary, as in the table."""
    records = Records(ROOT / "results", ROOT)
    before = re.search(r"\*\*Verdicts of the \d+ claims:\*\* (.*)\.", "\n".join(summary.summary(records))).group(1)
    tests = [json.dumps(c["test"], sort_keys=True) for c in records.papers["claims"] if "test" in c]
    first = next(c for c in records.papers["claims"] if "test" in c and records.verdict(c).category == verdicts.HOLDS
                 and tests.count(json.dumps(c["test"], sort_keys=True)) == 1)     # a test no other claim shares
    held = records.verdict(first)
    monkeypatch.setitem(records._verdicts, json.dumps(first["test"], sort_keys=True),    # Records' key: the test
                        (verdicts.Verdict(verdicts.FAILS, held.data, "made up"),
                         [("-", verdicts.Verdict(verdicts.FAILS, held.data, "made up"))]))
    monkeypatch.setattr(records, "_once", {})       # what the render computed once from the old verdict, dropped
    after = re.search(r"\*\*Verdicts of the \d+ claims:\*\* (.*)\.", "\n".join(summary.summary(records))).group(1)
    count = lambda text, word: int(re.search(rf"(?:^|· ){word} (\d+)", text).group(1))  # noqa: E731
    assert count(after, "holds") == count(before, "holds") - 1
    assert count(after, "does not hold") == count(before, "does not hold") + 1
