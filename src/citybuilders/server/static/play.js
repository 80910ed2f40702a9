/* The play page: live view over WebSocket, step-by-step click narrowing, moves by POST. */
"use strict";
const P = CB.page;
const seats = Object.keys(P.tokens).map(Number);
const views = {};
let current = seats[0];
let prefix = [];
let busy = false;
let endDismissed = false;
let rendered = "";
const backoff = {};

const tokenOf = (s) => P.tokens[String(s)];
const boardEl = document.getElementById("board");
const choicesEl = document.getElementById("choices");

function connect(seat) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/games/${P.game_id}?token=${encodeURIComponent(tokenOf(seat))}&lang=${encodeURIComponent(CB.lang)}`);
  ws.onopen = () => { backoff[seat] = 500; setConn(true); };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "view") onView(seat, m.view);
    else if (m.type === "error") CB.showError(m.error);
  };
  ws.onclose = (ev) => {
    setConn(false);
    if (ev.code >= 4400 && ev.code < 4500) return; // refused (bad token): do not retry
    backoff[seat] = Math.min((backoff[seat] || 500) * 2, 8000);
    setTimeout(() => connect(seat), backoff[seat]);
  };
}
function setConn(ok) {
  const c = document.getElementById("conn");
  c.textContent = ok ? CB.t("live") : CB.t("reconnecting…");
  c.className = "conn " + (ok ? "ok" : "bad");
}

function onView(seat, view) {
  const prev = views[seat];
  if (prev && prev.state_id > view.state_id) return;
  // the same state again (a refresh, a reconnect, the reply to our own move after its
  // websocket push): nothing to redraw; re-rendering would replace the buttons under the mouse
  if (prev && prev.state_id === view.state_id && prev.bot_error === view.bot_error) return;
  views[seat] = view;
  const mine = seats.filter((s) => views[s] && views[s].legal.length > 0);
  const switched = !(views[current] && views[current].legal.length > 0) && mine.length > 0 && mine[0] !== current;
  if (switched) { current = mine[0]; prefix = []; }
  if (seat === current || switched) {
    if (!prev || prev.state_id !== view.state_id) prefix = [];
    render();
  }
}

function candidates(view) {
  return view.legal.filter((l) => prefix.every((k, i) => l.path[i] === k));
}
function nextKeys(cands) {
  const keys = [];
  for (const c of cands) if (c.path.length > prefix.length && !keys.includes(c.path[prefix.length])) keys.push(c.path[prefix.length]);
  return keys;
}
function keyLabel(key, cands) {
  const ending = cands.filter((c) => c.path[prefix.length] === key);
  if (ending.length === 1 && ending[0].path.length === prefix.length + 1) return ending[0].text;
  const i = key.indexOf(":");
  return i > 0 ? `${key.slice(0, i)} ${key.slice(i + 1)}` : key;
}
function svgElement(key) {
  return boardEl.querySelector(`[data-key="${CSS.escape(key)}"]`);
}

function render() {
  const view = views[current];
  if (!view) return;
  // status line
  const st = document.getElementById("status");
  if (view.terminal) st.textContent = CB.t("Game over.") + (view.result && view.result.summary ? " " + view.result.summary : "");
  else if (view.legal.length) {
    const name = CB.seatName(view, current);
    st.textContent = prefix.length ? CB.t("Your move, {name} — selected: {path}", { name, path: prefix.join(" → ") })
      : CB.t("Your move, {name} — click a highlighted target", { name });
  } else st.textContent = CB.t("Waiting for {names}", { names: view.active_players.map((s) => CB.seatName(view, s)).join(", ") || "…" });
  st.className = "status" + (view.legal.length ? " yourturn" : "");
  if (view.bot_error) CB.showError(view.bot_error);
  // board
  if (boardEl.dataset.sid !== String(view.state_id) + ":" + current) {
    CB.setSvg(boardEl, view.svg);
    boardEl.dataset.sid = String(view.state_id) + ":" + current;
    delete choicesEl.dataset.sig;  // a new board: highlight again
  }
  const cands = candidates(view);
  const keys = nextKeys(cands);
  const sig = JSON.stringify([view.state_id, current, prefix, keys]);
  if (choicesEl.dataset.sig !== sig) {  // highlights and buttons only when the choice changed
    choicesEl.dataset.sig = sig;
    boardEl.querySelectorAll(".cb-target, .cb-selected").forEach((e) => e.classList.remove("cb-target", "cb-selected"));
    choicesEl.replaceChildren();
    for (const k of prefix) { const e = svgElement(k); if (e) e.classList.add("cb-selected"); }
    for (const k of keys) {
      const e = svgElement(k);
      if (e) e.classList.add("cb-target");
      else choicesEl.append(CB.el("button", { type: "button", class: "cb-choice", "data-key": k, text: keyLabel(k, cands) }));
    }
    for (const c of cands.filter((c) => c.path.length === prefix.length && prefix.length > 0)) {
      choicesEl.append(CB.el("button", { type: "button", class: "cb-choice cb-confirm", "data-action": String(c.action), text: "✓ " + c.text }));
    }
    if (prefix.length) choicesEl.append(CB.el("button", { type: "button", class: "cb-cancel", text: CB.t("Cancel") }));
    choicesEl.dataset.renders = String(Number(choicesEl.dataset.renders || 0) + 1);
  }
  document.body.dataset.stateId = String(view.state_id);
  document.body.dataset.prefix = prefix.join("|");
  document.body.dataset.terminal = String(view.terminal);
  // side panels (only when the state or the viewed seat changed)
  const key = `${view.state_id}:${current}:${view.terminal}`;
  if (rendered === key) return;
  rendered = key;
  const undo = document.getElementById("undo");
  undo.hidden = !(view.undoable > 0);
  document.getElementById("export").href = `/api/games/${P.game_id}/record?token=${encodeURIComponent(tokenOf(current))}&download=1`;
  const scores = document.getElementById("scores");
  scores.replaceChildren(CB.scoreTable(view));
  CB.renderPanels(view);
  CB.renderLog(view);
  renderTabs(view);
  // end screen
  const end = document.getElementById("endscreen");
  if (view.terminal && !endDismissed) {
    document.getElementById("end-winners").replaceChildren(CB.resultLine(view));
    document.getElementById("end-scores").replaceChildren(CB.scoreTable(view));
    end.hidden = false;
  } else end.hidden = true;
}

function renderTabs(view) {
  const tabs = document.getElementById("seat-tabs");
  tabs.replaceChildren();
  if (seats.length < 2) return;
  tabs.append(CB.t("Viewing as:") + " ");
  for (const s of seats) {
    const b = CB.el("button", { type: "button", class: "seat-tab" + (s === current ? " on" : ""), text: CB.seatName(view, s) });
    b.onclick = () => { current = s; prefix = []; render(); };
    tabs.append(b);
  }
}

function choose(key) {
  const view = views[current];
  prefix.push(key);
  const cands = candidates(view);
  if (cands.length === 1 && cands[0].path.length === prefix.length) submit(cands[0].action);
  else if (cands.length === 0) { prefix = []; render(); }
  else render();
}

async function submit(action) {
  if (busy) return;
  busy = true;
  CB.showError("");
  const view = views[current];
  const seat = current;
  const r = await CB.api(`/api/games/${P.game_id}/act`, {
    method: "POST", headers: { "Content-Type": "application/json", "X-Seat-Token": tokenOf(seat) },
    body: JSON.stringify({ state_id: view.state_id, action }),
  });
  busy = false;
  prefix = [];
  if (r.ok) onView(seat, r.data);
  else { CB.showError(r.data.error); await refresh(seat); }
  render();
}

async function refresh(seat) {
  const r = await CB.api(`/api/games/${P.game_id}/view`, { headers: { "X-Seat-Token": tokenOf(seat) } });
  if (r.ok) onView(seat, r.data); else CB.showError(r.data.error);
}

boardEl.addEventListener("click", (ev) => {
  const view = views[current];
  if (!view || busy) return;
  const keys = nextKeys(candidates(view));
  let el = ev.target.closest("[data-key]");
  while (el && !keys.includes(el.getAttribute("data-key"))) el = el.parentElement && el.parentElement.closest("[data-key]");
  if (el) choose(el.getAttribute("data-key"));
});
choicesEl.addEventListener("click", (ev) => {
  const b = ev.target.closest("button");
  if (!b || busy) return;
  if (b.classList.contains("cb-cancel")) { prefix = []; render(); return; }
  if (b.dataset.action) { submit(Number(b.dataset.action)); return; }
  if (b.dataset.key) choose(b.dataset.key);
});
document.getElementById("undo").addEventListener("click", async () => {
  const view = views[current];
  const r = await CB.api(`/api/games/${P.game_id}/undo`, {
    method: "POST", headers: { "Content-Type": "application/json", "X-Seat-Token": tokenOf(current) },
    body: JSON.stringify({ state_id: view.state_id }),
  });
  if (r.ok) onView(current, r.data); else CB.showError(r.data.error);
  render();
});
document.getElementById("end-close").addEventListener("click", () => { endDismissed = true; rendered = ""; render(); });
document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && prefix.length) { prefix = []; render(); } });

seats.forEach(connect);
