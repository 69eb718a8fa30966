"""Load scenarios and the benchmark harness behind `make bench` (see loadtest/bench.py)."""
