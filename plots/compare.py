import sys; from harness.cli import main; sys.exit(main(["compare", *sys.argv[1:]]))  # `make compare RUN= RUN2=`
