"""README.md's speed table is rendered from the side-by-side records, never typed; the commands are in
side_by_side.md."""
import copy
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "results" / "benchmarks" / "side_by_side.json"


def recorder():
    spec = importlib.util.spec_from_file_location("record_side_by_side",
                                                  ROOT / "benchmarks" / "record_side_by_side.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_speed_list_is_what_the_records_give():
    proc = subprocess.run([sys.executable, "benchmarks/record_side_by_side.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_each_record_gives_one_row_with_its_ratios_pairs_and_code():
    module = recorder()
    records = json.loads(RECORDS.read_text())
    lines = module.readme_speed(records)
    assert len(lines) == 2 + len(records)                  # the header, the rule, one row per record
    assert lines[0].startswith("| file (record) | TSVM S=max ours / C++ | DA ours / C++ |")
    text20k = next(r for r in records if r["label"] == "text20k")
    [row] = [x for x in lines if x.startswith("| text20k |")]
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1:4] == [f"**{text20k['methods']['tsvm-max']['ratio']:.2f}x**",
                          f"**{text20k['methods']['da']['ratio']:.2f}x**", str(len(text20k["methods"]["da"]["all_ratios"]))]
    assert text20k["code"][:7] in cells[4]
    changed = copy.deepcopy(records)
    next(r for r in changed if r["label"] == "text20k")["methods"]["da"]["ratio"] += 0.5
    readme = (ROOT / "README.md").read_text()
    assert module.readme_with_speed(readme, changed) != readme


def test_every_record_command_runs_from_a_clone_no_machine_path_in_the_pages():
    module = recorder()
    records = json.loads(RECORDS.read_text())
    pages = [(ROOT / "results" / "benchmarks" / "side_by_side.md").read_text(), "\n".join(module.readme_speed(records))]
    for text in pages:
        for machine_path in ("/work/", "/tmp/", "../shared", "/home/"):
            assert machine_path not in text, machine_path
    commands = pages[0]
    for rec in records:
        command = module.clone_command(rec)
        assert f"`{command}`" in commands                        # side_by_side.md gives each record's command
        assert command.startswith("python benchmarks/record_side_by_side.py --side-by-side SIDE_BY_SIDE ")
        assert f"--label {rec['label']} " in command
    old = {"record_command": "python benchmarks/record_side_by_side.py --label x --data /work/a/b.npz --pairs 3"}
    assert module.clone_command(old) == ("python benchmarks/record_side_by_side.py --side-by-side SIDE_BY_SIDE "
                                         "--label x --data b.npz --pairs 3")
