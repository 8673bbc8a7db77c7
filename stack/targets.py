"""The targets' declarations (contract/targets.json), read once: the registry of apps and servers
(stack/registry.py) and the workloads' names (stack/workload_names.py) both read them here."""
import json

from stack.settings import ROOT

TARGETS_FILE = ROOT / "contract" / "targets.json"
REGISTRY = json.loads(TARGETS_FILE.read_text())
