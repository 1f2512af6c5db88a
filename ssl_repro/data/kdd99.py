"""KDD Cup 1999 (004, Table 1.1: kdd99, 4,898,431 records, ~127 features, r = 0.80).

Each record has 41 features and a label.  The loader scales the 38 numeric
columns to [0, 1] by their min and max (every numeric minimum is 0 in the
UCI files, so zeros stay zeros and the matrix stays sparse), appends the
one-hot columns of the three categorical ones (protocol_type, service,
flag; categories in sorted order), and labels attacks (anything but
``normal.``) +1.  The 10% file gives 118 columns, 12.5 nonzeros per row,
attack fraction 0.803.  Read straight from the UCI gzip file with pandas.
"""
import numpy as np
import pandas as pd
import scipy.sparse as sp

from ssl_repro.data.cache import cached, fetch

URL = "https://kdd.ics.uci.edu/databases/kddcup99/"
FILES = {"kdd99": "kddcup.data.gz", "kdd99-10": "kddcup.data_10_percent.gz"}
CATEGORICAL = (1, 2, 3)
N_COLUMNS = 42
LABEL = N_COLUMNS - 1


def parse_kdd99(path):
    """(X, y) from a KDD'99 file (gzip or plain CSV lines of 41 features + label).

    The matrix is assembled column by column in CSC form (for each numeric
    column the rows off its minimum, then the rows of each category), so
    memory beyond pandas' frame stays at the size of the nonzeros; it is
    converted to CSR once.
    """
    dtypes = {col: "category" if col in CATEGORICAL or col == LABEL else np.float64 for col in range(N_COLUMNS)}
    try:
        frame = pd.read_csv(path, header=None, compression="infer", dtype=dtypes)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError, OSError, EOFError,
            ValueError) as exc:
        raise ValueError(f"{path} is not a readable KDD'99 file: {exc}") from exc
    if frame.shape[1] != N_COLUMNS:
        raise ValueError(f"{path}: expected {N_COLUMNS} comma-separated columns per record, found {frame.shape[1]}")
    labels = frame[LABEL]
    normal = np.flatnonzero(labels.cat.categories.str.strip() == "normal.")
    y = np.where(np.isin(labels.cat.codes, normal), -1, 1).astype(np.int8)
    rows, values, counts = [], [], []
    for col in (c for c in range(LABEL) if c not in CATEGORICAL):
        column = frame[col].to_numpy()
        lo, hi = column.min(), column.max()
        if np.isnan(lo):
            raise ValueError(f"{path}: empty values in numeric column {col}")
        nz = np.flatnonzero(column != lo)
        rows.append(nz)
        values.append((column[nz] - lo) / (hi - lo))
        counts.append(nz.size)
    for col in CATEGORICAL:
        codes, uniques = pd.factorize(frame[col], sort=True)
        if codes.min() < 0:
            raise ValueError(f"{path}: empty values in categorical column {col}")
        rows.append(np.argsort(codes, kind="stable"))
        values.append(np.ones(codes.size))
        counts.extend(np.bincount(codes, minlength=uniques.size))
    shape = (frame.shape[0], len(counts))
    X = sp.csc_matrix((np.concatenate(values), np.concatenate(rows), np.r_[0, np.cumsum(counts)]), shape=shape)
    X = X.tocsr()
    X.sort_indices()
    return X, y


def load_kdd99(name, root, download):
    """kdd99 (full file) or kdd99-10 (the 10% file) from ``<root>/kddcup99/``."""
    filename = FILES[name]

    def build():
        path = fetch(name, root / "kddcup99" / filename, URL + filename, download)
        X, y = parse_kdd99(path)
        return X, y, str(path)

    return cached(root, name, build)
