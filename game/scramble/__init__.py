"""SCRABBLE Scramble, the letter-dice game, kept together as python-chess keeps a variant family:

    game      ScrambleRules, ScrambleGame (a `game.game.Game` subclass) and the registered variants
    cup       where the twelve dice are: cup, hand, mat; seeded rolls and sensor readings
    dice      faces, dice and dice sets as data (`game/data/dice/<name>.json`)
    rule      the "scrambled" rule on squares and words
    errors    RollError, RollOrderError: what only the dice can get wrong

Importing the package registers the variants (`game.variants`), and its face is the game's: `ScrambleGame`,
`ScrambleRules`, `scramble_rules`.
"""

from game.scramble.game import ScrambleGame, ScrambleRules, scramble_rules

__all__ = ["ScrambleGame", "ScrambleRules", "scramble_rules"]
