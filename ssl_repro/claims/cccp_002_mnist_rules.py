"""002's MNIST claims (Sec. 5.2: Table 5, Fig 9) on mnist-5k, a real subset of MNIST (5,000 of its digits).

The runs are ``experiments/cccp_002_mnist.py``'s (its docstring states the protocol and what was reduced);
its record ``results/cccp_002/mnist.csv`` holds one row per fit (split, labels, method, unlabeled rows U;
the SVM's at U = 0): ``test_error`` on the 1,000 test rows and the fit's CPU ``seconds``.

Tests (``kind: cccp_002`` with ``record: cccp_002/mnist.csv`` in ``experiments/paper_numbers.json``; the rules
of the large experiment's sentences of the same form, :mod:`.cccp_002_large_rules`):

- ``unlabeled`` (002: "an improvement over SVM for CCCP-TSVMs which increases steadily as the number of
  unlabeled examples increases"): per label count CCCP-TSVM below the SVM in more than half of its U cells
  and above in none (:func:`.cccp_002_large_rules.below_svm_parts`), and at the most labels the gain at the
  largest U above the gain at the smallest by more than the error threshold
  (:func:`.cccp_002_large_rules.larger_gain`: "increases" read as the two ends, one split being too few to
  judge each step);
- ``scaling`` (002 Fig 9: "a polynomial of degree two with a least square fit"): the quadratic-trend verdict
  (:func:`ssl_repro.claims.scaling.scaling_verdict`) of the CPU seconds at the most labels against n = L + U,
  the mean over the splits per U.
"""
from ssl_repro.claims.cccp_002_large_rules import below_svm_parts, larger_gain
from ssl_repro.claims.scaling import scaling_verdict
from ssl_repro.claims.verdicts import UNTESTABLE, Verdict, combine

DATASET = "mnist-5k"
RECORD = "cccp_002/mnist.csv"
#: Its data kind: a real subset of the paper's set.
KIND = "real subset"
LABEL = f"{DATASET} ({KIND})"


def check_unlabeled(frame):
    """The verdict of ``unlabeled`` on ``frame`` (the record, module doc)."""
    by_label, gains = below_svm_parts(frame, LABEL, KIND)
    parts = list(by_label.values())
    if not parts:
        return Verdict(UNTESTABLE, "-", f"{RECORD}: no cell with both methods")
    many = gains.get(max(gains), {}) if gains else {}
    if len(many) >= 2:
        small, large = min(many), max(many)
        parts.append(larger_gain(many[large], many[small], LABEL, KIND,
                                 f"gain over the SVM at L = {max(gains):,}: {{a}} points at U = {large:,} vs {{b}} "
                                 f"at U = {small:,} (002 at L = 1,000: 0.64 at U = 2,000, 2.39 at U = 60,000)"))
    return combine(parts)


def check_scaling(frame):
    """The verdict of ``scaling`` on ``frame`` (module doc)."""
    tsvm = frame[frame["method"] == "cccp-tsvm"]
    if tsvm.empty or "kernel_evaluations" not in tsvm:
        return Verdict(UNTESTABLE, "-", f"{RECORD}: no CCCP-TSVM fit")
    L = int(tsvm["n_labeled"].max())
    cells = tsvm[tsvm["n_labeled"] == L].groupby("n_unlabeled")[["seconds", "kernel_evaluations"]].mean()
    if len(cells) < 3:
        return Verdict(UNTESTABLE, "-", f"{RECORD}: {len(cells)} unlabeled sizes at L = {L} (3 needed for a fit)")
    n = (L + cells.index.to_numpy()).astype(float)
    return scaling_verdict(n, cells["seconds"].to_numpy(), cells["kernel_evaluations"].to_numpy(float), LABEL,
                           f"{DATASET} at L = {L:,}, CPU seconds taken under load (provisional)", KIND)
