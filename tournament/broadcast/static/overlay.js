// An overlay for OBS browser sources and hall screens: `/overlay/N?fields=board,names,scores,clocks,last,
// unseen,spread,turn` (any of them, in any order; default names,scores,clocks,last,turn) or `/overlay/slot/K`,
// which follows the table the director aims slot K at. Transparent background, large type, live.
"use strict";

(() => {
  const FIELDS = ["board", "names", "scores", "clocks", "last", "unseen", "spread", "turn"];
  const parts = location.pathname.split("/");
  const slot = parts[2] === "slot" ? Number(parts[3]) : null;
  const table = slot === null ? Number(parts[2]) : null;
  const params = new URLSearchParams(location.search);
  const asked = (params.get("fields") || "names,scores,clocks,last,turn").split(",").map((f) => f.trim()).filter(Boolean);
  const fields = new Set(asked.filter((f) => FIELDS.includes(f)));
  // a field the overlay does not know is said on the overlay itself (an OBS source shows no console)
  const unknown = asked.filter((f) => !FIELDS.includes(f));
  const root = document.getElementById("overlay");
  let receivedAt = 0;

  root.classList.toggle("with-board", fields.has("board"));
  for (const f of fields) root.classList.add(`f-${f}`);

  function playerBox(p, i, view, w) {
    const box = Cast.el("div", `op${p.on_turn && fields.has("turn") ? " on-turn" : ""}`);
    box.dataset.index = i;
    if (fields.has("names")) box.append(Cast.el("div", "oname", p.name));
    const line = Cast.el("div", "oline");
    if (fields.has("scores")) line.append(Cast.el("span", "oscore", String(p.score)));
    if (fields.has("clocks")) {
      const clock = Cast.el("span", "clock", p.clock ? Cast.clockText(p.clock.ms) : "");
      clock.dataset.ms = p.clock ? p.clock.ms : "";
      clock.dataset.running = p.clock ? String(p.clock.running) : "false";
      if (p.clock && p.clock.ms < 0) clock.classList.add("over");
      line.append(clock);
    }
    if (fields.has("turn")) line.append(Cast.el("span", "oturn", p.on_turn ? w("on_turn") : ""));
    if (line.childNodes.length) box.append(line);
    return box;
  }

  function render(view) {
    const w = Cast.words(view);
    root.dataset.table = view.table || "";
    if (view.empty || !view.players) {
      root.replaceChildren(Cast.el("div", "onotice", slot !== null && !view.table ? w("no_slot", { slot })
        : w("no_table", { table: view.table })));
      return;
    }
    const out = [];
    if (fields.has("board")) {
      const board = Cast.el("div", "board");
      Cast.drawBoard(board, view, w);
      out.push(board);
    }
    const panel = Cast.el("div", "opanel");
    if (["names", "scores", "clocks", "turn"].some((f) => fields.has(f))) {
      const players = Cast.el("div", "oplayers");
      players.append(...view.players.map((p, i) => playerBox(p, i, view, w)));
      panel.append(players);
    }
    if (fields.has("spread")) {
      const s = view.spread || 0;
      const leader = s === 0 ? "" : view.players[s > 0 ? 0 : 1].name;
      panel.append(Cast.el("div", "ospread", `${w("spread")}: ${leader ? leader + " " : ""}${s === 0 ? "0" : "+" + Math.abs(s)}`));
    }
    if (fields.has("last")) {
      const last = view.last;
      const box = Cast.el("div", "olast");
      if (last) {
        const who = view.players[last.player] ? view.players[last.player].name : "";
        box.append(Cast.el("span", "olabel", `${w("last_play")}: `), Cast.el("span", "who", `${who} `),
          Cast.el("span", "what", Cast.moveText(last, w)),
          Cast.el("span", "pts", ` ${last.score >= 0 ? "+" : ""}${last.score}`));
      } else {
        box.append(Cast.el("span", "olabel", w("no_moves")));
      }
      panel.append(box);
    }
    if (fields.has("unseen")) {
      const box = Cast.el("div", "ounseen");
      const unseen = view.unseen || "";
      box.append(Cast.el("div", "ocounts", [view.bag !== null && view.bag !== undefined ? w("in_bag", { count: view.bag })
        : "", unseen ? w("unseen_count", { count: unseen.length }) : ""].filter(Boolean).join(" · ")),
      Cast.el("div", "otiles", Cast.unseenText(unseen)));
      panel.append(box);
    }
    const delay = Cast.delayText(view, w);
    if (delay) panel.append(Cast.el("div", "odelay", view.delay.waiting ? w("waiting_delay") : delay));
    if (unknown.length) {
      panel.prepend(Cast.el("div", "onotice", w("unknown_fields", { unknown: unknown.map((f) => `'${f}'`).join(", "),
        known: FIELDS.join(", ") })));
    }
    if (panel.childNodes.length) out.push(panel);
    root.replaceChildren(...out);
    root.dataset.seq = view.seq;
    root.dataset.shownAt = String(Date.now());  // when this picture reached the DOM (tests and benchmarks read it)
  }

  async function main() {
    await Cast.loadInfo();
    Cast.stream(slot !== null ? `slot=${slot}` : `table=${table}`, (view, at) => { receivedAt = at; render(view); });
    setInterval(() => Cast.tickClocks(root, receivedAt), 250);
  }

  main();
})();
