"""Broadcasting the event: what the director gives spectators, streamers and the field's own tools.

`feed` writes tsh's `tourney.js` back with the scores of the ended games filled in (Woogles' broadcast poller
and any tool reading tsh's file point at the director unchanged); `view` turns a table's snapshot into what a
spectator may see; `delay` keeps each table's recent pictures so spectators see the game as it was a while
ago; `stats` counts each game's bingos, highest play and spread; `routes` serves the spectator view, the
overlays and their stream slots (docs/director.md, "Broadcasting the event").
"""
