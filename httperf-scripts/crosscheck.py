import sys; from harness.cli import main; sys.exit(main(["crosscheck", *sys.argv[1:]]))  # `make crosscheck`
