// The hall: every table as a tile, paged (only one page of tiles is in the DOM), filtered and sorted;
// `?display=tv` shows the feature tables large with their last play, for a hall screen or a stream.
"use strict";

(() => {
  const params = new URLSearchParams(location.search);
  const tv = params.get("display") === "tv";
  const tiles = new Map();       // table -> {tile, receivedAt}
  const shown = new Map();       // table -> DOM node of the tiles on the page now
  let pageIndex = 0;
  let order = [];                // the tables of the current filter and sort
  let layoutDirty = true;
  let enteredResults = new Map(); // table -> the result the director entered for it this round (/api/hall)
  const hall = document.getElementById("hall");
  const $ = (id) => document.getElementById(id);
  const say = Director.say;

  if (tv) document.body.classList.add("tv");

  function perPage() { return tv ? 4 : Number($("per-page").value); }

  function featureTables() {
    const fromQuery = (params.get("tables") || "").split(",").map(Number).filter((n) => n > 0);
    const feature = fromQuery.length ? fromQuery : ((Director.session && Director.session.feature) || []);
    return feature.length ? feature : [...tiles.keys()].sort((a, b) => a - b).slice(0, 4);
  }

  function matches(tile) {
    const division = $("division").value;
    const round = $("round").value;
    if (division && tile.division !== division) return false;
    if (round && String(tile.round) !== round) return false;
    if ($("only-alerts").checked && !tile.alerts.length) return false;
    return true;
  }

  const SEVERITY = { error: 3, warning: 2, info: 1 };
  function weight(tile) { return Math.max(0, ...tile.alerts.map((a) => SEVERITY[a.level] || 0)); }

  function computeOrder() {
    if (tv) { order = featureTables().filter((t) => tiles.has(t)); return; }
    const list = [...tiles.values()].map((v) => v.tile).filter(matches);
    const sort = $("sort").value;
    list.sort((a, b) => {
      if (sort === "alerts") return weight(b) - weight(a) || a.table - b.table;
      if (sort === "division") return String(a.division).localeCompare(String(b.division)) || a.table - b.table;
      if (sort === "score") {
        const best = (t) => Math.max(0, ...t.players.map((p) => p.score));
        return best(b) - best(a) || a.table - b.table;
      }
      return a.table - b.table;
    });
    order = list.map((t) => t.table);
  }

  function renderTile(node, tile, receivedAt) {
    node.dataset.table = tile.table;
    node.dataset.online = tile.online;
    node.dataset.seq = tile.seq;
    node.dataset.shownAt = String(Date.now());  // when this picture reached the DOM (tests and benchmarks read it)
    node.classList.toggle("offline", !tile.online);
    node.querySelector(".name").textContent = tile.name;
    node.querySelector(".where").textContent = [tile.division ? say("where_division", tile) : "",
      tile.round ? say("where_round", tile) : ""].filter(Boolean).join(" · ");
    node.querySelector(".state").textContent = tile.state ? Words.say(`states.line.${tile.state}`) || tile.state : "–";
    const rows = node.querySelector(".players");
    rows.replaceChildren(...tile.players.map((p, i) => {
      const row = Director.el("div", `player${p.on_turn ? " on-turn" : ""}`);
      row.dataset.index = i;
      row.append(Director.el("span", "pname", p.name), Director.el("span", "score", String(p.score)));
      const clock = Director.el("span", "clock", "");
      clock.dataset.ms = p.clock ? p.clock.ms : "";
      clock.dataset.running = p.clock ? p.clock.running : "false";
      clock.dataset.received = receivedAt;
      clock.textContent = p.clock ? Director.clockText(p.clock.ms) : "";
      row.append(clock);
      return row;
    }));
    const last = node.querySelector(".last");
    last.textContent = tile.last ? say("last", { notation: tile.last.notation,
      score: `${tile.last.score >= 0 ? "+" : ""}${tile.last.score}` }) : "";
    const alerts = node.querySelector(".alerts");
    alerts.replaceChildren(...tile.alerts.map((a) => {
      const item = Director.el("li", `alert ${a.level}`, Director.alertText(a));
      item.dataset.code = a.code;
      return item;
    }));
    const entry = enteredResults.get(tile.table);  // the round's result the director entered for this table
    if (entry) {
      const item = Director.el("li", "alert entered", say("entered_by", { by: entry.by, scores: entry.scores.join("-") }));
      item.dataset.code = "entered";
      alerts.append(item);
    }
    drawTileBoard(node, tile);
  }

  // The board at the resolution it is shown at (the wall's boards are large enough for their letters).
  function drawTileBoard(node, tile) {
    const canvas = node.querySelector("canvas");
    const shownWidth = canvas.getBoundingClientRect().width;
    const px = Math.max(90, Math.round(shownWidth * (window.devicePixelRatio || 1)));
    if (canvas.width !== px) { canvas.width = px; canvas.height = px; }
    Director.drawBoard(canvas, tile.board, null, tile.last_play);
    canvas.dataset.drawn = String(px);
  }

  // The wall: the page's tiles on one screen, as large as the screen lets them be (a hall display is read
  // from across the room). Columns and rows are chosen for tiles near 1.6:1; when the tiles would be too
  // small to read, the page keeps its scrolling grid of small tiles instead.
  const GAP = 8;
  function fit() {
    if (tv) return;
    const count = hall.children.length;
    hall.classList.remove("fit");
    hall.style.removeProperty("height");
    let best = null;
    if (count) {
      const width = hall.clientWidth;
      const director = $("director");
      const below = director.getBoundingClientRect().height + parseFloat(getComputedStyle(director).marginTop) +
        parseFloat(getComputedStyle(document.body).paddingBottom) + 2;
      const height = Math.floor(window.innerHeight - hall.getBoundingClientRect().top - window.scrollY - below);
      for (let cols = 1; cols <= count; cols++) {
        const rows = Math.ceil(count / cols);
        const w = (width - GAP * (cols - 1)) / cols;
        const h = (height - GAP * (rows - 1)) / rows;
        if (w < 250 || h < 140) continue;
        const size = Math.min(w / 1.6, h);
        if (!best || size > best.size) best = { cols, rows, w, h, size, height };
      }
    }
    if (best) {
      hall.classList.add("fit");
      hall.style.height = `${best.height}px`;
      hall.style.setProperty("--cols", best.cols);
      hall.style.setProperty("--rows", best.rows);
      hall.style.setProperty("--tile-font", `${Math.max(12, Math.min(24, best.h / 14)).toFixed(1)}px`);
      const body = hall.querySelector(".tile-body");
      const board = Math.floor(Math.min(body.clientHeight, best.w * 0.5));
      hall.style.setProperty("--board", `${board}px`);
    }
    for (const [table, node] of shown) drawTileBoard(node, tiles.get(table).tile);
  }

  function newTile(table) {
    const node = Director.el("article", "tile");
    const head = Director.el("header", "tile-head");
    const link = Director.el("a", "name", "");
    link.href = `/table/${table}`;
    head.append(link, Director.el("span", "where"), Director.el("span", "state"));
    const body = Director.el("div", "tile-body");
    const canvas = document.createElement("canvas");
    canvas.width = tv ? 450 : 90;
    canvas.height = canvas.width;
    const side = Director.el("div", "side");
    side.append(Director.el("div", "players"), Director.el("div", "last"), Director.el("ul", "alerts"));
    body.append(canvas, side);
    node.append(head, body);
    return node;
  }

  function layout() {
    computeOrder();
    const per = perPage();
    const pages = Math.max(1, Math.ceil(order.length / per));
    pageIndex = Math.min(pageIndex, pages - 1);
    if (!tv) $("page").textContent = `${pageIndex + 1} / ${pages}`;
    const visible = order.slice(pageIndex * per, pageIndex * per + per);
    const keep = new Set(visible);
    for (const [table, node] of shown) {
      if (!keep.has(table)) { node.remove(); shown.delete(table); }
    }
    const nodes = visible.map((table) => {
      let node = shown.get(table);
      if (!node) {
        node = newTile(table);
        shown.set(table, node);
        const entry = tiles.get(table);
        renderTile(node, entry.tile, entry.receivedAt);
      }
      return node;
    });
    hall.replaceChildren(...nodes);
    layoutDirty = false;
    fit();
  }

  function updateFilters() {
    for (const [id, key] of [["division", "division"], ["round", "round"]]) {
      const select = $(id);
      const have = new Set([...select.options].map((o) => o.value));
      const values = [...new Set([...tiles.values()].map((v) => v.tile[key]).filter((v) => v !== null && v !== undefined))]
        .map(String).sort();
      for (const value of values) {
        if (!have.has(value)) select.append(new Option(value, value));
      }
    }
  }

  function summary() {
    let offline = 0;
    let alerts = 0;
    for (const { tile } of tiles.values()) {
      if (!tile.online) offline++;
      if (tile.alerts.length) alerts++;
    }
    $("summary").textContent = say("summary", { tables: tiles.size, offline, alerts });
  }

  function onTiles(batch, receivedAt) {
    let reorder = false;
    for (const tile of batch) {
      const old = tiles.get(tile.table);
      if (!old || old.tile.division !== tile.division || old.tile.round !== tile.round ||
          old.tile.alerts.length !== tile.alerts.length || old.tile.online !== tile.online) reorder = true;
      tiles.set(tile.table, { tile, receivedAt });
      const node = shown.get(tile.table);
      if (node) renderTile(node, tile, receivedAt);
    }
    if (reorder || layoutDirty) { updateFilters(); layout(); }
    summary();
  }

  function tick() {
    if (Director.brokerLost) return;  // the clocks are not known to run: they stand at what was heard last
    const now = performance.now();
    for (const clock of hall.querySelectorAll(".clock[data-running='true']")) {
      const ms = Number(clock.dataset.ms) - (now - Number(clock.dataset.received));
      clock.textContent = Director.clockText(ms);
      clock.classList.toggle("overtime", ms < 0);
    }
  }

  const ALL_YES = { pause: "pause_all", resume: "resume_all", start: "start_round" };

  async function allCommand(cmd) {
    const count = [...tiles.values()].filter((v) => v.tile.online).length;
    if (!await Director.confirmAction(say("all_question", { what: say(`all.${cmd}`) || cmd, count }),
                                      say(ALL_YES[cmd]) || cmd)) {
      $("director-result").textContent = say("not_sent", { what: cmd });
      return;
    }
    $("director-result").textContent = say("sending", { what: cmd });
    const reason = cmd === "pause" ? $("pause-reason").value.trim() : "";
    const answer = await Director.command(cmd, "all", reason ? { reason } : {});
    $("director-result").textContent = Director.describe(answer);
  }

  // A file as text: UTF-8, else the Windows encoding a spreadsheet there saves its CSV in (Excel's plain
  // "CSV" in a German Windows is Windows-1252: its umlauts are not UTF-8).
  async function fileText(file) {
    const bytes = await file.arrayBuffer();
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch (error) {
      return new TextDecoder("windows-1252").decode(bytes);
    }
  }

  async function sendPairings() {
    const file = $("pairings-file").files[0];
    if (!file) { $("director-result").textContent = say("choose_file"); return; }
    const offsets = {};
    for (const part of $("pairings-offsets").value.split(",")) {
      const [division, value] = part.split("=").map((s) => s.trim());
      if (division && value) offsets[division.toUpperCase()] = Number(value);
    }
    const round = Number($("pairings-round").value);
    if (!await Director.confirmAction(say("pairings_question", { round, file: file.name }), say("send_pairings"))) {
      $("director-result").textContent = say("not_sent", { what: say("pairings_word") });
      return;
    }
    const answer = await Director.post("/api/pairings", { format: $("pairings-format").value, text: await fileText(file),
      round, offsets });
    lookNow();
    $("director-result").textContent = answer.error ? say("refused", answer) :
      say("pairings_sent", { round: answer.round, count: answer.games.length }) +
      (answer.byes.length ? say("byes", { byes: answer.byes.join(", ") }) : "");
  }

  // The round above the tiles: "round 1: 18 of 20 finished", the tables it waits for, tsh's next round.
  function onHall(hall) {
    const entered = new Map(((hall.round && hall.round.entered_results) || []).map((e) => [e.table, e]));
    const changed = [...new Set([...entered.keys(), ...enteredResults.keys()])].filter((t) =>
      JSON.stringify(entered.get(t)) !== JSON.stringify(enteredResults.get(t)));
    enteredResults = entered;
    for (const table of changed) {
      const node = shown.get(table);
      if (node) renderTile(node, tiles.get(table).tile, tiles.get(table).receivedAt);
    }
    const round = hall.round;
    $("round-line").hidden = !round && !hall.tsh;
    $("round-line").dataset.done = round ? String(round.done) : "";
    $("round-text").textContent = round ? roundText(round) : say("no_round");
    const waiting = round ? round.waiting_for : [];
    $("round-waiting").textContent = waiting.length && waiting.length <= 8 ? say("waiting_for", { tables: waiting.map(
      (t) => say(t.online ? "table_n" : "table_offline", t)).join(", ") }) : "";
    $("tsh-text").textContent = hall.tsh ? `· ${tshText(hall.tsh)}` : "";
    $("tsh-text").classList.toggle("bad", Boolean(hall.tsh && hall.tsh.error));
    if (round && !$("close-round").dataset.touched) $("close-round").value = round.round;
    if (round && !$("result-round").dataset.touched) $("result-round").value = round.round;
    showResultPlayers();
  }

  // "round 1: 18 of 20 finished (2 entered by the director) · closed", from the round's figures
  function roundText(round) {
    return say("round_line", round) + (round.entered ? say("round_entered", { count: round.entered }) : "") +
      (round.closed ? say("round_closed") : "");
  }

  function tshText(tsh) {
    if (tsh.error) return say("tsh_error", tsh);
    if (tsh.waiting !== null && tsh.waiting !== undefined) {
      return say("tsh_waiting", { round: tsh.waiting, previous: tsh.waiting - 1 });
    }
    if (tsh.loaded !== null && tsh.loaded !== undefined) return say("tsh_loaded", { round: tsh.loaded });
    return say("tsh_watching", { file: String(tsh.file || "").split("/").pop() });
  }

  async function lookNow() {
    const response = await fetch("/api/hall", { credentials: "same-origin" });
    onHall(await response.json());
  }

  async function roundView(round) {
    const response = await fetch(`/api/round/${round}`, { credentials: "same-origin" });
    return response.ok ? response.json() : null;
  }

  let pairingsSeen = null;
  async function showResultPlayers() {
    const round = Number($("result-round").value);
    const table = Number($("result-table").value);
    if (!round || !table) { $("result-players").textContent = ""; return; }
    const view = await roundView(round);
    pairingsSeen = view && view.tables.find((t) => t.table === table);
    $("result-players").textContent = pairingsSeen ? say("versus", { first: pairingsSeen.players[0],
      second: pairingsSeen.players[1] }) + (pairingsSeen.entered ? say("pairing_entered", { by: pairingsSeen.entered.by,
      scores: pairingsSeen.scores.join("-") }) : "") : say("no_pairing", { table, round });
  }

  async function closeRound() {
    const round = Number($("close-round").value);
    const view = await roundView(round);
    if (!view) { $("director-result").textContent = say("round_no_pairings", { round }); return; }
    const open = view.tables.filter((t) => t.status !== "finished" && t.status !== "entered");
    const words = open.length ? say("close_open", { open: open.length, paired: view.paired,
      tables: open.map((t) => say("table_n", t)).join(", ") }) : say("close_done");
    if (!await Director.confirmAction(say("close_question", { round, words }), say("close_round"))) {
      $("director-result").textContent = say("not_done", { what: say("close_word") });
      return;
    }
    const answer = await Director.post("/api/round/close", { round });
    $("director-result").textContent = answer.error ? say("refused", answer) : roundText(answer);
    lookNow();
  }

  async function enterResult(withdraw) {
    const round = Number($("result-round").value);
    const table = Number($("result-table").value);
    await showResultPlayers();
    if (!pairingsSeen) { $("director-result").textContent = $("result-players").textContent; return; }
    const scores = [Number($("result-score1").value), Number($("result-score2").value)];
    const who = `${pairingsSeen.players[0]} ${scores[0]} - ${scores[1]} ${pairingsSeen.players[1]}`;
    const question = say(withdraw ? "withdraw_question" : "enter_question", { who, table, round });
    if (!await Director.confirmAction(question, say(withdraw ? "withdraw_result" : "enter_result"))) {
      $("director-result").textContent = say("not_entered", { what: say("result_word") });
      return;
    }
    const body = withdraw ? { round, table, withdraw: true } :
      { round, table, scores, reason: $("result-reason").value.trim() };
    const answer = await Director.post("/api/result", body);
    $("director-result").textContent = answer.error ? say("refused", answer) :
      say(withdraw ? "result_withdrawn" : "result_entered", { table, who });
    lookNow();
  }

  function resultsLinks() {
    const r = Number($("results-round").value) || 1;
    $("results-zip").href = `/results/round/${r}.zip`;
    $("results-tsh").href = `/results/round/${r}/tsh.txt`;
    $("results-csv").href = `/results/round/${r}.csv`;
  }

  async function main() {
    const session = await Director.loadSession();
    $("event-name").textContent = session.name;
    document.title = say("hall_title", session);
    if (!session.control) { $("control-off").hidden = false; $("control-off").textContent = say("commands_off"); }
    for (const id of ["division", "round", "sort", "only-alerts", "per-page"]) {
      $(id).addEventListener("change", () => { pageIndex = 0; layout(); });
    }
    $("prev").addEventListener("click", () => { pageIndex = Math.max(0, pageIndex - 1); layout(); });
    $("next").addEventListener("click", () => { pageIndex += 1; layout(); });
    for (const button of document.querySelectorAll("[data-all]")) {
      button.addEventListener("click", () => allCommand(button.dataset.all));
    }
    $("send-pairings").addEventListener("click", sendPairings);
    $("close-round-button").addEventListener("click", closeRound);
    $("enter-result").addEventListener("click", () => enterResult(false));
    $("withdraw-result").addEventListener("click", () => enterResult(true));
    for (const id of ["close-round", "result-round"]) {
      $(id).addEventListener("input", () => { $(id).dataset.touched = "true"; });
    }
    for (const id of ["result-round", "result-table"]) $(id).addEventListener("change", showResultPlayers);
    if (!tv) Director.watchHall(onHall);
    $("results-round").addEventListener("input", resultsLinks);
    Director.stream("/events", onTiles);
    let resizing = 0;
    window.addEventListener("resize", () => { clearTimeout(resizing); resizing = setTimeout(fit, 100); });
    $("director").addEventListener("toggle", fit);
    setInterval(tick, 250);
  }

  main();
})();
