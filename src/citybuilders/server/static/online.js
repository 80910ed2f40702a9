/* The play page's online panel: a connected/away dot per seat (a presence-only websocket),
   copy buttons, new invite links, the spectator link, your name, and the rematch.
   Independent of play.js: it reads only #online-data and the body's data-terminal. */
"use strict";
(() => {
  const box = document.getElementById("online");
  const dataEl = document.getElementById("online-data");
  if (!box || !dataEl) return;
  const O = JSON.parse(dataEl.textContent);
  const t = (s, v) => (window.CB && CB.t ? CB.t(s, v) : s);
  const tokens = O.tokens || {};
  const mySeats = Object.keys(tokens).map(Number).filter((s) => s >= 0);
  const anyToken = Object.values(tokens)[0];
  const seatsEl = document.getElementById("presence");
  let online = O.seats.map(() => false);

  function drawPresence() {
    seatsEl.replaceChildren();
    O.seats.forEach((s, i) => {
      const line = document.createElement("div");
      line.className = "seatline";
      line.dataset.seat = String(i);
      const dot = document.createElement("span");
      const bot = s.kind === "bot";
      const on = bot || online[i];
      dot.className = "dot" + (on ? " on" : "");
      dot.dataset.online = on ? "1" : "0";
      dot.setAttribute("role", "img");
      const state = bot ? CB.t("bot") : (on ? CB.t("connected") : CB.t("away"));
      dot.setAttribute("aria-label", state);
      const name = document.createElement("span");
      name.className = "pname";
      name.textContent = s.name + (mySeats.length === 1 && mySeats.includes(i) ? " " + CB.t("(you)") : "");  // hot-seat: nobody is "you"
      const what = document.createElement("span");
      what.className = "muted pstate";
      what.textContent = state;
      line.append(dot, name, what);
      seatsEl.append(line);
      const claim = box.querySelector(`.claim[data-seat="${i}"]`);
      if (claim && on) claim.textContent = CB.t("taken");
    });
  }
  drawPresence();

  // presence-only websocket: never receives views
  let backoff = 500;
  function connect() {
    if (!anyToken) return;
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/games/${O.game_id}?presence=1&token=${encodeURIComponent(anyToken)}`);
    ws.onopen = () => { backoff = 500; };
    ws.onmessage = (ev) => {
      const m = JSON.parse(ev.data);
      if (m.type === "presence") { online = m.online; drawPresence(); }
      else if (m.type === "rematch") { O.rematch_id = m.id; showRematch(); }
    };
    ws.onclose = (ev) => {
      if (ev.code >= 4400 && ev.code < 4500) { // refused: this link was replaced
        const note = document.createElement("p");
        note.className = "note";
        note.textContent = CB.t("This link is no longer valid: the host made a new one.");
        box.prepend(note);
        return;
      }
      backoff = Math.min(backoff * 2, 8000);
      setTimeout(connect, backoff);
    };
  }
  connect();

  // copy buttons
  box.addEventListener("click", async (ev) => {
    const b = ev.target.closest("button.copy");
    if (!b) return;
    const input = document.getElementById(b.dataset.for);
    input.select();
    let ok = false;
    try { await navigator.clipboard.writeText(input.value); ok = true; } catch (e) {
      try { ok = document.execCommand("copy"); } catch (e2) { ok = false; }
    }
    b.textContent = ok ? CB.t("Copied") : CB.t("Select and copy");
    setTimeout(() => { b.textContent = CB.t("Copy"); }, 2000);
  });

  // the host: new invite links (the old one stops working) and the spectator link
  box.querySelectorAll("button.reissue").forEach((b) => b.addEventListener("click", async () => {
    const seat = b.dataset.seat;
    const res = await fetch(`/api/games/${O.game_id}/seats/${seat}/reissue`, {
      method: "POST", headers: { "X-Seat-Token": anyToken || "" } });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) { if (window.CB) CB.showError(data.error || CB.t("could not make a new link")); return; }
    document.getElementById(`invite-${seat}`).value = data.url;
    const claim = box.querySelector(`.claim[data-seat="${seat}"]`);
    if (claim) claim.textContent = CB.t("new link, not opened yet");
  }));
  if (O.host && O.spectator_url) {
    document.getElementById("spectator-link").value = O.spectator_url;
    document.getElementById("spectator-box").hidden = false;
  }

  // your name (a seated player)
  if (mySeats.length === 1 && !O.spectator) {
    const seat = mySeats[0];
    const input = document.getElementById("my-seat-name");
    input.value = O.seats[seat].name;
    document.getElementById("rename-box").hidden = false;
    document.getElementById("rename").addEventListener("click", async () => {
      const res = await fetch(`/api/games/${O.game_id}/name`, {
        method: "POST", headers: { "Content-Type": "application/json", "X-Seat-Token": tokens[String(seat)] },
        body: JSON.stringify({ name: input.value }) });
      const data = await res.json().catch(() => ({}));
      if (!res.ok) { if (window.CB) CB.showError(data.error); return; }
      O.seats[seat].name = data.name;
      try { localStorage.setItem("cb_name", data.name); } catch (e) { /* private mode */ }
      drawPresence();
    });
  }

  // rematch: offered once the game is over; everyone seated gets their own new link
  const rematchBox = document.getElementById("rematch-box");
  const rematchBtn = document.getElementById("rematch");
  const rematchLink = document.getElementById("rematch-link");
  async function joinRematch(go) {
    const res = await fetch(`/api/games/${O.game_id}/rematch`, {
      method: "POST", headers: { "Content-Type": "application/json", "X-Seat-Token": anyToken || "" }, body: "{}" });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) { if (window.CB) CB.showError(data.error); return; }
    if (!data.play_url) return;
    rematchLink.href = data.play_url;
    rematchLink.hidden = false;
    if (go) location.assign(data.play_url);
  }
  function showRematch() {
    if (document.body.dataset.terminal !== "true" || O.spectator) return;
    rematchBox.hidden = false;
    if (O.rematch_id) {
      rematchBtn.hidden = true;
      rematchLink.hidden = false;
      joinRematch(false);
    }
  }
  rematchBtn.addEventListener("click", () => joinRematch(true));
  new MutationObserver(showRematch).observe(document.body, { attributes: true, attributeFilter: ["data-terminal"] });
  showRematch();
})();
