"""The benchmark scripts on a careless user's command lines: one ``Error:`` line naming the value and the fix,
before any suite runs or data is built, and nothing written.  One row per case."""
import importlib.util
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def script(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def record_at(text):
    """Point the script's record (``OUT``) at a file in the test's folder holding ``text`` (None: no file)."""
    def prepare(module, tmp_path, monkeypatch):
        path = tmp_path / "record.json"
        if text is not None:
            path.write_text(text)
        monkeypatch.setattr(module, "OUT", path)
    prepare.case = "its record missing" if text is None else f"its record holding {text}"
    return prepare


def nothing(module, tmp_path, monkeypatch):
    pass


nothing.case = ""


# (script, argv with {tmp} for the test's folder, preparation, the line's pattern)
CASES = [
    ("suite_durations", ["--repeats", "0"], nothing,
     r"^Error: --repeats 0: give at least 1 \(the record gives the median of each command's runs\)$"),
    ("suite_durations", ["--slow-repeats", "-1"], nothing, r"^Error: --slow-repeats -1: give at least 1"),
    ("suite_durations", ["--json", "/nonexistent/x.json"], nothing,
     r"^Error: --json /nonexistent/x\.json cannot be written \(its folder does not exist\): give a file in a folder"),
    ("suite_durations", ["--json", "{tmp}"], nothing, r"^Error: --json .* cannot be written \(it is a folder\)"),
    ("suite_durations", ["--check", "--repeats", "3"], nothing,
     r"^Error: --repeats is not read by --check, which runs nothing: drop it$"),
    ("suite_durations", ["--check"], record_at(None),
     r"^Error: .*record\.json is missing, so there is nothing to check README\.md against: restore it"),
    ("suite_durations", ["--check"], record_at('{"runs": {"default": [{"wall'),
     r"^Error: .*record\.json: not JSON at line 1, column \d+ \(Unterminated string starting at\): restore it"),
    ("suite_durations", ["--check"], record_at('{"runs": {}, "provenance": {}}'),
     r"^Error: .*record\.json has no 'default' \(its keys: none\): restore it"),
    ("record_side_by_side", ["--render", "--out", "{tmp}/empty"], nothing,
     r"^Error: .*empty/side_by_side\.json is missing: --render reads the records there \(and would empty "
     r"README\.md's speed list\): restore it"),
    ("record_side_by_side", ["--check", "--out", "{tmp}/empty"], nothing,
     r"^Error: .*empty/side_by_side\.json is missing: --check reads the records there: restore it"),
    ("record_side_by_side", ["--render", "--out", "{tmp}/a_file"], nothing,
     r"^Error: --out .*a_file is a file: give the folder of the records"),
    ("record_side_by_side", ["--render", "--label", "x"], nothing,
     r"^Error: --label is not read by --render, which runs nothing: drop it$"),
    ("record_side_by_side", ["--pairs", "0", "--label", "x", "--data", "{tmp}/a_file", "--side-by-side", "{tmp}/a_file"],
     nothing, r"^Error: --pairs 0: give at least 1"),
    ("record_side_by_side", ["--env", "NOEQUALS", "--label", "x", "--data", "{tmp}/a_file", "--side-by-side",
                             "{tmp}/a_file"], nothing,
     r"^Error: --env NOEQUALS is not K=V: give it as e\.g\. --env NUMBA_NUM_THREADS=1$"),
    ("record_side_by_side", ["--busy-loops", "-1", "--label", "x", "--data", "{tmp}/a_file", "--side-by-side",
                             "{tmp}/a_file"], nothing, r"^Error: --busy-loops -1: give 0 or more busy processes$"),
    ("record_side_by_side", ["--label", "x", "--data", "{tmp}/a_file", "--side-by-side", "{tmp}/missing.py"], nothing,
     r"^Error: --side-by-side .*missing\.py: no such file \(the timing script kept beside the C\+\+ reference\)$"),
    ("record_side_by_side", ["--label", "x", "--data", "{tmp}/missing.npz", "--side-by-side", "{tmp}/a_file"], nothing,
     r"^Error: --data .*missing\.npz: no such file \(make it with python benchmarks/write_bench_file\.py"),
    ("one_vs_rest_cost", ["--methods", "LinearSVM,Nope", "--out", "{tmp}/o.json"], nothing,
     r"^Error: --methods names Nope, not an estimator of ssl_repro\.estimators; give classes such as"),
    ("one_vs_rest_cost", ["--repeats", "0", "--out", "{tmp}/o.json"], nothing,
     r"^Error: --repeats 0 --labeled default: give --repeats >= 1 and --labeled >= 2$"),
    ("one_vs_rest_cost", ["--out", "{tmp}"], nothing, r"^Error: --out .* is a folder: give the record's file"),
    ("one_vs_rest_cost", ["--show", "--out", "{tmp}/missing.json"], nothing,
     r"^Error: no record at .*missing\.json: run python benchmarks/one_vs_rest_cost\.py first$"),
    ("write_bench_file", ["--from", "{tmp}/missing.npz", "--out", "{tmp}/o.npz"], nothing,
     r"^Error: --from .*missing\.npz: no such file$"),
    ("write_bench_file", ["--from", "{tmp}/a_file", "--out", "{tmp}/o.npz"], nothing,
     r"^Error: --from .*a_file is not a benchmark file \(.*\): give a file write_bench_file\.py wrote$"),
    ("write_bench_file", ["--dataset", "pcmak", "--n-labeled", "10", "--out", "{tmp}/o.npz"], nothing,
     r"^Error: --dataset pcmak: unknown dataset 'pcmak' \(did you mean pcmac\?\)"),
    ("write_bench_file", ["--dataset", "text-like", "--n-labeled", "100000", "--out", "{tmp}/o.npz"], nothing,
     r"^Error: --dataset text-like --n-labeled 100000: n_labeled must be between 2 and \d+ for text-like, got 100000$"),
    ("write_bench_file", ["--dataset", "text-like", "--n-labeled", "1", "--out", "{tmp}/o.npz"], nothing,
     r"^Error: --dataset text-like --n-labeled 1: n_labeled must be between 2 and"),
    ("write_bench_file", ["--dataset", "text-like", "--n-labeled", "8", "--split", "-1", "--out", "{tmp}/o.npz"],
     nothing, r"^Error: --split -1: give a seed of 0 or more"),
    ("write_bench_file", ["--text-bench", "--model", "m=-5", "--out", "{tmp}/o.npz"], nothing,
     r"^Error: --model 'm=-5': m must be more than 0$"),
    ("write_bench_file", ["--text-bench", "--model", "m=x", "--out", "{tmp}/o.npz"], nothing,
     r"^Error: --model 'm=x': 'x' is not a int$"),
    ("write_bench_file", ["--text-bench", "--out", "{tmp}/missing/o.npz"], nothing,
     r"^Error: --out .*missing/o\.npz cannot be written \(its folder does not exist\)"),
    ("write_bench_file", ["--dataset", "text-like", "--model", "m=5", "--n-labeled", "8", "--out", "{tmp}/o.npz"],
     nothing, r"^Error: --model is not read with --dataset: drop it \(--model changes the generated text20k"),
    ("write_bench_file", ["--text-bench", "--n-labeled", "5", "--out", "{tmp}/o.npz"], nothing,
     r"^Error: --n-labeled is not read with --text-bench: drop it$"),
    ("write_bench_file", ["--dataset", "text-like", "--out", "{tmp}/o.npz"], nothing,
     r"^Error: --dataset needs --n-labeled N"),
]


@pytest.mark.parametrize("name, argv, prepare, message", CASES)
def test_a_benchmark_script_refuses_in_one_line_and_writes_nothing(name, argv, prepare, message, tmp_path,
                                                                    monkeypatch, shown):
    module = script(name)
    prepare(module, tmp_path, monkeypatch)
    (tmp_path / "a_file").write_text("not a benchmark file\n")
    before = sorted(tmp_path.rglob("*"))
    readme = (ROOT / "README.md").read_text()
    with pytest.raises(SystemExit) as stop:
        module.main([a.format(tmp=tmp_path) for a in argv])
    line = shown(shlex.join([f"benchmarks/{name}.py", *argv]) + (f"   ({prepare.case})" if prepare.case else ""),
                 stop.value.code)
    assert line.startswith("Error: ") and "\n" not in line, line
    assert re.search(message, line), line
    assert sorted(tmp_path.rglob("*")) == before and (ROOT / "README.md").read_text() == readme
