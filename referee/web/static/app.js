// The scoreboard page: draws every snapshot the table pushes, animates the clocks between pushes,
// and sends control actions with the table PIN and the session's anti-forgery token. Its words are the table's
// /words.js (referee/words/page.py, board.py, states.py): `t(key, fields)` says page.<key> in the page's language.
// The server's clock values are the truth; the browser's clock only animates the display between them.
"use strict";

(() => {
  const $ = (sel, root = document) => root.querySelector(sel);
  const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

  const params = new URLSearchParams(location.search);
  const stored = (key) => { try { return localStorage.getItem(key); } catch (e) { return null; } };
  let lang = params.get("lang") || stored("scoreboard.lang") || null;
  if (lang !== null && !Words.languages.includes(lang)) lang = null;
  // ?display=tv: a screen across the room shows the game only, no control and no buttons.
  if (params.get("display") === "tv") document.documentElement.classList.add("tv");
  let snapshot = null;
  let session = null;
  const clocks = []; // {el, base, at, running}: the server's value and when it arrived

  function t(key, fields) {
    return Words.say(`page.${key}`, fields, lang || "en");
  }

  // A word of another catalogue (a state, a kind of move, a premium square), in the page's language.
  function word(key) {
    return Words.has(key) ? Words.say(key, {}, lang || "en") : "";
  }

  // --- clocks: server value plus the browser's elapsed time, for display only --------------------
  function formatClock(ms) {
    const s = Math.ceil(ms / 1000);
    const abs = Math.abs(s);
    const text = `${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, "0")}`;
    return s < 0 ? `−${text}` : text;
  }

  function setClock(el, clock, stopAtZero = false) {
    el.dataset.remainingMs = String(clock.remaining_ms);
    el.dataset.running = String(clock.running);
    clocks.push({ el, base: clock.remaining_ms, at: performance.now(), running: clock.running, stopAtZero });
  }

  function drawClocks() {
    const now = performance.now();
    for (const c of clocks) {
      let ms = c.running ? c.base - (now - c.at) : c.base;
      if (c.stopAtZero) ms = Math.max(0, ms);
      const text = formatClock(ms);
      if (c.el.textContent !== text) c.el.textContent = text;
      c.el.classList.toggle("overtime", ms < 0);
      c.el.classList.toggle("low", ms >= 0 && ms < 60000);
    }
  }

  // --- drawing a snapshot -------------------------------------------------------------------------
  // The board's squares in order (row by row), without the coordinates around them.
  let cells = [];

  function coordinate(text, kind) {
    const el = document.createElement("div");
    el.className = `coord ${kind}`;
    el.textContent = text;
    el.setAttribute("aria-hidden", "true");
    return el;
  }

  function buildBoard(rows, cols) {
    // Column letters across the top and row numbers down the left, as squares are named (H8, E5): the
    // alerts name squares, and players find them on the board by these.
    const board = $("#board");
    board.style.setProperty("--cols", cols);
    board.replaceChildren(coordinate("", "corner"));
    cells = [];
    for (let c = 0; c < cols; c++) board.appendChild(coordinate(String.fromCharCode(65 + c), "col"));
    for (let r = 0; r < rows; r++) {
      board.appendChild(coordinate(String(r + 1), "row"));
      for (let c = 0; c < cols; c++) {
        const cell = document.createElement("div");
        cell.className = "cell";
        cell.dataset.square = `${String.fromCharCode(65 + c)}${r + 1}`;
        board.appendChild(cell);
        cells.push(cell);
      }
    }
  }

  function drawBoard(s) {
    const rows = s.board.length;
    const cols = rows ? s.board[0].length : 0;
    if (cells.length !== rows * cols || $("#board").style.getPropertyValue("--cols") !== String(cols)) {
      buildBoard(rows, cols);
    }
    const last = new Set(s.last_play || []);
    const flagged = new Set((s.alerts || []).flatMap((a) => a.squares || []));
    const p = s.pending || {};
    const waiting = new Set([...(p.blanks || []), ...(p.letters || [])]);
    const remove = new Set(p.remove || []);
    let i = 0;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++, i++) {
        const cell = cells[i];
        const ch = s.board[r][c];
        const prem = (s.premiums && s.premiums[r] && s.premiums[r][c]) || ".";
        const start = cell.dataset.square === s.start; // where the layout puts it: H8, or E5 on Scramble's mat
        cell.dataset.premium = prem;
        cell.dataset.label = word(`board.premium.${prem}`);
        if (start) cell.dataset.start = "true"; else delete cell.dataset.start;
        const name = word(`board.premium_name.${start ? "start" : prem}`);
        if (name) cell.title = `${cell.dataset.square}: ${name}`; else cell.title = cell.dataset.square;
        cell.dataset.tile = ch === "." ? "" : ch === "?" ? "unknown" : ch === ch.toLowerCase() ? "blank" : "tile";
        cell.textContent = ch === "." ? "" : ch.toUpperCase();
        cell.classList.toggle("last", last.has(cell.dataset.square));
        cell.classList.toggle("flagged", flagged.has(cell.dataset.square));
        cell.classList.toggle("waiting", waiting.has(cell.dataset.square));
        cell.classList.toggle("remove", remove.has(cell.dataset.square));
      }
    }
  }

  function drawPlayers(s) {
    const box = $("#players");
    if (box.children.length !== s.players.length) {
      box.replaceChildren(...s.players.map((_, i) => {
        const card = document.createElement("article");
        card.className = "player";
        card.id = `player-${i}`;
        card.innerHTML = '<div class="name"></div><div class="score"></div><div class="clock"></div>' +
          '<div class="meta"></div>';
        return card;
      }));
    }
    const ended = s.state === "ended";
    // Who won is the engine's verdict (tie-break, a loss on time), never worked out here from the scores.
    const result = s.result || null;
    const winners = result ? result.winners : [];
    s.players.forEach((p, i) => {
      const card = box.children[i];
      const wins = winners.includes(i);
      card.classList.toggle("on-turn", p.on_turn);
      card.classList.toggle("winner", wins);
      $(".name", card).textContent = p.name;
      $(".score", card).textContent = String(p.score);
      const clockEl = $(".clock", card);
      if (p.clock) {
        clockEl.hidden = false;
        setClock(clockEl, p.clock);
      } else {
        clockEl.hidden = true;
      }
      const meta = [];
      if (wins) meta.push(t(winners.length > 1 ? "tie" : result.reason === "tie_break" ? "tie_break" : "winner"));
      if (ended && p.lost_on_time) meta.push(t("lost_on_time"));
      if (p.on_turn) meta.push(t("on_turn"));
      // Tiles on a rack while the game is on (and while the racks are counted); after the racks are entered
      // the count says nothing, and Scramble has dice in a hand, not racks (pending.rolled shows them).
      const counted = s.game === "standard" && !ended && p.rack_count !== null && p.rack_count !== undefined;
      if (counted) meta.push(t("tiles_on_rack", { count: p.rack_count }));
      $(".meta", card).textContent = meta.join(" · ");
    });
    for (const select of $$(".player-select")) {
      const value = select.value;
      select.replaceChildren(...s.players.map((p, i) => new Option(p.name, String(i))));
      if (value && Number(value) < s.players.length) select.value = value;
    }
  }

  function drawMoves(s) {
    const body = $("#moves tbody");
    // A play a challenge took off the board: its row is marked, not left to read as a score that stands.
    const withdrawn = new Set();
    s.moves.forEach((m, i) => {
      if (m.kind !== "withdrawn") return;
      for (let j = i - 1; j >= 0; j--) {
        if (s.moves[j].player === m.player && s.moves[j].kind === "play") { withdrawn.add(j); break; }
      }
    });
    const rows = s.moves.flatMap((m, i) => {
      const tr = document.createElement("tr");
      tr.dataset.kind = m.kind;
      if (withdrawn.has(i)) {
        tr.dataset.withdrawn = "true";
        tr.title = t("withdrawn_play");
      }
      const name = (s.players[m.player] && s.players[m.player].name) || `#${m.player + 1}`;
      const label = word(`board.kind.${m.kind}`) || m.kind;
      // The table writes some kinds as a label of their own, "(lost turn)": that is replaced by the page's
      // label in its language, never followed by it a second time.
      const move = m.kind === "play" ? m.notation
        : /^\(.*\)$/.test(m.notation || "") ? `(${label})`
        : `${m.notation} (${label})`;
      // a director's adjustment has no words: its reason stands in their column
      const texts = [String(i + 1), name, move, (m.words || []).join(", ") || m.note || "", String(m.score),
                     String(m.total)];
      texts.forEach((text, k) => {
        const td = document.createElement("td");
        fillWords(td, text, k === 1 ? LONG_NAME : LONG_WORD);
        if (k >= 4) td.className = "num";
        tr.appendChild(td);
      });
      if (!(m.scrambled && m.scrambled.length)) return [tr];
      // Scramble: the dice this play sent back to the cup, a row of their own under it
      const back = document.createElement("tr");
      back.dataset.kind = "scramble";
      ["", name, `(${word("board.kind.scramble")})`, m.scrambled.join(", "), "", String(m.total)].forEach((text, k) => {
        const td = document.createElement("td");
        fillWords(td, text, k === 1 ? LONG_NAME : LONG_WORD);
        if (k >= 4) td.className = "num";
        back.appendChild(td);
      });
      return [tr, back];
    }).reverse(); // newest first: the one people look for
    if (!rows.length) {
      const tr = document.createElement("tr");
      const td = document.createElement("td");
      td.colSpan = 6;
      td.className = "empty";
      td.textContent = t("no_moves");
      tr.appendChild(td);
      rows.push(tr);
    }
    body.replaceChildren(...rows);
  }

  // A cell's text as words that never break inside ("(exchange)" stays whole on a phone): a space is where a
  // line may break. Only a word longer than a column can be sure to hold (a 15-letter play; in the name
  // column, a name past 8 letters) may break inside, so the sheet still fits its box.
  const LONG_WORD = 12;
  const LONG_NAME = 8;

  function fillWords(td, text, limit = LONG_WORD) {
    const parts = String(text).split(/(\s+)/);
    td.replaceChildren(...parts.filter((part) => part !== "").map((part) => {
      if (/^\s+$/.test(part)) return document.createTextNode(" ");
      const span = document.createElement("span");
      span.className = part.length > limit ? "word long" : "word";
      span.textContent = part;
      return span;
    }));
  }

  // --- the end of the game and the controls of the state ------------------------------------------
  function scoreText(n) {
    return n < 0 ? `−${-n}` : String(n);
  }

  function resultLine(s) {
    const r = s.result;
    if (!r || s.state !== "ended" || !s.players.length) return "";
    const scores = s.players.map((p) => p.score);
    const winners = r.winners || [];
    // the winners first, then the others from the highest score
    const order = s.players.map((_, i) => i)
      .sort((a, b) => (winners.includes(b) - winners.includes(a)) || scores[b] - scores[a] || a - b);
    // "457-397"; a score below zero reads better as "37 to −23" than "37-−23"
    const sep = scores.some((n) => n < 0) ? t("score_sep_negative") : t("score_sep");
    const line = order.map((i) => scoreText(scores[i])).join(sep);
    const names = winners.map((i) => playerName(s, i));
    if (winners.length > 1) return t("result_shared", { names: names.join(t("and")), scores: line });
    if (!winners.length) return "";
    if (r.reason === "lost_on_time") return t("result_on_time", { name: names[0], scores: line });
    if (r.reason === "tie_break") return t("result_tie_break", { name: names[0], scores: line });
    const best = Math.max(...scores.filter((_, i) => i !== winners[0]));
    const spread = scores[winners[0]] - best;
    return t("result_win", { name: names[0], scores: line, spread: spread >= 0 ? `+${spread}` : scoreText(spread) });
  }

  function drawResult(s) {
    const el = $("#result");
    const text = resultLine(s);
    el.textContent = text;
    el.hidden = !text;
  }

  function drawControls(s) {
    // Only what the table takes in its state now (the snapshot's `actions`): no Start during play, no racks
    // form mid-game, no Exchange after the game. A table that does not say shows every control.
    const actions = Array.isArray(s.actions) ? new Set(s.actions) : null;
    const offered = (action) => actions === null || actions.has(action);
    const p = s.pending || {};
    const rolling = Number.isInteger(p.roll) && p.roll > 0;
    for (const button of $$(".buttons button[data-action]")) button.hidden = !offered(button.dataset.action);
    for (const form of $$(".forms form[data-action]")) {
      const action = form.dataset.action;
      form.hidden = !offered(action) || (action === "roll" && !rolling)
        || (actions === null && s.game !== "standard" && (action === "exchange" || action === "racks"));
    }
  }

  function groupTiles(tiles) {
    const counts = new Map();
    for (const ch of tiles) counts.set(ch, (counts.get(ch) || 0) + 1);
    return [...counts.keys()].sort((a, b) => (a === "?") - (b === "?") || a.localeCompare(b))
      .map((ch) => ch.repeat(counts.get(ch))).join(" ");
  }

  // The table's own alerts for the questions it waits on. When the table words a question itself, its
  // alert is shown (it may say why, in the table's language) and the page's prompt for it is left out.
  const QUESTION_CODES = {
    blanks: ["blank_letter"], letters: ["doubtful_letter"], remove: ["take_back", "remove_dice", "not_in_lexicon"],
    racks: ["racks_needed"],
  };
  const ANSWERABLE = new Set(Object.values(QUESTION_CODES).flat());

  function drawAlerts(s) {
    const box = $("#alerts");
    box.replaceChildren(...(s.alerts || []).map((a) => {
      const div = document.createElement("div");
      div.className = `alert ${a.level}`;
      div.dataset.code = a.code;
      div.textContent = a.text;
      if (ANSWERABLE.has(a.code)) div.classList.add("answerable");
      return div;
    }));
  }

  function askedByTable(s, key) {
    const codes = new Set((s.alerts || []).map((a) => a.code));
    return QUESTION_CODES[key].some((code) => codes.has(code));
  }

  function playerName(s, i) {
    return s.players[i] ? s.players[i].name : `#${i + 1}`;
  }

  function drawPending(s) {
    // What the table waits for from people, each with its prompt; the forms that answer it are filled in.
    const box = $("#pending");
    const p = s.pending || {};
    const lines = [];
    if (p.blanks && p.blanks.length) {
      if (!askedByTable(s, "blanks")) lines.push(t("pending_blanks", { squares: p.blanks.join(", ") }));
      const square = $("#form-blank [name=square]");
      if (!square.value || !p.blanks.includes(square.value.toUpperCase())) square.value = p.blanks[0];
    }
    if (p.letters && p.letters.length) {
      if (!askedByTable(s, "letters")) lines.push(t("pending_letters", { squares: p.letters.join(", ") }));
      const square = $("#form-correct [name=square]");
      if (!square.value || !p.letters.includes(square.value.toUpperCase())) square.value = p.letters[0];
    }
    if (p.remove && p.remove.length && !askedByTable(s, "remove")) {
      lines.push(t("pending_remove", { squares: p.remove.join(", ") }));
    }
    if (p.racks && p.racks.length) {
      if (!askedByTable(s, "racks")) {
        lines.push(t("pending_racks", { names: p.racks.map((i) => playerName(s, i)).join(", ") }));
      }
      $("#form-racks [name=player]").value = String(p.racks[0]);
    }
    const rollForm = $("#form-roll");
    const rolling = Number.isInteger(p.roll) && p.roll > 0;
    if (rolling) lines.push(t(p.roll === 1 ? "pending_roll_one" : "pending_roll", { count: p.roll }));
    // The roll form is there while the table waits for a roll, and says how many dice it asks for; once the
    // roll is in (typed here, on another phone, or read by the tray) it empties for the next one.
    rollForm.classList.toggle("asked", rolling);
    if (!rolling) $("[name=letters]", rollForm).value = "";
    $("#roll-label").textContent = t(!rolling ? "roll_letters" : p.roll === 1 ? "roll_letters_one" : "roll_letters_n",
                                     { count: p.roll });
    if (p.rolled) lines.push(t("pending_rolled", { letters: p.rolled }));
    box.replaceChildren(...lines.map((text) => {
      const div = document.createElement("div");
      div.textContent = text;
      return div;
    }));
    if (p.challenge) {
      const div = document.createElement("div");
      div.className = "challenge-window";
      div.append(`${t("pending_challenge", { name: playerName(s, p.challenge.player) })} `);
      const left = document.createElement("span");
      left.className = "clock countdown";
      div.append(left);
      box.appendChild(div);
      setClock(left, { remaining_ms: p.challenge.remaining_ms, running: s.state === "challenge" }, true);
      const challenger = $("#form-challenge [name=player]");
      if (Number(challenger.value) === p.challenge.player && s.players.length === 2) {
        challenger.value = String(1 - p.challenge.player);
      }
    }
    const asked = Object.keys(QUESTION_CODES).some((key) => p[key] && p[key].length && askedByTable(s, key));
    if (!box.children.length && Object.keys(p).length && !asked) {
      const div = document.createElement("div");
      div.textContent = t("pending_other");
      box.appendChild(div);
    }
    box.hidden = !box.children.length;
  }

  function draw(s) {
    if (!lang) applyLanguage(s.language === "de" ? "de" : "en", false);
    clocks.length = 0;
    $("#table-name").textContent = s.table;
    document.title = t("title", s);
    const state = $("#state");
    state.dataset.state = s.state;
    state.textContent = word(`states.label.${s.state}`) || s.state;
    drawPlayers(s);
    drawBoard(s);
    drawMoves(s);
    drawAlerts(s);
    drawPending(s);
    drawResult(s);
    drawControls(s);
    const note = $("#no-word-list");
    note.hidden = s.judges_words !== false;
    note.textContent = s.judges_words === false ? t("no_word_list") : ""; // the next game's button once this one is over, the exchange form only during a turn, ...
    $("#bag").textContent = String(s.bag);
    // Scramble plays with dice from a cup, and every face is seen: no unseen-tile list.
    const scramble = s.game !== "standard";
    const bagLabel = $("#bag").parentElement.querySelector(".label");
    bagLabel.dataset.i18n = scramble ? "cup" : "bag";
    bagLabel.textContent = t(bagLabel.dataset.i18n);
    $(".unseen-box").hidden = scramble;
    // Which dice are in the cup, numbered as `referee dice show` prints them (the tray's `roll SLOT DIE FACE`).
    $(".cup-box").hidden = !scramble;
    $("#cup-dice").textContent = (s.cup || []).join(" ") || "–";
    $("#unseen").textContent = groupTiles(s.unseen || "");
    $("#unseen-count").textContent = `(${(s.unseen || "").length})`;
    const timer = $("#turn-timer");
    // The turn timer times a turn: once the game is over there is none left to time.
    const timing = Boolean(s.turn_timer) && s.state !== "ended";
    timer.hidden = !timing;
    if (timing) setClock($(".clock", timer), s.turn_timer);
    document.body.dataset.seq = String(s.seq);
    drawClocks();
  }

  // --- language -------------------------------------------------------------------------------
  function applyLanguage(next, remember) {
    lang = next;
    if (remember) {
      try { localStorage.setItem("scoreboard.lang", next); } catch (e) { /* private mode: not remembered */ }
    }
    Words.use(next);
    for (const el of $$("[data-i18n]")) el.textContent = t(el.dataset.i18n);
    for (const el of $$("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
    $("#lang").textContent = t("language");
    drawControlState();
    if (snapshot) draw(snapshot);
  }

  // --- the live stream ------------------------------------------------------------------------
  function connect() {
    const source = new EventSource("/events");
    const conn = $("#connection");
    source.addEventListener("snapshot", (e) => {
      snapshot = JSON.parse(e.data);
      draw(snapshot);
    });
    source.addEventListener("open", () => {
      document.documentElement.classList.remove("offline");
      conn.dataset.connected = "true";
      conn.dataset.i18n = "live";
      conn.textContent = t("live");
    });
    source.addEventListener("error", () => {
      document.documentElement.classList.add("offline"); // what is shown may be stale: say so
      conn.dataset.connected = "false";
      conn.dataset.i18n = "reconnecting";
      conn.textContent = t("reconnecting");
    });
  }

  // --- control --------------------------------------------------------------------------------
  async function loadSession() {
    const response = await fetch("/api/session", { credentials: "same-origin", cache: "no-store" });
    session = await response.json();
    drawControlState();
  }

  function drawControlState() {
    if (!session) return;
    const note = $("#control-disabled");
    note.hidden = session.control;
    note.textContent = session.control ? "" : t("control_off");
    $("#control-body").hidden = !session.control;
  }

  function say(text, kind) {
    const status = $("#control-status");
    status.textContent = text;
    status.dataset.kind = kind;
  }

  // A check's template from /api/session (referee/words/checks.py): `{name}` a field, `{name!r}` a field in
  // quotes, `{{` and `}}` braces, as Python's str.format reads them.
  function fillCheck(template, fields) {
    return template.replace(/\{\{|\}\}|\{(\w+)(!r)?\}/g, (m, name, quoted) => {
      if (m === "{{") return "{";
      if (m === "}}") return "}";
      const value = fields[name] === undefined ? "" : String(fields[name]);
      return quoted ? `'${value}'` : value;
    });
  }

  // A refused input said in the page's language: the check's words and the field's name from the catalogue,
  // the server's English `error` when the catalogue lacks the check (an older referee).
  function checkText(body) {
    const all = (session && session.input_checks) || {};
    const words = all[lang || "en"] || all.en;
    const template = words && body.check && words.checks[body.check];
    if (!template) return body.error;
    const said = fillCheck(template, body.fields || {});
    return body.field ? `${words.fields[body.field] || body.field}: ${said}` : said;
  }

  function explain(body, status) {
    if (body.code === "rate_limited") return t("err.rate_limited", { seconds: Math.ceil(body.retry_after || 1) });
    if (body.code === "invalid") return `${t("err.invalid")} ${checkText(body)}`;
    if (body.code === "refused") return `${t("err.refused")} ${body.error}`;
    return (Words.has(`page.err.${body.code}`) && t(`err.${body.code}`)) || body.error || `HTTP ${status}`;
  }

  async function send(action, params, retried = false) {
    if (!session) await loadSession();
    say(t("sending"), "busy");
    let response;
    try {
      response = await fetch(`/api/control/${encodeURIComponent(action)}`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": session.token, "X-Table-PIN": $("#pin").value },
        body: JSON.stringify(params),
      });
    } catch (e) {
      say(t("err.network"), "error");
      return;
    }
    const body = await response.json().catch(() => ({}));
    if (response.status === 403 && body.code === "cross_site" && !retried) {
      await loadSession(); // the service restarted: a new token, then once more
      return send(action, params, true);
    }
    if (!response.ok) {
      say(explain(body, response.status), "error");
      return;
    }
    const key = { blank: "blank_title", racks: "racks_title", correct: "correct_title", roll: "roll_done" }[action]
      || action;
    say(t("done", { action: Words.has(`page.${key}`) ? t(key) : action }), "ok");
    if (body.snapshot && (!snapshot || body.snapshot.seq >= snapshot.seq)) {
      snapshot = body.snapshot;
      draw(snapshot);
    }
  }

  function formParams(form) {
    const out = {};
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.dataset.optional !== undefined && el.value === "") continue; // left out: the table's default
      out[el.name] = el.type === "number" || el.tagName === "SELECT" ? Number(el.value) : el.value;
    }
    return out;
  }

  // A pass, an exchange, a challenge or a new game cannot be taken back: those ask for a second tap within
  // 4 s, so a phone in a pocket or a slip of the finger does not end someone's turn (or the game's record).
  const CONFIRM = new Set(["pass", "exchange", "challenge", "new_game"]);

  function confirmed(action, button) {
    if (!CONFIRM.has(action)) return true;
    if (button.dataset.confirming === "true") {
      clearTimeout(Number(button.dataset.timer));
      delete button.dataset.confirming;
      button.textContent = t(button.dataset.i18n);
      return true;
    }
    button.dataset.confirming = "true";
    button.textContent = t("confirm");
    button.dataset.timer = String(setTimeout(() => {
      delete button.dataset.confirming;
      button.textContent = t(button.dataset.i18n);
    }, 4000));
    return false;
  }

  function wire() {
    for (const button of $$("button[data-action]")) {
      button.addEventListener("click", () => {
        if (confirmed(button.dataset.action, button)) send(button.dataset.action, {});
      });
    }
    for (const form of $$("form[data-action]")) {
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        if (confirmed(form.dataset.action, $("button[type=submit]", form))) send(form.dataset.action, formParams(form));
      });
    }
    const answer = () => {
      // A question leads straight to the form that answers it.
      $("#control").open = true;
      const p = (snapshot && snapshot.pending) || {};
      const field = p.roll ? "#form-roll [name=letters]" : p.racks ? "#form-racks [name=tiles]"
        : p.letters && p.letters.length && !(p.blanks || []).length ? "#form-correct [name=letter]"
        : p.challenge ? "#form-challenge [name=player]" : "#form-blank [name=letter]";
      $(field).focus();
    };
    $("#pending").addEventListener("click", answer);
    $("#alerts").addEventListener("click", (e) => {
      if (e.target.closest && e.target.closest(".alert.answerable")) answer();
    });
    $("#pin-form").addEventListener("submit", (e) => e.preventDefault()); // Enter in the PIN field sends nothing
    $("#lang").addEventListener("click", () => applyLanguage(lang === "de" ? "en" : "de", true));
    $("#board").addEventListener("click", (e) => {
      // Tapping a square fills it into the blank and correction forms: fewer typos on a phone.
      const square = e.target.closest && e.target.closest(".cell");
      if (!square || !square.dataset.tile) return;
      for (const input of $$("form [name=square]")) input.value = square.dataset.square;
    });
  }

  wire();
  if (lang) applyLanguage(lang, false);
  else for (const el of $$("[data-i18n]")) el.textContent = t(el.dataset.i18n);  // until the table says its own
  loadSession().catch(() => say(t("err.network"), "error"));
  connect();
  setInterval(drawClocks, 100);
})();
