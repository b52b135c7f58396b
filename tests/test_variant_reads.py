"""Outside the kernels, a fact ``Variant`` holds is asked of it (``rules.definition``,
``rules.players``...), not read back from the engine's params array: one answer, said once, in
``rules.py``. The params slots that only mirror a ``Variant`` field are listed here; a read of
one in the Python outside the kernel folders and rules.py (which fills them) fails, naming
file:line. Slots an option can change (target, stage-2 pairs, reuse, points...) are not
mirrors: reading them from params is right."""

from __future__ import annotations

import re
from pathlib import Path

from bezsim import compile_cache
from bezsim.engine import constants as C
from bezsim.rules import VARIANTS, Rules, option_choices, option_names

ROOT = Path(__file__).resolve().parent.parent

# params slot -> the Variant field it mirrors (rules.py fills the slot from the preset alone)
MIRRORED = {
    "PR_PLAYERS": "players",
    "PR_PACKS": "packs",
    "PR_HAND_SIZE": "hand_size",
    "PR_PARTNERS": "partners",
    "PR_OPEN_CARDS": "open_cards",
    "PR_ONE_HAND_GAME": "one_hand_game",
    "PR_TRUMP_FOURS": "trump_fours",
    "PR_BRISQUES_COUNT": "brisques_decide",   # set only where one hand is the game (R6.7)
}
# the Python that fills params or runs on them (kernels), and what is scanned
KERNEL_FOLDERS = tuple(f"bezsim/{folder}/" for folder in compile_cache.KERNEL_FOLDERS)
FILLS_PARAMS = "bezsim/rules.py"
SCANNED = ("bezsim", "benchmarks", "analyses")
READ = re.compile(r"\b(" + "|".join(MIRRORED) + r")\b")


def _python_outside_kernels():
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(KERNEL_FOLDERS) or rel == FILLS_PARAMS:
                continue
            yield rel, path


def test_no_params_read_of_a_variant_fact():
    found = []
    for rel, path in _python_outside_kernels():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for slot in READ.findall(line):
                found.append(f"{rel}:{number}: {slot} -> ask Variant.{MIRRORED[slot]}")
    assert not found, "params reads of what Variant says:\n" + "\n".join(found)


def test_the_mirrored_slots_equal_their_variant_fields_whatever_the_options():
    """The list above is right: each slot is the field's value in every preset, and no
    option value moves it."""
    for variant in VARIANTS:
        rules = Rules.make(variant)
        want = {slot: int(getattr(rules.definition, field)) for slot, field in MIRRORED.items()}

        def mirrored(r: Rules) -> dict[str, int]:
            p = r.params()
            return {slot: int(p[getattr(C, slot)]) for slot in MIRRORED}

        assert mirrored(rules) == want, variant
        for name in option_names(variant):
            choices = option_choices(name)
            values = choices[1:] if isinstance(choices, tuple) else (1500,)
            for value in values:
                assert mirrored(Rules.make(variant, {name: value})) == want, (variant, name)
