import sys; from harness.cli import main; sys.exit(main(["plots", *sys.argv[1:]]))  # `make plots`; gnuplot scripts here
