import runpy; runpy.run_module("harness.run.sweep", run_name="__main__")  # `make sweep`; knobs in sweep.json here
