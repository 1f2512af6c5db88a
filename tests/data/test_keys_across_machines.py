"""A data key names the data, not the processor (:mod:`ssl_repro.data.keys`, :mod:`ssl_repro.utils.tf_idf`).

The same data drifted by a unit in the last place keep their key; any change a setting makes (``min_df``, a
dropped document, a split's seed, a generator's parameter) changes it; the generated sets come out the same to
the bit with numpy's AVX-512 code paths disabled and enabled; and the key cache gives a key back only while
what its data were made from is unchanged."""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp

from ssl_repro.data import load_dataset, make_split
from ssl_repro.data.embedded import text_like
from ssl_repro.data.key_cache import KeyCache, code_digest, made_from
from ssl_repro.data.keys import SIGNIFICANT_BITS, TodaysKeys, dataset_key, matrix_key, rounded_bits, split_key
from ssl_repro.data.text import vectorize
from ssl_repro.utils.tf_idf import correctly_rounded_log, row_sums_in_order, tf_idf_rows

REPO = Path(__file__).resolve().parents[2]


def drifted(X, steps, seed=0):
    """``X`` with every stored value moved by ``steps`` units in the last place, up or down at random."""
    X = X.copy()
    up = np.random.default_rng(seed).random(X.data.size) < 0.5
    for _ in range(steps):
        X.data = np.where(up, np.nextafter(X.data, np.inf), np.nextafter(X.data, -np.inf))
    return X


def test_every_value_drifted_by_one_or_three_ulps_keeps_the_key():
    X, y = text_like()
    for steps in (1, 3):
        assert matrix_key(drifted(X, steps, seed=steps), y) == matrix_key(X, y)


def test_a_change_far_below_any_setting_but_above_the_rounding_changes_the_key():
    """One value moved by 2^-20 of itself (16 rounding steps of the key) is other data."""
    X, y = text_like()
    moved = X.copy()
    moved.data[123] *= 1 + 2.0 ** -20
    assert matrix_key(moved, y) != matrix_key(X, y)


def test_rounded_bits_round_to_the_stated_significant_bits():
    x = np.array([1.0, 1.0 + 2.0 ** -(SIGNIFICANT_BITS - 1), 1.0 + 2.0 ** -(SIGNIFICANT_BITS + 1),
                  -0.0, 0.0, np.inf, 1e-310, 3.0e300])
    bits = rounded_bits(x)
    assert bits[0] != bits[1]                # one step of 24 significant bits apart
    assert bits[0] == bits[2]                # a quarter step apart rounds to the same
    assert bits[3] == bits[4]                # -0.0 is 0.0
    assert bits[5] != bits[7] and bits[6] != bits[4]   # nothing overflows or underflows into another value


TEXTS = ["apple banana cherry", "apple banana", "apple cherry date", "banana date egg", "apple egg fig",
         "cherry fig grape", "banana grape", "apple banana grape"]


def test_min_df_two_to_three_changes_the_key():
    y = np.ones(len(TEXTS))
    assert matrix_key(vectorize(TEXTS, min_df=2), y) != matrix_key(vectorize(TEXTS, min_df=3), y)


def test_one_document_dropped_changes_the_key():
    y = np.ones(len(TEXTS))
    assert matrix_key(vectorize(TEXTS), y) != matrix_key(vectorize(TEXTS[1:]), y[1:])


@pytest.mark.skipif(not os.environ.get("SSL_REPRO_DATA"), reason="SSL_REPRO_DATA unset: pcmac's 20 Newsgroups file "
                    "(20newsgroups/20news-bydate_py3.pkz under the data root) is not here")
def test_one_pcmac_document_dropped_changes_the_key():
    data = load_dataset("pcmac", download=False)
    assert matrix_key(data.X[1:], data.y[1:]) != dataset_key(data)


def test_a_split_seed_and_a_generator_parameter_change_their_keys():
    data = load_dataset("text-like")
    assert split_key(make_split(data, 0, 16, 300)) != split_key(make_split(data, 1, 16, 300))
    assert matrix_key(*text_like(seed=1)) != matrix_key(*text_like())
    assert matrix_key(*text_like(topic_mix=0.13)) != matrix_key(*text_like())


def test_correctly_rounded_log_is_within_one_ulp_of_the_c_library_log():
    """math.log (the C library's, < 1 ulp) and the correctly rounded log differ by at most one unit in the last
    place, and agree on nearly every value."""
    x = np.concatenate([np.arange(1.0, 1000.0), (1.0 + 20000) / (1.0 + np.arange(1, 20000, 7))])
    ours = correctly_rounded_log(x)
    theirs = np.array([math.log(v) for v in x])
    ulps = np.abs(ours.view(np.int64) - theirs.view(np.int64))
    assert ulps.max() <= 1 and np.mean(ulps == 0) > 0.99


def test_row_sums_add_in_the_order_of_the_entries():
    X = sp.random(50, 40, density=0.3, format="csr", random_state=1)
    expected = [sum(X.data[X.indptr[i]:X.indptr[i + 1]].tolist()) for i in range(50)]   # left to right
    assert row_sums_in_order(X.data, X.indptr).tolist() == expected


def test_tf_idf_rows_are_numpys_formula_to_a_few_ulps_with_unit_norms():
    rng = np.random.default_rng(0)
    doc, word = np.repeat(np.arange(30), 12), rng.integers(0, 25, size=360)
    X = tf_idf_rows(doc, word, 30, 25)
    tf = sp.csr_matrix((np.ones(360), (doc, word)), shape=(30, 25))
    tf.sum_duplicates()
    df = np.bincount(tf.indices, minlength=25)
    reference = tf.copy()
    reference.data = np.log1p(tf.data) * (np.log(31.0 / (1.0 + df)) + 1.0)[tf.indices]
    reference = sp.csr_matrix(sp.diags(1.0 / np.sqrt(reference.multiply(reference).sum(axis=1).A1)) @ reference)
    reference.sort_indices()
    assert (X.indices == reference.indices).all() and (X.indptr == reference.indptr).all()
    assert np.abs(X.data.view(np.int64) - reference.data.view(np.int64)).max() <= 8
    assert np.allclose(np.sqrt(X.multiply(X).sum(axis=1).A1), 1.0)


def _has_avx512():
    try:
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:
        return False
    return bool(__cpu_features__.get("AVX512F"))


#: numpy's AVX-512 dispatch targets, by their names in numpy 2.4 and before (an unknown name is ignored).
AVX512_PATHS = "X86_V4 AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX512_SPR"

GENERATE = """
import hashlib, json
from ssl_repro.data import load_dataset
from ssl_repro.data.keys import dataset_key
from numpy._core._multiarray_umath import __cpu_features__ as cpu
out = {"avx512": bool(cpu.get("X86_V4") or cpu.get("AVX512_SKX"))}
for name in ("text-like", "synthetic-aut-avn"):
    data = load_dataset(name, root=ROOT)
    out[name] = [dataset_key(data), hashlib.sha256(data.X.data.tobytes()).hexdigest()]
print(json.dumps(out))
"""


@pytest.mark.slow   # two processes generate synthetic-aut-avn (35,588 rows), about 10 s
@pytest.mark.skipif(not _has_avx512(), reason="this processor has no AVX-512: numpy runs one code path here, so "
                    "there is no second path to compare the generated sets with")
def test_the_generated_sets_are_the_same_to_the_bit_with_and_without_avx512(tmp_path):
    outputs = []
    for disabled in ("", AVX512_PATHS):
        env = {**os.environ, "NPY_DISABLE_CPU_FEATURES": disabled}
        root = tmp_path / (disabled.split()[0] if disabled else "all")     # no cache shared between the two
        code = GENERATE.replace("ROOT", repr(str(root)))
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=REPO,
                              check=True)
        outputs.append(json.loads(done.stdout.splitlines()[-1]))
    enabled, without = outputs
    assert enabled["avx512"] and not without["avx512"]          # the two processes ran different code paths
    for name in ("text-like", "synthetic-aut-avn"):
        assert enabled[name] == without[name], name              # the key, and the raw bits of every value


class Loads:
    """A dataset loader that counts its loads."""

    def __init__(self):
        self.count = 0

    def __call__(self, name):
        self.count += 1
        return load_dataset(name)


def test_the_key_cache_computes_a_key_once_until_what_made_it_changes(tmp_path):
    source = tmp_path / "source.txt"
    source.write_text("one")
    cache_file = tmp_path / "keys.json"

    def todays(fresh=False, code="a"):
        loads, cache = Loads(), KeyCache(cache_file, fresh=fresh)
        keys = TodaysKeys(loads, cache=cache, made_from=lambda name: made_from(name, [source], code))
        found = (keys.key("text-like"), keys.split_key("text-like", 0, 16, 300))
        cache.save()
        return found, loads.count, cache

    first, loads, cache = todays()
    data = load_dataset("text-like")
    assert first == (dataset_key(data), split_key(make_split(data, 0, 16, 300)))
    assert (loads, cache.computed, cache.used) == (1, 2, 0)
    again, loads, cache = todays()
    assert again == first and (loads, cache.computed, cache.used) == (0, 0, 2)
    assert "0 computed, 2 from the cache" in cache.summary()
    assert todays(fresh=True)[1] == 1                             # --no-cache: loaded again
    assert todays(code="b")[1] == 1                                # other code: loaded again
    assert [todays()[1] for _ in range(2)] == [1, 0]               # back to code a, then from the cache
    source.write_text("two!")                                      # the file it is made from changed
    assert todays()[1] == 1


def test_a_file_the_load_writes_is_read_from_the_cache_next_time(tmp_path):
    """A loader's first load writes its vectorized cache, one of the files the key is made from: the key is kept
    under the digest after the load, so the next run takes it from the cache."""
    written = tmp_path / "vectorized.npz"
    cache_file = tmp_path / "keys.json"

    def load(name):
        written.write_text("the matrix")
        return load_dataset(name)

    counts = []
    for _ in range(2):
        cache = KeyCache(cache_file)
        TodaysKeys(load, cache=cache, made_from=lambda name: made_from(name, [written], "a")).key("text-like")
        cache.save()
        counts.append((cache.computed, cache.used))
    assert counts == [(1, 0), (0, 1)]


def test_code_digest_follows_the_data_code_and_the_named_scripts(tmp_path):
    script = tmp_path / "loader.py"
    script.write_text("x = 1\n")
    before = code_digest([script])
    assert code_digest([script]) == before
    script.write_text("x = 2\n")
    assert code_digest([script]) != before


def test_an_unreadable_key_cache_counts_as_empty(tmp_path):
    broken = tmp_path / "keys.json"
    broken.write_text("{not json")
    assert KeyCache(broken).entries == {}
