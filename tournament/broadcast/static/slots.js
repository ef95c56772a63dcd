// The hall page's broadcast row: aim a stream slot at a table, set the spectators' delay (both behind the
// director key, through common.js's `Director.post`), and show where each slot points now.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);

  function describe(body, ok) {
    return body.error ? `refused: ${body.error}` : ok;
  }

  async function refresh() {
    try {
      const info = await (await fetch("/api/broadcast", { credentials: "same-origin" })).json();
      const slots = Object.entries(info.slots || {}).map(([k, t]) => `slot ${k}: table ${t}`);
      const d = info.delay || {};
      const delay = d.moves ? `${d.moves} moves` : d.seconds ? `${d.seconds} s` : "none";
      $("cast-now").textContent = `${slots.length ? slots.join(", ") : "no slot aimed"}; spectators' delay: ${delay}`;
    } catch (e) { /* the hall page shows the connection itself */ }
  }

  function main() {
    if (!$("cast-aim")) return;
    $("cast-slot").addEventListener("input", () => {
      const k = Number($("cast-slot").value) || 1;
      $("cast-overlay").href = `/overlay/slot/${k}`;
      $("cast-overlay").textContent = `overlay of slot ${k}`;
    });
    $("cast-aim").addEventListener("click", async () => {
      const k = Number($("cast-slot").value);
      const table = Number($("cast-table").value);
      const body = await Director.post(`/api/broadcast/slot/${k}`, { table });
      $("director-result").textContent = describe(body, `slot ${k} shows table ${table}`);
      refresh();
    });
    $("cast-set-delay").addEventListener("click", async () => {
      const unit = $("cast-delay-unit").value;
      const value = Number($("cast-delay").value);
      const body = await Director.post("/api/broadcast/delay", { [unit]: value });
      $("director-result").textContent = describe(body, `spectators' delay: ${value ? `${value} ${unit}` : "none"}`);
      refresh();
    });
    refresh();
  }

  main();
})();
