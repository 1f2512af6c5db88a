"""The data matrix with a virtual bias column, multiplied on row subsets.

The paper regularizes the bias like every other weight by appending a
constant feature 1 to each row (Sec. 2, remark after Eqn 1).  Appending a
column to a CSR matrix would copy it, so :class:`BiasedRows` keeps the
user's CSR arrays untouched and adds the bias inside the products: a weight
vector has ``n_features + 1`` entries, the last one being the bias.
"""
import numpy as np
import scipy.sparse as sp

from ssl_repro.solvers.engine.cg_layout import make_layout, plain_layout
from ssl_repro.solvers.engine.cgls import CGSteps
from ssl_repro.solvers.engine._row_products import N_CHUNKS, renumber, rows_matvec, rows_matvec_beside, rows_rmatvec, unsigned_indices
from ssl_repro.solvers.engine.data_checks import check_feature_memory, data_dtype, largest_magnitude


class BiasedRows:
    """Products ``[X 1][rows] @ w`` and ``[X 1][rows].T @ z`` without slicing X.

    Parameters
    ----------
    X : scipy.sparse matrix, shape (n_rows, n_features)
        Converted to CSR with int32/int64 indices only if it is not
        already; a CSR float64 or float32 input is used as is (no copy).
        float32 values are read as float32 and widened to float64 in the
        products, whose every sum is taken in float64: the results are those
        of float64 data holding the same (float32-rounded) values, bit for
        bit, with half the value bytes read per pass.  Other value types
        are converted to float64.  Refused when its column count would need
        more memory than is available (:func:`.data_checks.check_feature_memory`).
        The CG pass reads it through :meth:`cg_layout` (for float64 values
        with at most 65,536 features, a 16-bit copy of the column ids: 2
        bytes per nonzero), and so do the other products once that layout
        exists (made by the first CG solve: a product alone, a prediction
        say, never builds it); the results are the same bits either way.
    layout : callable
        ``layout(X, unsigned_ids)`` makes that :class:`.cg_layout.CGLayout`
        (:func:`.cg_layout.make_layout`; :func:`.cg_layout.plain_layout` reads
        X as it is, for comparisons).
    """

    def __init__(self, X, layout=make_layout):
        if not (sp.issparse(X) and X.format == "csr"):
            X = sp.csr_matrix(X)
        X = X.astype(data_dtype(X.dtype), copy=False)
        if not X.has_sorted_indices:
            X = X.sorted_indices()
        check_feature_memory(X, N_CHUNKS)
        self.X = X
        #: ``X.indices`` as unsigned integers, what the kernels take (a view)
        self.indices = unsigned_indices(X)
        self.n_rows, self.n_features = X.shape
        self.n_weights = self.n_features + 1
        self._buffers = np.empty((N_CHUNKS, self.n_features))
        self._make_layout = layout
        self._cg_layout = None
        self._own_layout = None
        self.matvec_calls = 0
        self.rmatvec_calls = 0

    def matvec(self, w, rows):
        """Outputs ``x_i . w[:-1] + w[-1]`` for the rows ``rows`` (an int64 array)."""
        out = np.empty(rows.shape[0])
        X = self.X
        indices, w_read = self._read_as_laid_out(w)
        rows_matvec(X.indptr, indices, X.data, rows, w_read, w[-1], out)
        self.matvec_calls += 1
        return out

    def matvec_beside(self, w, rows, known, values):
        """:meth:`matvec` of ``rows`` where the outputs at the ascending positions ``known`` are
        ``values`` already: one compiled pass computes the others (MFN's o_bar off the active set)."""
        out = np.empty(rows.shape[0])
        X = self.X
        indices, w_read = self._read_as_laid_out(w)
        rows_matvec_beside(X.indptr, indices, X.data, rows, known, values, w_read, w[-1], out)
        self.matvec_calls += 1
        return out

    def rmatvec(self, z, rows):
        """``[X 1][rows].T @ z``: a vector of ``n_features + 1`` entries."""
        out = np.empty(self.n_weights)
        X = self.X
        layout = self._product_layout()
        rows_rmatvec(X.indptr, layout.indices, X.data, rows, z, layout.new_id, self._buffers, out[:-1])
        out[-1] = z.sum()
        self.rmatvec_calls += 1
        return out

    def _product_layout(self):
        """How the products read X: the CG layout once it exists (its 16-bit ids are fewer bytes per
        nonzero), else X as it is (:func:`.cg_layout.plain_layout`, made once)."""
        if self._cg_layout is not None:
            return self._cg_layout
        if self._own_layout is None:
            self._own_layout = plain_layout(self.X, self.indices)
        return self._own_layout

    def _read_as_laid_out(self, w):
        """The column ids a product reads and ``w[:-1]`` in their numbering."""
        layout = self._product_layout()
        if layout.indices is self.indices:
            return self.indices, w[:-1]
        w_read = np.empty(self.n_features)
        renumber(w, layout.new_id, w_read)
        return layout.indices, w_read

    def largest_entry(self):
        """max ``|x_ij|`` over the stored entries (0 for an all-zero matrix)."""
        return largest_magnitude(self.X.data)

    def cg_layout(self):
        """How the CG pass reads X (:class:`.cg_layout.CGLayout`), prepared on first use (one pass over X)."""
        if self._cg_layout is None:
            self._cg_layout = self._make_layout(self.X, self.indices)
        return self._cg_layout

    def cg_steps(self, rows, c, lam, tol):
        """The compiled CG iterations of :func:`.cgls.cgls` on the rows ``rows`` (a :class:`.cgls.CGSteps`)."""
        return CGSteps(self, rows, c, lam, tol)
