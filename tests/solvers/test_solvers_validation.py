"""The plain solver functions reject bad input with a message naming the problem."""
import numpy as np
import pytest
import scipy.sparse as sp

from solver_problems import dense_masked_problem, random_problem
from ssl_repro.solvers import from_blocks, train_da, train_rls, train_svm, train_tsvm
from ssl_repro.solvers.annealing import deterministic_annealing
from ssl_repro.solvers.cccp import cccp_tsvm
from ssl_repro.solvers.nabla import nabla_tsvm
from ssl_repro.solvers.tsvm import tsvm


@pytest.fixture
def blocks():
    Xl, yl, Xu, _ = random_problem(0, l=12, u=20, d=8)
    return Xl, yl, Xu


def test_shape_mismatches(blocks):
    Xl, yl, Xu = blocks
    with pytest.raises(ValueError, match="shape mismatch: 12 labeled rows"):
        train_svm(Xl, yl[:-1])
    with pytest.raises(ValueError, match="shape mismatch: X_labeled has 8 features but X_unlabeled has 7"):
        train_tsvm(Xl, yl, Xu[:, :7], r=0.5)


@pytest.mark.parametrize("value, match", [(np.nan, "NaN or infinity"), (np.inf, "NaN or infinity")])
def test_non_finite_values(blocks, value, match):
    Xl, yl, Xu = blocks
    bad = Xu.toarray()
    bad[0, 0] = value
    with pytest.raises(ValueError, match=f"X_unlabeled contains {match}"):
        train_da(Xl, yl, bad, r=0.5)
    bad_l = Xl.copy()
    bad_l.data[0] = value
    with pytest.raises(ValueError, match=f"X_labeled contains {match}"):
        train_rls(bad_l, yl)


def test_label_problems(blocks):
    Xl, yl, Xu = blocks
    with pytest.raises(ValueError, match="one class only"):
        train_svm(Xl, np.ones(12))
    with pytest.raises(ValueError, match=r"must be \+1 or -1"):
        train_svm(Xl, np.where(yl > 0, 1, 0))
    with pytest.raises(ValueError, match="no labeled rows"):
        train_svm(Xl[:0], yl[:0])


@pytest.mark.slow   # longer than ~3 s
def test_dense_and_sparse_blocks_agree(blocks):
    Xl, yl, Xu = blocks
    w_sparse, _ = train_tsvm(Xl, yl, Xu, lam=1e-2, r=0.5, switches="max")
    w_dense, _ = train_tsvm(Xl.toarray(), yl, sp.csc_matrix(Xu), lam=1e-2, r=0.5, switches="max")
    np.testing.assert_allclose(w_sparse, w_dense, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("solver, kwargs, name", [
    (deterministic_annealing, dict(max_outer=0), "max_outer"),
    (deterministic_annealing, dict(eps=1.5), "eps"),
    (cccp_tsvm, dict(max_iter=0), "max_iter"),
    (nabla_tsvm, dict(steps=0), "steps"),
    (tsvm, dict(max_switch_rounds=0), "max_switch_rounds"),
])
def test_solver_functions_check_the_same_parameters(solver, kwargs, name):
    X, y = dense_masked_problem()
    prob = from_blocks(X[:10], np.where(y[:10] == 1, 1.0, -1.0), X[10:])
    with pytest.raises(ValueError, match=name):
        solver(prob, 1e-3, 1.0, 0.5, **kwargs)
