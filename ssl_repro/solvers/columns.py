"""L2-SVM-MFN on K label columns at once: one-vs-rest's K supervised problems sharing every product over X.

The K binary problems of one-vs-rest (:mod:`ssl_repro.estimators.base`) have the same labeled rows, costs
1/l and lambda; they differ only in their labels, column k of ``Y``.  :func:`svm_columns` runs Table 1
(L2-SVM-MFN) for each column with its own active set j(w), CGLS solve (Table 2, Eqn 5), optimality test,
exact line search (Table 3) and stop, and shares what costs: each CG iteration is ONE product X_l P and ONE
X_l^T Q over the labeled rows, P and Q holding a column per class still iterating.  A column's inactive rows
have cost 0 in its column of C, so each column's products are those of its own Newton system; a column
whose CGLS (or Newton loop) has stopped is compacted out of the block.

Decisions:

- The products are numpy's and scipy's (BLAS for dense rows, scipy's CSR times a dense block for sparse
  ones), on the labeled rows restricted to the features they hold (a weight of a feature no labeled row
  holds stays 0 in Table 2: its residual entry is -lambda beta = 0), with the bias as a column of ones
  (Sec. 2, remark after Eqn 1).  The iterates are not the compiled one-column pass's
  (:mod:`.engine.cgls`) bit for bit: J of each column agrees with its separate :func:`~ssl_repro.solvers.svm`
  fit to 1e-9 relative (the tests' bound) with the same predictions.  The binary path is unchanged.
- The block is a float64 copy of the labeled rows (l rows: small beside X when most rows are unlabeled; a
  fully labeled X is held twice during the solve), with dense (features, K) weights and directions.
- Each CGLS call forms its first residual from the products (the binary path carries it over from the last
  solve, :func:`.mfn._next_system`); that is one shared X^T Z per Newton iteration.
- After each CGLS the outputs of every labeled row are recomputed as X_l W_bar (one shared product), not
  carried by the CG recurrence.
"""
import time

import numpy as np
import scipy.sparse as sp

from ssl_repro.solvers.engine._threads import solver_threads
from ssl_repro.solvers.engine.line_search import line_search
from ssl_repro.solvers.engine.loss import SquaredHingeLoss
from ssl_repro.solvers.info import SolverInfo
from ssl_repro.solvers.mfn import COLD_MAX_ITER, COLD_TOL, MAX_CG_ITER, MAX_NEWTON_ITER, TOL, MFNInfo
from ssl_repro.solvers.objective import transductive_objective
from ssl_repro.solvers.supervised import SVM_CAPS
from ssl_repro.solvers.validation import check_lambda

#: Above this share of nonzeros the labeled block is multiplied as a dense array (BLAS), below as CSR.
DENSE_SHARE = 0.25


class LabeledBlock:
    """The labeled rows [X_l 1] on the features they hold, for the shared products (module doc).

    ``features``: the columns of X kept (the bias is the last column of the block and the last weight).
    """

    def __init__(self, X, rows):
        block = X[rows].astype(np.float64)
        features = np.unique(block.indices) if sp.issparse(block) else np.arange(block.shape[1])
        block = sp.hstack([block[:, features], np.ones((rows.shape[0], 1))], format="csr")
        if block.nnz > DENSE_SHARE * block.shape[0] * block.shape[1]:
            block = block.toarray()
        self.features = features
        self.A = block
        self.AT = block.T.copy() if isinstance(block, np.ndarray) else block.T.tocsr()
        self.products = 0

    def matmat(self, P):
        """[X_l 1] P (one shared pass)."""
        self.products += 1
        return np.asarray(self.A @ P)

    def rmatmat(self, Z):
        """[X_l 1]^T Z (one shared pass)."""
        self.products += 1
        return np.asarray(self.AT @ Z)

    def full_weights(self, B, n_weights):
        """Weights (n_weights, K) of X's features from the block's (features, then the bias)."""
        W = np.zeros((n_weights, B.shape[1]))
        W[self.features] = B[:-1]
        W[-1] = B[-1]
        return W


@solver_threads
def svm_columns(problem, Y, lam, tau=1e-6, max_newton_iter=MAX_NEWTON_ITER):
    """L2-SVM-MFN (Table 1) on the labeled rows of ``problem`` for each column of ``Y`` (module doc).

    Parameters
    ----------
    problem : Problem
        Its labeled rows and operator (a local :class:`~.engine.biased_rows.BiasedRows`); ``problem.y`` is not
        read.
    Y : float array (n_labeled, K)
        +1/-1 labels of the labeled rows, one column per binary problem.
    lam : float
        lambda of every column's problem (Eqn 18 with lambda' = 0, costs 1/l as :func:`~ssl_repro.solvers.svm`).
    tau : float
        Table 1's optimality tolerance.
    max_newton_iter : int
        Newton iterations per column before it stops on the cap (its record says so and warns).

    Returns
    -------
    W, infos, block_products
        Weights (n_weights, K), the bias last; one :class:`SolverInfo` per column, as
        :func:`~ssl_repro.solvers.svm` fills it; and the shared products over the labeled block that the
        solve made (each one a pass for all the columns in it).
    """
    start = time.perf_counter()
    lam = check_lambda(problem, lam)
    Y = np.asfortranarray(Y, dtype=np.float64)     # columns contiguous, as the compiled line search takes them
    l, K = Y.shape
    c = np.full(l, 1.0 / l)
    block = LabeledBlock(problem.op.X, problem.labeled)
    B = np.zeros((block.A.shape[1], K), order="F")
    O = np.zeros((l, K), order="F")
    losses = [SquaredHingeLoss(None, None, Y[:, k], c, lam) for k in range(K)]
    mfn = [MFNInfo() for _ in range(K)]
    tol, max_cg = np.full(K, COLD_TOL), np.full(K, COLD_MAX_ITER)
    running = np.arange(K) if max_newton_iter > 0 else np.arange(0)
    while running.size:
        active = np.asfortranarray(Y[:, running] * O[:, running] < 1.0)
        B_bar, its, met = _cgls_columns(block, Y[:, running], active / l, lam, B[:, running], O[:, running],
                                        tol[running], max_cg[running])
        B_bar, O_bar = np.asfortranarray(B_bar), np.asfortranarray(block.matmat(B_bar))
        still = []
        for j, k in enumerate(running):
            mfn[k].newton_iterations += 1
            mfn[k].cg_iterations += int(its[j])
            max_cg[k] = MAX_CG_ITER
            if met[j] and losses[k].optimal(O_bar[:, j], active[:, j], tau):
                B[:, k], O[:, k] = B_bar[:, j], O_bar[:, j]
                if tol[k] == TOL:
                    mfn[k].converged, mfn[k].stop_reason = True, "tolerance"
                    continue
                tol[k] = TOL
            else:
                delta = line_search(losses[k], B[:, k], B_bar[:, j], O[:, k], O_bar[:, j])
                B[:, k] += delta * (B_bar[:, j] - B[:, k])
                O[:, k] += delta * (O_bar[:, j] - O[:, k])
            if mfn[k].newton_iterations < max_newton_iter:
                still.append(k)
        running = np.array(still, dtype=np.int64)
    infos = []
    for k in range(K):
        info = SolverInfo("svm")
        info.add_mfn(mfn[k], outer=True)
        info.warn_if_capped(SVM_CAPS)
        info.own_objective = float(losses[k].value(B[:, k], O[:, k]))
        info.objective = transductive_objective(B[:, k], O[:, k], Y[:, k], O[:0, k], lam, 0.0)
        info.seconds = time.perf_counter() - start
        infos.append(info)
    return block.full_weights(B, problem.op.n_weights), infos, block.products


def _cgls_columns(block, Y, C, lam, B, O, tol, max_iter):
    """Table 2 for m columns at once: column j solves [lambda I + A^T C_j A] beta = A^T C_j Y_j from B[:, j]
    (outputs O[:, j]) with its own epsilon ``tol[j]`` and cap ``max_iter[j]``.

    Each iteration is one A P and one A^T Z over the columns still iterating; a column that meets
    ||r|| < epsilon ||z|| (on the residual formed from the products, not a recurrence) or its cap leaves the
    block.  Returns (the solutions, iterations per column, whether each met the test).
    """
    B = B.copy()
    Z = C * (Y - O)
    R = block.rmatmat(Z) - lam * B
    omega = np.einsum("ij,ij->j", R, R)
    met = omega <= tol * tol * np.einsum("ij,ij->j", Z, Z)
    its = np.zeros(B.shape[1], np.int64)
    live = np.flatnonzero(~met & (max_iter > 0))
    P = R[:, live]
    while live.size:
        Q = block.matmat(P)
        CQ = C[:, live] * Q
        gamma = omega[live] / (lam * np.einsum("ij,ij->j", P, P) + np.einsum("ij,ij->j", Q, CQ))
        B[:, live] += gamma * P
        Z[:, live] -= gamma * CQ
        R = block.rmatmat(Z[:, live]) - lam * B[:, live]
        new = np.einsum("ij,ij->j", R, R)
        its[live] += 1
        stop = new < tol[live] ** 2 * np.einsum("ij,ij->j", Z[:, live], Z[:, live])
        met[live] = stop
        P = R + (new / omega[live]) * P
        omega[live] = new
        keep = ~stop & (its[live] < max_iter[live])
        live, P = live[keep], P[:, keep]
    return B, its, met
