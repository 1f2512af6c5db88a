"""ssl_repro's Hydra plugin: the default sweeper, which counts a sweep's jobs (:mod:`.progress_sweeper`)."""
