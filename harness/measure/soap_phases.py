"""The SOAP engines' phase records (SOAP_PHASES=on): each engine appends, per request whose operation
ran, "web application, un-marshal, logic, marshal" in microseconds, then the bytes each phase took,
tab-separated, to its server's var/log/<server>-soap-phases.tsv (lab.common.Phases for the Java engines, PhaseClock in
soap-php/PlayerService.php, gSOAP's callbacks in soap-gsoap/player_service.c). The bounds are the
Infosys paper's: un-marshalling from the engine receiving the request to its business logic starting,
marshalling from the logic's end to the reply sent. The bytes are each engine's own count (MEMORY).
Pure parsing and statistics; PhaseLog reads the file from where a batch began."""
import statistics
from dataclasses import dataclass

PHASES = ("unmarshal_us", "logic_us", "marshal_us")
# The bytes a phase took, as its engine counts them: the Java engines' the bytes the request's thread
# allocated (lab.common.Phases), PHP's the heap's peak over what the phase began with (PhaseClock),
# gSOAP's the blocks it allocated for the request's data, its soap_malloc chain (player_service.c).
# Records written before the engines counted them have none.
MEMORY = ("unmarshal_b", "logic_b", "marshal_b")


@dataclass(frozen=True)
class Sample:
    unmarshal_us: float
    logic_us: float
    marshal_us: float
    unmarshal_b: float | None = None
    logic_b: float | None = None
    marshal_b: float | None = None

    @property
    def total_us(self):
        return self.unmarshal_us + self.logic_us + self.marshal_us


def samples(text, web_application):
    """Pure: the samples of one web application (a shared Tomcat's record holds several) in a record's
    text, with or without its bytes; a line cut short (the engine writing it now) is left out."""
    found = []
    for line in text.splitlines():
        fields = line.split("\t")
        if len(fields) in (1 + len(PHASES), 1 + len(PHASES) + len(MEMORY)) and fields[0] == web_application:
            try:
                found.append(Sample(*(float(field) for field in fields[1:])))
            except ValueError:
                continue
    return found


def quantile(values, share):
    """Pure: the share-quantile of values by linear interpolation (statistics' inclusive method)."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    return statistics.quantiles(ordered, n=100, method="inclusive")[round(share * 100) - 1]


def summary(found):
    """Pure: the median of each phase and of their sum, and the 10th and 90th percentiles of each, in
    microseconds, and the median of each phase's bytes when every sample has them; {} for no samples."""
    if not found:
        return {}
    figures = {"samples": len(found)}
    for phase in (*PHASES, "total_us"):
        values = [getattr(sample, phase) for sample in found]
        figures[phase] = round(statistics.median(values), 1)
        figures[f"{phase[:-3]}_p10_us"] = round(quantile(values, 0.1), 1)
        figures[f"{phase[:-3]}_p90_us"] = round(quantile(values, 0.9), 1)
    for phase in MEMORY:
        values = [getattr(sample, phase) for sample in found]
        if None not in values:
            figures[phase] = statistics.median(values)
    return figures


class PhaseLog:
    """A server's phase record, read from where a batch of requests began (edge)."""

    def __init__(self, path):
        self.path = path
        self.offset = len(self.text())

    def text(self):
        try:
            return self.path.read_text(errors="replace")
        except OSError:
            return ""

    def since(self):
        """What the engine recorded since this reader was made."""
        return self.text()[self.offset:]
