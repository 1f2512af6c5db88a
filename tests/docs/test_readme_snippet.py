"""The README's and the docs landing page's Python snippets run as written and give the harness's answer."""
import contextlib
import io
import re
from pathlib import Path

import numpy as np
import pytest

from ssl_repro.harness.runner import run_job

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
LANDING = ROOT / "docs" / "index.md"


def python_blocks(page=README):
    return re.findall(r"```python\n(.*?)```", page.read_text(), flags=re.S)


@pytest.mark.slow   # two DA fits on text-like (3,000 rows)
@pytest.mark.parametrize("page", [README, LANDING], ids=["README", "docs landing page"])
def test_the_snippet_runs_as_written_and_matches_the_harness_job(page):
    [snippet] = python_blocks(page)
    namespace, printed = {}, io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(snippet, str(page), "exec"), namespace)
    assert set(np.unique(namespace["predicted"])) <= {0, 1}         # the classes given to fit, not +1/-1
    record = run_job({"dataset": {"name": "text-like"}, "method": {"name": "da", "variant": "da"}, "split": 0,
                      "n_labeled": 64})
    assert namespace["test_error"] == pytest.approx(record["test_error"], abs=1e-12)
    assert re.fullmatch(r"test error 0\.\d{3} after \d+ temperatures\n", printed.getvalue())


def test_the_readme_sets_up_a_virtual_environment_and_says_how_to_run_a_few_jobs_and_plot():
    text = README.read_text()
    assert "python -m venv .venv && source .venv/bin/activate" in text
    assert "split=0,1 n_labeled=2,29" in text and "python -m ssl_repro.report.plots --summary" in text
    # how long the two test commands take: rendered from a record (tests/experiments/test_suite_durations.py)
    assert "<!-- suite durations: rendered by benchmarks/suite_durations.py" in text


def test_the_readme_names_what_its_test_commands_need_and_runs_both():
    """A fresh clone that follows the README runs both test commands (``;``, not ``&&``: the slow checks run
    when a default test fails), installs the browser the browser check asks for with the README's command, and
    knows every environment variable a test reads."""
    text = README.read_text()
    assert "python -m pytest -q; python -m pytest -q -m slow" in text and "pytest -q && python -m pytest" not in text
    browser_check = (ROOT / "tests" / "report" / "test_results_browser.py").read_text()
    [install] = re.findall(r'^INSTALL = "(.*)"$', browser_check, flags=re.M)
    assert f"`{install}`" in text
    read = {name for path in (ROOT / "tests").rglob("*.py") for name in re.findall(r"\bSSL_REPRO_[A-Z_]+", path.read_text())}
    assert read >= {"SSL_REPRO_DATA", "SSL_REPRO_PAPERS"}
    assert {name for name in read if f"`{name}`" not in text} == set()
