"""What a binding hands the edge to run: the command line and the files it reads."""
from typing import NamedTuple


class Invocation(NamedTuple):
    argv: list
    inputs: dict  # {path: text}, written before the command runs (a POST's body, wrk's Lua script)
