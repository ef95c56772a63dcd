// The hall page's broadcast row: aim a stream slot at a table, set the spectators' delay (both behind the
// director key, through common.js's `Director.post`), and show where each slot points now.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const say = Director.say;

  function describe(body, ok) {
    return body.error ? say("refused", body) : ok;
  }

  function delayText(d) {
    return d.moves ? say("delay_moves", { count: d.moves }) : d.seconds ? say("delay_seconds", { count: d.seconds })
      : say("none");
  }

  async function refresh() {
    try {
      const info = await (await fetch("/api/broadcast", { credentials: "same-origin" })).json();
      const slots = Object.entries(info.slots || {}).map(([k, t]) => say("slot_table", { slot: k, table: t }));
      $("cast-now").textContent = say("delay_now", { slots: slots.length ? slots.join(", ") : say("no_slot_aimed"),
        delay: delayText(info.delay || {}) });
    } catch (e) { /* the hall page shows the connection itself */ }
  }

  function main() {
    if (!$("cast-aim")) return;
    const overlayLink = () => {
      const k = Number($("cast-slot").value) || 1;
      $("cast-overlay").href = `/overlay/slot/${k}`;
      $("cast-overlay").textContent = say("slot_overlay", { slot: k });
    };
    overlayLink();
    $("cast-slot").addEventListener("input", overlayLink);
    $("cast-aim").addEventListener("click", async () => {
      const k = Number($("cast-slot").value);
      const table = Number($("cast-table").value);
      const body = await Director.post(`/api/broadcast/slot/${k}`, { table });
      $("director-result").textContent = describe(body, say("slot_shows", { slot: k, table }));
      refresh();
    });
    $("cast-set-delay").addEventListener("click", async () => {
      const unit = $("cast-delay-unit").value;
      const value = Number($("cast-delay").value);
      const body = await Director.post("/api/broadcast/delay", { [unit]: value });
      $("director-result").textContent = describe(body, say("delay_is", { delay: delayText({ [unit]: value }) }));
      refresh();
    });
    refresh();
  }

  main();
})();
