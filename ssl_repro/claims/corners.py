"""Which of an analog's two construction choices flips a construction-dependent verdict (aut-avn-like).

An analog's constructions a and b (:mod:`ssl_repro.data.registry`) differ in the data -- the preprocessing
(the whole message less its signature block, or the bodies only; with it the train : test proportion, 50 : 50
or 75 : 25, which is part of the dataset's definition) -- and in lambda' (10 for a, 1 for b).  The two missing
corners of that 2 x 2 are run as learning-curve sweeps of the methods the construction-dependent claims compare
(``python run.py +experiment=learning_curve dataset=20ng-aut-avn-like dataset.lam_u=1 method=da,tsvm_smax,
label_spreading sweep_name=construction_corners_20ng_aut_avn_like_lamu1``, and ``dataset=20ng-aut-avn-like-b
dataset.lam_u=10``: :data:`SWEEPS`), recorded under ``results/construction_corners_*`` by
``experiments/construction_corners.py`` (a step of ``paper_artifacts.py run all``).  A claim's ``compare`` test restricted
to aut-avn is judged on each corner by the same rules (:func:`ssl_repro.claims.linear_rules.judge_cells`); the
verdict **flips with lambda'** when it changes with lambda' under each preprocessing and not with the
preprocessing under either lambda', **flips with the preprocessing** in the reverse case, and otherwise
depends on **both** (an interaction) -- or on **neither** when the four corners agree.
"""
import json

from ssl_repro.claims.linear_rules import for_set, judge_cells
from ssl_repro.claims.verdicts import CORNERS_PREFIX, UNTESTABLE, frames

#: The analog whose 2 x 2 is recorded, and its paper set.
ANALOG, PAPER_SET = "20ng-aut-avn-like", "aut-avn"
#: The record folders' prefix of the missing corners.
PREFIX = CORNERS_PREFIX
#: (preprocessing, lambda') -> the dataset of its records and the folder prefix holding them.
CORNERS = {("a", 10.0): (ANALOG, "learning_curve_"), ("b", 1.0): (f"{ANALOG}-b", "learning_curve_"),
           ("a", 1.0): (ANALOG, PREFIX), ("b", 10.0): (f"{ANALOG}-b", PREFIX)}
#: The method configs of the corners' sweeps: those the construction-dependent claims compare.
METHODS = ("da", "tsvm_smax", "label_spreading")
#: The two missing corners' sweeps: (sweep folder, dataset, lambda'), each ``python run.py +experiment=learning_curve
#: dataset=DATASET dataset.lam_u=LAMBDA' method=da,tsvm_smax,label_spreading sweep_name=FOLDER`` (:func:`overrides`;
#: ``experiments/construction_corners.py`` runs both, ``run all``'s step ``construction-corners``).
SWEEPS = ((f"{PREFIX}20ng_aut_avn_like_lamu1", ANALOG, 1.0), (f"{PREFIX}20ng_aut_avn_like_b_lamu10", f"{ANALOG}-b", 10.0))


def overrides(folder, dataset, lam_u):
    """The ``run.py`` overrides of a corner's sweep (:data:`SWEEPS`), after ``+experiment=learning_curve``."""
    return [f"dataset={dataset}", f"dataset.lam_u={lam_u:g}", f"method={','.join(METHODS)}", f"sweep_name={folder}"]


def corner_frames(records):
    """{(preprocessing, lambda'): the records of that corner's dataset}, for the corners with records."""
    out = {}
    for corner, (dataset, prefix) in CORNERS.items():
        found = [f for _, d, f in frames(records, prefix).get(PAPER_SET, []) if d == dataset]
        if found:
            out[corner] = found[0]
    return out


def corner_verdicts(records, test):
    """{(preprocessing, lambda'): Verdict} of a ``compare`` test on aut-avn at each corner with records; {} for
    another test or one that does not name aut-avn."""
    if test.get("kind") != "compare" or PAPER_SET not in test.get("expect", {}) \
            or not test.get("folder", "").startswith("learning_curve"):
        return {}
    set_test = for_set(test, PAPER_SET)
    return records.once(("corner verdicts", json.dumps(test, sort_keys=True)), lambda: {
        corner: judge_cells(frame, set_test, test["expect"][PAPER_SET], CORNERS[corner][0])
        for corner, frame in corner_frames(records).items()})


def flipping_factor(verdicts):
    """"lambda'", "the preprocessing", "both" or "neither" from the four corners' verdicts (module doc); None
    unless all four corners were judged."""
    if len(verdicts) < 4 or any(v.category == UNTESTABLE for v in verdicts.values()):
        return None
    w = {k: v.category for k, v in verdicts.items()}
    with_lambda = [w[(p, 10.0)] != w[(p, 1.0)] for p in "ab"]
    with_prep = [w[("a", lam)] != w[("b", lam)] for lam in (10.0, 1.0)]
    if not any(with_lambda + with_prep):
        return "neither"
    if all(with_lambda) and not any(with_prep):
        return "lambda'"
    if all(with_prep) and not any(with_lambda):
        return "the preprocessing"
    return "both"
