/* Shared helpers of the play and replay pages (vanilla JS, no build step). */
"use strict";
const CB = {};
CB.page = JSON.parse(document.getElementById("page-data").textContent);
CB.el = (tag, attrs, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
};
/* Put a game's SVG board into `box`. The markup is parsed inert (a <template>), anything
   active is removed (script, foreignObject, iframe/object/embed, on* handlers, javascript:
   links), then the nodes are moved in: a hostile text in a board can only ever be text.
   (The Content-Security-Policy forbids inline script as well.) */
CB.ACTIVE = "script, foreignObject, iframe, object, embed, use[href^='http'], use[*|href^='http']";
CB.setSvg = (box, markup) => {
  const t = document.createElement("template");
  t.innerHTML = markup || "";
  t.content.querySelectorAll(CB.ACTIVE).forEach((e) => e.remove());
  t.content.querySelectorAll("*").forEach((e) => {
    for (const a of Array.from(e.attributes)) {
      const n = a.name.toLowerCase();
      if (n.startsWith("on")) { e.removeAttribute(a.name); continue; }
      if (n !== "href" && !n.endsWith(":href") && n !== "src") continue;
      const v = a.value.replace(/[\s\u0000-\u001f]+/g, "").toLowerCase();
      if (v.startsWith("javascript:") || v.startsWith("data:text")) e.removeAttribute(a.name);
    }
  });
  box.replaceChildren(t.content);
  box.cbKeys = null;
};
/* The element of a click key (data-key) on a board put there by CB.setSvg: one pass over the
   board builds a key -> element map (the first element of each key), kept until the next board. */
CB.keyed = (board, key) => {
  if (!board) return null;
  if (!board.cbKeys) {
    board.cbKeys = new Map();
    for (const e of board.querySelectorAll("[data-key]")) { const k = e.getAttribute("data-key"); if (!board.cbKeys.has(k)) board.cbKeys.set(k, e); }
  }
  return board.cbKeys.get(key) || null;
};
/* The page language (<html lang>, e.g. "pt-BR"): every API and WebSocket call carries it as
   ?lang= so the server's texts (errors, panels, status lines, log) come in the same language. */
CB.lang = document.documentElement.lang || "en";
CB.withLang = (url) => url + (url.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(CB.lang);
CB.api = async (url, opts) => {
  // a request that never reached the server (connection lost, server restarting) is an error
  // answer like any other (status 0): a caller's "busy" flag must not stay set for ever
  let res;
  try { res = await fetch(CB.withLang(url), opts); }
  catch (e) { return { ok: false, status: 0, data: { error: CB.t("the server could not be reached; try again") } }; }
  let data = null;
  try { data = await res.json(); } catch (e) { data = { error: CB.t("bad server reply") }; }
  return { ok: res.ok, status: res.status, data };
};
CB.showError = (msg) => {
  const box = document.getElementById("error");
  if (!box) return;
  box.textContent = msg || "";
  box.hidden = !msg;
};
CB.seatName = (view, s) => (view.seats[s] ? view.seats[s].name : CB.t("seat {num}", { num: s + 1 }));
CB.value = (v) => {
  if (v === null || v === undefined) return CB.el("span", { class: "muted", text: "—" });
  if (Array.isArray(v)) {
    if (v.every((x) => x === null || typeof x !== "object")) return CB.el("span", { text: v.length ? v.join(", ") : CB.t("(none)") });
    const ul = CB.el("ul");
    v.forEach((x) => ul.append(CB.el("li", {}, CB.value(x))));
    return ul;
  }
  if (typeof v === "object") {
    const t = CB.el("table", { class: "kv" });
    for (const [k, x] of Object.entries(v)) t.append(CB.el("tr", {}, CB.el("th", { text: k }), CB.el("td", {}, CB.value(x))));
    return t;
  }
  return CB.el("span", { text: String(v) });
};
/* "Your view": the server's human-readable panels (view.display: [{title, value}]). */
CB.renderPanels = (view, hotSeat) => {
  const box = document.getElementById("panels");
  box.replaceChildren();
  const neutral = (v) => (typeof v === "string" ? CB.neutral(v, true) : Array.isArray(v) ? v.map(neutral)
    : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [CB.neutral(k, true), neutral(x)])) : v);
  const panels = ((view && view.display) || []).map((p) => (hotSeat ? { title: p.title, value: neutral(p.value) } : p));
  if (!panels.length) { box.append(CB.el("p", { class: "muted", text: CB.t("(nothing to show)") })); return; }
  for (const p of panels) {
    box.append(CB.el("section", { class: "panel", "data-panel": p.title }, CB.el("h4", { text: p.title }), CB.value(p.value)));
  }
};
/* "(you)" makes no sense on a hot-seat screen shared by every player: neutral wording there. */
CB.neutral = (text, hotSeat) => (hotSeat ? String(text || "").split(" " + CB.t("(you)")).join("").replace(/ \(you\)/g, "") : String(text || ""));
/* The score table: a column per player (co-op games: one shared column), a row per part and
   the total last, so its width grows with the players, not with the parts (Kingdom Builder's
   cards, Roll into Town's buildings), and it fits the side panel. ``end``: the part cells
   are buttons that show on the board what the part is about (CB.explainPart). */
CB.scoreTable = (view, hotSeat, end) => {
  const parts = [];
  view.scores.forEach((s) => Object.keys(s.parts || {}).forEach((p) => { if (!parts.includes(p)) parts.push(p); }));
  const t = CB.el("table", { class: "scores" });
  const wrap = CB.el("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": CB.t("Score") }, t);
  const shared = view.cooperative && view.scores.length > 1;
  const cols = shared ? [0] : view.scores.map((_, i) => i);
  const winner = (i) => !!(view.result && view.result.winners && view.result.winners.includes(i));
  const head = CB.el("tr", {}, CB.el("th", { scope: "col", class: "corner", text: CB.t("player") }));
  for (const i of cols) {
    const you = !hotSeat && view.you !== null && view.you !== undefined && i === view.you;
    const name = shared ? view.seats.map((x) => x.name).join(" + ") : CB.seatName(view, i) + (you ? " " + CB.t("(you)") : "");
    head.append(CB.el("th", { scope: "col", class: winner(i) ? "winner" : "", text: name }));
  }
  t.append(head);
  for (const p of parts) {
    const tr = CB.el("tr", {}, CB.el("th", { scope: "row", text: (view.score_labels && view.score_labels[p]) || p }));
    for (const i of cols) {
      const v = String(((view.scores[i] || {}).parts || {})[p] ?? "");
      const td = CB.el("td", { class: winner(i) ? "winner" : "" });
      if (end) td.append(CB.el("button", { type: "button", class: "part", "data-part": p, "data-seat": String(i), title: CB.t("show on the board"), text: v }));
      else td.textContent = v;
      tr.append(td);
    }
    t.append(tr);
  }
  const total = CB.el("tr", { class: "total" }, CB.el("th", { scope: "row", text: CB.t("total") }));
  for (const i of cols) total.append(CB.el("td", { class: "total" + (winner(i) ? " winner" : ""), text: String(view.scores[i].total) }));
  t.append(total);
  return wrap;
};
/* The board elements a log entry names (entry.keys, see View.log_keys): on the actor's own
   part of the board when the board shows several players' sheets (g[data-seat]). */
CB.keyElements = (board, entry) => {
  if (!entry || !entry.keys || !entry.keys.length) return [];
  const scoped = entry.actor !== null && entry.actor !== undefined ? board.querySelector(`[data-seat="${entry.actor}"]`) : null;
  const out = [];
  for (const k of entry.keys) {
    const sel = `[data-key="${CSS.escape(k)}"], [data-at="${CSS.escape(k)}"]`;
    const found = scoped ? [...scoped.querySelectorAll(sel)] : [...board.querySelectorAll(sel)].filter((e) => !e.closest("[data-seat]"));
    out.push(...found);
  }
  return out;
};
CB.flash = (board, entry) => {
  board.querySelectorAll(".cb-flash").forEach((e) => e.classList.remove("cb-flash"));
  for (const e of CB.keyElements(board, entry)) e.classList.add("cb-flash");
};
/* Each player's last turn stays outlined in their colour: the run of that player's entries
   ending at their last one, back to the previous chance entry (a roll, a draw) or another
   player's entry (at most 30 entries). */
CB.markLastTurns = (board, view, log) => {
  const entries = log || view.log || [];
  const done = new Set();
  for (let i = entries.length - 1; i >= 0 && done.size < view.num_players; i--) {
    const a = entries[i].actor;
    if (a === null || a === undefined || done.has(a)) continue;
    done.add(a);
    for (let j = i; j >= 0 && j > i - 30 && entries[j].actor === a; j--) {
      for (const e of CB.keyElements(board, entries[j])) e.classList.add("cb-last", "cb-last-p" + (a % 5));
    }
  }
};
/* The whole log, paged (50 lines a page, the last page first); hovering or focusing a line
   highlights its hexes/blocks/cells on the board. */
CB.LOG_PAGE = 50;
CB.renderLog = (view, board, pageNo) => {
  const ol = document.getElementById("log");
  const log = view.log || [];
  const pages = Math.max(1, Math.ceil(log.length / CB.LOG_PAGE));
  const page = pageNo === undefined || pageNo === null ? pages - 1 : Math.max(0, Math.min(pages - 1, pageNo));
  const shown = log.slice(page * CB.LOG_PAGE, (page + 1) * CB.LOG_PAGE);
  ol.replaceChildren(...shown.map((e) => {
    const li = CB.el("li", { value: String(e.n), tabindex: e.keys && e.keys.length ? "0" : "-1" }, CB.el("span", { class: "who", text: e.who + ": " }), CB.el("span", { text: e.text }));
    if (board) {
      const on = () => CB.flash(board, e), off = () => CB.flash(board, null);
      li.addEventListener("mouseenter", on); li.addEventListener("focus", on);
      li.addEventListener("mouseleave", off); li.addEventListener("blur", off);
    }
    return li;
  }));
  ol.scrollTop = ol.scrollHeight;
  const nav = document.getElementById("log-pages");
  if (!nav) return;
  nav.replaceChildren();
  if (pages < 2) return;
  const go = (p) => CB.renderLog(view, board, p);
  const prev = CB.el("button", { type: "button", text: "‹ " + CB.t("older") });
  prev.disabled = page === 0; prev.onclick = () => go(page - 1);
  const next = CB.el("button", { type: "button", text: CB.t("newer") + " ›" });
  next.disabled = page === pages - 1; next.onclick = () => go(page + 1);
  nav.append(prev, CB.el("span", { text: " " + CB.t("page {n} of {m}", { n: page + 1, m: pages }) + " " }), next);
};
/* The end screen's headline (view.result.summary: won/lost, target, solo rank, winners). */
CB.resultLine = (view, hotSeat) => {
  const r = view.result || {};
  const outcome = hotSeat && !view.cooperative ? "" : (r.outcome || "");
  return CB.el("div", { class: "end-result" + (outcome ? " " + outcome : ""), id: "end-result", text: CB.neutral(r.summary, hotSeat) });
};
/* A score part clicked on the end screen: the board element whose rule names the part (a
   condition card, a Kingdom Builder card) flashes and its rule shows in the popover. */
CB.explainPart = (board, part) => {
  const name = String(part).replace(/^\d+\s+/, "").toLowerCase();
  board.querySelectorAll(".cb-flash").forEach((e) => e.classList.remove("cb-flash"));
  let hit = null;
  for (const t of board.querySelectorAll("title")) {
    const text = t.textContent.toLowerCase();
    if (text.includes(name) && t.parentElement && t.parentElement.tagName !== "svg") { hit = t.parentElement; break; }
  }
  if (hit) { hit.classList.add("cb-flash"); CB.showTip(hit); }
};
/* What scored: a points cell of the end screen clicked (seat, part): the board elements that
   earned it (view.explain[seat][part], server/explain.py) outlined in the seat's colour, the
   rest dimmed, and one sentence in ``note`` (aria-live). part null: clear. Returns the keys. */
CB.showScored = (board, view, seat, part, note) => {
  board.querySelectorAll(".cb-scored").forEach((e) => e.classList.remove("cb-scored", ...[0, 1, 2, 3, 4].map((k) => "cb-scored-p" + k)));
  board.classList.remove("scoring");
  delete board.dataset.scored;
  if (part === null || part === undefined) { if (note) note.textContent = ""; return []; }
  const keys = ((view.explain || {})[String(seat)] || {})[part] || [];
  const els = CB.keyElements(board, { actor: view.cooperative ? null : seat, keys });
  for (const e of els) e.classList.add("cb-scored", "cb-scored-p" + (seat % 5));
  if (els.length) board.classList.add("scoring");
  board.dataset.scored = keys.join(" ");
  const name = view.cooperative && view.seats.length > 1 ? view.seats.map((x) => x.name).join(" + ") : CB.seatName(view, seat);
  const vars = { name, part: (view.score_labels && view.score_labels[part]) || part, points: String(((view.scores[seat] || {}).parts || {})[part] ?? "") };
  if (note) {
    note.textContent = els.length ? CB.t("{name}: {part} scored {points}; {count} highlighted on the board", { ...vars, count: els.length })
      : CB.t("{name}: {part} scored {points}; nothing on the board to highlight", vars);
  }
  return keys;
};
/* The seat-colour key next to the board: each player's name in the colour of their pieces,
   last-turn outlines and end-screen highlights (palette CB.SEAT_COLORS, seat mod 5). */
CB.renderSeatKey = (view, you) => {
  const box = document.getElementById("seat-key");
  if (!box) return;
  const seats = view.seats || [];
  box.hidden = !seats.length;
  box.replaceChildren();
  if (!seats.length) return;
  box.append(CB.el("span", { class: "muted", text: CB.t("Players:") }));
  seats.forEach((s, i) => {
    // each player's score beside the name: readable on a phone, where the board's own score
    // line is too small to read (style.css hides it there)
    const label = s.name + (you !== null && you !== undefined && you === i ? " " + CB.t("(you)") : "");
    box.append(CB.el("span", { class: "seat-key-item", "data-seat": String(i) }, CB.el("span", { class: "seat-swatch p" + (i % 5), "aria-hidden": "true" }), CB.el("span", { text: label })));
    if (!view.cooperative && view.scores && view.scores[i]) box.lastChild.after(CB.el("span", { class: "seat-score", "data-seat": String(i), text: String(view.scores[i].total) }));
  });
};
/* A hex without a <title> in words: "hex 2,12 forest", its terrain in the page's language
   (the board's data-name, else CB.gloss: the game's NOTATION_WORDS). */
CB.hexLabel = (e) => CB.t("hex {at} {terrain}", { at: (e.dataset.key || "").slice(4), terrain: e.dataset.name || CB.gloss(e.dataset.terrain).replace(/_/g, " ") });
/* A short human label of a click key: the first part of its element's <title>, else the key
   in words (dice 1-based: "die:3" is the 4th die, "die 4"). */
CB.labelOf = (board, key) => {
  const e = CB.keyed(board, key);
  if (e) {
    const t = e.querySelector(":scope > title");
    if (t && t.textContent) return t.textContent.split(":")[0];
    if (e.dataset.terrain) return CB.hexLabel(e);
  }
  const m = /^(die|d):(\d+)$/.exec(key);
  if (m) return CB.t("die {n}", { n: Number(m[2]) + 1 });
  const a = /^adj:([+-]\d+)$/.exec(key);
  if (a) return a[1].startsWith("-") ? CB.t("lower the die by {n}", { n: a[1].slice(1) }) : CB.t("raise the die by {n}", { n: a[1].slice(1) });
  const r = /^rot:(\d+)$/.exec(key);
  if (r) return r[1] === "0" ? CB.t("upright") : CB.t("turned {deg}°", { deg: r[1] });
  const f = /^(flow|sides):([NESW]+)$/.exec(key);
  if (f) {  // each side letter in the reader's words (N -> 北), as the log writes them
    const dirs = f[2].split("").map((s) => CB.gloss(s)).join("–");
    return f[1] === "flow" ? CB.t("flowing {dirs}", { dirs }) : CB.t("water on {dirs}", { dirs });
  }
  const i = key.indexOf(":");
  return CB.gloss((i > 0 ? `${key.slice(0, i)} ${key.slice(i + 1)}` : key).replace(/_/g, " "));
};
/* A key's or notation's words in the page's language: CB.words (the view's "words", the
   game's NOTATION_WORDS) replaces each whole word it knows. */
CB.words = {};
CB.gloss = (text) => text.replace(/[A-Za-z_]+/g, (w) => (Object.prototype.hasOwnProperty.call(CB.words, w) ? CB.words[w] : w));
/* The accessible name of a target: its whole <title> (which holds the visible text, e.g. a
   die's value), else its label. */
CB.nameOf = (board, key) => {
  const e = CB.keyed(board, key);
  const t = e && e.querySelector(":scope > title");
  return t && t.textContent ? t.textContent : CB.labelOf(board, key);
};
/* The legend under the board: every symbol the board draws (view.legend: [[symbol, meaning]]). */
CB.renderLegend = (view) => {
  const box = document.getElementById("legend");
  if (!box) return;
  const rows = view.legend || [];
  box.hidden = !rows.length;
  const dl = CB.el("dl", { class: "legend-list" });
  for (const [sym, text] of rows) dl.append(CB.el("dt", { text: sym }), CB.el("dd", { text }));
  box.querySelector(".legend-body").replaceChildren(dl);
};
/* Rule popovers: hovering, tapping or focusing a board element with a <title> (or a terrain)
   shows its name and rule in #tip (role=tooltip, the element's aria-describedby). */
CB.tipText = (el) => {
  for (let e = el; e && e.tagName !== "svg"; e = e.parentElement) {
    const t = e.querySelector && e.querySelector(":scope > title");
    if (t && t.textContent) return [e, t.textContent];
    if (e.dataset && e.dataset.terrain) return [e, CB.hexLabel(e)];
  }
  return [null, ""];
};
CB.showTip = (target, x, y) => {
  const tip = document.getElementById("tip");
  if (!tip) return;
  const [el, text] = CB.tipText(target);
  if (!el) { tip.hidden = true; return; }
  tip.textContent = text;
  tip.hidden = false;
  const r = el.getBoundingClientRect();
  const left = x !== undefined ? x + 12 : r.right + 6, top = y !== undefined ? y + 14 : r.top;
  tip.style.left = Math.max(4, Math.min(window.innerWidth - tip.offsetWidth - 4, left + window.scrollX)) + "px";
  tip.style.top = Math.max(4, top + window.scrollY) + "px";
  el.setAttribute("aria-describedby", "tip");
};
CB.hideTip = () => { const tip = document.getElementById("tip"); if (tip) tip.hidden = true; };
CB.tips = (board) => {
  board.addEventListener("pointermove", (ev) => CB.showTip(ev.target, ev.clientX, ev.clientY));
  board.addEventListener("pointerleave", CB.hideTip);
  board.addEventListener("focusin", (ev) => CB.showTip(ev.target));
  board.addEventListener("focusout", CB.hideTip);
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") CB.hideTip(); });
};
/* Zoom and pan: − / fit / + buttons scale the board (the box scrolls to pan); pinch-zoom of
   the page stays allowed. The factor is kept per tab. "Fit" (100 %) is the largest size at
   which the whole board shows: the board box's width and, on a screen wider than a phone,
   the window's height less the bars above the board (CB.FIT_MARGIN px); a phone fits the
   width only (the page scrolls). Every zoom level is a multiple of that width. */
CB.zoom = Number(sessionStorage.getItem("cb_zoom") || "1");
CB.FIT_MARGIN = 175;
CB.fitWidth = (board, svg) => {
  const vb = svg.viewBox && svg.viewBox.baseVal;
  const w = vb && vb.width ? vb.width : Number(svg.getAttribute("width")) || 0;
  const h = vb && vb.height ? vb.height : Number(svg.getAttribute("height")) || 0;
  const cs = getComputedStyle(board);
  const boxW = board.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  if (!w || !h || boxW <= 0) return boxW > 0 ? boxW : 0;
  if (window.innerWidth <= 700) return boxW;
  const availH = Math.max(320, window.innerHeight - CB.FIT_MARGIN);
  return Math.min(boxW, availH * w / h);
};
CB.zoomApply = (board) => {
  const svg = board.querySelector("svg");
  if (!svg) return;
  const fit = CB.fitWidth(board, svg);
  svg.style.width = fit ? Math.floor(fit * CB.zoom) + "px" : (CB.zoom * 100) + "%";
  svg.style.maxWidth = "none";
  svg.style.maxHeight = "none";
  svg.style.height = "auto";
  const label = document.getElementById("zoom-level");
  if (label) label.textContent = Math.round(CB.zoom * 100) + "%";
};
CB.zoomTo = (board, z) => { CB.zoom = Math.max(1, Math.min(4, z)); sessionStorage.setItem("cb_zoom", String(CB.zoom)); CB.zoomApply(board); };
CB.zoomControls = (board) => {
  const set = (z) => CB.zoomTo(board, z);
  const bind = (id, fn) => { const b = document.getElementById(id); if (b) b.addEventListener("click", fn); };
  bind("zoom-in", () => set(CB.zoom * 1.5));
  bind("zoom-out", () => set(CB.zoom / 1.5));
  bind("zoom-fit", () => set(1));
  let pending = 0;
  window.addEventListener("resize", () => { cancelAnimationFrame(pending); pending = requestAnimationFrame(() => CB.zoomApply(board)); });
};
/* Phone: at "Fit" a board whose targets are smaller than a fingertip (Kingdom Builder's hexes
   are ~17-20 px on a 390 px screen) zooms on the first tap, around the tapped point, to a scale
   where they are >= 36 px; the page's next tap acts ("Fit" shows the whole board again).
   tapZoomer(board, probe, said) returns tapZoom(ev, el): true when this click was the zooming
   tap (the caller then does nothing else). ``el`` is the tapped target, else probe() gives one
   to measure; said() tells the player. A mouse, a pen or the keyboard (detail 0) never zooms. */
CB.tapZoomer = (board, probe, said) => {
  let pointer = "";
  board.addEventListener("pointerdown", (ev) => { pointer = ev.pointerType; }, true);
  return (ev, el) => {
    if (pointer !== "touch" || ev.detail === 0 || CB.zoom !== 1) return false;
    const svg = board.querySelector("svg");
    const target = el || probe();
    if (!svg || !target) return false;
    const r = target.getBoundingClientRect();
    const size = Math.min(r.width, r.height);
    if (!size || size >= 32) return false;
    const s0 = svg.getBoundingClientRect();
    const fx = (ev.clientX - s0.left) / s0.width, fy = (ev.clientY - s0.top) / s0.height;
    CB.zoomTo(board, 36 / size);
    const s1 = svg.getBoundingClientRect(), b = board.getBoundingClientRect();
    board.scrollLeft += s1.left + fx * s1.width - (b.left + board.clientWidth / 2);
    window.scrollBy(0, s1.top + fy * s1.height - window.innerHeight / 2);
    said();
    CB.hideTip();
    return true;
  };
};
/* A short two-note chime (Web Audio; nothing to download). */
CB.beep = () => {
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    [660, 880].forEach((f, i) => {
      const o = ctx.createOscillator(), g = ctx.createGain();
      o.frequency.value = f; g.gain.value = 0.08;
      o.connect(g); g.connect(ctx.destination);
      o.start(ctx.currentTime + i * 0.15); o.stop(ctx.currentTime + i * 0.15 + 0.12);
    });
  } catch (e) { /* no audio here */ }
};
/* Interface strings: CB.t(msgid, {name: value}) with an English msgid -> the page language's text, with
   {name} placeholders filled. The translations come from the server in the JSON block
   <script type="application/json" id="strings"> (msgid -> text); a missing one is English. */
CB.strings = (() => { const e = document.getElementById("strings"); try { return e ? JSON.parse(e.textContent) : {}; } catch (x) { return {}; } })();
CB.t = (msgid, vars) => {
  let s = CB.strings[msgid] || msgid;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  return s;
};
