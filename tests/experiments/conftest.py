"""Fixtures of the experiments scripts' tests."""
import pytest


@pytest.fixture(scope="module")
def plan(experiment_script):
    """``experiments/run_all_plan.py``: the plan of ``run all``."""
    return experiment_script("run_all_plan")
