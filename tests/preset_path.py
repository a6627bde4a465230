"""The base game's rules on the preset path.

The base game (auction-pitch with its own options, ``Rules.base_game``) keeps the base
game's own path. Tests of the preset path that want auction-pitch's cards take
``discards=shown`` with it: every discard face up (VARIANTS.md 12.9) changes nothing where
nothing is discarded, so the game is the base game's, played by the preset path."""

AP_PRESET = "auction-pitch,discards=shown"
