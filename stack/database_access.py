"""How the servers reach the database: the settings every app connects with (on the db host's
address), and MariaDB's connection budget, each server's declared share of it."""
from stack import registry, settings, topology
from stack.files import write_atomically

# MariaDB connections kept free beyond the servers' own (contract/targets.json's db_connections):
# the import, the monitors' status queries and an administrator's session.
SPARE_CONNECTIONS = 20


def max_connections():
    """Every server's share (its declared db_connections knobs: workers, threads, pools), and the spare."""
    return sum(settings.int_knob(knob) for knob in registry.db_connection_knobs()) + SPARE_CONNECTIONS


def db_settings():
    """What every app needs to reach the database (on the db host's address); the same values for
    PHP and the JVM apps."""
    return {
        "db.host": topology.current().address(registry.server(registry.database_server())["host"]),
        "db.port": settings.knob("MARIADB_PORT"),
        "db.name": settings.DB_NAME,
        "db.user": settings.DB_USER,
        "db.password": settings.db_password(),
        "pool.size": settings.knob("POOL_SIZE"),
        "pool.timeoutMs": settings.knob("POOL_TIMEOUT_MS"),
    }


def write_app_config():
    """The database settings the JVM apps read (PHP gets the same values through Apache)."""
    lines = [f"{key}={value}" for key, value in db_settings().items()]
    write_atomically(settings.APP_CONFIG, "\n".join(lines) + "\n", mode=0o600)
