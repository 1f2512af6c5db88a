"""The blocks the report renders into README.md and the harness guide (ssl_repro/report/readme_blocks.py): every
name ``method=`` takes, once, and the README's verdict tally, which counts what the claims table shows."""
import re
from collections import Counter
from pathlib import Path

import pytest

from ssl_repro.claims import verdicts
from ssl_repro.harness.methods import METHODS, VARIANTS, config_nodes
from ssl_repro.report.readme_blocks import METHOD_NAMES, VERDICTS, method_lines

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def block(text, markers):
    start, end = markers
    return text.split(start + "\n", 1)[1].split(end, 1)[0]


@pytest.mark.parametrize("page", [README, ROOT / "docs" / "user_guide" / "01_harness.md"], ids=lambda p: p.name)
def test_every_name_method_takes_is_listed_once(page):
    listed = re.findall(r"`([a-z0-9_]+)`", block(page.read_text(), METHOD_NAMES))
    assert Counter(listed) == Counter(list(config_nodes()))        # each method and each variant config, once
    assert block(page.read_text(), METHOD_NAMES) == "\n".join(method_lines()) + "\n"


def test_a_new_method_and_its_variant_join_the_list(monkeypatch):
    from ssl_repro.harness.methods import Method, Variant
    monkeypatch.setitem(METHODS, "foo", Method("foo", "ssl_repro.estimators:LinearDA", True, paper=False))
    monkeypatch.setitem(VARIANTS, "foo_fast", Variant("foo_fast", "foo", {"T0": 1.0}))
    [baselines] = [line for line in method_lines() if line.startswith("- today's baselines")]
    assert baselines.endswith("`label_spreading`, `foo` (`foo_fast`);")


def test_the_readme_tally_counts_the_claims_tables_verdicts():
    """The README's first screen against the claims table of the docs' Results page, counted here row by row."""
    index = (ROOT / "docs" / "results" / "index.md").read_text()
    rows = re.findall(r"^\| \d+ \| .*? \| .*? \| \*\*(.+?)\*\* \|", index, flags=re.M)
    assert len(rows) > 30
    counted = Counter(rows)
    tally = block(README.read_text(), VERDICTS)
    expected = " · ".join(f"{w} {counted[w]}" for w in verdicts.VOCABULARY if counted[w])
    assert f"Verdicts of the papers' {len(rows)} claims**, each tested on the committed records: {expected}." in tally


def test_the_estimators_guide_gives_each_k_class_options_cost_from_the_potts_record():
    """03_methods.md's cost block names, per set of results/potts_vs_ovr/, Potts' mean CPU seconds over
    one-vs-rest's, recomputed here from the record's rows."""
    import json
    from ssl_repro.report.readme_blocks import K_CLASS_COSTS
    text = block((ROOT / "docs" / "user_guide" / "03_methods.md").read_text(), K_CLASS_COSTS)
    found = sorted((ROOT / "results" / "potts_vs_ovr").glob("*.json"))
    if not found:
        assert "Not measured yet" in text
    for path in found:
        rows = json.loads(path.read_text())["rows"]
        seconds = {m: [r["cpu_seconds"] for r in rows if r["method"] == m] for m in ("ovr", "potts")}
        ratio = (sum(seconds["potts"]) / len(seconds["potts"])) / (sum(seconds["ovr"]) / len(seconds["ovr"]))
        assert f"- {path.stem} (K = " in text and f"{ratio:.2g} times one-vs-rest's" in text
