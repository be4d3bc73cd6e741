"""The conformance kit runs on every installed built-in rule set (design notes §6)."""

from spitemalice import installed
from spitemalice.testing.conformance import VariantConformance

for _info in installed():
    if _info.kind == "ruleset" and _info.origin.startswith("spitemalice_variants"):
        _name = "Test" + "".join(part.title() for part in _info.name.split("-")) + "Conforms"
        globals()[_name] = type(_name, (VariantConformance,), {
            "ruleset": _info.name, "scenario_paths": ("tests",), "games": 6,
        })
