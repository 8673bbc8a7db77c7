"""The manifest's versions of libraries built into a WAR: read from the WAR, not from the POM's default."""
from harness.hosts.inventory import library_version

# The entries of WEB-INF/lib of target/webapps-jakarta/pooled-servlet-java25.war as `mvn package` built it,
# and as `-Djava25.hikaricp.version=6.3.0` built it.
BUILT = ["WEB-INF/", "WEB-INF/lib/", "WEB-INF/lib/mariadb-java-client-3.5.11.jar", "WEB-INF/lib/slf4j-jdk14-2.0.17.jar",
         "WEB-INF/lib/slf4j-api-2.0.17.jar", "WEB-INF/lib/HikariCP-7.1.0.jar", "WEB-INF/lib/java-common-1.0-jakarta.jar",
         "WEB-INF/web.xml"]
STUDYS_POOL = [name.replace("HikariCP-7.1.0", "HikariCP-6.3.0") for name in BUILT]


def test_a_libraries_version_is_the_one_in_the_war():
    assert library_version(BUILT, "HikariCP") == "7.1.0"
    assert library_version(STUDYS_POOL, "HikariCP") == "6.3.0"
    assert library_version(BUILT, "mariadb-java-client") == "3.5.11"


def test_a_library_the_war_lacks_is_none_and_a_prefix_is_not_a_match():
    assert library_version(BUILT, "HikariCP-java7") == "none"
    assert library_version(BUILT, "slf4j") == "none"
