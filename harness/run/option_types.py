"""The command line's value types: each turns a text into a checked value, or raises argparse's
error with one line saying what it accepts."""
import argparse


def listed(text):
    return tuple(item for item in text.replace(",", " ").split() if item)


def number(kind, low, high=None, low_included=True):
    """A number of `kind` from low (or above it) up to high, else one line saying so."""
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {'an integer' if kind is int else 'a number'}") from None
        too_low = value < low if low_included else value <= low
        if too_low or (high is not None and value >= high):
            accepted = (f"{'at least' if low_included else 'above'} {low:g}"
                        + (f" and below {high:g}" if high is not None else ""))
            raise argparse.ArgumentTypeError(f"{text} is out of range: it must be {accepted}")
        return value
    return parse


SWITCH_WORDS = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False}


def switch(text):
    """On or off: 1, true, yes or on; 0, false, no or off."""
    if text.lower() not in SWITCH_WORDS:
        raise argparse.ArgumentTypeError(f"{text!r} is neither on (1) nor off (0)")
    return SWITCH_WORDS[text.lower()]


def positive(kind):
    return number(kind, 0, low_included=False)


def rounds_count(text):
    """A number of rounds (1 or more), or "auto" (ROUNDS=auto: sweep.json's auto_rounds)."""
    if text == "auto":
        return text
    try:
        return number(int, 1)(text)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"{error}, or auto") from None


def offered_rates(text):
    """Offered rates above 0, in req/s."""
    return tuple(number(float, 0, low_included=False)(item) for item in listed(text))


def linear_rate_count(text):
    """0 (the study's ramp) or a count of 2 or more."""
    count = number(int, 0)(text)
    if count == 1:
        raise argparse.ArgumentTypeError("1 rate brackets nothing: give 0 (the study's ramp) or 2 or more")
    return count
