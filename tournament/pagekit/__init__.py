"""What the table's scoreboard and the director's hall pages share: the PIN (or key) and cross-site guards
(`guards`) and the coalescing server-sent events hub (`hub`). Neutral ground: the referee imports it, and it
imports nothing of the referee."""
