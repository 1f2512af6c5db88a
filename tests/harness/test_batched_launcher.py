"""The batched Ray launcher's batches: consecutive jobs, at most ``jobs_per_task`` each, numbered as Hydra numbers
them (the launch itself, on a local Ray instance, is in test_distributed_launch.py)."""
from hydra_plugins.ssl_repro_launcher.batched_ray_launcher import batches


def test_batches_keep_the_sweeps_order_and_numbering():
    jobs = [[f"split={k}"] for k in range(7)]
    planned = batches(jobs, 3, initial_job_idx=10)
    assert [first for first, _ in planned] == [10, 13, 16]
    assert [job for _, batch in planned for job in batch] == jobs and [len(b) for _, b in planned] == [3, 3, 1]
    assert batches(jobs, 0) == [(k, [job]) for k, job in enumerate(jobs)]     # at least one job a task
