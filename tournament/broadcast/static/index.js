// Every table for spectators, to choose a board: who plays, the scores as spectators see them (through the
// event's delay), a link to the table's view. Refreshed every few seconds.
"use strict";

(() => {
  const root = document.getElementById("tables");

  async function refresh() {
    let tables = [];
    try { tables = await (await fetch("/api/watch", { credentials: "same-origin" })).json(); } catch (e) { return; }
    const w = Cast.words(tables[0]);
    document.getElementById("title").textContent = Cast.info && Cast.info.event ? Cast.info.event : w("boards");
    document.title = w("boards");
    root.replaceChildren(...tables.map((t) => {
      const card = Cast.el("a", `card${t.online ? "" : " offline"}`);
      card.href = `/watch/${t.table}`;
      card.dataset.table = t.table;
      card.append(Cast.el("div", "cname", [t.name, t.round ? w("round", t) : "",
        t.division ? w("division", t) : ""].filter(Boolean).join(" · ")));
      for (const p of t.players) {
        const row = Cast.el("div", `cplayer${p.on_turn ? " on-turn" : ""}`);
        row.append(Cast.el("span", "pname", p.name), Cast.el("span", "cscore", String(p.score)));
        card.append(row);
      }
      card.append(Cast.el("div", "cstate", t.state ? w.state(t.state) : ""));
      return card;
    }));
  }

  async function main() {
    await Cast.loadInfo();
    await refresh();
    setInterval(refresh, 5000);
  }

  main();
})();
