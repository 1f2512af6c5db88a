"""One vocabulary of verdict words on every rendered page, and the tally under the claims table a count of it."""
import re
from pathlib import Path

from ssl_repro.claims import verdicts
from ssl_repro.report import claim_pages

ROOT = Path(__file__).resolve().parents[2]
#: Every rendered page (``report`` writes them) and the hand-written guide that explains the verdicts.
PAGES = [ROOT / "results" / "README.md", *sorted((ROOT / "docs" / "results").rglob("*.md"))]
GUIDE = ROOT / "docs" / "user_guide" / "08_reproducing.md"
KIND = r"(?:real subset|real|analog|stand-in|generated)"


def words_of(text):
    """The verdict words a verdict cell or phrase uses: ``real: **holds**, analog: **mixed**`` -> both words;
    ``holds on pcmac (real); mixed on ...`` -> the word before each ``on``; else the cell itself."""
    by_kind = re.findall(rf"{KIND}: \*\*([^*]+)\*\*", text)
    if by_kind:
        return by_kind
    text = re.sub(r"\([^()]*\)", "", text.strip().strip("*")).strip()
    return [part.split(" on ")[0].strip() for part in text.split("; ")]


def verdict_phrases(page):
    """Every verdict phrase of a rendered page: the ``**Verdict: ...**`` lines, the cells of a table column
    headed "verdict ...", and the docs' "-- ours: ..." lines."""
    lines = page.splitlines()
    found = [m for line in lines for m in re.findall(r"\*\*Verdict: ([^*]+)\*\*", line)]
    found += [m for line in lines for m in re.findall(r"-- ours: (.*)\.$", line)]
    header = None
    for line in lines:
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        if header is None:
            header = [k for k, c in enumerate(cells) if c.startswith("verdict")]
        elif not set(line) <= set("|-: "):
            found += [cells[k] for k in header if k < len(cells) and cells[k]]     # a construction b row: none
    return found


def test_every_verdict_on_every_rendered_page_is_a_word_of_the_one_vocabulary():
    seen = set()
    for path in PAGES:
        page = path.read_text()
        for phrase in verdict_phrases(page):
            words = words_of(phrase)
            assert set(words) <= set(verdicts.VOCABULARY), (path.name, phrase)
            seen |= set(words)
    assert {verdicts.HOLDS, verdicts.FAILS, verdicts.UNTESTABLE, verdicts.BY_DATA} <= seen   # the grep reads verdicts
    for path in [*PAGES, GUIDE]:                                       # the words the vocabulary retired
        assert not re.search(r"\*\*fails\*\*|not testable here|: \*\*fails", path.read_text()), path


def test_a_cell_outside_the_vocabulary_is_caught():
    page = "| # | verdict |\n|---|---|\n| 1 | real: **fails** |\n\n**Verdict: not testable here** (x)."
    assert [words_of(p) for p in verdict_phrases(page)] == [["not testable here"], ["fails"]]


def test_the_tally_under_the_claims_table_is_a_count_of_its_verdict_column():
    for path in (ROOT / "results" / "README.md", ROOT / "docs" / "results" / "index.md"):
        page = path.read_text()
        rows = [line for line in page.splitlines() if re.match(r"\| \d+ \| \[", line)]
        column = [line.strip("|").split(" | ")[3].strip().strip("*") for line in rows]
        counted = {w: column.count(w) for w in verdicts.VOCABULARY if w in column}
        tally = re.search(r"the verdict column counts (.*?) \((\d+) claims\)", " ".join(page.split()))   # lines wrapped
        assert tally.group(1) == ", ".join(f"{w} {n}" for w, n in counted.items()), path
        assert int(tally.group(2)) == len(rows) == sum(counted.values())


def test_the_tally_counts_the_rows_it_is_given():
    rows = [[1, "", "", "**holds**", ""], [2, "", "", f"**{verdicts.BY_DATA}**", ""], [3, "", "", "**holds**", ""]]
    assert claim_pages.tally(rows) == {verdicts.HOLDS: 2, verdicts.BY_DATA: 1}


def test_the_words_mean_what_the_rules_give():
    """A sentence met nowhere does not hold without being contradicted (claim 19 on pcmac: in range at 0 of 6 label
    counts, none reversed), where the old meaning said only "they contradict it"; a sentence with one part met and
    another unmet is mixed (claim 9: J met in 5 of 5 cells, the slight error gap in none), not only one whose cells
    differ."""
    from ssl_repro.claims import verdicts
    from ssl_repro.report.summary import WORD_MEANS
    assert verdicts.conjunction([verdicts.UNMET]) == verdicts.FAILS and "none of it" in WORD_MEANS[verdicts.FAILS]
    assert verdicts.conjunction([verdicts.MET, verdicts.UNMET]) == verdicts.MIXED
    assert "parts of the sentence" in WORD_MEANS[verdicts.MIXED]
