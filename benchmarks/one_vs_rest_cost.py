"""What one-vs-rest costs: a K-class fit against the K binary fits a user would run by hand.

The K-class path of every estimator (:mod:`ssl_repro.estimators.base`) checks and
converts the data once and then runs K binary fits; the compiled engine solves one
right-hand side per pass over X, so the binary problems share no pass.  This script
prints, for each estimator named, the seconds of one K-class ``fit`` on scikit-learn's
digits (100 labeled rows) and of K binary fits from the raw data (class k against the
rest, r = its share of the labeled rows, as the K-class path sets it), median of
``--repeats``; the ratio near 1 says the K-class path adds nothing but the shared checks:

    python benchmarks/one_vs_rest_cost.py --methods LinearSVM,LinearTSVM --repeats 3

It prints figures and writes no record: the machine is shared, so take them as rough.
"""
import argparse
import statistics
import time
import warnings

import numpy as np
from sklearn.datasets import load_digits

import ssl_repro.estimators as estimators


def _seconds(fit, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fit()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--methods", default="LinearSVM,LinearTSVM,LinearDA",
                        help="estimator classes of ssl_repro.estimators, comma-separated")
    parser.add_argument("--labeled", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    X, y = load_digits(return_X_y=True)
    X = X / 16.0
    labeled = np.random.default_rng(0).choice(y.size, args.labeled, replace=False)
    y_fit = np.full(y.size, -1)
    y_fit[labeled] = y[labeled]
    classes = np.unique(y[labeled])
    print(f"digits: {X.shape[0]} rows, {classes.size} classes, {args.labeled} labeled; median of {args.repeats}")
    print(f"{'estimator':24s} {'K-class fit s':>14s} {'K binary fits s':>16s} {'ratio':>6s}")
    for name in args.methods.split(","):
        Estimator = getattr(estimators, name)
        semi = "r" in Estimator().get_params()

        def binary_fits():
            for c in classes:
                y_k = np.where(y_fit == -1, -1, (y_fit == c).astype(int))
                params = {"r": float(np.mean(y[labeled] == c))} if semi else {}
                Estimator(**params).fit(X, y_k)

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            Estimator().fit(X, y_fit)                     # compile (or load numba's cache) outside the timing
            together = _seconds(lambda: Estimator().fit(X, y_fit), args.repeats)
            apart = _seconds(binary_fits, args.repeats)
        print(f"{name:24s} {together:14.3f} {apart:16.3f} {together / apart:6.2f}")


if __name__ == "__main__":
    main()
