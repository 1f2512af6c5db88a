"""ssl_repro's Hydra launcher plugin: sweeps on a Ray cluster with many jobs to a task (:mod:`.batched_ray_launcher`)."""
