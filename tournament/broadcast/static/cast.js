// Shared by the spectator view and the overlays: their words, the board, clocks, the stream. The words are the
// catalogue's (referee/words/director.py `broadcast`, board.py, states.py), from the director's /words.js, in the
// event's language ([broadcast] language), else in the language of the table a page shows; `?lang=de` overrides.
"use strict";

const Cast = (() => {
  const params = new URLSearchParams(location.search);
  let lang = Words.languages.includes(params.get("lang")) ? params.get("lang") : null;
  let info = null;

  async function loadInfo() {
    try {
      const response = await fetch("/api/broadcast", { credentials: "same-origin" });
      info = await response.json();
    } catch (e) { info = { language: "", delay: {} }; }
    if (!lang && Words.languages.includes(info.language)) lang = info.language;
    return info;
  }

  // The words of a page showing `view`: `w(key, fields)` says broadcast.<key>; `w.state(s)`, `w.kind(k)` and
  // `w.premium(p)` name a table's state, a score sheet row's kind and a premium square.
  function words(view) {
    const chosen = Words.use(lang || (view && Words.languages.includes(view.language) ? view.language : "en"));
    const w = (key, fields) => Words.say(`broadcast.${key}`, fields, chosen);
    w.state = (state) => (Words.has(`states.label.${state}`) ? Words.say(`states.label.${state}`, {}, chosen) : state);
    w.kind = (kind) => (Words.has(`board.kind.${kind}`) ? Words.say(`board.kind.${kind}`, {}, chosen) : kind);
    w.premium = (premium) => (Words.has(`board.premium.${premium}`) ? Words.say(`board.premium.${premium}`, {}, chosen)
      : "");
    return w;
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function clockText(ms) {
    const negative = ms < 0;
    const total = Math.floor(Math.abs(ms) / 1000);
    const text = `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
    return negative ? `-${text}` : text;
  }

  const COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";

  // The board as a grid of squares with its coordinates: columns A.. above, rows 1.. at the left.
  function drawBoard(root, view, w) {
    const board = view.board && view.board.length ? view.board : Array(15).fill(".".repeat(15));
    const n = board.length;
    const cols = board[0].length;
    const last = new Set(view.last_play || []);
    const values = view.values || {};
    root.style.setProperty("--cols", cols);
    root.style.setProperty("--rows", n);
    const cells = [el("div", "corner")];
    for (let c = 0; c < cols; c++) cells.push(el("div", "coord col", COLUMNS[c]));
    for (let r = 0; r < n; r++) {
      cells.push(el("div", "coord row", String(r + 1)));
      for (let c = 0; c < cols; c++) {
        const name = COLUMNS[c] + (r + 1);
        const ch = board[r][c] || ".";
        const premium = view.premiums && view.premiums[r] ? view.premiums[r][c] : ".";
        const square = el("div", `sq p-${premium === "." ? "none" : premium === premium.toUpperCase() ? premium + "W" : premium + "L"}`);
        square.dataset.sq = name;
        if (ch === ".") {
          if (name === view.start) square.classList.add("start");
          else if (w.premium(premium)) square.append(el("span", "plabel", w.premium(premium)));
        } else {
          const blank = ch !== "?" && ch === ch.toLowerCase() && ch !== ch.toUpperCase();
          const tile = el("div", `tile${blank ? " blank" : ""}${last.has(name) ? " last" : ""}`);
          tile.append(el("span", "letter", ch === "?" ? "?" : ch.toUpperCase()));
          const value = blank || ch === "?" ? null : values[ch.toUpperCase()];
          if (value !== undefined && value !== null) tile.append(el("span", "value", String(value)));
          square.append(tile);
          square.classList.add("filled");
        }
        if (last.has(name)) square.classList.add("last");
        cells.push(square);
      }
    }
    root.replaceChildren(...cells);
  }

  // The unseen tiles grouped by letter (AAAA BB ...), blanks last.
  function unseenText(unseen) {
    const letters = [...(unseen || "")].sort((a, b) => (a === "?") - (b === "?") || a.localeCompare(b, "de"));
    const groups = [];
    for (const ch of letters) {
      if (groups.length && groups[groups.length - 1][0] === ch) groups[groups.length - 1] += ch;
      else groups.push(ch);
    }
    return groups.join(" ");
  }

  function moveText(move, w) {
    if (move.kind === "play") return move.notation;
    const kind = w.kind(move.kind);
    if (move.kind === "adjustment") return move.note ? `${kind}: ${move.note}` : kind;
    if (move.kind === "exchange" && move.notation && move.notation !== "-") return `${kind} ${move.notation.replace(/^-/, "")}`;
    return kind;
  }

  function delayText(view, w) {
    const d = view.delay;
    if (!d || (!d.moves && !d.seconds)) return "";
    return d.moves ? w(d.moves === 1 ? "delay_move" : "delay_moves", { count: d.moves })
      : w("delay_seconds", { count: d.seconds });
  }

  // Server-sent `view` events of one table or one slot; `onView(view, receivedAt)`.
  function stream(query, onView) {
    const connection = document.getElementById("connection");
    const source = new EventSource(`/broadcast/events?${query}`);
    source.addEventListener("open", () => { if (connection) connection.dataset.connected = "true"; });
    source.addEventListener("error", () => { if (connection) connection.dataset.connected = "false"; });
    source.addEventListener("view", (event) => onView(JSON.parse(event.data), performance.now()));
    return source;
  }

  // A running clock counts down from the view's value between two views (the server's value is the truth).
  function tickClocks(root, receivedAt) {
    for (const clock of root.querySelectorAll(".clock[data-running='true']")) {
      clock.textContent = clockText(Number(clock.dataset.ms) - (performance.now() - receivedAt));
    }
  }

  return { loadInfo, words, el, clockText, drawBoard, unseenText, moveText, delayText, stream, tickClocks,
           get info() { return info; } };
})();
