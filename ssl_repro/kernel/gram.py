"""RBF Gram matrices, with the width relative to the data's pairwise distances (001, Sec. 5)."""
import numpy as np
from scipy.spatial.distance import pdist, squareform


def default_sigma(X):
    """The default RBF width: the median pairwise Euclidean distance (001 scales its grid
    sigma = 1/8 ... 8 relative to "a default value based on pairwise distances")."""
    return float(np.median(pdist(np.asarray(X, dtype=np.float64))))


def rbf_gram(X, sigma, Z=None):
    """K[i, j] = exp(-||x_i - z_j||^2 / (2 sigma^2))."""
    X = np.asarray(X, dtype=np.float64)
    if Z is None:
        d2 = squareform(pdist(X, "sqeuclidean"))
    else:
        Z = np.asarray(Z, dtype=np.float64)
        d2 = np.maximum((X * X).sum(1)[:, None] + (Z * Z).sum(1)[None, :] - 2 * X @ Z.T, 0.0)
    return np.exp(-d2 / (2.0 * sigma * sigma))
