"""The rules engine: pure Python, standard library only, no I/O, no clocks.

Nothing here imports another package of the project; the referee, the simulator and the
record checker all drive the same engine.

Public API (import from the modules named):

- `game.squares`: `Square` (`H8`; `Square.from_str`, `str`), `Direction` (ACROSS, DOWN),
  `Position` (`8D` across, `D8` down). Any board size; the board checks bounds.
- `game.tiles`: `Tile` (`A`, blank `a`), `TileSet` (counts, values; `load_tile_set("english"|
  "german"|"polish")`), `rack_counter("AEI?RST")`, `normalise_word` (ß -> SS).
- `game.layout`: `Layout` from `game/data/layouts/<name>.json` (`load_layout("standard")`), any size.
- `game.rules`: `RuleSet` (layout, tiles, rack size, bingo tiles and bonus, first-play rule, exchange
  rule, `ChallengeRule`, `ScorelessLimit`, `EndRackRule`, time penalty); presets `classic_english()`,
  `naspa()`, `german()`, `polish()`; variants via `rules.with_options(...)`; JSON via
  `rules_to_dict`/`rules_from_dict`.
- `game.variants`: `register_variant(name, rules_factory, game_class=None)`, `get_variant(name)`:
  what a GCG `#variant` or `--tiles` name means.
- `game.board`: `Board(layout)`: `board[square]`, `place`, `remove`, `copy`, `is_empty`, `str`.
- `game.play`: `Placement` (`H8=A`), `placements_from_diff({"H8": "A", "H9": "e"})` (the real table's
  board diff), `placements_from_str("H8=A H9=e")`,
  `Play` (`8D WO.D`, GCG; `.placements(board)`, `Play.from_placements`).
- `game.validation`: `validate(board, placements, rules, first_play=None) -> CheckedPlay` (words formed)
  or the precise `IllegalPlayError` subclass of `game.errors`.
- `game.scoring`: `score(checked, rules) -> ScoredPlay` (per-word scores, bingo bonus, total).
- `game.game`: `first_player(draws)`; `Game(rules, players, lexicon=None, seed=None)`: `play(placements | "8D WORD")`,
  `exchange`, `pass_turn`, `challenge(challenger, valid=None)`, `apply_time_penalty(player, seconds)`,
  `adjust_score(player, points, reason)` (a director's ruling in points, not a turn),
  `undo_last_play()` and `correct_tile(square, letter)` (a director's corrections of the last play),
  `set_rack`, `finish_with_racks`, `force_play`, `winners`, `events` (score sheet), `evaluate`,
  `to_dict`/`Game.replay(rules, data)`/`Game.from_dict(data)`.
  Hooks for variants: `draw_count`, `after_turn`, `is_first_play`, `record_rack`.
- `game.events`: `Event`, `EventKind` (JSON round trip).
- `game.lexicon`: `Lexicon` (load a word list, compile, membership, `missing(words)`).
- `game.gcg`: `decode_gcg(bytes)` (UTF-8, UTF-16 with a BOM, Latin-1), `parse_gcg(text)`,
  `write_gcg(players, events, pragmas)` (the rack field on every move line; names kept on one line: `one_line`).
- `game.gcg_check`: `check_record(record, default_rules)` -> mismatches (what `referee gcg check` prints).
- `game.errors`: `RefereeError` and one class per failure, each with a stable `code`, the `form` of its
  message and the `fields` it names (docs/errors.md; `referee/words/engine.py` words them in English and German).
"""
