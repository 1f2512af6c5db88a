"""The papers' numbers beside ours (ssl_repro/report/paper_beside.py): a page's row is the record's mean and
paper_numbers.json's value, a changed paper number changes the page, and the bands read both ways."""
import copy
from pathlib import Path

import pandas as pd
import pytest

from ssl_repro.claims.paper_evidence import error_band, j_band
from ssl_repro.claims.records import Records
from ssl_repro.report import claim_pages, paper_beside

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def records():
    return Records(ROOT / "results", ROOT)


def _claim(records, cid):
    return next((number, c) for number, c in claim_pages.tested(records) if c.get("id") == cid)


def _page(records, cid):
    number, claim = _claim(records, cid)
    return "\n".join(claim_pages.claim_body(records, number, claim, lambda key: key, lambda f: f))


def _row(page, method):
    return next(line.split(" | ") for line in page.splitlines() if line.startswith("| kdd99 → kdd99-10")
                and f"| {method}: transductive error" in line)


def test_a_claim_pages_row_is_the_records_mean_beside_the_papers_number(records):
    frame = pd.read_csv(ROOT / "results" / "transductive_kdd99_10" / "results.csv")
    ours = frame[(frame["method"] == "da") & (frame["n_labeled"] == 1000)]["transductive_error"].mean()
    paper = next(n["value"] for n in records.papers["numbers"] if n["where"] == "Table 1.5" and n["method"] == "da")
    row = _row(_page(records, "004-table1.5"), "DA")
    assert row[2] == f"{paper:.2f}%"
    assert row[3] == f"{100 * ours:.2f}%" and "10 splits" in row[0]
    assert row[4] == f"{100 * ours - paper:+.2f} points"
    assert row[5].rstrip(" |") == "ours " + error_band(ours, paper / 100)


def test_a_changed_paper_number_changes_the_page(records):
    before = _row(_page(records, "004-table1.5"), "DA")
    changed = Records(ROOT / "results", ROOT)
    changed.papers = copy.deepcopy(records.papers)
    entry = next(n for n in changed.papers["numbers"] if n["where"] == "Table 1.5" and n["method"] == "da")
    entry["value"] = 5.0
    after = _row(_page(changed, "004-table1.5"), "DA")
    assert before[2] != after[2] and after[2] == "5.00%"
    assert after[3] == before[3]                                 # ours is the record's, unchanged
    assert after[4] != before[4] and after[5].rstrip(" |").endswith("lower")


def test_every_table_the_task_names_has_rows_and_a_later_claim_without_a_source_has_none(records):
    for paper, where in [("004", f"Table 1.{k}") for k in range(2, 8)] + [
            ("000", "Table 9"), ("003", "Table 4"), ("001", "Table 2"), ("001", "Table 4"), ("001", "Table 5"),
            ("002", "Table 2"), ("002", "Table 4"), ("002", "Table 5"), ("002", "Table 6")]:
        rows = paper_beside.beside_rows(records, [(paper, where)])
        numbers = records.paper_numbers(**dict(zip(("paper", "where"), paper_beside.SAME_TABLE.get((paper, where),
                                                                                                  (paper, where)))))
        assert len(rows) >= len(numbers) > 0, (paper, where)
        assert any(r[4] != "-" for r in rows), (paper, where)    # some number of ours stands beside them
    later = {"id": "003-later", "paper": "003", "where": "Empirical study (Table 3)", "quote": "x", "test": {}}
    assert paper_beside.claim_tables(later) == [("003", "Table 3")]
    assert paper_beside.beside_lines(records, paper_beside.claim_tables(later)) == []


def test_002_table_5s_row_is_the_mnist_records_cell_and_a_size_the_subset_lacks_has_none(records):
    """002 Table 5 on mnist-5k: ours is the record's mean at the paper's L and U; the paper's U = 60,000 is beyond
    the subset's rows, so its row says so instead of borrowing another cell."""
    frame = pd.read_csv(ROOT / "results" / "cccp_002" / "mnist.csv")
    rows = {(r[1], r[2]): r for r in paper_beside.beside_rows(records, [("002", "Table 5")])}
    svm = frame[(frame["method"] == "svm") & (frame["n_labeled"] == 1000)]["test_error"].mean()
    splits = frame[(frame["method"] == "svm") & (frame["n_labeled"] == 1000)]["split"].nunique()
    row = rows[(f"MNIST → mnist-5k (real subset): L = 1,000, U = 0, {splits} split" + "s" * (splits != 1),
                "svm: test error")]
    assert row[3:5] == ["7.77%", f"{100 * svm:.2f}%"] and row[5] == f"{100 * svm - 7.77:+.2f} points"
    assert rows[("MNIST → -: no record at L = 1,000, U = 60,000", "cccp-tsvm: test error")][3:5] == ["5.38%", "-"]


@pytest.mark.parametrize("a, b, band", [(0.10, 0.10, "equal"), (0.102, 0.10, "equal"), (0.11, 0.10, "slightly higher"),
                                        (0.09, 0.10, "slightly lower"), (0.05, 0.10, "markedly lower"),
                                        (0.0094, 0.0022, "markedly higher")])
def test_the_error_band_reads_both_ways(a, b, band):
    assert error_band(a, b) == band
    mirror = {"lower": "higher", "higher": "lower"}
    assert error_band(b, a) == (band if band == "equal" else band.split()[0] + " " + mirror[band.split()[1]])


def test_the_j_band_follows_004_table_1_2s_reading():
    assert j_band(0.194, 0.1947) == "significantly lower"       # 0.36%: full-ccat's "significantly better"
    assert j_band(0.1499, 0.15) == "slightly lower"             # 0.07%: full-gcat's "slightly"
    assert j_band(0.15, 0.1499) == "slightly higher"
    assert j_band(0.19401, 0.194) == "equal"                    # 0.005%: below J_EQUAL's 0.05%
