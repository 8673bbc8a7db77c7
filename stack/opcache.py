"""PHP-FPM's OPcache as a deployment runs it, as php-fpm's command-line flags. Pure."""
from stack.server import LabError

# PHP_JIT's values: the php-fpm master's OPcache JIT settings. The JIT's code lives in a buffer of the
# OPcache's shared memory, allocated when the master starts (an INI_SYSTEM setting, so set here and not
# in a pool). 64 MiB is PHP 8.4's default buffer (php-src's RFC "jit_config_defaults": smaller ones
# filled up on moderately sized projects); Debian's 8.2 sets opcache.jit=off with no buffer.
JIT_SETTINGS = {"off": {"opcache.jit": "off", "opcache.jit_buffer_size": "0"},
                "tracing": {"opcache.jit": "tracing", "opcache.jit_buffer_size": "64M"}}


def opcache_flags(jit):
    """Pure: php-fpm's -d flags for OPcache as a deployment runs it: the scripts' timestamps never
    checked (opcache.validate_timestamps=0: a deployment reloads PHP-FPM to change its code, as the lab
    restarts a pool), and the JIT as PHP_JIT says; LabError naming the values for another."""
    if jit not in JIT_SETTINGS:
        raise LabError(f"PHP_JIT={jit}: one of {', '.join(JIT_SETTINGS)}")
    settings_of = {"opcache.validate_timestamps": "0", **JIT_SETTINGS[jit]}
    return [flag for name, value in settings_of.items() for flag in ("-d", f"{name}={value}")]
