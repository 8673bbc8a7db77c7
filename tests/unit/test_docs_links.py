"""README.md and docs/*.md: every relative link reaches a file, and every anchor a heading (or an
explicit <a id>) of the page it names, as GitHub renders them."""
import re

import pytest

from stack.settings import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading):
    """GitHub's anchor of a heading: lower case, all but letters, digits, underscores, hyphens and
    spaces dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page):
    text = page.read_text()
    found, counts = set(re.findall(r'<a id="([^"]+)"', text)), {}
    for heading in re.findall(r"^#{1,6} (.+)$", re.sub(r"```.*?```", "", text, flags=re.S), flags=re.M):
        base = slug(heading)
        found.add(base if base not in counts else f"{base}-{counts[base]}")
        counts[base] = counts.get(base, 0) + 1
    return found


def links(page):
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    return [target for pair in LINK.findall(text) for target in pair if target]


def test_the_heading_slugs_are_githubs():
    assert slug("Hosts on a network: `TOPOLOGY=netns`, `LINK=`") == "hosts-on-a-network-topologynetns-link"
    assert slug("Was the study's large workload its network? (`TOPOLOGY=netns`)") == \
        "was-the-studys-large-workload-its-network-topologynetns"


def test_the_pages_exist_and_readme_is_a_front_page():
    assert {page.name for page in PAGES} >= {"README.md", "method.md", "results.md", "apps.md", "soap-engines.md",
                                             "topologies.md", "hardening.md", "measurement-log.md"}
    assert len((ROOT / "README.md").read_text().splitlines()) <= 150


def findings(readme):
    """README's findings: each bullet's lines (its "- " line and the indented ones that follow it)."""
    section = readme.split("\n## What it found\n", 1)[1].split("\n## ", 1)[0]
    return [bullet.splitlines() for bullet in re.findall(r"^- .*(?:\n  .*)*", section, flags=re.M)]


def test_readme_gives_the_apps_and_the_two_commands_before_its_findings_each_in_two_lines_with_a_link():
    readme = (ROOT / "README.md").read_text()
    found = readme.index("## What it found")
    assert readme.index("make saturation-sweep") < found and readme.index("make test") < found
    assert readme.index("## The apps") < found
    assert len(findings(readme)) >= 10
    for bullet in findings(readme):
        assert len(bullet) <= 2 and LINK.search(" ".join(bullet)), bullet[0]


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_relative_link_and_anchor_resolves(page):
    broken = []
    for target in links(page):
        if re.match(r"[a-z]+:", target):
            continue  # http:, https:, mailto:: not this test's
        path, _, anchor = target.partition("#")
        where = (page.parent / path).resolve() if path else page
        if not where.exists():
            broken.append(f"{target}: no file {where.relative_to(ROOT) if ROOT in where.parents else where}")
        elif anchor and where.suffix == ".md" and anchor not in anchors(where):
            broken.append(f"{target}: no heading #{anchor} in {where.name}")
    assert not broken, f"{page.name}: " + "; ".join(broken)
