"""The careless-user page (``docs/user_guide/10_careless_user.md``) is ``docs/careless_table.py``'s rendering of the
careless-user tests: a row for every case of their tables, and (slow) cases run now print what it says."""
import importlib.util
import inspect
import math
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load(path):
    spec = importlib.util.spec_from_file_location(f"careless_page_{Path(path).stem}", ROOT / path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


careless_table = load("docs/careless_table.py")


def cases(function):
    """How many cases pytest makes of ``function``: the product of its parametrize lists' lengths."""
    return math.prod(len(mark.args[1]) for mark in getattr(function, "pytestmark", []) if mark.name == "parametrize")


def test_the_page_has_a_row_for_every_case_of_the_careless_user_tables():
    expected = {}
    for path in careless_table.TEST_FILES:
        for name, function in vars(load(path)).items():
            if name.startswith("test_") and "shown" in inspect.signature(function).parameters:
                expected[(path, name)] = cases(function)
    page = careless_table.table_rows(careless_table.PAGE.read_text())
    assert {node: len(rows) for node, rows in page.items()} == expected, "run python docs/careless_table.py"


@pytest.mark.slow   # eight cases in a pytest subprocess
def test_cases_run_now_print_what_the_page_says():
    assert careless_table.main(["--check",
                                "tests/harness/test_careless_aggregate.py::test_a_tie_of_dataset_keys_is_one_error_line_and_nothing_written",
                                "tests/harness/test_user_errors_one_line.py::test_make_split_refuses_a_value_of_the_wrong_kind_naming_it",
                                "tests/harness/test_cli_errors.py::test_a_refused_parameter_value_names_its_override",
                                "tests/harness/test_careless_aggregate.py::test_a_sweep_stopped_half_way_is_said_to_be"]) == 0
