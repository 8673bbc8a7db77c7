import sys; from harness.cli import main; sys.exit(main(["concurrency-sweep", *sys.argv[1:]]))  # `make concurrency-sweep`
