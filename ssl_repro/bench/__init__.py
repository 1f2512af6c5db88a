"""Benchmark files: the model of the benchmark matrix ``text20k`` (:mod:`.text_model`) and the ``.npz``
format the speed records and the C++ reference's side-by-side timing read (:mod:`.files`)."""
