import sys; from harness.cli import main; sys.exit(main(["sweep", *sys.argv[1:]]))  # `make sweep`; knobs in sweep.json here
