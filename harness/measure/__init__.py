"""The instruments of a step: the load generators run (`load`; their commands and parsers are the
drivers', harness/drivers), what is watched while load runs (monitors, processes, network, mariadb_status, pool_log,
jit) and the client's ports. Nothing here judges or plans."""
