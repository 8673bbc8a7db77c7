"""The instruments of a step: the load generators and their outputs' parsers (httperf_output,
oha_output), what is watched while load runs (monitors, processes, network, mariadb_status, pool_log,
jit) and the client's ports. Nothing here judges or plans."""
