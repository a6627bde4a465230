"""``pitchsim rules``: the rules in force, base or with ``--rules``, in a player's words."""

from __future__ import annotations

import sys
import textwrap

import typer

from ..game import presets
from ..game.rules import BASE_RULES, Rules
from ..game.variants import BY_KEY, VARIANTS
from .app import app
from .common import PartnershipOpt, RulesOpt, make_rules, print_json

BASE_TEXT = """\
Pitch (Auction Pitch / Setback), as pitchsim plays it; docs/rules.md has the full text.
- 2-7 players, 6 cards each from one 52-card deck (A high, 2 low).
- One auction round, left of the dealer first, dealer last: pass or bid 1-4, each bid
  higher than the last.  A bid of 4 is made by pitching a card at once.
- The pitcher (high bidder) leads; that card's suit is trump.  Follow the led suit or
  play a trump (see follow=); the highest trump wins the trick, else the highest card
  of the led suit.
- Four points a hand: High (highest trump in play), Low (lowest trump in play), Jack
  (jack of trump, if dealt) and Game (the single highest count of 10s, aces, kings,
  queens and jacks won).  High, Jack and Game go to whoever wins the card in a trick.
- The pitcher scores every point won if they reach the bid, else loses the bid; the
  others score what they won.  Only a pitcher who makes the bid can win the game.
"""


def _value_text(rules: Rules, key: str) -> str:
    value = rules.describe()[key]
    return str(value).lower() if isinstance(value, bool) else str(value)


@app.command("rules")
def rules_command(
    rules: str = RulesOpt,
    partnership: bool = PartnershipOpt,
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document on stdout."),
) -> None:
    """Print the rules in force: the base rules, or with --rules (and --partnership)."""
    rule_set = make_rules(rules, partnership, None)  # --partnership vs partnership=false
    if not rule_set.base_game:
        _print_family(rule_set, as_json)
        return
    base = BASE_RULES.describe()
    if as_json:
        print_json(
            {
                "rules": rule_set.describe(),
                "changed": sorted(k for k, v in rule_set.describe().items() if base[k] != v),
                "meaning": {v.key: _meaning(v.key, _value_text(rule_set, v.key)) for v in VARIANTS},
            }
        )
        return
    width = max(len(v.key) for v in VARIANTS)
    lines = [BASE_TEXT, "Options in force (* = not the base rule):"]
    for v in VARIANTS:
        value = _value_text(rule_set, v.key)
        star = " " if value == _value_text(BASE_RULES, v.key) else "*"
        lines.append(f"{star} {v.key:<{width}} = {value:<9} {_meaning(v.key, value)}")
    values = "; ".join(f"{v.key} {'|'.join(v.values)}" for v in VARIANTS)
    lines += [
        "",
        *textwrap.wrap(
            "Change them with --rules on any command, e.g. --rules low=dealt,target=11, or a "
            f"TOML file with the same keys.  Values (base first): {values}.",
            88,
            break_on_hyphens=False,
        ),
    ]
    sys.stdout.write("\n".join(lines) + "\n")


def _meaning(key: str, value: str) -> str:
    meaning = BY_KEY[key].meaning
    if value in meaning:
        return meaning[value]
    return meaning["N"].replace("N", value, 1) if "N" in meaning else ""


def _print_family(rule_set: presets.Rules, as_json: bool) -> None:
    """A rule family in full: its clauses in words, then every option in force."""
    fam = presets.FAMILIES[rule_set.family]
    preset = presets.Rules(**(fam.preset | {"family": fam.name})).describe()
    doc = rule_set.describe()
    texts = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in doc.items()}
    if as_json:
        print_json(
            {
                "rules": doc,
                "spec": presets.spec(rule_set),
                "max_bid": rule_set.max_bid,
                "changed": sorted(k for k in doc if doc[k] != preset.get(k)),
                "points": [
                    {"point": name, "value": value, "to": who}
                    for name, value, who in presets.point_cards(rule_set)
                ],
                "meaning": {k: presets.meaning(k, texts[k]) for k in doc if k != "family"},
            }
        )
        return
    width = max(len(k) for k in doc)
    lines = [presets.family_text(rule_set), f"Options in force (* = not {fam.name}'s own value):"]
    for k, v in doc.items():
        if k == "family":
            continue
        star = " " if v == preset.get(k) else "*"
        lines.append(f"{star} {k:<{width}} = {texts[k]:<13} {presets.meaning(k, texts[k])}")
    lines += [
        "",
        f"Change them after the family on any command, e.g. --rules {fam.name},"
        "target=15.  The complete rules as one string:",
        presets.spec(rule_set),
    ]
    sys.stdout.write("\n".join(lines) + "\n")
