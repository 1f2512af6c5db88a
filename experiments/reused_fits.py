"""``run all``'s fits read from another sweep instead of computed again (issue 72): the order that lets a sweep read
them and what its estimate leaves out for them.

On each dataset the timing protocol's sweep runs first (one job at a time, on the idle machine); the learning
curves then read its first repeat's fits of TSVM S=1, S=max and DA at the timing sweep's splits and label counts
(:func:`ssl_repro.harness.result_files.timed_twin`), and the ablations read the learning curves' DA
(:func:`ssl_repro.harness.result_files.sibling_result`).  A step measured by a run that computed those fits is
estimated at its wall seconds less their recorded seconds (:func:`less_timed_first`).
"""
import pandas as pd

from ssl_repro.harness.sweep_estimate import reused, timed_first

from artifact_table import experiment_name
from script_steps import MEASURED, last_row


def timing_first(artifacts):
    """``artifacts`` with the timing sweep's moved before the first sweep: on each dataset the timing protocol
    runs first (one job at a time, on the idle machine), and the learning curves and ablations then read the
    fits it made instead of computing them again (:func:`ssl_repro.harness.result_files.timed_twin`)."""
    timing = [a for a in artifacts if a.kind == "sweep" and experiment_name(a) == "timing"]
    rest = [a for a in artifacts if a not in timing]
    first = next((k for k, a in enumerate(rest) if a.kind == "sweep"), len(rest))
    return rest[:first] + timing + rest[first:]


def less_timed_first(results, step, before):
    """``step`` (a sweep's, measured: :func:`script_steps.measured_first`) less the recorded seconds of the jobs it
    now reads from the timing sweep run before it (``before``: its record, recipe and the records of the sweeps
    run before it on its dataset; :func:`ssl_repro.harness.sweep_estimate.timed_first`), said in its basis; its
    ``reuses`` names every sweep it reads jobs from (:func:`ssl_repro.harness.sweep_estimate.reused`), which the
    dry run lists.  A step not measured keeps its records' estimate, which leaves those jobs out already."""
    if before is None or not step.argv:
        return step
    step.reuses = ", ".join(f"{n} from {folder}" for folder, n in reused(*before).items())
    if step.seconds is None or not step.basis.startswith(MEASURED):
        return step
    last = last_row(results, step.name)
    copied = last.get("jobs_copied") if last is not None else None
    jobs, seconds, folders = timed_first(*before, copied_then=int(copied) if pd.notna(copied) else 0)
    if jobs:
        step.seconds = max(step.seconds - seconds, 0.0)
        step.basis += (f", less {seconds:.0f} s for the {jobs} fits it reads from {', '.join(folders)} (their "
                       f"recorded seconds over the jobs it runs at once)")
    return step
