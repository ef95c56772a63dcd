// Shared by the hall and the one-table page: the session, sending commands, clocks and small boards. Their words
// are the event's language's, from /words.js (`Words`, referee/words/director.py): `Director.say(key, fields)`.
"use strict";

const Director = (() => {
  let session = null;
  const say = (key, fields) => Words.say(`director.${key}`, fields);
  Words.label(document);

  async function loadSession() {
    const response = await fetch("/api/session", { credentials: "same-origin" });
    session = await response.json();
    return session;
  }

  // Send a command of the tournament network; resolves to the JSON answer (acks or the refusal).
  async function command(cmd, tables, args) {
    if (!session) await loadSession();
    const key = document.getElementById("key");
    const response = await fetch(`/api/command/${cmd}`, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": session.token,
                 "X-Director-Key": key ? key.value : "" },
      body: JSON.stringify({ tables, args: args || {} }),
    });
    const body = await response.json();
    body.status = response.status;
    return body;
  }

  async function post(path, data) {
    if (!session) await loadSession();
    const key = document.getElementById("key");
    const response = await fetch(path, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": session.token,
                 "X-Director-Key": key ? key.value : "" },
      body: JSON.stringify(data),
    });
    const body = await response.json();
    body.status = response.status;
    return body;
  }

  function describe(answer) {
    if (answer.error) return say("refused", { error: answer.error });
    const acks = Object.entries(answer.acks || {});
    const bad = acks.filter(([, a]) => !a.ok);
    const expected = (answer.expected || []).length;
    let text = say("acks", { cmd: answer.cmd, acked: acks.length - bad.length, expected: expected || acks.length });
    if (bad.length) {
      text += say("acks_refused", { tables: bad.map(([t, a]) => say("ack_refused", { table: t, why: a.error || a.code }))
        .join(", ") });
    }
    return text;
  }

  // A tile's alert in the event's language, from its code and fields (its English `text` for a code the words lack).
  function alertText(alert) {
    const key = `director.alert.${alert.code}`;
    return alert.fields && Words.has(key) ? Words.say(key, alert.fields) : alert.text;
  }

  function clockText(ms) {
    const negative = ms < 0;
    const total = Math.floor(Math.abs(ms) / 1000);
    const text = `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
    return negative ? `-${text}` : text;
  }

  // A clock shown from the last snapshot: a running one counts down locally between updates.
  function clockNow(clock, receivedAt) {
    if (!clock) return null;
    return clock.running ? clock.ms - (performance.now() - receivedAt) : clock.ms;
  }

  const PREMIUM = { d: "#7fc8ef", t: "#2b7fd0", D: "#f2a3b3", T: "#d8383f" };

  function drawBoard(canvas, board, premiums, lastPlay) {
    const ctx = canvas.getContext("2d");
    const n = board.length || 15;
    const size = canvas.width / n;
    const last = new Set(lastPlay || []);
    ctx.fillStyle = "#1e5a3a";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    for (let r = 0; r < n; r++) {
      const row = board[r] || "";
      for (let c = 0; c < n; c++) {
        const ch = row[c] || ".";
        const name = String.fromCharCode(65 + c) + (r + 1);
        const premium = premiums && premiums[r] ? premiums[r][c] : ".";
        ctx.fillStyle = ch !== "." ? (last.has(name) ? "#ffd23f" : "#f6e2b3") : (PREMIUM[premium] || "#2f7a52");
        ctx.fillRect(c * size + 0.5, r * size + 0.5, size - 1, size - 1);
        if (ch !== "." && size >= 8) {  // from 8 px a square (the wall's small boards), letters are drawn
          ctx.fillStyle = ch === ch.toLowerCase() && ch !== "?" ? "#c0262d" : "#1b1b1b";
          ctx.font = `bold ${Math.floor(size * 0.75)}px system-ui, sans-serif`;
          ctx.textAlign = "center";
          ctx.textBaseline = "middle";
          ctx.fillText(ch.toUpperCase(), c * size + size / 2, r * size + size / 2 + 1);
        }
      }
    }
  }

  // The director's own link to the broker: while it is lost, every tile is what the director heard last.
  let brokerLost = null;

  function showBroker(connection) {
    let banner = document.getElementById("broker-lost");
    if (!banner) {
      banner = el("div", "broker-lost");
      banner.id = "broker-lost";
      banner.setAttribute("role", "alert");
      document.body.prepend(banner);
    }
    banner.hidden = !brokerLost;
    if (brokerLost) {
      const since = new Date(brokerLost).toLocaleTimeString([], { hour12: false });
      banner.textContent = say("broker_lost", { since });
      connection.dataset.connected = "false";
      connection.textContent = say("broker_lost_short");
    }
  }

  // An event stream that says when it is connected; `onTiles` gets each batch of tiles.
  function stream(url, onTiles) {
    const connection = document.getElementById("connection");
    const source = new EventSource(url);
    source.addEventListener("open", () => {
      connection.dataset.connected = "true";
      connection.textContent = say("live");
      showBroker(connection);
    });
    source.addEventListener("notices", (event) => {
      const notices = JSON.parse(event.data);
      let box = document.getElementById("hall-notices");
      if (!box) {
        box = el("div", "broker-lost");
        box.id = "hall-notices";
        box.setAttribute("role", "alert");
        document.body.prepend(box);
      }
      const texts = Object.values(notices);
      box.hidden = texts.length === 0;
      box.textContent = texts.join(" · ");
    });
    source.addEventListener("broker", (event) => {
      const broker = JSON.parse(event.data);
      brokerLost = broker.connected ? null : (broker.since || new Date().toISOString());
      if (broker.connected) { connection.dataset.connected = "true"; connection.textContent = say("live"); }
      showBroker(connection);
    });
    source.addEventListener("error", () => {
      connection.dataset.connected = "false";
      connection.textContent = say("reconnecting");
    });
    source.addEventListener("tiles", (event) => onTiles(JSON.parse(event.data), performance.now()));
    return source;
  }

  // Ask before an action that cannot be taken back or reaches many tables: a dialog in the page (not the
  // browser's confirm(), which a kiosk or a test may have turned off). Resolves to true for "yes".
  function confirmAction(text, yes) {
    let dialog = document.getElementById("confirm");
    if (!dialog) {
      dialog = el("dialog", "confirm");
      dialog.id = "confirm";
      const words = el("p", "confirm-text");
      words.id = "confirm-text";
      const row = el("div", "row");
      const ok = el("button", "confirm-yes");
      ok.id = "confirm-yes";
      ok.type = "button";
      ok.value = "yes";
      const no = el("button", "confirm-no", say("cancel"));
      no.id = "confirm-no";
      no.type = "button";
      row.append(ok, no);
      dialog.append(words, row);
      document.body.append(dialog);
      ok.addEventListener("click", () => dialog.close("yes"));
      no.addEventListener("click", () => dialog.close("no"));
    }
    dialog.querySelector("#confirm-text").textContent = text;
    dialog.querySelector("#confirm-yes").textContent = yes || say("yes");
    dialog.returnValue = "";
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
      dialog.showModal();
      dialog.querySelector("#confirm-no").focus();  // Enter alone does not confirm
    });
  }

  // What the hall page shows above the tiles, looked at every 2 s: the broker (reached or not, and why),
  // the round's progress and the tsh file. `onHall` gets the whole answer.
  function watchHall(onHall) {
    async function look() {
      try {
        const response = await fetch("/api/hall", { credentials: "same-origin" });
        const hall = await response.json();
        const broker = document.getElementById("broker");
        if (broker && hall.broker) {
          const b = hall.broker;
          const text = b.connected ? say("broker_ok", b) : b.error === "connecting" ? say("broker_connecting", b)
            : say("broker_unreachable", b);
          broker.dataset.connected = String(b.connected);
          broker.textContent = b.connected ? say("broker_connected") : text;
          broker.title = text;
        }
        if (onHall) onHall(hall);
      } catch (error) {
        // the director itself is away: the event stream's indicator says so
      }
    }
    look();
    return setInterval(look, 2000);
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  return { loadSession, command, post, describe, clockText, clockNow, drawBoard, stream, el, confirmAction, watchHall,
           say, alertText, get session() { return session; }, get brokerLost() { return brokerLost; } };
})();
