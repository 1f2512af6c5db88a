"""The README's Python snippet runs as written and gives the harness's answer."""
import contextlib
import io
import re
from pathlib import Path

import numpy as np
import pytest

from ssl_repro.harness.runner import run_job

README = Path(__file__).resolve().parents[2] / "README.md"


def python_blocks():
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


@pytest.mark.slow   # two DA fits on text-like (3,000 rows)
def test_the_readme_snippet_runs_and_matches_the_harness_job():
    [snippet] = python_blocks()
    namespace, printed = {}, io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(snippet, str(README), "exec"), namespace)
    assert set(np.unique(namespace["predicted"])) <= {0, 1}         # the classes given to fit, not +1/-1
    record = run_job({"dataset": {"name": "text-like"}, "method": {"name": "da", "variant": "da"}, "split": 0,
                      "n_labeled": 64})
    assert namespace["test_error"] == pytest.approx(record["test_error"], abs=1e-12)
    assert re.fullmatch(r"test error 0\.\d{3} after \d+ temperatures\n", printed.getvalue())


def test_the_readme_sets_up_a_virtual_environment_and_says_how_to_run_a_few_jobs_and_plot():
    text = README.read_text()
    assert "python -m venv .venv && source .venv/bin/activate" in text
    assert "split=0,1 n_labeled=2,29" in text and "python -m ssl_repro.report.plots --summary" in text
    assert re.search(r"took about \d+ and \d+ minutes on an? (shared|quiet) 2-core machine", text)
