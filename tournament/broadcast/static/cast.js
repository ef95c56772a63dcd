// Shared by the spectator view and the overlays: their words (English and German), the board, clocks, the
// stream. The words are the table scoreboard's catalogue (referee/web/static/app.js) where it has them.
"use strict";

const Cast = (() => {
  const WORDS = {
    en: {
      live: "live", reconnecting: "reconnecting…", connecting: "connecting…",
      table: "Table", round: "round", division: "div", bag: "Bag", unseen: "Unseen tiles", moves: "Moves",
      player: "Player", move: "Move", score: "Score", total: "Total", on_turn: "to play", winner: "wins",
      tie: "shares the win", no_moves: "No moves yet", last_play: "Last play", spread: "Spread",
      delay_moves: (n) => `${n} ${n === 1 ? "move" : "moves"} behind`,
      delay_seconds: (s) => `${s} s behind`,
      waiting_delay: "The game is shown after the delay",
      no_table: (t) => `Table ${t} has not reported yet`, no_slot: (k) => `Slot ${k} is not aimed at a table`,
      in_bag: (n) => `${n} in the bag`, unseen_count: (n) => `${n} unseen`,
      states: { waiting: "waiting to start", turn: "playing", blank: "blank letter?", challenge: "challenge window",
                takeback: "take back tiles", paused: "paused", ended: "game over", exchange: "exchange",
                racks: "racks at the end", removal: "remove dice", roll: "roll the dice" },
      kinds: { pass: "pass", exchange: "exchange", withdrawn: "withdrawn", challenge: "challenge",
               penalty: "penalty", end: "end", lost_turn: "lost turn", adjustment: "director's adjustment" },
      premiums: { T: "TW", D: "DW", t: "TL", d: "DL" },
    },
    de: {
      live: "live", reconnecting: "verbinde neu…", connecting: "verbinde…",
      table: "Tisch", round: "Runde", division: "Gruppe", bag: "Beutel", unseen: "Ungesehene Steine",
      moves: "Züge", player: "Spieler", move: "Zug", score: "Punkte", total: "Summe", on_turn: "am Zug",
      winner: "gewinnt", tie: "teilt den Sieg", no_moves: "Noch keine Züge", last_play: "Letzter Zug",
      spread: "Differenz",
      delay_moves: (n) => `${n} ${n === 1 ? "Zug" : "Züge"} zurück`,
      delay_seconds: (s) => `${s} s zurück`,
      waiting_delay: "Die Partie wird nach der Verzögerung gezeigt",
      no_table: (t) => `Tisch ${t} hat sich noch nicht gemeldet`,
      no_slot: (k) => `Platz ${k} zeigt noch keinen Tisch`,
      in_bag: (n) => `${n} im Beutel`, unseen_count: (n) => `${n} ungesehen`,
      states: { waiting: "wartet auf Start", turn: "Spiel läuft", blank: "Blanko-Buchstabe?", challenge: "Zweifelfrist",
                takeback: "Steine zurücknehmen", paused: "Pause", ended: "Spielende", exchange: "Tausch",
                racks: "Reststeine", removal: "Würfel entfernen", roll: "würfeln" },
      kinds: { pass: "passt", exchange: "tauscht", withdrawn: "zurückgenommen", challenge: "Zweifel",
               penalty: "Strafe", end: "Ende", lost_turn: "Zug verloren", adjustment: "Korrektur der Turnierleitung" },
      premiums: { T: "3W", D: "2W", t: "3B", d: "2B" },
    },
  };

  const params = new URLSearchParams(location.search);
  let lang = WORDS[params.get("lang")] ? params.get("lang") : null;
  let info = null;

  async function loadInfo() {
    try {
      const response = await fetch("/api/broadcast", { credentials: "same-origin" });
      info = await response.json();
    } catch (e) { info = { language: "en", delay: {} }; }
    if (!lang && WORDS[info.language]) lang = info.language;
    return info;
  }

  function words(view) {
    const chosen = lang || (view && WORDS[view.language] ? view.language : "en");
    document.documentElement.lang = chosen;
    return WORDS[chosen];
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
          else if (w.premiums[premium]) square.append(el("span", "plabel", w.premiums[premium]));
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
    const kind = w.kinds[move.kind] || move.kind;
    if (move.kind === "adjustment") return move.note ? `${kind}: ${move.note}` : kind;
    if (move.kind === "exchange" && move.notation && move.notation !== "-") return `${kind} ${move.notation.replace(/^-/, "")}`;
    return kind;
  }

  function delayText(view, w) {
    const d = view.delay;
    if (!d || (!d.moves && !d.seconds)) return "";
    return d.moves ? w.delay_moves(d.moves) : w.delay_seconds(d.seconds);
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

  return { WORDS, loadInfo, words, el, clockText, drawBoard, unseenText, moveText, delayText, stream, tickClocks,
           get info() { return info; } };
})();
