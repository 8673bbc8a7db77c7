"""docs/architecture.md against the tree: every folder the repository keeps is in its layout, every
module of the harness is named in its layer's row, and no layer imports a higher one but where the
page says so."""
import re
import subprocess

from stack.settings import ROOT

PAGE = (ROOT / "docs" / "architecture.md").read_text()
LAYER_ROW = re.compile(r"^\| (\d) \| `(\w+)/` \| (.*)$", re.MULTILINE)
# The one import of a higher layer the page names: several clients' figures merged with the
# percentiles of their merged histogram.
UPWARD = {("harness/measure/clients.py", "results")}


def layers():
    """{package: (layer, its row's text)} of the page's table of the harness's layers."""
    return {match.group(2): (int(match.group(1)), match.group(3)) for match in LAYER_ROW.finditer(PAGE)}


def kept_folders():
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return sorted({path.split("/")[0] for path in listed.split() if "/" in path})


def test_every_folder_the_repository_keeps_is_in_the_layout():
    assert kept_folders(), "git lists the repository's files"
    assert [folder for folder in kept_folders() if f"`{folder}/`" not in PAGE] == []


def test_every_harness_module_is_named_in_its_layers_row():
    missing = [f"{package}/{module.stem}" for package, (_, text) in layers().items()
               for module in sorted((ROOT / "harness" / package).glob("*.py"))
               if module.stem != "__init__" and not re.search(rf"`(?:\w+/)?{module.stem}`", text)]
    assert missing == []
    assert sorted(layers()) == sorted(path.name for path in (ROOT / "harness").iterdir()
                                      if path.is_dir() and (path / "__init__.py").exists())


def test_no_layer_imports_a_higher_one_but_where_the_page_says():
    found = set()
    for package, (layer, _) in layers().items():
        for module in (ROOT / "harness" / package).glob("*.py"):
            for imported in re.findall(r"^\s*(?:from|import) harness\.(\w+)", module.read_text(), re.MULTILINE):
                if imported in layers() and layers()[imported][0] > layer:
                    found.add((str(module.relative_to(ROOT)), imported))
    assert found == UPWARD
    assert "`measure/clients` merges several load clients' figures" in PAGE
