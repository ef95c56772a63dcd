// One table for the director: its full scoreboard (board, players, clocks, score sheet) and the controls.
"use strict";

(() => {
  const table = Number(location.pathname.split("/").pop());
  const $ = (id) => document.getElementById(id);
  const say = Director.say;
  let current = null;
  let receivedAt = 0;

  function render(tile) {
    current = tile;
    document.title = say("table_title", tile);
    $("table-name").textContent = `${tile.name}` + (tile.round ? say("table_round", tile) : "") +
      (tile.division ? say("table_division", tile) : "");
    $("state").textContent = tile.online ? (tile.state ? Words.say(`states.line.${tile.state}`) || tile.state : "–")
      : Words.say("broadcast.offline");
    $("gcg").href = `/gcg/${table}.gcg`;
    $("alerts").replaceChildren(...tile.alerts.map((a) => {
      const item = Director.el("div", `alert ${a.level}`, Director.alertText(a));
      item.dataset.code = a.code;
      return item;
    }));
    $("players").replaceChildren(...tile.players.map((p, i) => {
      const box = Director.el("div", `player${p.on_turn ? " on-turn" : ""}`);
      box.dataset.index = i;
      const clock = Director.el("div", "clock", p.clock ? Director.clockText(p.clock.ms) : "");
      clock.dataset.ms = p.clock ? p.clock.ms : "";
      clock.dataset.running = p.clock ? p.clock.running : "false";
      box.append(Director.el("div", "pname", p.name), Director.el("div", "score big", String(p.score)), clock);
      return box;
    }));
    const select = $("player");
    if (select.options.length !== tile.players.length) {
      select.replaceChildren(...tile.players.map((p, i) => new Option(p.name, String(i))));
    }
    Director.drawBoard($("board"), tile.board, tile.premiums, tile.last_play);
    $("moves").tBodies[0].replaceChildren(...(tile.moves || []).map((m, i) => {
      const row = document.createElement("tr");
      // a director's adjustment carries its reason: shown beside it, as the score sheet has no word for it
      const move = m.note ? `${m.notation} ${m.note}` : m.notation;
      for (const text of [i + 1, tile.players[m.player] ? tile.players[m.player].name : m.player, move,
        m.score, m.total]) row.append(Director.el("td", "", String(text)));
      return row;
    }));
  }

  function tick() {
    if (!current || Director.brokerLost) return;
    for (const clock of document.querySelectorAll("#players .clock[data-running='true']")) {
      clock.textContent = Director.clockText(Number(clock.dataset.ms) - (performance.now() - receivedAt));
    }
  }

  async function send(cmd, args) {
    $("director-result").textContent = say("sending", { what: cmd });
    const answer = await Director.command(cmd, [table], args);
    $("director-result").textContent = Director.describe(answer);
  }

  async function main() {
    const session = await Director.loadSession();
    if (!session.control) { $("control-off").hidden = false; $("control-off").textContent = say("commands_off"); }
    for (const button of document.querySelectorAll("[data-cmd]")) {
      button.addEventListener("click", async () => {
        if (button.dataset.cmd === "undo") {
          const moves = (current && current.moves) || [];
          const last = moves.length ? moves[moves.length - 1] : null;
          const what = last ? `${last.notation} (${last.score >= 0 ? "+" : ""}${last.score})` : say("the_last_play");
          if (!await Director.confirmAction(say("undo_question", { what, table: current ? current.name
            : say("table_n", { table }) }), say("undo_yes"))) {
            $("director-result").textContent = say("not_sent", { what: "undo" });
            return;
          }
        }
        send(button.dataset.cmd, button.dataset.hold ? { hold: button.dataset.hold === "true" } : {});
      });
    }
    $("adjust-time").addEventListener("click", () =>
      send("adjust_time", { player: Number($("player").value), seconds: Number($("seconds").value) }));
    $("correct-score").addEventListener("click", () =>
      send("correct_score", { square: $("square").value.trim().toUpperCase(),
                              letter: $("letter").value.trim().toUpperCase() }));
    $("adjust-score").addEventListener("click", () =>
      send("correct_score", { player: Number($("player").value), points: Number($("points").value),
                              reason: $("reason").value.trim() }));
    $("send-message").addEventListener("click", () =>
      send("message", { text: $("message").value, minutes: Math.round(Number($("message-minutes").value)) || 10 }));
    $("set-players").addEventListener("click", async () => {
      const players = [$("p1").value.trim(), $("p2").value.trim()];
      const versus = (names) => names.length === 2 ? say("versus", { first: names[0], second: names[1] })
        : names.join(", ");
      const now = current && current.players.length ? say("new_game_aside", {
        players: versus(current.players.map((p) => p.name)),
        state: current.state ? Words.say(`states.line.${current.state}`) || current.state : "–" }) : "";
      if (!await Director.confirmAction(say("new_game_question", { table: current ? current.name
        : say("table_n", { table }), players: versus(players), now }), say("new_game"))) {
        $("director-result").textContent = say("not_sent", { what: say("new_game_word") });
        return;
      }
      send("set_players", { players, first: 0 });
    });
    $("reset-view").addEventListener("click", async () => {
      const answer = await Director.post(`/api/table/${table}/reset`, {});
      $("director-result").textContent = answer.error ? say("refused", answer)
        : say("view_reset", { games: answer.forgotten.join(", ") || say("none") });
    });
    Director.watchHall(null);
    Director.stream(`/events?table=${table}`, (batch, at) => {
      receivedAt = at;
      for (const tile of batch) if (tile.table === table) render(tile);
    });
    setInterval(tick, 250);
  }

  main();
})();
