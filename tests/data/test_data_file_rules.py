"""The feature-id rule of both file formats (one-based, once per line, a bounded id span) and the
file readers' messages: each names the file, the line, the value and the fix."""
import time
import tracemalloc

import numpy as np
import pytest

from ssl_repro.data import load_dataset, make_split
from ssl_repro.data.files import read_svmlight, read_svmlin_pair


def svmlight_file(folder, text):
    path = folder / "mine.svm"
    path.write_text(text)
    return path


def svmlin_pair(folder, examples, labels):
    ex, lab = folder / "examples.svmlin", folder / "labels.txt"
    ex.write_text(examples)
    lab.write_text(labels)
    return ex, lab


def read_file(folder, fmt, text, labels):
    """Read ``text`` as a svmlight file, or as the examples of a svmlin pair with ``labels``."""
    if fmt == "svmlight":
        return read_svmlight(svmlight_file(folder, text), "svmlight")
    return read_svmlin_pair(*svmlin_pair(folder, text, labels))


#: (format, file, labels file of a svmlin pair, what the refusal says), each a line the readers used to take
#: silently or refuse without its line: id 0 (svmlight read such a file as zero-based, shifting every column
#: by one), an id twice on a line (svmlin added the values up: 34:0.73 ... 34:5 read as 5.73), ids out of
#: order, a value that is not finite, a label out of place.
REFUSALS = [
    ("svmlight", "1 1:1 2:1\n-1 0:0.5 2:1\n", None,
     r"mine.svm, line 2: feature id 0 in '0:0.5'; feature ids are one-based"),
    ("svmlin", "1:1 2:1\n0:0.5 2:1\n", "1\n-1\n",
     r"examples.svmlin, line 2: feature id 0 in '0:0.5'.*add 1 to every id"),
    ("svmlin", "1:1\n34:0.73 2:1 34:5\n", "1\n-1\n", r"examples.svmlin, line 2: feature id 34 appears twice"),
    ("svmlight", "1 1:1\n# a comment line\n\n-1 2:1 34:0.73 34:5\n", None,
     r"mine.svm, line 4: feature id 34 appears twice.*merge the repeated id"),
    ("svmlight", "1 1:1\n-1 5:1 3:1\n", None, r"mine.svm, line 2: feature id 3 comes after id 5.*sort the line's pairs"),
    ("svmlight", "1 1:1\n-1 1:2 3:nan\n", None, r"mine.svm, line 2: feature 3 has the value nan; every value must be"),
    ("svmlin", "1:1\n\n2:inf\n", "1\n0\n-1\n", r"examples.svmlin, line 3: feature 2 has the value inf"),
    ("svmlin", "1:1\n2:1\n3:1\n", "1\n-1\n2\n", r"labels.txt, line 3: label '2'; the reference software's labels are"),
    ("svmlight", "1 1:1\n-1 2:1\n-1 2:1\n7 1:1\n", None, r"found 3: -1, 1, 7; line 4 holds the third, 7"),
]


@pytest.mark.parametrize("fmt, text, labels, message", REFUSALS)
def test_a_refused_line_is_named_by_file_line_and_value_with_the_fix(tmp_path, fmt, text, labels, message):
    with pytest.raises(ValueError, match=message):
        read_file(tmp_path, fmt, text, labels)


def test_svmlin_ids_may_come_in_any_order(tmp_path):
    X, _ = read_svmlin_pair(*svmlin_pair(tmp_path, "1:1\n5:1 3:2\n", "1\n-1\n"))
    assert X[1].toarray().tolist() == [[0, 0, 2, 0, 1]]


def write_with_a_stray_id(folder, stray, fmt, rows=500):
    """A 500-row file on 2,000 ids with one stray id on line 8 (svmlight, or the svmlin pair)."""
    rng = np.random.default_rng(0)
    lines = []
    for i in range(rows):
        ids = np.sort(rng.choice(np.arange(1, 2001), 50, replace=False))
        pairs = " ".join(f"{j}:{v:.3f}" for j, v in zip(ids, rng.random(50)))
        lines.append(pairs + (f" {stray}:1" if i == 7 else ""))
    labels = np.where(np.arange(rows) < 40, np.where(np.arange(rows) % 2, 1, -1), 0)
    if fmt == "svmlight":
        return {"path": svmlight_file(folder, "".join(f"{y:d} {p}\n" for y, p in zip(labels, lines)))}
    ex, lab = svmlin_pair(folder, "".join(p + "\n" for p in lines), "".join(f"{y:d}\n" for y in labels))
    return {"examples": ex, "labels": lab}


@pytest.mark.parametrize("fmt", ["svmlight", "svmlin"])
def test_a_stray_feature_id_of_ten_million_is_refused_in_seconds_and_little_memory(tmp_path, fmt):
    paths = write_with_a_stray_id(tmp_path, 10_000_000, fmt)
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(ValueError, match=r"line 8: feature id 10,000,000 is far above the 25,001 non-zeros.*"
                                             r"Renumber the 2,001 ids that occur to 1\.\.2001"):
            load_dataset(fmt, root=tmp_path, **paths)
        seconds, peak = time.perf_counter() - start, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert seconds < 5                       # the run it replaces took minutes
    assert peak < 50 * 2**20                 # nothing the size of the 10^7 ids (one float64 vector: 76 MiB)


def test_the_id_span_bound_follows_the_non_zeros_above_a_floor(tmp_path):
    from ssl_repro.data.files import ID_SPAN_FLOOR, largest_id_allowed
    assert largest_id_allowed(10) == ID_SPAN_FLOOR and largest_id_allowed(10 * ID_SPAN_FLOOR) == 10 * ID_SPAN_FLOOR
    X, _ = read_svmlight(svmlight_file(tmp_path, f"1 1:1\n-1 {ID_SPAN_FLOOR}:1\n"), "svmlight")
    assert X.shape == (2, ID_SPAN_FLOOR)     # at the bound: read
    with pytest.raises(ValueError, match="far above"):
        read_svmlight(svmlight_file(tmp_path, f"1 1:1\n-1 {ID_SPAN_FLOOR + 1}:1\n"), "svmlight")


def test_empty_files_say_they_hold_no_examples(tmp_path):
    ex, lab = svmlin_pair(tmp_path, "", "")
    with pytest.raises(ValueError, match="examples.svmlin holds no examples"):
        load_dataset("svmlin", root=tmp_path, examples=ex, labels=lab)
    with pytest.raises(ValueError, match="mine.svm holds no examples"):
        load_dataset("svmlight", root=tmp_path, path=svmlight_file(tmp_path, "# nothing\n"))


def test_a_file_labelled_0_and_1_is_two_classes_and_says_so_for_n_labeled_all(tmp_path):
    ds = load_dataset("svmlight", root=tmp_path, path=svmlight_file(tmp_path, "1 1:1\n0 2:1\n1 1:2\n0 2:2\n"))
    assert list(ds.y) == [1, -1, 1, -1]
    with pytest.raises(ValueError, match=r"all 4 rows hold one of two classes: 0 marks an unlabeled row only in a "
                                         r"file whose labels are -1, 0 and \+1"):
        make_split(ds, seed=0, n_labeled="all")


@pytest.mark.parametrize("name, override", [("svmlight", "dataset.path=FILE"),
                                            ("svmlin", "dataset.examples=FILE dataset.labels=FILE")])
def test_a_missing_file_argument_names_the_harness_override(tmp_path, name, override):
    with pytest.raises(ValueError, match=override):
        load_dataset(name, root=tmp_path)
