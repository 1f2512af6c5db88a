"""A user's own files: svmlight/LIBSVM, the reference software's pair of files, 33-vs-36, LIBSVM real-sim.

The reference software (SVMlin) reads a features-only file with one
"id:val id:val ..." line per example (ids 1-based) and a labels file with
one of +1, -1 or 0 per line, 0 marking an unlabeled example.

Feature ids, one rule for both formats (a decision; the readers used to
differ): ids are one-based, so id 0 is refused (an svmlight file is never
read as zero-based: one stray 0 would otherwise shift every column); an id
appears at most once on a line (the svmlin reader used to add duplicates up);
the values are finite; and the largest id is at most
:func:`~ssl_repro.solvers.engine.data_checks.largest_id_allowed` (the file's non-zeros, or
:data:`~ssl_repro.solvers.engine.data_checks.ID_SPAN_FLOOR` for a small file; the estimators warn on a matrix
wider than that), because the solvers keep about
``2 * cores + 16`` dense vectors of one number per id and each CG step goes
over them: a stray ``10000000:1`` in a 500-row file made a run take minutes
and gigabytes.  svmlight's ids also ascend along a line (that format's own
rule); svmlin's may come in any order.  Every refusal names the file, the
line, the value and the fix.
"""
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import load_svmlight_file

from ssl_repro.labels import UNLABELED
from ssl_repro.solvers.engine.data_checks import ID_SPAN_FLOOR, largest_id_allowed
from ssl_repro.data.cache import DatasetNotAvailable, fetch
from ssl_repro.data.text import SRAA_URL

LIBSVM_REAL_SIM = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/binary/real-sim.bz2"


def read_svmlight(path, name):
    """(X, y) from an svmlight/LIBSVM file with two classes, mapped to +1/-1 (larger value = +1).

    Labels in {-1, 0, +1} with some 0s follow SVMlight's transductive
    convention: 0 marks an unlabeled row, kept as 0 (truth unknown).
    Feature ids follow the rule of the module docstring."""
    path = Path(path)
    if not path.exists():
        raise DatasetNotAvailable(f"dataset {name!r}: file {path} does not exist")
    try:
        X, labels = load_svmlight_file(str(path), dtype=np.float64, zero_based=False)
    except (ValueError, OSError, EOFError) as exc:
        raise ValueError(_svmlight_problem(path) or f"{path} is not a readable svmlight/LIBSVM file: {exc}") from exc
    if labels.size == 0:
        raise ValueError(f"{path} holds no examples: give one line '<label> id:value id:value ...' per example")
    X = sp.csr_matrix(X)
    line_of_row = _svmlight_row_lines(path)
    _check_span(X, path, line_of_row)
    _check_entries(X, labels, path, line_of_row)
    classes = np.unique(labels)
    if 0 in classes and set(classes.tolist()) <= {-1.0, 0.0, 1.0} and classes.size == 3:
        X.sort_indices()
        return X, labels.astype(np.int8)        # SVMlight: 0 = unlabeled
    if classes.size != 2:
        where = ""
        if classes.size > 2:
            third = int(np.sort(np.unique(labels, return_index=True)[1])[2])
            where = f"; line {line_of_row(third)} holds the third, {labels[third]:g}"
        raise ValueError(f"{path}: expected two classes (or the labels -1, 0, +1 with 0 marking unlabeled rows), "
                         f"found {classes.size}: {', '.join(f'{c:g}' for c in classes[:10])}{where}; relabel the "
                         f"file with two classes (e.g. +1 and -1), and 0 for rows of unknown label")
    X.sort_indices()
    return X, np.where(labels == classes[1], 1, -1).astype(np.int8)


def load_svmlin_pair(examples, labels):
    """X and y from the reference software's two files, y in the ``fit`` convention of :mod:`ssl_repro.labels`.

    The file's +1 becomes class 1, its -1 class 0, its 0 (unlabeled)
    :data:`~ssl_repro.labels.UNLABELED` (the unlabeled marker of
    :mod:`sklearn.semi_supervised`), so
    ``LinearDA().fit(*load_svmlin_pair(...))`` trains on what the files say;
    a positive output means the file's +1.
    """
    X, y = read_svmlin_pair(examples, labels)
    return X, np.where(y == 0, UNLABELED, (y > 0).astype(np.int8)).astype(np.int8)


def read_svmlin_pair(examples, labels):
    """X and the file's labels in {-1, 0, +1} (0 = unlabeled), as the reference software reads them
    (feature ids: the rule of the module docstring)."""
    examples, labels = Path(examples), Path(labels)
    for path in (examples, labels):
        if not path.exists():
            raise DatasetNotAvailable(f"dataset 'svmlin': file {path} does not exist")
    rows, cols, vals = [], [], []
    with open(examples) as f:
        n_rows = 0
        for n_rows, line in enumerate(f, start=1):
            ids, values = feature_pairs(line.split(), f"{examples}, line {n_rows}", ascending=False)
            cols.extend(ids)
            vals.extend(values)
            rows.extend([n_rows - 1] * len(ids))
    y, label_lines = _svmlin_labels(labels)
    if y.shape[0] != n_rows:
        raise ValueError(f"{labels} has {y.shape[0]} labels but {examples} has {n_rows} examples: give one label "
                         f"(+1, -1 or 0) per line of {examples.name}")
    if n_rows == 0:
        raise ValueError(f"{examples} holds no examples: give one line of 'id:value' pairs per example")
    X = sp.csr_matrix((np.asarray(vals, dtype=np.float64), (np.asarray(rows, dtype=np.int64),
                                                           np.asarray(cols, dtype=np.int64) - 1)),
                      shape=(n_rows, max(cols, default=0)))
    _check_span(X, examples, lambda row: row + 1)
    _check_entries(X, None, examples, lambda row: row + 1)
    X.sort_indices()
    return X, y.astype(np.int8)


def _svmlin_labels(labels):
    """The labels file: one of +1, -1, 0 per non-blank line; (labels, their line numbers)."""
    values, lines = [], []
    with open(labels) as f:
        for number, line in enumerate(f, start=1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            try:
                value = float(text)
            except ValueError:
                value = None
            if value not in (-1.0, 0.0, 1.0):
                raise ValueError(f"{labels}, line {number}: label {text!r}; the reference software's labels are "
                                 f"+1, -1 or 0 (0: unlabeled), one per line")
            values.append(value)
            lines.append(number)
    return np.asarray(values, dtype=np.float64), lines


def feature_pairs(tokens, where, ascending):
    """(ids, values) of a line's ``id:value`` tokens, refusing what the module docstring's rule
    refuses (id 0, an id twice, with ``ascending`` ids out of order, a token that is no pair);
    ``where``: "file, line n" for the messages."""
    ids, values = [], []
    for token in tokens:
        key, sep, text = token.partition(":")
        try:
            j, v = int(key), float(text)
        except ValueError:
            j = v = None
        if not sep or j is None:
            raise ValueError(f"{where}: expected 'id:value' pairs (a whole-number id, a number), got {token!r}")
        if j < 1:
            raise ValueError(f"{where}: feature id {j} in {token!r}; feature ids are one-based (1, 2, ...): "
                             f"add 1 to every id of a zero-based file")
        if ids and ascending and j <= ids[-1]:
            problem = "appears twice" if j == ids[-1] else f"comes after id {ids[-1]}"
            raise ValueError(f"{where}: feature id {j} {problem}; the ids of an svmlight line ascend, each once: "
                             f"sort the line's pairs by id" + (" and merge the repeated id" if j == ids[-1] else ""))
        ids.append(j)
        values.append(v)
    if not ascending and len(set(ids)) < len(ids):
        j = next(j for k, j in enumerate(ids) if j in ids[:k])
        raise ValueError(f"{where}: feature id {j} appears twice; give each id once per line (the value of the "
                         f"feature, not parts to add up)")
    return ids, values


def _svmlight_data_lines(path):
    """(line number, text before any '#') of each line of an svmlight file that holds a row."""
    with open(path, errors="replace") as f:
        for number, line in enumerate(f, start=1):
            text = line.split("#", 1)[0].strip()
            if text:
                yield number, text


def _svmlight_row_lines(path):
    """row -> line number of an svmlight file, computed when a message needs it."""
    def line_of(row):
        for k, (number, _) in enumerate(_svmlight_data_lines(path)):
            if k == row:
                return number
        return None
    return line_of


def _svmlight_problem(path):
    """The first line of an svmlight file that breaks its format or the id rule, as a message (None
    if every line reads, e.g. the file is not text)."""
    try:
        for number, text in _svmlight_data_lines(path):
            label, *pairs = text.split()
            where = f"{path}, line {number}"
            try:
                float(label)
            except ValueError:
                return f"{where}: the label {label!r} is not a number; an svmlight line starts with its label"
            try:
                feature_pairs([p for p in pairs if not p.startswith("qid:")], where, ascending=True)
            except ValueError as exc:
                return str(exc)
    except (OSError, UnicodeError):
        return None
    return None


def _check_span(X, path, line_of_row):
    """Refuse feature ids above :func:`~ssl_repro.solvers.engine.data_checks.largest_id_allowed` (the id rule, module docstring); ``X``: the
    file's rows (a CSR matrix as wide as its largest id: cheap, only its dense products are not);
    ``line_of_row(row)``: the line of a row."""
    if X.nnz == 0:
        return
    at = int(np.argmax(X.indices))
    largest, allowed = int(X.indices[at]) + 1, largest_id_allowed(X.nnz)
    if largest > allowed:
        row, used = int(np.searchsorted(X.indptr, at, side="right") - 1), np.unique(X.indices).size
        raise ValueError(
            f"{path}, line {line_of_row(row)}: feature id {largest:,} is far above the {X.nnz:,} non-zeros of the "
            f"file (largest id allowed: {allowed:,}, the larger of the non-zeros and {ID_SPAN_FLOOR:,}); the "
            f"solvers keep dense vectors of one number per id, so such an id costs time and memory for nothing. "
            f"Renumber the {used:,} ids that occur to 1..{used} (e.g. X = X[:, numpy.unique(X.indices)] on the matrix "
            f"scikit-learn's load_svmlight_file reads, then dump_svmlight_file(X, y, new_path, zero_based=False)), "
            f"or fix the stray id")


def _check_entries(X, labels, path, line_of_row):
    """Finite values and labels; ``line_of_row(row)``: the line of a row, for the message."""
    bad = np.flatnonzero(~np.isfinite(X.data))
    if bad.size:
        row = int(np.searchsorted(X.indptr, bad[0], side="right") - 1)
        raise ValueError(f"{path}, line {line_of_row(row)}: feature {X.indices[bad[0]] + 1} has the value "
                         f"{X.data[bad[0]]}; every value must be a finite number: fix or drop that entry")
    if labels is not None and not np.all(np.isfinite(labels)):
        row = int(np.flatnonzero(~np.isfinite(labels))[0])
        raise ValueError(f"{path}, line {line_of_row(row)}: the label {labels[row]} is not a finite number; "
                         f"labels are two classes (e.g. +1/-1), and 0 for unlabeled rows")


def load_libsvm_real_sim(root, download):
    """real-sim as vectorized by LIBSVM (the same SRAA data), ``<root>/sraa/real-sim.bz2``."""
    path = fetch("real-sim", root / "sraa" / "real-sim.bz2", LIBSVM_REAL_SIM, download,
                 hint=f"or put the SRAA tarball at {root / 'sraa' / 'sraa.tar.gz'} ({SRAA_URL})")
    X, y = read_svmlight(path, "real-sim")
    return X, y, str(path)


def load_33_vs_36(root, path=None):
    """The proprietary Yahoo! shopping set: the user supplies it as an svmlight file."""
    path = Path(path) if path else root / "33-vs-36" / "33-vs-36.svmlight"
    if not path.exists():
        raise DatasetNotAvailable(
            f"dataset '33-vs-36' is proprietary (Yahoo! shopping) and cannot be downloaded: put it as an "
            f"svmlight file at {path} (or set dataset.path in the config / pass path=)")
    X, y = read_svmlight(path, "33-vs-36")
    return X, y, str(path)
