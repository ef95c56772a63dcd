// A spectator's view of one table: board with coordinates and premiums, the last play highlighted, the
// score sheet, unseen tiles and bag, both clocks and who is to play; live, through the event's delay.
"use strict";

(() => {
  const table = Number(location.pathname.split("/").pop());
  const $ = (id) => document.getElementById(id);
  let receivedAt = 0;

  function render(view) {
    const w = Cast.words(view);
    if (view.empty) {
      $("notice").hidden = false;
      $("notice").textContent = w("no_table", { table });
      return;
    }
    const waiting = view.delay && view.delay.waiting;
    $("notice").hidden = !waiting;
    if (waiting) $("notice").textContent = w("waiting_delay");
    document.title = `${view.name} · ${(view.players || []).map((p) => p.name).join(" – ")}`;
    $("title").textContent = view.name;
    $("where").textContent = [view.round ? w("round", view) : "", view.division ? w("division", view) : "",
      Cast.info && Cast.info.event ? Cast.info.event : ""].filter(Boolean).join(" · ");
    $("state").textContent = view.online ? (view.state ? w.state(view.state) : "–") : w("offline");
    const delay = Cast.delayText(view, w);
    $("delay").hidden = !delay;
    $("delay").textContent = delay;
    for (const [id, key] of [["h-last", "last_play"], ["h-unseen", "unseen"], ["h-moves", "moves"],
      ["h-player", "player"], ["h-move", "move"], ["h-score", "score"], ["h-total", "total"]]) $(id).textContent = w(key);
    Cast.drawBoard($("board"), view, w);
    const result = view.result;
    $("players").replaceChildren(...view.players.map((p, i) => {
      const box = Cast.el("div", `player${p.on_turn ? " on-turn" : ""}`);
      box.dataset.index = i;
      const top = Cast.el("div", "prow");
      top.append(Cast.el("span", "pname", p.name), Cast.el("span", "score", String(p.score)));
      const bottom = Cast.el("div", "prow");
      const clock = Cast.el("span", "clock", p.clock ? Cast.clockText(p.clock.ms) : "");
      clock.dataset.ms = p.clock ? p.clock.ms : "";
      clock.dataset.running = p.clock ? String(p.clock.running) : "false";
      if (p.clock && p.clock.ms < 0) clock.classList.add("over");
      let mark = p.on_turn ? w("on_turn") : "";
      if (result && result.winners) {
        mark = result.winners.includes(i) ? w(result.winners.length > 1 ? "tie" : "winner") : "";
      }
      bottom.append(Cast.el("span", "turn", mark), clock);
      box.append(top, bottom);
      return box;
    }));
    const last = view.last;
    $("last").replaceChildren();
    if (last) {
      const who = view.players[last.player] ? view.players[last.player].name : "";
      $("last").append(Cast.el("span", "who", who), Cast.el("span", "what", Cast.moveText(last, w)),
        Cast.el("span", "pts", `${last.score >= 0 ? "+" : ""}${last.score}`));
    } else {
      $("last").append(Cast.el("span", "none", w("no_moves")));
    }
    const unseen = view.unseen || "";
    $("unseen").textContent = Cast.unseenText(unseen);
    $("counts").textContent = [view.bag !== null && view.bag !== undefined ? w("in_bag", { count: view.bag }) : "",
      unseen ? w("unseen_count", { count: unseen.length }) : ""].filter(Boolean).join(" · ");
    const rows = (view.moves || []).map((m, i) => {
      const row = document.createElement("tr");
      row.dataset.player = m.player;
      for (const text of [i + 1, view.players[m.player] ? view.players[m.player].name : m.player,
        Cast.moveText(m, w), m.score, m.total]) row.append(Cast.el("td", "", String(text)));
      return row;
    });
    $("moves").tBodies[0].replaceChildren(...rows);
    if (rows.length) rows[rows.length - 1].classList.add("latest");
    const scroll = document.querySelector(".moves-scroll");
    scroll.scrollTop = scroll.scrollHeight;
    document.body.dataset.seq = view.seq;
    document.body.dataset.shownAt = String(Date.now());
  }

  async function main() {
    await Cast.loadInfo();
    Cast.stream(`table=${table}`, (view, at) => { receivedAt = at; render(view); });
    setInterval(() => Cast.tickClocks(document, receivedAt), 250);
  }

  main();
})();
