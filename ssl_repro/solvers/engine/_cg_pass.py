"""Compiled CG steps of CGLS (Table 2 of the spec paper), one pass over X per step.

Table 2 touches the data matrix twice per iteration: q = X p, then
r = X^T z - lambda beta with z = z - gamma C q.  Since z changes by
-gamma C q, X^T z changes by -gamma X^T (C q); so one pass over the active
rows that computes q_i = x_i . p and, while x_i is still in cache, adds
c_i q_i x_i into an accumulator gives everything an iteration needs:

    r_new = r_old - gamma (X^T C q + lambda p)

(the linear term v of :func:`.cgls.cgls` is constant and drops out).  This
halves the memory traffic over X.  The residual is then a recurrence
instead of a fresh product, so it may not stop CGLS by itself: when the
recurrence meets the test, the steps return and :func:`.cgls.cgls` forms
the exact residual with one transposed product (and goes on from it if
it disagrees, residual replacement).  Forming the exact residual in the
same pass as the iterations that might converge (a second accumulation,
X^T z, in each of them) was measured slower: on text20k TSVM S=max the
iterations near the threshold are many, and one thread took 1.93-2.01 s
against 1.78-1.84 s with one transposed product per met test.

Parallel design: the active rows are split into ``n_chunks`` contiguous
chunks of about equal nonzeros; chunk k accumulates into its own buffer
``buffers[k]`` and the buffers are added in the fixed order 0..n_chunks-1,
feature block by feature block.  Every partial sum is kept per chunk and
added in a fixed order, so the results do not depend on how many threads
run the chunks: the same function compiled without ``parallel`` (used when
one thread is in play, no thread pool involved) gives the same bits.
Three parallel regions per iteration (the fused pass; the reduction with
the updates of beta, r, o, z; the update of p), each one chunk per task.
"""
import types

import numba
import numpy as np

from ssl_repro.solvers.engine._row_products import ONE, row_axpy, row_bounds, row_dot


@numba.njit(inline="always", nogil=True)
def _block(k, n_blocks, n):
    """Positions [lo, hi) of block k of n_blocks contiguous blocks of range(n), as uint64."""
    return np.uint64(k * n // n_blocks), np.uint64((k + 1) * n // n_blocks)


@numba.njit(inline="always", nogil=True)
def _take_column(buffers, j, n_chunks):
    """Sum of column j over the first ``n_chunks`` per-thread buffers, in buffer order, zeroing it."""
    total = 0.0
    kb = np.uint64(0)
    while kb < n_chunks:
        total += buffers[kb, j]
        buffers[kb, j] = 0.0
        kb += ONE
    return total


def _cg_steps(indptr, indices, data, rows, cost, slot, c, new_id, lam, bounds, buffers, p_new, beta, o, z, r, p, q,
              part, cg_scalars, tol2, n_steps):
    """Run up to ``n_steps`` CG iterations of Table 2 in place.

    X is read as :class:`.cg_layout.CGLayout` lays it out.  The pass goes
    over the distinct active rows ``rows`` with their added costs ``cost``
    (:func:`.cg_layout.group_rows`) and leaves their q = X p in ``q``; o, z
    and the costs ``c`` are per active position, position kk reading
    q[slot[kk]] (``slot`` empty: the rows are the active positions, kk
    reads q[kk]; spares an index per position, 8 bytes, where no row
    repeats).  The column ids ``indices`` are numbered ``new_id[j]`` for
    feature j: the pass gathers from ``p_new`` (p in that numbering, kept
    up to date with p) and scatters into ``buffers`` in it, while beta, r
    and p stay in the features' own order, and every sum over features runs
    in that order, so the numbering never changes a result.
    ``cg_scalars`` holds (omega1 = r.r, p.p, z.z, omega2) and is updated.
    ``bounds`` (n_chunks + 1) splits the distinct rows into chunks;
    ``buffers`` (n_chunks x n_features) must be zero on entry and is left
    zero.  ``part`` (n_chunks x 4) is scratch.  Returns the iterations
    done and whether the last one met the test ||r|| < epsilon ||z|| on
    the recurrence's r (the caller checks the exact residual); the
    direction p is then not updated.
    """
    n_chunks, n_feat = buffers.shape
    n_chunks_u = np.uint64(n_chunks)
    n_act = c.shape[0]
    grouped = slot.shape[0] > 0
    omega1, pp, zz, omega2 = cg_scalars[0], cg_scalars[1], cg_scalars[2], cg_scalars[3]
    for k in numba.prange(n_chunks):
        j, j_end = _block(k, n_chunks, n_feat)
        while j < j_end:
            p_new[new_id[j]] = p[j]
            j += ONE
    steps = 0
    met = False
    while steps < n_steps:
        p_bias = p[n_feat]
        # fused pass: q = X p and buffers = X^T (c q), chunk by chunk
        for k in numba.prange(n_chunks):
            buf = buffers[k]
            s_qcq = 0.0
            s_cq = 0.0
            kk = np.uint64(bounds[k])
            end = np.uint64(bounds[k + 1])
            while kk < end:
                a, b = row_bounds(indptr, rows, kk)
                s = row_dot(indices, data, p_new, a, b) + p_bias
                q[kk] = s
                cq = cost[kk] * s
                s_qcq += s * cq
                s_cq += cq
                row_axpy(indices, data, cq, a, b, buf)
                kk += ONE
            part[k, 0] = s_qcq
            part[k, 1] = s_cq
        qcq = 0.0
        t_bias = 0.0
        for k in range(n_chunks):
            qcq += part[k, 0]
            t_bias += part[k, 1]
        # p's curvature; 0 only when p underflowed (the residual is numerically 0, with z = 0 on the
        # active rows): no step, and the test below stops, where the division would have raised
        curvature = lam * pp + qcq
        gamma = omega1 / curvature if curvature > 0.0 else 0.0
        # reduce the buffers (zeroing them) and update beta, r; update o, z
        for k in numba.prange(n_chunks):
            rr = 0.0
            j, j_end = _block(k, n_chunks, n_feat)
            while j < j_end:
                t = _take_column(buffers, new_id[j], n_chunks_u)
                pj = p[j]
                beta[j] += gamma * pj
                rj = r[j] - gamma * (t + lam * pj)
                r[j] = rj
                rr += rj * rj
                j += ONE
            part[k, 2] = rr
            s_zz = 0.0
            kk, kk_end = _block(k, n_chunks, n_act)
            while kk < kk_end:
                qk = q[slot[kk]] if grouped else q[kk]
                o[kk] += gamma * qk
                zk = z[kk] - gamma * (c[kk] * qk)
                z[kk] = zk
                s_zz += zk * zk
                kk += ONE
            part[k, 3] = s_zz
        beta[n_feat] += gamma * p_bias
        r_bias = r[n_feat] - gamma * (t_bias + lam * p_bias)
        r[n_feat] = r_bias
        omega2 = omega1
        omega1 = r_bias * r_bias
        zz = 0.0
        for k in range(n_chunks):
            omega1 += part[k, 2]
            zz += part[k, 3]
        steps += 1
        if omega1 < tol2 * zz or curvature == 0.0:
            met = True
            break
        reduction = omega1 / omega2
        for k in numba.prange(n_chunks):
            s_pp = 0.0
            j, j_end = _block(k, n_chunks, n_feat)
            while j < j_end:
                pj = r[j] + reduction * p[j]
                p[j] = pj
                p_new[new_id[j]] = pj
                s_pp += pj * pj
                j += ONE
            part[k, 0] = s_pp
        p_bias = r_bias + reduction * p_bias
        p[n_feat] = p_bias
        pp = p_bias * p_bias
        for k in range(n_chunks):
            pp += part[k, 0]
    cg_scalars[0], cg_scalars[1], cg_scalars[2], cg_scalars[3] = omega1, pp, zz, omega2
    return steps, met


def _named_copy(func, suffix):
    """``func`` under another name: numba's on-disk cache keys entries by function name and
    signature, not by compile options, so each build needs its own name."""
    copy = types.FunctionType(func.__code__, func.__globals__, func.__name__ + suffix,
                              func.__defaults__, func.__closure__)
    copy.__qualname__ = func.__qualname__ + suffix
    return copy


#: The same steps on numba's thread pool, and in the calling thread alone
#: (identical results; the serial one avoids waking the pool at all).
cg_steps_parallel = numba.njit(parallel=True, cache=True, nogil=True)(_named_copy(_cg_steps, "_parallel"))
cg_steps_serial = numba.njit(cache=True, nogil=True)(_named_copy(_cg_steps, "_serial"))


@numba.njit(cache=True, nogil=True)
def chunk_bounds(indptr, rows, n_chunks):
    """Split ``rows`` into ``n_chunks`` contiguous runs of about equal nonzeros.

    Run k starts at the first row before which at least k/n_chunks of the
    nonzeros lie; returns the n_chunks + 1 boundaries (int64).
    """
    n = rows.shape[0]
    total = 0
    for kk in range(n):
        total += indptr[rows[kk] + 1] - indptr[rows[kk]]
    bounds = np.empty(n_chunks + 1, np.int64)
    bounds[0] = 0
    k = 1
    before = 0
    for kk in range(n):
        while k < n_chunks and before * n_chunks >= total * k:
            bounds[k] = kk
            k += 1
        before += indptr[rows[kk] + 1] - indptr[rows[kk]]
    while k <= n_chunks:
        bounds[k] = n
        k += 1
    return bounds
