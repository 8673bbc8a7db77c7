import runpy; runpy.run_module("harness.report.render", run_name="__main__")  # `make plots`; gnuplot scripts here
