"""KDD Cup 1999 (004, Table 1.1: kdd99, 4,898,431 records, ~127 features, r = 0.80).

Each record has 41 features and a label; the loader one-hot encodes the
three categorical columns (protocol_type, service, flag), scales the 38
numeric ones to [0, 1] by their min and max (so zeros stay zeros and the
matrix stays sparse), and labels attacks (anything but ``normal.``) +1.
Read straight from the UCI gzip file with pandas.
"""
import numpy as np
import pandas as pd
import scipy.sparse as sp

from .store import cached, fetch

URL = "https://kdd.ics.uci.edu/databases/kddcup99/"
FILES = {"kdd99": "kddcup.data.gz", "kdd99-10": "kddcup.data_10_percent.gz"}
CATEGORICAL = (1, 2, 3)
N_COLUMNS = 42


def parse_kdd99(path):
    """(X, y) from a KDD'99 file (gzip or plain CSV lines of 41 features + label)."""
    try:
        frame = pd.read_csv(path, header=None, compression="infer")
    except (pd.errors.ParserError, UnicodeDecodeError, OSError, EOFError) as exc:
        raise ValueError(f"{path} is not a readable KDD'99 file: {exc}") from exc
    if frame.shape[1] != N_COLUMNS:
        raise ValueError(f"{path}: expected {N_COLUMNS} comma-separated columns per record, found {frame.shape[1]}")
    labels = frame.pop(N_COLUMNS - 1).astype(str)
    y = np.where(labels.str.strip() == "normal.", -1, 1).astype(np.int8)
    numeric = frame.drop(columns=list(CATEGORICAL)).apply(pd.to_numeric, errors="coerce")
    if numeric.isna().any().any():
        raise ValueError(f"{path}: non-numeric values in numeric columns")
    values = numeric.to_numpy(dtype=np.float64)
    lo, span = values.min(axis=0), np.ptp(values, axis=0)
    scaled = (values - lo) / np.where(span > 0, span, 1.0)
    blocks = [sp.csr_matrix(scaled)]
    for col in CATEGORICAL:
        codes, _ = pd.factorize(frame[col].astype(str), sort=True)
        blocks.append(sp.csr_matrix((np.ones(codes.size), (np.arange(codes.size), codes))))
    X = sp.hstack(blocks, format="csr")
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
