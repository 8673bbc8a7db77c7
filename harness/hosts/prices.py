"""The host's price list read where the lab's CPUs are (harness/measure/prices.py): here, or with
TOPOLOGY=ssh the client's CPUs here and each host's servers' CPUs there, through its agent."""
from harness.hosts.channel import agent
from harness.measure import prices
from harness.measure.processes import cpu_list
from harness.results.prices import CLIENT, SERVERS
from stack import remote


def price_list(pinning, over_ssh):
    """[(host, role, cpu, {price: {"median", "low", "high"}})]: the client's CPUs first, then the
    servers' (host "" is this machine). A CPU both use is read once, as the client's."""
    client = cpu_list(pinning.client_cpus)
    if not over_ssh:
        servers = [cpu for cpu in sorted(set(cpu_list(pinning.server_cpus)) | set(cpu_list(pinning.db_cpus)))
                   if cpu not in client]
        found = prices.read_prices(client + servers)
        return [("", CLIENT if cpu in client else SERVERS, cpu, found[cpu]) for cpu in client + servers]
    readings = [("", CLIENT, cpu, found) for cpu, found in prices.read_prices(client).items()]
    for host in remote.ORDER:
        there = agent(host).call("prices", pinning.host_cpus(host))
        readings += [(host, SERVERS, int(cpu), found) for cpu, found in there.items()]
    return readings
