"""The README's test durations (benchmarks/suite_durations.py): rendered from their record, medians and ranges."""
import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def script():
    """benchmarks/suite_durations.py as a module."""
    spec = importlib.util.spec_from_file_location("suite_durations", ROOT / "benchmarks" / "suite_durations.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_sentence_gives_each_commands_median_range_and_the_load():
    durations = script()

    def run(wall, load):
        return {"wall_seconds": wall, "cpu_seconds": wall, "load_before": [load, 0, 0], "load_after": [load, 0, 0],
                "closing": "9 passed in 1s"}
    record = {"runs": {"default": [run(200.0, 0.3), run(180.0, 0.5), run(190.4, 0.4)], "slow": [run(400.0, 0.9)]},
              "provenance": {"date": "2026-11-27T16:00:00+00:00", "git_commit": "abcdef0123"}}
    text = durations.sentence(record)
    assert "took 190 s (180-200 s over 3 runs) and 400 s (1 run)" in text
    assert "load average 0.30-0.90" in text and "2026-11-27, code abcdef0" in text


def test_the_readme_says_what_the_committed_record_gives():
    durations = script()
    record = json.loads((ROOT / "results" / "benchmarks" / "suite_durations.json").read_text())
    readme = (ROOT / "README.md").read_text()
    assert durations.readme_with(readme, record) == readme
    assert durations.sentence(record) in readme
