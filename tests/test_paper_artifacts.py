"""experiments/paper_artifacts.py: statuses from the files present, drawings under their committed names."""
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def artifacts(experiment_script):
    return experiment_script("paper_artifacts")


def by_name(artifacts, name):
    return next(a for a in artifacts.ARTIFACTS if a.name == name)


def test_drawings_are_written_under_the_names_the_results_folder_uses(artifacts, tmp_path):
    for name in artifacts.DRAWINGS:
        artifact = by_name(artifacts, name)
        artifacts.regenerate(artifact, None, tmp_path)
        assert artifacts.status(artifact, tmp_path)[0] == "regenerated"
        for f in artifact.files:
            assert (tmp_path / f).stat().st_size > 1000


def test_a_sweep_artifact_is_partial_until_every_dataset_has_its_files(artifacts, tmp_path):
    timing = by_name(artifacts, "timing")
    assert artifacts.status(timing, tmp_path)[:2] == ("missing", [])
    for f in artifacts.files_of(timing, "pcmac"):
        (tmp_path / f).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / f).write_bytes(b"png")
    state, done, why = artifacts.status(timing, tmp_path)
    assert (state, done) == ("partial", ["pcmac"]) and "not here" in why
    assert "timing_pcmac/figures/pcmac_seconds.png" in artifacts.files_of(timing, "pcmac")


def test_every_sweep_has_its_recipe_and_defaults_are_among_its_datasets(artifacts):
    for a in artifacts.ARTIFACTS:
        if a.kind == "sweep":
            assert a.default_dataset in a.datasets
            assert (ROOT / "conf" / "experiment" / f"{artifacts.experiment_name(a)}.yaml").exists(), a.name


def test_sweep_folders_keep_the_committed_names(artifacts):
    assert artifacts.sweep_folder(by_name(artifacts, "timing"), "pcmac") == "timing_pcmac"
    assert artifacts.sweep_folder(by_name(artifacts, "timing"), "33-vs-36") == "timing_33_vs_36"
    assert artifacts.sweep_folder(by_name(artifacts, "large-transductive"), "kdd99-10") == "transductive_kdd99_10"


def test_a_dataset_outside_the_artifact_is_refused_by_name(artifacts, tmp_path):
    with pytest.raises(SystemExit, match="large-transductive is made on .*kdd99-10.*not 'pcmac'"):
        artifacts.regenerate(by_name(artifacts, "large-transductive"), "pcmac", tmp_path)


def test_the_listing_names_every_artifact_with_a_status(artifacts):
    text = artifacts.listing(ROOT / "results")
    for a in artifacts.ARTIFACTS:
        assert f"{a.name}: " in text
    assert text.count("status: ") == len(artifacts.ARTIFACTS)
