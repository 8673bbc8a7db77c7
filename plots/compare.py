import runpy; runpy.run_module("harness.report.compare", run_name="__main__")  # `make compare RUN= RUN2=`
