"""Multi-switch TSVM (Table 4): switching rule, monotone objective, balance, determinism."""
import itertools

import numpy as np
import pytest

from solver_problems import random_problem
from ssl_repro.solvers import from_blocks, objective_of_weights, train_tsvm, tsvm
from ssl_repro.solvers.tsvm import initial_labels, lam_u_levels, switch_pairs


def brute_force_pairs(labels, o, max_pairs):
    """The four-step rule of Sec. 3.1.2 written as plainly as possible."""
    pos = sorted((o[i], i) for i in range(len(o)) if labels[i] > 0 and o[i] < 1)
    neg = sorted(((-o[j], j) for j in range(len(o)) if labels[j] < 0 and o[j] > -1))
    pairs = []
    for (op_, i), (on_, j) in zip(pos, neg):
        if len(pairs) == max_pairs or not op_ < -on_:
            break
        pairs.append((i, j))
    return pairs


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("max_pairs", [1, 3, 1000])
def test_switch_pairs_follow_the_four_step_rule(seed, max_pairs):
    rng = np.random.default_rng(seed)
    o = rng.normal(size=40) * 1.5
    labels = np.where(rng.random(40) < 0.5, 1.0, -1.0)
    pos, neg = switch_pairs(labels, o, max_pairs)
    assert list(zip(pos.tolist(), neg.tolist())) == brute_force_pairs(labels, o, max_pairs)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("max_pairs", [5, 64, 65, 300, 10_000])
def test_switch_pairs_match_the_rule_with_tied_outputs_and_long_lists(seed, max_pairs):
    """Duplicate rows give equal outputs: ties go by row order, and lists longer than the
    first sorted head (64) are sorted further when every pair of the head qualifies."""
    rng = np.random.default_rng(seed)
    o = np.round(rng.normal(size=3000), 1) * (0.3 if seed % 2 else 1.0)
    labels = np.where(rng.random(3000) < 0.5, 1.0, -1.0)
    pos, neg = switch_pairs(labels, o, max_pairs)
    assert list(zip(pos.tolist(), neg.tolist())) == brute_force_pairs(labels, o, max_pairs)


def test_each_switch_lowers_the_objective_of_its_labels():
    """The inequality in the proof of the Proposition (Sec. 3.1.2), checked directly."""
    rng = np.random.default_rng(0)
    for _ in range(200):
        o = rng.normal(size=30)
        labels = np.where(rng.random(30) < 0.5, 1.0, -1.0)
        pos, neg = switch_pairs(labels, o, 30)
        before = np.sum(np.maximum(0, 1 - labels * o) ** 2)
        labels[pos], labels[neg] = -1.0, 1.0
        after = np.sum(np.maximum(0, 1 - labels * o) ** 2)
        assert pos.size == 0 or after < before


def test_lambda_levels_end_exactly_at_lambda_u():
    assert lam_u_levels(1.0, 1e-5, 1.5)[-1] == 1.0
    levels = lam_u_levels(10.0, 1e-5, 2.0)
    assert levels[:3] == [1e-5, 2e-5, 4e-5] and levels[-1] == 10.0 and levels[-2] < 10.0
    assert lam_u_levels(1e-6, 1e-5, 1.5) == [1e-6]


def test_initial_labels_make_a_fraction_r_positive():
    o = np.random.default_rng(1).normal(size=101)
    labels = initial_labels(o, 0.3)
    assert np.sum(labels > 0) == round(0.3 * 101)
    assert o[labels > 0].min() >= o[labels < 0].max()


@pytest.mark.slow   # longer than ~3 s
@pytest.mark.parametrize("switches", [1, 2, "max"])
def test_objective_decreases_at_each_switch_and_balance_holds(switches):
    Xl, yl, Xu, yu = random_problem(0, l=8, u=150, d=30, sep=0.3)
    prob = from_blocks(Xl, yl, Xu)
    r = float(np.mean(yu > 0))
    w, info = tsvm(prob, 1e-2, 1.0, r, switches=switches)
    assert info.switches > 0
    for (lev_a, a), (lev_b, b) in itertools.pairwise(info.objective_path):
        if lev_a == lev_b:
            assert b < a
    assert info.lam_u_levels[-1] == 1.0
    assert info.objective == pytest.approx(objective_of_weights(prob, w, 1e-2, 1.0), rel=1e-12)
    # Switching pairs keeps the number of positive labels (Eqn 7's constraint).
    assert info.positive_fraction == round(r * 150) / 150
    # J(w) takes the best label per row, so it is at most the fixed-label objective.
    assert info.objective <= info.objective_path[-1][1] + 1e-12


def test_tsvm_is_bit_for_bit_deterministic():
    Xl, yl, Xu, _ = random_problem(4, l=20, u=100, d=30, sep=0.8)
    w1, i1 = train_tsvm(Xl, yl, Xu, lam=1e-2, lam_u=1.0, r=0.45, switches="max")
    w2, i2 = train_tsvm(Xl, yl, Xu, lam=1e-2, lam_u=1.0, r=0.45, switches="max")
    assert np.array_equal(w1, w2) and i1.objective == i2.objective and i1.switches == i2.switches


@pytest.mark.parametrize("bad, match", [
    (dict(r=0.0), "strictly in"), (dict(r=1.0), "strictly in"), (dict(r=-0.2), "strictly in"),
    (dict(lam=-1.0), "lambda must be"), (dict(lam_u=-1.0), "lambda' must be"),
    (dict(switches=0), "switches"), (dict(switches="all"), "switches"),
])
def test_tsvm_rejects_bad_parameters(bad, match):
    Xl, yl, Xu, _ = random_problem(4, l=20, u=30, d=10)
    kwargs = dict(lam=1e-2, lam_u=1.0, r=0.4) | bad
    with pytest.raises(ValueError, match=match):
        train_tsvm(Xl, yl, Xu, **kwargs)


def test_tsvm_needs_unlabeled_rows():
    Xl, yl, _, _ = random_problem(4, l=20, u=30, d=10)
    with pytest.raises(ValueError, match="needs unlabeled rows"):
        train_tsvm(Xl, yl, Xl[:0], lam=1e-2, lam_u=1.0, r=0.4)
