/* The play page: live view over WebSocket, step-by-step click narrowing with previews, moves by
   POST; other players' moves played back one by one; keyboard, phone, turn alerts, hints. */
"use strict";
const P = CB.page;
const seats = Object.keys(P.tokens).map(Number);
const hotSeat = seats.length > 1;
const views = {};
let current = seats[0];
let prefix = [];
let confirming = null;     // the legal entry waiting for its "confirm" click (cannot be undone)
let rot = 0;               // Sprawlopolis: the rotation chosen for the placement preview
// the move being sent: {seat, from: the state id it was chosen in, done: its promise}, or null.
// The board waits only while it still shows that state: the websocket often brings the new
// state before the POST's reply, and a click on it then must count (it was dropped: a CI flake)
let sending = null;
const busy = () => sending !== null && views[sending.seat] !== undefined
  && views[sending.seat].state_id === sending.from;
let endDismissed = false;
let rendered = "";
let keyboard = false;      // the last interaction was a key: keep the focus on a target
let hint = null;           // {action, text} from the hint endpoint
let hintGone = false;
const backoff = {};
const baseTitle = document.title;

const tokenOf = (s) => P.tokens[String(s)];
const boardEl = document.getElementById("board");
const choicesEl = document.getElementById("choices");
const statusEl = document.getElementById("status");

function connect(seat) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const have = views[seat] ? `&have=${views[seat].state_id}` : "";  // the server skips a view we hold
  const ws = new WebSocket(`${proto}://${location.host}/ws/games/${P.game_id}?token=${encodeURIComponent(tokenOf(seat))}&lang=${encodeURIComponent(CB.lang)}${have}`);
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
let connOk = false;
function setConn(ok) {
  connOk = ok;
  const c = document.getElementById("conn");
  // a finished game is no longer live: the badge says so (a lost connection still shows)
  const over = Object.values(views).some((v) => v.terminal);
  c.textContent = over && ok ? CB.t("game over") : ok ? CB.t("live") : CB.t("reconnecting…");
  c.className = "conn " + (over && ok ? "over" : ok ? "ok" : "bad");
}

const pathsOf = (view) => JSON.stringify((view.legal || []).map((l) => l.path));

function onView(seat, view) {
  const prev = views[seat];
  if (prev && prev.state_id > view.state_id) return;
  // the same state again (a refresh, a reconnect, the reply to our own move after its
  // websocket push): nothing to redraw; re-rendering would replace the buttons under the mouse
  if (prev && prev.state_id === view.state_id && prev.bot_error === view.bot_error) return;
  views[seat] = view;
  CB.words = view.words || {};
  const mine = seats.filter((s) => views[s] && views[s].legal.length > 0);
  const switched = !(views[current] && views[current].legal.length > 0) && mine.length > 0 && mine[0] !== current;
  if (switched) { current = mine[0]; clearSelection(); }
  if (seat === current || switched) {
    if (prev && prev.state_id !== view.state_id) {
      // keep the selection when the update left this seat's options as they were (another
      // player's move in a simultaneous phase); otherwise start again
      if (pathsOf(prev) !== pathsOf(view) || !candidates(view).length) clearSelection();
      else if (confirming) confirming = view.legal.find((l) => JSON.stringify(l.path) === JSON.stringify(confirming.path)) || null;
      hint = null;
      clearHintText();
      if (seat === current) queuePlayback(prev, view);
    }
    render();
  }
  turnAlert();
}
function clearSelection() { prefix = []; confirming = null; }
function clearHintText() { document.getElementById("hint-text").textContent = ""; }

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
  // a first choice names its whole move; a later one its own step (the status names the rest)
  if (!prefix.length && ending.length === 1 && ending[0].path.length === 1) return ending[0].text;
  return CB.labelOf(boardEl, key);
}
function svgElement(key) {
  return CB.keyed(boardEl, key);
}
// a board element drawn as a button (Kingdom Builder's "end turn", a tile): it is also a
// button in the turn bar, in view wherever the page is scrolled, and acts without a confirm
// step (a button that names its move is an explicit choice; a confirm is for board clicks)
const barKey = (k) => { const e = svgElement(k); return !!(e && e.matches(".button, .tile")); };

/* ------------------------------------------------------------------ rendering */
function render() {
  const view = views[current];
  if (!view) return;
  if (view.bot_error) CB.showError(view.bot_error);
  // board
  if (boardEl.dataset.sid !== String(view.state_id) + ":" + current) {
    CB.setSvg(boardEl, view.svg);
    boardEl.dataset.sid = String(view.state_id) + ":" + current;
    delete choicesEl.dataset.sig;  // a new board: highlight again
    CB.zoomApply(boardEl);
    CB.markLastTurns(boardEl, view);
    CB.renderLegend(view);
  }
  let cands = candidates(view);
  let keys = nextKeys(cands);
  // a lone remaining choice inside a started action is taken at once (not the first click:
  // that would play for you); Sprawlopolis takes the rotation chosen with the turn buttons
  if (!confirming && prefix.length > 0) {
    const done = cands.filter((c) => c.path.length === prefix.length);
    const wanted = `rot:${rot}`;
    if (!done.length && (keys.length === 1 || keys.includes(wanted))) {
      choose(keys.length === 1 ? keys[0] : wanted);
      return;
    }
  }
  renderStatus(view, cands, keys);
  const sig = JSON.stringify([view.state_id, current, prefix, keys, confirming && confirming.action, rot, hint && hint.action]);
  if (choicesEl.dataset.sig !== sig) {  // highlights and buttons only when the choice changed
    choicesEl.dataset.sig = sig;
    boardEl.querySelectorAll(".cb-target, .cb-selected, .cb-hint").forEach((e) => {
      e.classList.remove("cb-target", "cb-selected", "cb-hint");
      if (e.dataset.cbFocus) { e.removeAttribute("tabindex"); e.removeAttribute("role"); e.removeAttribute("aria-label"); delete e.dataset.cbFocus; }
    });
    removePreview();
    choicesEl.replaceChildren();
    for (const k of prefix) { const e = svgElement(k); if (e) e.classList.add("cb-selected"); }
    if (confirming) {
      showPreviewFor(confirming.path);
      choicesEl.append(CB.el("button", { type: "button", class: "cb-choice cb-confirm", "data-action": String(confirming.action), text: "✓ " + CB.t("Confirm: {move}", { move: confirming.text }) }));
      choicesEl.append(CB.el("span", { class: "muted", text: CB.t("(this move cannot be undone)") }));
      if (confirming.path[0].startsWith("card:")) { const saved = prefix; prefix = [confirming.path[0]]; rotateButtons(view, ["pos:"]); prefix = saved; }
    } else {
      for (const k of keys) {
        const e = svgElement(k);
        if (e) {
          e.classList.add("cb-target");
          if (!e.hasAttribute("tabindex")) { e.setAttribute("tabindex", "0"); e.dataset.cbFocus = "1"; }
          e.setAttribute("role", "button");
          e.setAttribute("aria-label", CB.nameOf(boardEl, k) + " — " + verbOf(k, cands));
          if (barKey(k)) choicesEl.append(CB.el("button", { type: "button", class: "cb-choice cb-bar", "data-key": k, text: CB.labelOf(boardEl, k) }));
        } else choicesEl.append(CB.el("button", { type: "button", class: "cb-choice", "data-key": k, text: keyLabel(k, cands) }));
      }
      for (const c of cands.filter((c) => c.path.length === prefix.length && prefix.length > 0)) {
        choicesEl.append(CB.el("button", { type: "button", class: "cb-choice cb-confirm", "data-action": String(c.action), text: "✓ " + c.text }));
      }
      rotateButtons(view, keys);
    }
    if (prefix.length || confirming) choicesEl.append(CB.el("button", { type: "button", class: "cb-cancel", text: CB.t("Cancel") }));
    if (hint) {
      const h = view.legal.find((l) => l.action === hint.action);
      if (h) for (const k of h.path) { const e = svgElement(k); if (e) e.classList.add("cb-hint"); }
    }
    choicesEl.dataset.renders = String(Number(choicesEl.dataset.renders || 0) + 1);
    if (keyboard) focusFirst();
  }
  document.body.dataset.stateId = String(view.state_id);
  document.body.dataset.prefix = prefix.join("|");
  document.body.dataset.terminal = String(view.terminal);
  document.body.dataset.confirming = confirming ? "1" : "";
  // side panels (only when the state or the viewed seat changed)
  const key = `${view.state_id}:${current}:${view.terminal}`;
  if (rendered === key) return;
  rendered = key;
  revealIn(".cb-target");  // a new state: zoomed in, its targets may lie outside the box
  document.getElementById("undo").hidden = !(view.undoable > 0);
  document.getElementById("hint").hidden = hintGone || view.terminal || !view.legal.length;
  document.getElementById("export").href = `/api/games/${P.game_id}/record?token=${encodeURIComponent(tokenOf(current))}&download=1`;
  document.getElementById("scores").replaceChildren(CB.scoreTable(view, hotSeat, view.terminal));
  CB.renderSeatKey(view, hotSeat ? null : view.you);
  CB.renderPanels(view, hotSeat);
  CB.renderLog(view, boardEl);
  renderTabs(view);
  // end screen
  const end = document.getElementById("endscreen");
  document.getElementById("end-open").hidden = !view.terminal;
  document.getElementById("end-export").href = document.getElementById("export").href;
  if (view.terminal && connOk) setConn(true);
  if (view.terminal && !endDismissed && !endSeen()) {
    document.getElementById("end-winners").replaceChildren(CB.resultLine(view, hotSeat));
    const table = CB.scoreTable(view, hotSeat, true);
    document.getElementById("end-scores").replaceChildren(table);
    end.hidden = false;
    try { localStorage.setItem(END_SEEN, "1"); } catch (e) { /* private mode: shown again next time */ }
    document.getElementById("end-close").focus();
  } else end.hidden = true;
}
// the end screen shows once per game in this browser; "Final scores" brings it back
const END_SEEN = "cb_end_seen_" + P.game_id;
let endForced = false;
function endSeen() { if (endForced) return false; try { return localStorage.getItem(END_SEEN) === "1" && !!P.view && P.view.terminal; } catch (e) { return false; } }
function closeEnd() {
  if (document.getElementById("endscreen").hidden) return;
  endDismissed = true; endForced = false; rendered = ""; render();
  document.getElementById("end-open").focus();
}

function verbOf(key, cands) {
  const ending = cands.filter((c) => c.path[prefix.length] === key);
  if (ending.length === 1 && ending[0].path.length === prefix.length + 1) return ending[0].text;
  return CB.t("select");
}

// The status line says exactly what to do now: the game's own words for the first click
// (view.prompt: "build a settlement on a highlighted hex (2 left)", "end your turn"), else
// what is selected and what the next click is; a bot to move is "thinking…"
function stepText(view, cands, keys) {
  if (confirming) return CB.t("confirm {move} or cancel", { move: confirming.text });
  if (!prefix.length && view.prompt) return view.prompt;
  const onBoard = keys.filter((k) => svgElement(k) && !barKey(k));
  const labels = keys.filter((k) => !svgElement(k) || barKey(k)).map((k) => (svgElement(k) ? CB.labelOf(boardEl, k) : keyLabel(k, cands)));
  if (prefix.length) for (const c of cands) if (c.path.length === prefix.length) labels.push(c.text);
  let next;
  if (onBoard.length && labels.length) next = CB.t("click a highlighted target or one of the buttons");
  else if (onBoard.length) next = CB.t("click a highlighted target");
  else if (labels.length && labels.length <= 4) next = CB.t("choose: {choices}", { choices: labels.join(" / ") });
  else next = CB.t("choose one of the buttons");
  if (!prefix.length) return next;
  return CB.t("selected: {keys}", { keys: prefix.map((k) => CB.labelOf(boardEl, k)).join(" → ") }) + " — " + next;
}
function renderStatus(view, cands, keys) {
  let text;
  let thinking = false;
  if (view.terminal) text = CB.t("Game over.") + (view.result && view.result.summary ? " " + CB.neutral(view.result.summary, hotSeat) : "");
  else if (view.legal.length) text = CB.t("Your move, {name}", { name: CB.seatName(view, current) }) + " — " + stepText(view, cands, keys);
  else {
    const names = view.active_players.map((s) => CB.seatName(view, s)).join(", ") || "…";
    thinking = view.active_players.length > 0 && view.active_players.every((s) => view.seats[s] && view.seats[s].kind === "bot") && !view.bot_error;
    text = thinking ? CB.t("{names} is thinking…", { names }) : CB.t("Waiting for {names}", { names });
  }
  statusEl.textContent = text;
  statusEl.className = "status" + (view.legal.length ? " yourturn" : "") + (thinking ? " thinking" : "");
}

function renderTabs(view) {
  const tabs = document.getElementById("seat-tabs");
  tabs.replaceChildren();
  if (seats.length < 2) return;
  tabs.append(CB.t("Viewing as:") + " ");
  for (const s of seats) {
    const b = CB.el("button", { type: "button", class: "seat-tab" + (s === current ? " on" : ""), "aria-pressed": String(s === current), text: CB.seatName(view, s) });
    b.onclick = () => { current = s; clearSelection(); render(); };
    tabs.append(b);
  }
}

function focusFirst() {
  const a = document.activeElement;
  if (a && a !== document.body && document.contains(a) && (a.classList.contains("cb-target") || choicesEl.contains(a))) return;
  const t = choicesEl.querySelector(".cb-confirm") || boardEl.querySelector(".cb-target") || choicesEl.querySelector("button");
  if (t) t.focus({ preventScroll: false });
}

/* ------------------------------------------------------------------ previews */
// Sprawlopolis: the chosen card's 2×2 footprint follows the pointer (or the focused cell),
// drawn in the chosen rotation; Kingdom Builder moves (Paddock, Barn, Harbor, wagon...): an
// arrow from the selected hex to the one under the pointer
function removePreview() { boardEl.querySelectorAll(".cb-preview").forEach((e) => e.remove()); }
function svgRoot() { return boardEl.querySelector("svg"); }
function previewAt(targetKey) {
  removePreview();
  const svg = svgRoot();
  const el = svgElement(targetKey);
  if (!svg || !el) return;
  const card = prefix[0] && prefix[0].startsWith("card:") ? prefix[0].slice(5) : null;
  if (card && targetKey.startsWith("pos:")) {
    const src = svg.querySelector(`.sp-preview-src[data-card="${CSS.escape(card)}"][data-rot="${rot}"]`);
    if (!src) return;
    const g = src.cloneNode(true);
    g.setAttribute("class", "cb-preview");
    g.removeAttribute("display");
    g.setAttribute("opacity", "0.8");
    g.setAttribute("transform", `translate(${Number(el.getAttribute("x")) - 2},${Number(el.getAttribute("y")) - 2})`);
    svg.append(g);
    return;
  }
  const from = prefix.length ? svgElement(prefix[prefix.length - 1]) : null;
  if (from && from !== el && prefix[prefix.length - 1].startsWith("hex:") && targetKey.startsWith("hex:")) {
    const a = from.getBBox(), b = el.getBBox();
    const NS = "http://www.w3.org/2000/svg";
    const line = document.createElementNS(NS, "line");
    const [x1, y1, x2, y2] = [a.x + a.width / 2, a.y + a.height / 2, b.x + b.width / 2, b.y + b.height / 2];
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
    const tip = [x2 - ux * 5, y2 - uy * 5];
    for (const [k, v] of Object.entries({ x1, y1, x2: tip[0], y2: tip[1], class: "cb-preview cb-arrow", "pointer-events": "none" })) line.setAttribute(k, v);
    const head = document.createElementNS(NS, "polygon");
    const px = -uy, py = ux;
    head.setAttribute("points", `${x2},${y2} ${tip[0] - ux * 4 + px * 4},${tip[1] - uy * 4 + py * 4} ${tip[0] - ux * 4 - px * 4},${tip[1] - uy * 4 - py * 4}`);
    head.setAttribute("class", "cb-preview cb-arrow-head");
    head.setAttribute("pointer-events", "none");
    svg.append(line, head);
  }
}
function showPreviewFor(path) {
  const saved = prefix;
  prefix = path.slice(0, -1);
  const target = path.find((k, i) => i > 0 && (k.startsWith("pos:") || k.startsWith("hex:")));
  if (target) {
    if (path[0].startsWith("card:")) { prefix = [path[0]]; previewAt(target); }
    else { prefix = path.slice(0, path.indexOf(target)); previewAt(target); }
  }
  prefix = saved;
}
function rotateButtons(view, keys) {
  // Sprawlopolis: a card chosen, its place not yet: two buttons showing the card turned
  const svg = svgRoot();
  if (!svg || !prefix.length || !prefix[0].startsWith("card:") || !keys.some((k) => k.startsWith("pos:"))) return;
  const card = prefix[0].slice(5);
  for (const r of [0, 180]) {
    const src = svg.querySelector(`.sp-preview-src[data-card="${CSS.escape(card)}"][data-rot="${r}"]`);
    if (!src) continue;
    const NS = "http://www.w3.org/2000/svg";
    const mini = document.createElementNS(NS, "svg");
    const block = src.querySelector("rect");  // the footprint: 2 × 2 blocks from the origin
    mini.setAttribute("viewBox", `0 0 ${2 * Number(block.getAttribute("width"))} ${2 * Number(block.getAttribute("height"))}`);
    mini.setAttribute("width", "36");
    mini.setAttribute("height", "26");
    mini.setAttribute("aria-hidden", "true");
    const g = src.cloneNode(true);
    g.removeAttribute("display");
    g.removeAttribute("class");
    mini.append(g);
    const b = CB.el("button", { type: "button", class: "cb-rotate" + (rot === r ? " on" : ""), "data-rot": String(r), "aria-pressed": String(rot === r),
      "aria-label": r ? CB.t("card turned 180°") : CB.t("card upright") });
    b.append(mini, CB.el("span", { text: r ? " 180°" : " 0°" }));
    choicesEl.append(b);
  }
}

/* ------------------------------------------------------------------ acting */
function choose(key, button) {
  const view = views[current];
  prefix.push(key);
  const cands = candidates(view);
  if (cands.length === 1 && cands[0].path.length === prefix.length) {
    if (cands[0].final && !button && !barKey(key)) { confirming = cands[0]; prefix = cands[0].path.slice(0, -1); render(); }
    else submit(cands[0].action);
  } else if (cands.length === 0) { clearSelection(); render(); }
  else render();
}

async function submit(action) {
  if (busy()) return;
  while (sending) await sending.done;  // a move chosen in a state the websocket brought first
  CB.showError("");
  const view = views[current];
  const seat = current;
  const done = CB.api(`/api/games/${P.game_id}/act`, {
    method: "POST", headers: { "Content-Type": "application/json", "X-Seat-Token": tokenOf(seat) },
    body: JSON.stringify({ state_id: view.state_id, action }),
  });
  sending = { seat, from: view.state_id, done };
  const r = await done;
  sending = null;
  // a selection begun in a newer state (pushed before this reply) is the player's: keep it
  if (!r.ok || views[seat] === view) {
    clearSelection();
    hint = null;
    clearHintText();
  }
  if (r.ok) onView(seat, r.data);
  else { CB.showError(r.data.error); await refresh(seat); }
  render();
}

async function refresh(seat) {
  const r = await CB.api(`/api/games/${P.game_id}/view`, { headers: { "X-Seat-Token": tokenOf(seat) } });
  if (r.ok) onView(seat, r.data); else CB.showError(r.data.error);
}

function targetOf(node) {
  const view = views[current];
  if (!view || confirming) return null;
  const keys = nextKeys(candidates(view));
  let el = node && node.closest ? node.closest("[data-key]") : null;
  while (el && !keys.includes(el.getAttribute("data-key"))) el = el.parentElement && el.parentElement.closest("[data-key]");
  return el;
}
// Phone: at "Fit" a first tap on a target smaller than a fingertip zooms (CB.tapZoomer); the
// next tap acts. A mouse, a pen or the keyboard acts at once.
const tapZoom = CB.tapZoomer(boardEl, () => boardEl.querySelector(".cb-target"), () => {
  document.getElementById("hint-text").textContent = CB.t("Zoomed in: tap a target to play it; Fit shows the whole board.");
});
boardEl.addEventListener("click", (ev) => {
  if (busy()) return;
  keyboard = ev.detail === 0;  // a click from Enter on a focused element has detail 0
  const el = targetOf(ev.target);
  if (!keyboard && tapZoom(ev, el)) return;
  if (el) choose(el.getAttribute("data-key"));
});
boardEl.addEventListener("keydown", (ev) => {
  if (ev.key !== "Enter" && ev.key !== " ") return;
  const el = targetOf(ev.target);
  if (!el || busy()) return;
  ev.preventDefault();
  keyboard = true;
  choose(el.getAttribute("data-key"));
});
const hoverPreview = (ev) => {
  if (confirming) return;
  const el = targetOf(ev.target);
  if (el) previewAt(el.getAttribute("data-key"));
};
boardEl.addEventListener("pointerover", hoverPreview);
boardEl.addEventListener("focusin", hoverPreview);
boardEl.addEventListener("pointerleave", () => { if (!confirming) removePreview(); });
choicesEl.addEventListener("click", (ev) => {
  const b = ev.target.closest("button");
  if (!b || busy()) return;
  keyboard = ev.detail === 0;
  if (b.classList.contains("cb-cancel")) { clearSelection(); render(); return; }
  if (b.classList.contains("cb-rotate")) {
    rot = Number(b.dataset.rot);
    if (confirming) {  // turned while confirming: the same card and place in the new rotation
      const p = confirming.path;
      const other = views[current].legal.find((l) => l.path[0] === p[0] && l.path[1] === p[1] && l.path[2] === `rot:${rot}`);
      if (other) confirming = other;
    }
    delete choicesEl.dataset.sig; render(); return;
  }
  if (b.dataset.action) { submit(Number(b.dataset.action)); return; }
  if (b.dataset.key) choose(b.dataset.key, true);
});
document.getElementById("undo").addEventListener("click", async () => {
  const view = views[current];
  const r = await CB.api(`/api/games/${P.game_id}/undo`, {
    method: "POST", headers: { "Content-Type": "application/json", "X-Seat-Token": tokenOf(current) },
    body: JSON.stringify({ state_id: view.state_id }),
  });
  if (r.ok) { clearSelection(); onView(current, r.data); } else CB.showError(r.data.error);
  render();
});
document.getElementById("hint").addEventListener("click", async () => {
  const view = views[current];
  const r = await CB.api(`/api/games/${P.game_id}/hint?t=${encodeURIComponent(tokenOf(current))}`);
  const box = document.getElementById("hint-text");
  if (r.status === 404) { hintGone = true; document.getElementById("hint").hidden = true; box.textContent = CB.t("No hints for this game."); return; }
  if (!r.ok) { CB.showError(r.data.error); return; }
  if (!views[current] || views[current].state_id !== view.state_id) return;
  hint = { action: r.data.action, text: r.data.text };
  box.textContent = CB.t("Hint: {text}", { text: r.data.text || "" });
  clearSelection();
  delete choicesEl.dataset.sig;
  render();
  revealIn(".cb-hint");
});
/* Zoomed in (a phone's tap-to-zoom, or + ), the board box shows part of the board: when none
   of the elements ``sel`` names is in view (a new turn's targets, a hint), the first one is
   scrolled to the middle of the box. At Fit, or with one in view, nothing moves. */
function revealIn(sel) {
  if (CB.zoom === 1) return;
  const els = Array.from(boardEl.querySelectorAll(sel));
  if (!els.length) return;
  const b = boardEl.getBoundingClientRect();
  const inView = (e) => {
    const r = e.getBoundingClientRect();
    return r.right > b.left && r.left < b.right && r.bottom > b.top && r.top < b.bottom;
  };
  if (!els.some(inView)) els[0].scrollIntoView({ block: "nearest", inline: "center" });
}
document.getElementById("end-close").addEventListener("click", closeEnd);
document.getElementById("endscreen").addEventListener("click", (ev) => { if (ev.target.id === "endscreen") closeEnd(); });
document.getElementById("end-open").addEventListener("click", () => { endDismissed = false; endForced = true; rendered = ""; render(); });
const explainClick = (ev) => {
  // a score part clicked: show the board with what scored that part highlighted in the
  // player's colour (and the card or condition it is about, with its rule)
  const cell = ev.target.closest("[data-part]");
  if (!cell) return;
  const fromEnd = !document.getElementById("endscreen").hidden;
  endDismissed = true; rendered = ""; render();
  CB.explainPart(boardEl, cell.dataset.part);
  CB.showScored(boardEl, views[current], Number(cell.dataset.seat || 0), cell.dataset.part, document.getElementById("scored-note"));
  if (fromEnd) { const again = document.querySelector(`#scores [data-part="${CSS.escape(cell.dataset.part)}"][data-seat="${CSS.escape(cell.dataset.seat || "0")}"]`); if (again) again.focus({ preventScroll: true }); }
};
document.getElementById("end-scores").addEventListener("click", explainClick);
document.getElementById("scores").addEventListener("click", explainClick);
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Tab" || ev.key === "Enter" || ev.key === " ") keyboard = true;
  if (ev.key === "Escape" && !document.getElementById("endscreen").hidden) { closeEnd(); return; }
  if (ev.key === "Escape" && (prefix.length || confirming)) { clearSelection(); render(); }
});
document.addEventListener("pointerdown", () => { keyboard = false; });

/* ------------------------------------------------------------------ playback */
// other players' actions that arrive together are shown one by one (≈300 ms each): the log
// line in the banner and its hexes/blocks/cells flashing on the board; "Skip" ends it
const queue = [];
let playing = null;
function queuePlayback(prev, view) {
  const last = prev.log.length ? prev.log[prev.log.length - 1].n : 0;
  for (const e of view.log) if (e.n > last && e.actor !== null && e.actor !== undefined && !seats.includes(e.actor)) queue.push(e);
  if (!playing && queue.length) playNext();
}
function playNext() {
  const bar = document.getElementById("playback");
  const e = queue.shift();
  CB.flash(boardEl, null);
  if (!e) { bar.hidden = true; playing = null; return; }
  bar.hidden = false;
  document.getElementById("playback-text").textContent = `${e.who}: ${e.text}`;
  CB.flash(boardEl, e);
  playing = setTimeout(playNext, 300);
}
document.getElementById("playback-skip").addEventListener("click", () => {
  queue.length = 0; clearTimeout(playing); playing = null; playNext();
});

/* ------------------------------------------------------------------ your turn */
let wasMyTurn = false;
function turnAlert() {
  const myTurn = seats.some((s) => views[s] && views[s].legal.length > 0);
  document.title = (myTurn ? "● " + CB.t("Your turn") + " · " : "") + baseTitle;
  const icon = document.querySelector("link[rel=icon]");
  const href = myTurn ? "/static/favicon-turn.svg" : "/static/favicon.svg";
  if (icon && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
  if (myTurn && !wasMyTurn && Object.keys(views).length) {
    if (localStorage.getItem("cb_sound") === "1") CB.beep();
    if (document.hidden && window.Notification && Notification.permission === "granted" && localStorage.getItem("cb_notify") === "1") {
      try { new Notification(CB.t("Your turn"), { body: baseTitle, icon: "/static/favicon-turn.svg" }); } catch (e) { /* not allowed here */ }
    }
  }
  wasMyTurn = myTurn;
}
const soundBox = document.getElementById("opt-sound");
soundBox.checked = localStorage.getItem("cb_sound") === "1";
soundBox.addEventListener("change", () => { localStorage.setItem("cb_sound", soundBox.checked ? "1" : "0"); if (soundBox.checked) CB.beep(); });
const notifyBox = document.getElementById("opt-notify");
notifyBox.checked = localStorage.getItem("cb_notify") === "1" && window.Notification && Notification.permission === "granted";
if (!window.Notification) notifyBox.parentElement.hidden = true;
notifyBox.addEventListener("change", async () => {
  if (notifyBox.checked && Notification.permission !== "granted") {
    const p = await Notification.requestPermission();
    if (p !== "granted") notifyBox.checked = false;
  }
  localStorage.setItem("cb_notify", notifyBox.checked ? "1" : "0");
});

CB.zoomControls(boardEl);
CB.tips(boardEl);
if (P.view && seats.includes(P.view.seat)) onView(P.view.seat, P.view);  // drawn at once
seats.forEach(connect);
