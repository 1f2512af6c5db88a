"""``report --check``'s data keys: every record under results/ carries the keys of the data it was made from
(:mod:`ssl_repro.data.keys`), and they are the keys of today's data.

The records and their fields:

- a sweep folder's ``results.csv``: every row's ``dataset_key`` (its dataset's X and y) and ``split_key`` (the
  job's labeled, unlabeled and test rows), recomputed by loading the row's dataset and drawing its split
  (``split``, ``n_labeled``, ``n_unlabeled``);
- every JSON record (``*.json``; a list record: each of its items): ``data_keys``, a mapping of each dataset
  name it was made from to that dataset's key, or :data:`~ssl_repro.data.keys.NOT_FROM_DATA`.  A script's CSV
  and JSON-lines files are keyed by the JSON record of their folder.

A record made before jobs stamped keys was keyed later from the data it names: it carries ``keyed_at``, the
commit that computed its keys (:func:`keyed_later`); a render says so.

One problem line per record file: no key, a key other than today's (the dataset, both keys, how many split
keys differ), or data this machine cannot load to check the key.
"""
import json
import math
from pathlib import Path

import pandas as pd

from ssl_repro.data.keys import NOT_FROM_DATA

#: The columns a sweep's results.csv keys its rows with.
KEY_COLUMNS = ("dataset_key", "split_key")


def _blank(value):
    return value is None or (isinstance(value, float) and math.isnan(value)) or str(value).strip() == ""


def sweep_problems(frame, todays):
    """The problems of one results.csv ``frame`` (its rows' keys against :class:`~ssl_repro.data.keys.TodaysKeys`
    ``todays``), in words, one per dataset it holds."""
    missing = [c for c in KEY_COLUMNS if c not in frame]
    if missing:
        return [f"no {' and no '.join(missing)} column: its rows carry no key of the data they were made from"]
    found = []
    for dataset, rows in frame.groupby("dataset", sort=True):
        blank = rows[list(KEY_COLUMNS)].map(_blank).any(axis=1)
        if blank.any():
            found.append(f"{int(blank.sum())} of {len(rows)} rows of {dataset} carry no key")
            continue
        today = todays.key(dataset)
        if today is None:
            found.append(f"cannot check {dataset}'s keys: {todays.problem(dataset)}")
            continue
        other = sorted(set(rows["dataset_key"]) - {today})
        if other:
            found.append(f"{dataset} made from other data (dataset key {', '.join(other)}; today's {today})")
            continue
        cells = rows.drop_duplicates(["split", "n_labeled", "n_unlabeled", "split_key"])
        differ = [c for c in cells.itertuples(index=False)
                  if todays.split_key(dataset, c.split, c.n_labeled, c.n_unlabeled) != c.split_key]
        if differ:
            first = differ[0]
            found.append(f"{len(differ)} of {len(cells)} splits of {dataset} differ from today's (first: split "
                         f"{first.split}, {first.n_labeled} labeled, {first.n_unlabeled} unlabeled)")
    return found


def json_problems(record, todays):
    """The problems of one JSON record (a mapping, or a list of them) against ``todays``, in words."""
    items = record if isinstance(record, list) else [record]
    found = []
    for item in items:
        keys = item.get("data_keys") if isinstance(item, dict) else None
        if keys == NOT_FROM_DATA:
            continue
        if not isinstance(keys, dict) or not keys or any(_blank(k) for k in keys.values()):
            found.append("no data_keys (the keys of the data it was made from, or "
                         f"{NOT_FROM_DATA!r})" + (f" in {sum(1 for i in items if not _keyed(i))} of its "
                                                  f"{len(items)} items" if isinstance(record, list) else ""))
            break
        for dataset, key in sorted(keys.items()):
            today = todays.key(dataset)
            if today is None:
                found.append(f"cannot check {dataset}'s key: {todays.problem(dataset)}")
            elif key != today:
                found.append(f"{dataset} made from other data (dataset key {key}; today's {today})")
    return list(dict.fromkeys(found))


def _keyed(item):
    keys = item.get("data_keys") if isinstance(item, dict) else None
    return keys == NOT_FROM_DATA or (isinstance(keys, dict) and bool(keys))


def record_files(results):
    """Every record file under ``results`` that carries keys: the sweep folders' results.csv and every JSON
    record, sorted."""
    results = Path(results)
    return sorted(list(results.glob("*/results.csv")) + list(results.rglob("*.json")))


def keyed_later(path):
    """Whether the record file ``path`` was keyed after it was made (a ``keyed_at`` column or field: the commit
    that computed its keys from the data it names), not by the jobs that made it."""
    if path.suffix == ".csv":
        return "keyed_at" in pd.read_csv(path, nrows=1).columns
    record = json.loads(path.read_text())
    return any(isinstance(i, dict) and "keyed_at" in i for i in (record if isinstance(record, list) else [record]))


def key_problems(results, todays):
    """[(record file relative to ``results``, [problems in words])] of every record file under ``results``
    whose keys are missing or not today's (:class:`~ssl_repro.data.keys.TodaysKeys` ``todays``)."""
    found = []
    for path in record_files(results):
        if path.suffix == ".csv":
            problems = sweep_problems(pd.read_csv(path, dtype={k: str for k in KEY_COLUMNS}), todays)
        else:
            problems = json_problems(json.loads(path.read_text()), todays)
        if problems:
            found.append((path.relative_to(results).as_posix(), problems))
    return found
