"""Variants: an app or a server declared as a copy of another that differs in a few keys, so that two
settings of one app (virtual threads and platform threads, PHP's JIT and none) run side by side and are
measured at one moment, in one sweep or by turns, instead of one after the other with a restart
between them.

A declaration with `variant_of` names another of its section and stands for a copy of it with its own
keys over it; a key set to null is left out of the copy. A server's `knobs` ({knob: value}) are
knobs it runs with whatever the lab's are (Server.knob), and its `port_offset` moves it off its
original's port. A variant app's code is its original's: its folder too. Pure: the declarations in, the full declarations out, before the layout
(stack/layout.py) splits them."""
import copy


def resolved(registry):
    """The registry with every variant in `servers` and `apps` written out in full; ValueError when
    one names something that is not a declaration of its own section, or another variant."""
    result = copy.deepcopy(registry)
    for section in ("servers", "apps"):
        declared = registry[section]
        for name, own in declared.items():
            if "variant_of" not in own:
                continue
            original = declared.get(own["variant_of"])
            if original is None or "variant_of" in original:
                raise ValueError(f"{section} {name}: variant_of {own['variant_of']!r} is not a declaration "
                                 f"of {section} that is not itself a variant")
            code = {"folder": own["variant_of"]} if section == "apps" else {}
            full = {**code, **copy.deepcopy(original), **copy.deepcopy(own)}
            result[section][name] = {key: value for key, value in full.items() if value is not None}
    return result

