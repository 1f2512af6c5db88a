"""Every script that writes a JSON record under results/ stamps ``data_keys`` when it writes it (issue 57).

Table-driven: each cheap script runs into a temporary folder (on small inputs: text-like, the embedded sets,
text20k, a small benchmark file) and the record it wrote must pass ``report --check``'s JSON rule
(:func:`ssl_repro.report.key_check.json_problems`) against today's data (``experiments/data_keys.py``'s
``todays_keys``): keys present, and equal to those of the data as this checkout loads it.  The scripts that
take minutes or need programs, services or the whole test suite are covered by calling their record-writing
function with small inputs (002's ``note`` functions) or, where that function is the script's ``main``, by
checking that its source stamps the key (:data:`STAMPED_IN_SOURCE`).
"""
import json
import re
from pathlib import Path

import numpy as np
import pytest

from ssl_repro.data import DatasetNotAvailable, load_dataset
from ssl_repro.data.keys import NOT_FROM_DATA, data_keys, matrix_key
from ssl_repro.report.key_check import json_problems

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def todays(experiment_script):
    return experiment_script("data_keys").todays_keys()


def benchmark(name):
    """``benchmarks/<name>.py`` as a module."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench_file(tmp_path_factory):
    """A small benchmark file (text-like's split 0 with 16 labels, the format of text20k.npz)."""
    from ssl_repro.bench.files import bench_rows_of_split, save_bench_npz
    from ssl_repro.data import make_split
    dataset = load_dataset("text-like")
    path = tmp_path_factory.mktemp("bench") / "text-like.npz"
    save_bench_npz(path, *bench_rows_of_split(dataset, make_split(dataset, 0, 16)))
    return path


def da_path(run, out, bench):
    run("da_path").main(["--dataset", "text-like", "--n-labeled", "16", "--out", str(out)])
    return [out / "text-like_l16_split0.json"]


def svmlight_table9(run, out, bench):
    table9 = run("svmlight_table9")
    table9.main(["--datasets", "text-like", "--methods", next(iter(table9.OURS)), "--out", str(out / "table9")])
    return [out / "table9.json"]


def universvm_compare(run, out, bench, monkeypatch):
    """Its text20k problem (minutes of CCCP-TSVM) replaced by text-like's split 0 under that set's own name."""
    from ssl_repro.data import make_split
    compare = run("universvm_compare")
    dataset = load_dataset("text-like")
    split = make_split(dataset, 0, 16)
    monkeypatch.setattr(compare, "text20k_problem", lambda: compare.Problem(
        "text-like", 0, dataset.X, dataset.y, split.labeled, split.unlabeled, split.test))
    compare.main(["--sets", "text20k", "--out", str(out / "universvm")])
    return [out / "universvm.json"]


def kernel_toy_table(run, out, bench, monkeypatch):
    """Two runs on one grid point: the second keeps the first's points (with their own keys) beside its own."""
    toy = run("kernel_toy_table")
    monkeypatch.setattr(toy, "LAMBDAS", toy.LAMBDAS[-1:])
    monkeypatch.setattr(toy, "WIDTHS", (1,))
    first, second = list(toy.METHODS)[:2]
    toy.main(["--methods", first, "--out", str(out)])
    toy.main(["--methods", second, "--out", str(out)])
    grid = json.loads((out / "grid.json").read_text())
    assert {row["method"] for row in grid} == {first, second}
    return [out / "grid.json", out / "provenance.json"]


def calibrate_standins(run, out, bench):
    run("calibrate_standins").main(["--datasets", "gcat", "--out", str(out / "calibration.json")])
    return [out / "calibration.json"]


def cccp_002_note(run, out, bench, monkeypatch):
    """002's provenance.json merged from two runs on two sets: both keys stay."""
    data = run("cccp_002_data")
    monkeypatch.setattr(data, "OUT", out)
    data.note(None, "sets", {"g50c": data.load("g50c")})
    data.note(None, "table2 text-like", {"text-like": load_dataset("text-like")})
    assert set(json.loads((out / "provenance.json").read_text())["data_keys"]) == {"g50c", "text-like"}
    return [out / "provenance.json"]


def kernel_benchmarks(run, out, bench):
    try:
        load_dataset("pcmac", download=False)
    except DatasetNotAvailable as missing:
        pytest.skip(f"pcmac is not here: {missing}")
    run("kernel_benchmarks").main(["--splits", "1", "--lambdas", "0.1", "--widths", "1", "--methods", "SVM",
                                   "--out", str(out)])
    return [out / "table.json"]


def bench_solvers(run, out, bench):
    """On text20k as ``write_bench_file.py --text-bench`` writes it: keyed as experiments/data_keys.py's text20k."""
    benchmark("write_bench_file").main(["--text-bench", "--out", str(out / "text20k.npz")])
    benchmark("bench_solvers").main(["--data", str(out / "text20k.npz"), "--methods", "svm", "--in-process",
                                     "--json", str(out / "bench.json")])
    assert set(json.loads((out / "bench.json").read_text())["data_keys"]) == {"text20k"}
    return [out / "bench.json"]


def weights_digest(run, out, bench):
    benchmark("weights_digest").main(["--label", "a", "--data", str(bench), "--out", str(out / "digest.json")])
    return [out / "digest.json"]


def svm_bias(run, out, bench):
    run("svm_bias").main(["--dataset", "text-like", "--labels", "4", "--splits", "2", "--out", str(out)])
    return [out / "text-like.json"]


def dataset_table(run, out, bench):
    run("dataset_table").main(["--out", str(out)])
    return [out / "table.json"]


def potts_vs_ovr(run, out, bench, monkeypatch):
    """Digits on two splits of few rows (the default sizes take minutes)."""
    potts = run("potts_vs_ovr")
    monkeypatch.setitem(potts.SIZES, "digits", (30, 60, 30))
    potts.main(["--datasets", "digits", "--splits", "2", "--out", str(out)])
    return [out / "digits.json"]


def sklearn_examples(run, out, bench, monkeypatch):
    """The digits example on one draw of 120 rows (the text one vectorizes 20 Newsgroups: the slow suite)."""
    examples = run("sklearn_examples")
    monkeypatch.setattr(examples, "DIGITS_ROWS", 120)
    examples.main(["--examples", "digits", "--draws", "1", "--out", str(out)])
    return [out / "digits.json"]


def one_vs_rest_cost(run, out, bench):
    """One repeat of the linear SVM on digits with 30 labels (the record's form is that of every run)."""
    benchmark("one_vs_rest_cost").main(["--methods", "LinearSVM", "--data", "digits", "--repeats", "1",
                                        "--labeled", "30",
                                        "--out", str(out / "cost.json")])
    return [out / "cost.json"]


#: script -> (its writer here, whether that takes more than a few seconds: then the slow suite runs it).
WRITERS = {"experiments/svm_bias.py": (svm_bias, False), "experiments/da_path.py": (da_path, False),
           "experiments/svmlight_table9.py": (svmlight_table9, False),
           "experiments/universvm_compare.py": (universvm_compare, False),
           "experiments/kernel_toy_table.py": (kernel_toy_table, False),
           "experiments/calibrate_standins.py": (calibrate_standins, True),
           "experiments/cccp_002_data.py": (cccp_002_note, False),
           "experiments/kernel_benchmarks.py": (kernel_benchmarks, False),
           "benchmarks/bench_solvers.py": (bench_solvers, False), "benchmarks/weights_digest.py": (weights_digest, True),
           "benchmarks/one_vs_rest_cost.py": (one_vs_rest_cost, False),
           "experiments/dataset_table.py": (dataset_table, True),
           "experiments/potts_vs_ovr.py": (potts_vs_ovr, True), "experiments/sklearn_examples.py": (sklearn_examples, True)}


@pytest.mark.parametrize("writer", [pytest.param(w, id=w.__name__, marks=[pytest.mark.slow] if slow else [])
                                    for w, slow in WRITERS.values()])
def test_a_script_stamps_todays_keys_in_the_record_it_writes(writer, experiment_script, bench_file, tmp_path,
                                                             todays, monkeypatch):
    extra = {"monkeypatch": monkeypatch} if "monkeypatch" in writer.__code__.co_varnames else {}
    for path in writer(experiment_script, tmp_path, bench_file, **extra):
        record = json.loads(path.read_text())
        assert json_problems(record, todays) == [], path.name
        items = record if isinstance(record, list) else [record]
        assert all(isinstance(i["data_keys"], dict) or i["data_keys"] == NOT_FROM_DATA for i in items)


def test_002s_large_note_stamps_the_key_of_the_rows_it_is_given(experiment_script, tmp_path, monkeypatch):
    """cccp_002_large's runs take hours: its note (what every run calls) stamps the key of the X and y given."""
    large = experiment_script("cccp_002_large")
    monkeypatch.setattr(large, "OUT", tmp_path)
    dataset = load_dataset("text-like")
    large.note("measure", dataset.X, dataset.y)
    record = json.loads((tmp_path / "large_provenance.json").read_text())
    assert record["data_keys"] == {"20ng-ccat-vs-gcat": matrix_key(dataset.X, dataset.y)}


#: Scripts whose record-writing function is their ``main`` and takes minutes, a peer's binary, a cluster or
#: the whole test suite: the code that stamps the key, as it stands in their source.
STAMPED_IN_SOURCE = {
    "experiments/svmlin_agreement.py": "data_keys({args.dataset: dataset})",
    "experiments/universvm_multiclass.py": 'data_keys({"digits": (X, y)})',
    "experiments/run_all_plan.py": 'RUN_PROVENANCE, data_keys=NOT_FROM_DATA)',
    "benchmarks/record_side_by_side.py": '"data_keys": NOT_FROM_DATA,',
    "benchmarks/suite_durations.py": '"data_keys": NOT_FROM_DATA}',
    "benchmarks/sweep_start.py": 'summary["data_keys"] = NOT_FROM_DATA',
    "benchmarks/profile_cg.py": '"data_keys": NOT_FROM_DATA}',
    "benchmarks/distributed_scaling.py": '"data_keys": NOT_FROM_DATA}',
    "benchmarks/engine_overhead.py": '"data_keys": NOT_FROM_DATA}',
    "benchmarks/da_stopping.py": '{**records, "data_keys": NOT_FROM_DATA}',
    "benchmarks/da_inner_tol.py": '"data_keys": data_keys(used)}',
}


@pytest.mark.parametrize("script", sorted(STAMPED_IN_SOURCE))
def test_a_long_script_stamps_the_key_where_it_writes_its_record(script):
    assert STAMPED_IN_SOURCE[script] in (ROOT / script).read_text()


def test_every_script_that_writes_json_is_covered_here():
    """A new script writing JSON (json.dump or a .json write) joins :data:`WRITERS` or :data:`STAMPED_IN_SOURCE`."""
    covered = set(WRITERS) | set(STAMPED_IN_SOURCE) | {
        "experiments/cccp_002.py",          # through cccp_002_data.note (above)
        "experiments/cccp_002_mnist.py",    # through cccp_002_data.note (above): mnist-5k's key
        "experiments/cccp_002_fig6.py",     # through cccp_002_data.note: test_cccp_002_fig6_mnist8.py
        "experiments/cccp_002_large.py",    # test_002s_large_note_stamps_the_key_of_the_rows_it_is_given
        "experiments/step_runs.py"}         # note_resumed keeps run all's key: test_run_all_resume.py
    #: JSON that is no record under results/: a comparison printed or written where its user says (da_work), a
    #: benchmark file's .meta.json beside the data file (write_bench_file).
    not_records = {"benchmarks/da_work.py", "benchmarks/write_bench_file.py"}
    writers = {p.relative_to(ROOT).as_posix() for folder in ("experiments", "benchmarks")
               for p in (ROOT / folder).glob("*.py")
               if re.search(r"json\.dump|add_provenance|write_table\(|provenance_with_earlier", p.read_text())}
    assert writers - not_records <= covered, sorted(writers - not_records - covered)


def test_merged_records_keep_each_sets_key_from_its_last_run():
    from ssl_repro.utils.provenance import merged_keys
    earlier = {"data_keys": {"a": "1", "b": "2"}, "keyed_at": "abc"}
    assert merged_keys(earlier, {"b": "3"}) == {"data_keys": {"a": "1", "b": "3"}, "keyed_at": "abc"}
    assert merged_keys(earlier, {"a": "4", "b": "3"}) == {"data_keys": {"a": "4", "b": "3"}}   # all remade
    assert merged_keys({}, {"b": "3"}) == {"data_keys": {"b": "3"}}
    assert merged_keys(earlier, NOT_FROM_DATA) == {"data_keys": NOT_FROM_DATA}


def test_data_keys_are_of_the_arrays_given():
    dataset = load_dataset("text-like")
    X = dataset.X.tocsr()
    keys = data_keys({"text-like": dataset, "rows": (X[:10], dataset.y[:10])})
    assert keys["text-like"] == matrix_key(dataset.X, dataset.y)
    assert keys["rows"] == matrix_key(X[:10], np.asarray(dataset.y)[:10]) != keys["text-like"]
