"""What kind of run a results folder holds, as its own record says: the summary, the report, `make
compare` and the index read it here, never by which files happen to exist. Pure.

A run's manifest.json (soap-phases.json for `make soap-phases` alone) gives its `kind` from format 3.
A run written before then said none: it is told by the files each kind alone wrote, as the reports
told it then."""

SWEEP = "sweep"                # cells stepped to saturation: steps.tsv per cell, results.json
CONCURRENCY = "concurrency"    # closed-loop windows against connections: concurrency.json
SOAP_PHASES = "soap-phases"    # the SOAP engines' phases, one request at a time: soap-phases.json
PAPER = "paper"                # a paper's figures (`make reproduce`): a run per figure and round inside
KINDS = (SWEEP, CONCURRENCY, SOAP_PHASES, PAPER)
TITLES = {SWEEP: "saturation sweep", CONCURRENCY: "concurrency sweep", SOAP_PHASES: "SOAP phases",
          PAPER: "a paper's figures"}

# Each kind's own record, from format 3 on: where its `kind` is written.
RECORDS = {SWEEP: "manifest.json", CONCURRENCY: "manifest.json", SOAP_PHASES: "soap-phases.json"}


def kind_of(record, present):
    """The kind of the run whose record (its manifest's data, or soap-phases.json's; None when the
    folder has neither) is `record` and whose folder holds the file names `present`; None for a folder
    that holds no run. A kind the lab does not know is a ValueError."""
    kind = (record or {}).get("kind")
    if kind is None:
        kind = earlier_kind(present)
    if kind is not None and kind not in KINDS:
        raise ValueError(f"a run of kind {kind!r}: this lab reads {', '.join(KINDS)}")
    return kind


def earlier_kind(present):
    """Before format 3: a manifest beside concurrency.json was a concurrency sweep's, any other a sweep's;
    soap-phases.json alone, SOAP phases; figures' folders (round-N) alone, a paper's."""
    if "manifest.json" in present:
        return CONCURRENCY if "concurrency.json" in present else SWEEP
    if "soap-phases.json" in present:
        return SOAP_PHASES
    if any(name.startswith("round-") for name in present):
        return PAPER
    return None
