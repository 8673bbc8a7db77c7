import runpy; runpy.run_module("harness.run.crosscheck", run_name="__main__")  # `make crosscheck`
