import runpy; runpy.run_module("harness.run.concurrency", run_name="__main__")  # `make concurrency-sweep`
