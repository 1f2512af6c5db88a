"""TF-IDF rows of integer counts, the same to the bit on every processor: the generated sets' values.

The generated sets (``text-like``, the SYNTHETIC stand-ins, the benchmark matrix ``text20k``) are
``log(1 + tf) * (log((1 + m) / (1 + df)) + 1)`` rows scaled to unit L2 norm, 000 Table 8's kind of data.
Computed with numpy's ``log1p`` and ``log`` on float64 arrays, their last bits depend on the processor:
numpy picks its SIMD code at run time (Intel's SVML on an AVX-512 processor, the C library elsewhere), and
the two round differently for about 4% of ``log1p(k)``, k = 1 ... 99, and 0.02% of ``log(x)`` (measured on
numpy 2.4.6 with ``NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL"`` against the default, 2026-12-07).  A set
generated on two machines then differs in the last bit of many values, and every result computed from it
may differ in the last digits too.

So :func:`tf_idf_rows` takes its logarithms of the few distinct counts only, each correctly rounded
(:func:`correctly_rounded_log`: the ``decimal`` module's ``ln`` at 34 digits, rounded once to float64, whose
result the General Decimal Arithmetic specification fixes, not the processor or the C library), and adds
each row's squares in the order of its stored entries; the rest are IEEE 754 basic operations (``*``,
``/``, ``sqrt``), correctly rounded on every processor.  The values equal the numpy computation's wherever
its logarithm was correctly rounded, and differ from it by about one unit in the last place elsewhere.
"""
import decimal

import numpy as np
import scipy.sparse as sp

_DECIMAL = decimal.Context(prec=34)


def correctly_rounded_log(x):
    """``log(x)`` of every float in ``x`` (an array of positive floats with few distinct values), each the
    float64 nearest the exact logarithm: computed once per distinct value."""
    x = np.asarray(x, dtype=np.float64)
    values, where = np.unique(x, return_inverse=True)
    logs = np.array([float(_DECIMAL.ln(decimal.Decimal(float(v)))) for v in values], dtype=np.float64)
    return logs[where].reshape(x.shape)


def row_sums_in_order(values, indptr):
    """The sum of each row's ``values`` (CSR order, rows delimited by ``indptr``), added from the row's first
    stored entry to its last: one vectorized pass per position within a row, so the order of the additions is
    the same on every processor."""
    starts, lengths = indptr[:-1], np.diff(indptr)
    sums = np.zeros(lengths.size)
    for k in range(int(lengths.max(initial=0))):
        rows = np.flatnonzero(lengths > k)
        sums[rows] += values[starts[rows] + k]
    return sums


def tf_idf_rows(doc, word, m, n):
    """CSR float64 rows (sorted indices) ``log(1 + tf) * idf`` with ``idf = log((1 + m) / (1 + df)) + 1``,
    scaled to unit L2 norm, of the ``m`` x ``n`` count matrix of the tokens (``doc[i]``, ``word[i]``); every
    row must hold a token.  Bit for bit the same on every processor (module doc)."""
    tf = sp.csr_matrix((np.ones(doc.size), (doc, word)), shape=(m, n))
    tf.sum_duplicates()
    tf.sort_indices()
    df = np.bincount(tf.indices, minlength=n)
    idf = correctly_rounded_log((1.0 + m) / (1.0 + df[df > 0])) + 1.0
    idf_of_word = np.zeros(n)
    idf_of_word[df > 0] = idf
    data = correctly_rounded_log(1.0 + tf.data) * idf_of_word[tf.indices]
    norms = np.sqrt(row_sums_in_order(data * data, tf.indptr))
    data = np.repeat(1.0 / norms, np.diff(tf.indptr)) * data
    return sp.csr_matrix((data, tf.indices.copy(), tf.indptr.copy()), shape=(m, n))
