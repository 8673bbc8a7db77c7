"""The web servers serve exactly the files of the registry's apps on them: an app declared on Lighttpd
or Apache (here a fake one) is aliased, allowed and, for a PHP script under another name, handed to
PHP-FPM, with nothing else edited; every other file of its folder stays denied."""
import copy
import re

import pytest

from stack import php_servers, targets
from stack.php_servers import docroot_files, lighttpd_routes
from stack.settings import ROOT

FAKE_PAGE = {"folder": "php", "server": "lighttpd", "kind": "baseline",
             "workloads": {"single": {"method": "GET", "path": "/fake/hello?id={id}"}}}


@pytest.fixture
def fake_app():
    declared = copy.deepcopy(targets.registry())
    declared["apps"]["fake-page"] = copy.deepcopy(FAKE_PAGE)
    with targets.given(declared):
        yield


def test_each_app_path_names_the_file_its_folder_holds():
    served = php_servers.served_files("lighttpd")
    assert served["/soap-php/PlayerService"] == ("soap-php", "PlayerService.php")
    assert served["/soap-baseline/quote-response.xml"] == ("contract", "quote-response.xml")
    assert served["/baseline.html"] == ("php", "baseline.html")
    assert "/single.php" not in served  # the pages are Apache's
    apache = php_servers.served_files("apache")
    assert apache["/persistent/large.php"] == ("php", "large.php")


def test_every_served_file_is_in_the_repository():
    for server in ("apache", "apache-fpm", "lighttpd"):
        for url, (folder, file) in php_servers.served_files(server).items():
            assert (ROOT / folder / file).is_file(), (server, url)


def test_a_new_app_on_lighttpd_is_aliased_allowed_and_run_by_php_fpm(fake_app):
    served = php_servers.served_files("lighttpd")
    assert served["/fake/hello"] == ("php", "hello.php")
    lines = lighttpd_routes(served, {"php": "/srv/php", "soap-php": "/srv/soap", "contract": "/srv/contract"},
                            "/run/fpm.sock")
    assert '    "/fake/hello" => "/srv/php/hello.php"' in lines["ALIASES"].splitlines()
    allowed = re.compile(f"^({lines['ALLOWED']})$")
    assert allowed.match("/fake/hello") and allowed.match("/soap-php/PlayerService")
    assert not allowed.match("/fake/hello.php") and not allowed.match("/soap-php/lab.php")
    assert not allowed.match("/baselineXhtml")  # a dot is a dot
    assert '    "/fake/hello" => (("socket" => "/run/fpm.sock")),' in lines["FASTCGI"].splitlines()
    assert "/baseline.php" not in lines["FASTCGI"]  # the .php suffix rule runs it


def test_apache_allows_the_pages_of_its_apps_and_no_other_file(fake_app):
    pattern = re.compile(docroot_files(php_servers.served_files("apache")))
    for name in ("single.php", "large.php", "rows.php", "baseline.php", "baseline.html"):
        assert pattern.match(name), name
    for name in ("lab.php", "hello.php", "single.phps", "xsingle.php"):
        assert not pattern.match(name), name
    targets.registry()["apps"]["fake-page"]["server"] = "apache"
    assert re.match(docroot_files(php_servers.served_files("apache")), "hello.php")
