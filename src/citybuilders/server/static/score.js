/* The score calculator page (/score): rebuild a table game's final position by clicking,
   score it with POST /api/score/<game> (the CLI's calculator) after every change.
   The position lives in the page only: the URL fragment (#p=<base64url JSON>) holds
   {g: game, f: score file, c: colour ids}, so a link reproduces it; nothing is stored. */
"use strict";
const M = CB.page;
const $ = (id) => document.getElementById(id);
const GAMES = M.games.map((g) => g.id);
const KB = M.kingdom_builder, SP = M.sprawlopolis, RIT = M.roll_into_town, RB = M.roll_builder;
const SIDES = { N: 1, E: 2, S: 4, W: 8 };

const S = {
  game: GAMES[0],
  files: {},
  colors: [0, 1, 2, 3],
  ui: { player: 0, piece: "settlements", card: 0, rot: 0, token: "HO", tool: "road", value: 0 },
  last: null,
};

/* ------------------------------------------------------------------ default positions */
function defaultFile(game) {
  if (game === "kingdom-builder") {
    return { game, sections: [["tavern", 0], ["paddock", 0], ["oasis", 0], ["farm", 0]],
      cards: ["fishermen", "knights", "lords"], settlements: [[], []] };
  }
  if (game === "sprawlopolis") return { game, conditions: [1, 7, 12], cards: [] };
  if (game === "roll-into-town") {
    const rows = [];
    for (let r = 0; r < RIT.rows; r++) {
      const row = [];
      for (let c = 0; c < RIT.cols; c++) row.push(r === (RIT.rows >> 1) && c === (RIT.cols >> 1) ? "TH" : ".");
      rows.push(row.join(" "));
    }
    return { game, name: CB.t("Player {num}", { num: 1 }), map: rows };
  }
  return { game, sheet: RB.sheets[0].id, roads: [], buildings: [], marks: [], innovations: [],
    wonder: [], favor_crossed: 0, strength_crossed: 0, wealth_stored: 0 };
}
const file = () => S.files[S.game];

/* ------------------------------------------------------------------ URL fragment */
const b64 = {
  enc: (s) => btoa(String.fromCharCode(...new TextEncoder().encode(s))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
  dec: (s) => new TextDecoder().decode(Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (ch) => ch.charCodeAt(0))),
};
function writeHash() {
  const frag = "p=" + b64.enc(JSON.stringify({ g: S.game, f: file(), c: S.colors }));
  history.replaceState(null, "", location.pathname + location.search + "#" + frag);
  $("share").value = location.href;
}
function readHash() {
  const m = /(?:^#|&)p=([A-Za-z0-9_-]+)/.exec(location.hash);
  if (!m) return false;
  try {
    const d = JSON.parse(b64.dec(m[1]));
    if (typeof d !== "object" || d === null || typeof d.f !== "object" || d.f === null || Array.isArray(d.f)) return false;
    open_(d.g, d.f, Array.isArray(d.c) ? d.c.map((x) => Number(x) || 0).slice(0, 8) : null);
    return true;
  } catch (e) { return false; }
}

/* ------------------------------------------------------------------ scoring */
let seq = 0;
let timer = null;
function changed() {
  $("load-flag").hidden = true;  // a refused file's message lasts until the next change
  writeHash();
  updateSave();
  clearTimeout(timer);
  seq++;  // an answer still on its way is for a file that no longer is: drop it
  timer = setTimeout(score, 60);
}
async function score() {
  const mine = ++seq;
  const game = S.game;
  const hash = location.hash;
  const f = file();
  const colors = S.colors.map((c) => Math.max(0, Math.min(KB.colors.length - 1, c))).join(",");
  const r = await CB.api(`/api/score/${S.game}?draw=1&colors=${colors}` + langParam(), {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(f),
  });
  if (mine !== seq || S.game !== game) return;
  S.last = r.data;
  document.body.dataset.scoreStatus = String(r.status);
  if (r.data && "svg" in r.data) {
    if (r.data.svg) {
      CB.setSvg($("board"), r.data.svg);
      // a redrawn board has lost the preview under the pointer: draw it again
      if (S.game === "sprawlopolis" && spKey) spPreview(spKey, true);
    }
    else $("board").replaceChildren(CB.el("p", { class: "muted", text: CB.t("The board cannot be drawn until the setup is complete.") }));
  }
  const flag = $("flag");
  if (r.ok) {
    flag.hidden = true;
    flag.textContent = "";
    renderBreakdown(r.data);
  } else if (S.game === "sprawlopolis" && !(f.cards || []).length && !String((r.data && r.data.field) || "").startsWith("conditions")) {
    // an empty city is where everyone starts: a hint, not the red alert of a broken rule
    flag.hidden = true;
    flag.textContent = "";
    $("breakdown").replaceChildren(CB.el("p", { class: "muted", id: "sp-start-hint", text: CB.t("Pick a card, then click the grid to place the first card.") }));
  } else {
    flag.hidden = false;
    flag.textContent = CB.t("Not a valid position: {error}", { error: (r.data && r.data.error) || r.status });
    for (const k of (r.data && r.data.keys) || []) mark(k, "cb-bad", true, r.data.error);
    $("breakdown").replaceChildren(CB.el("p", { class: "muted", text: CB.t("No score while the position breaks a rule (see the red mark on the board).") }));
  }
  afterDraw();
  document.body.dataset.scoredHash = hash;
  document.body.dataset.scored = String(mine);
}
function langParam() {
  const lang = new URLSearchParams(location.search).get("lang");
  return lang ? "&lang=" + encodeURIComponent(lang) : "";
}
function boardEls(key) {
  return Array.from($("board").querySelectorAll("[data-key]")).filter((e) => e.getAttribute("data-key") === key);
}
function mark(key, cls, on, title) {
  for (const e of boardEls(key)) {
    e.classList.toggle(cls, on);
    if (title && on) { const t = document.createElementNS("http://www.w3.org/2000/svg", "title"); t.textContent = title; e.append(t); }
  }
}
function renderBreakdown(d) {
  const box = $("breakdown");
  const t = CB.el("table", { class: "scores", id: "score-table" });
  const head = CB.el("tr", {}, CB.el("th", { scope: "col", text: CB.t("category") }));
  d.columns.forEach((c, k) => {
    const th = CB.el("th", { scope: "col", text: c });
    if (S.game === "kingdom-builder") th.prepend(CB.el("span", { class: "swatch" }));
    head.append(th);
    if (S.game === "kingdom-builder") th.firstChild.setAttribute("data-color", String(S.colors[k] ?? k));
  });
  t.append(head);
  for (const row of d.rows) {
    const tr = CB.el("tr", { "data-row": row.id });
    const th = CB.el("th", { scope: "row", text: row.label, tabindex: "0" });
    if (row.rule) th.title = row.rule;
    tr.append(th);
    row.values.forEach((v, k) => tr.append(CB.el("td", { "data-col": String(k), text: String(v) })));
    const show = (on, col) => {
      tr.classList.toggle("on", on);
      const cols = col === undefined ? d.columns.map((_, k) => k) : [col];
      for (const k of cols) for (const key of ((d.highlight[String(k)] || {})[row.id] || [])) mark(key, "cb-scored", on);
    };
    // a tap (a phone has no pointing): the row lights up and what it counts is scrolled into
    // view when it is off screen (it lit up out of sight)
    const reveal = (col) => {
      show(true, col);
      const lit = $("board").querySelector(".cb-scored") || $("board");
      const r = lit.getBoundingClientRect();
      if (r.bottom < 0 || r.top > window.innerHeight) lit.scrollIntoView({ block: "center" });
    };
    th.addEventListener("click", () => reveal());
    tr.querySelectorAll("td").forEach((td) => td.addEventListener("click", () => reveal(Number(td.dataset.col))));
    th.addEventListener("mouseenter", () => show(true));
    th.addEventListener("mouseleave", () => show(false));
    th.addEventListener("focus", () => show(true));
    th.addEventListener("blur", () => show(false));
    tr.querySelectorAll("td").forEach((td) => {
      td.addEventListener("mouseenter", () => show(true, Number(td.dataset.col)));
      td.addEventListener("mouseleave", () => show(false));
    });
    t.append(tr);
  }
  const tot = CB.el("tr", { class: "total", "data-row": "total" }, CB.el("th", { scope: "row", text: CB.t("total") }));
  d.totals.forEach((v, k) => tot.append(CB.el("td", { "data-col": String(k), text: String(v) })));
  t.append(tot);
  box.replaceChildren(t);
  if (d.verdict) box.append(CB.el("p", { class: "verdict", id: "verdict", text: d.verdict }));
  // swatches: colours set through the DOM (the CSP forbids inline style attributes)
  box.querySelectorAll(".swatch").forEach((s) => { s.style.background = KB.colors[Number(s.dataset.color)] || "#000"; });
}

/* ------------------------------------------------------------------ save / load */
function updateSave() {
  const a = $("save");
  const blob = new Blob([JSON.stringify(file(), null, 1) + "\n"], { type: "application/json" });
  if (a.dataset.url) URL.revokeObjectURL(a.dataset.url);
  a.dataset.url = URL.createObjectURL(blob);
  a.href = a.dataset.url;
  a.download = `${S.game}-score.json`;
}
$("load").addEventListener("change", async (ev) => {
  const f = ev.target.files && ev.target.files[0];
  if (!f) return;
  let d = null;
  try { d = JSON.parse(await f.text()); } catch (e) { showFlag(CB.t("This file is not JSON.")); return; }
  if (typeof d !== "object" || d === null || Array.isArray(d)) { showFlag(CB.t("A score file is a JSON object.")); return; }
  ev.target.value = "";
  open_(d.game === undefined ? S.game : d.game, d);
});
function showFlag(msg) { const f = $("flag"); f.hidden = false; f.textContent = msg; }
/* A loaded file or a link's position becomes the page's, when the editors can draw it;
   otherwise (a key missing or of the wrong type, another game) the page keeps what it
   showed and says why in the reader's language: the calculator's own refusal, which names
   the field. */
function open_(game, data, colors) {
  const before = { game: S.game, files: Object.assign({}, S.files), colors: S.colors };
  const known = GAMES.includes(game);
  if (known) {
    S.game = game; S.files[game] = data;
    if (colors) S.colors = colors;
    try { build(); $("load-flag").hidden = true; return; } catch (e) { /* below */ }
  }
  S.game = before.game; S.files = before.files; S.colors = before.colors;
  build();
  const box = $("load-flag");
  box.hidden = false;
  box.textContent = CB.t("This score file cannot be opened here.");
  CB.api(`/api/score/${known ? game : S.game}`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data),
  }).then((r) => {
    const why = !r.ok && r.data && r.data.error;
    if (why) box.textContent = CB.t("This score file cannot be opened here: {error}", { error: why });
  });
}
$("print").addEventListener("click", () => window.print());
$("clear").addEventListener("click", () => {
  const keep = file();
  const fresh = defaultFile(S.game);
  if (S.game === "kingdom-builder") { fresh.sections = keep.sections; fresh.cards = keep.cards; fresh.settlements = (keep.settlements || [[], []]).map(() => []); }
  if (S.game === "sprawlopolis") fresh.conditions = keep.conditions;
  if (S.game === "roll-builder") fresh.sheet = keep.sheet;
  // the setup stays: rules options, own sections or sheet, Crossroads task cards
  if (keep.options && typeof keep.options === "object") fresh.options = keep.options;
  if (S.game === "kingdom-builder" && Array.isArray(keep.tasks)) fresh.tasks = keep.tasks;
  S.files[S.game] = fresh;
  build();
});
$("share").addEventListener("focus", (ev) => ev.target.select());

/* ------------------------------------------------------------------ building blocks */
function select(label, options, value, onchange, attrs) {
  const sel = CB.el("select", attrs || {});
  for (const [v, text] of options) sel.append(CB.el("option", { value: String(v), text }));
  sel.value = String(value);
  sel.addEventListener("change", () => onchange(sel.value));
  return CB.el("label", {}, label + " ", sel);
}
function toolButton(text, pressed, onclick, attrs) {
  const b = CB.el("button", Object.assign({ type: "button", "aria-pressed": pressed ? "true" : "false" }, attrs || {}));
  if (typeof text === "string") b.textContent = text; else b.append(text);
  b.addEventListener("click", onclick);
  return b;
}
function legendOf(box, text) { box.replaceChildren(CB.el("legend", { text })); return box; }

/* ------------------------------------------------------------------ Kingdom Builder */
const COLOR_NAMES = () => [CB.t("red"), CB.t("blue"), CB.t("orange"), CB.t("purple"), CB.t("teal"), CB.t("pink"), CB.t("brown"), CB.t("black")];
const KB_SLOTS = () => [CB.t("top left"), CB.t("top right"), CB.t("bottom left"), CB.t("bottom right")];
function kbSetup(box, f) {
  const secOpts = KB.sections.map((s) => [s.id, s.name + (s.crossroads ? " (Crossroads)" : "")]);
  // a loaded score file's own sections (options.sections_doc, formats.md) can be chosen too
  const own = ((f.options || {}).sections_doc || {}).sections;
  if (Array.isArray(own)) {
    for (const s of own) if (s && typeof s.id === "string") secOpts.push([s.id, String(s.name || s.id)]);
  }
  KB_SLOTS().forEach((slot, k) => {
    box.append(select(CB.t("Section {slot}", { slot }), secOpts, f.sections[k][0], (v) => { f.sections[k][0] = v; build(); }, { "data-section": String(k) }));
    box.append(select(CB.t("rotation"), [[0, "0°"], [180, "180°"]], f.sections[k][1], (v) => { f.sections[k][1] = Number(v); changed(); }, { "data-rotation": String(k) }));
  });
  box.append(CB.el("br"));
  const cardOpts = KB.cards.map((c) => [c.id, c.name]);
  // the one rules option the final score depends on (docs/rules-options.md): shown while
  // the Lords card is in play, kept in the file's "options" only when not the usual rule
  const L = KB.lords_rule;
  const lords = select(L.label, L.choices, (f.options || {})[L.name] || L.default, (v) => {
    f.options = Object.assign({}, f.options);
    if (v === L.default) delete f.options[L.name]; else f.options[L.name] = v;
    if (!Object.keys(f.options).length) delete f.options;
    changed();
  }, { id: "kb-lords" });
  lords.title = L.question + "\n" + L.doc;
  const showLords = () => { lords.hidden = !f.cards.includes("lords"); };
  for (let k = 0; k < 3; k++) {
    box.append(select(CB.t("Kingdom Builder card {n}", { n: k + 1 }), cardOpts, f.cards[k], (v) => { f.cards[k] = v; showLords(); changed(); }, { "data-card": String(k) }));
  }
  showLords();
  box.append(lords);
  box.append(CB.el("br"));
  const n = f.settlements.length;
  box.append(select(CB.t("Players"), [[2, "2"], [3, "3"], [4, "4"]], n, (v) => {
    const m = Number(v);
    for (const key of ["settlements", "wagons", "ships", "warriors", "city_hall"]) {
      if (!Array.isArray(f[key])) continue;
      while (f[key].length < m && key === "settlements") f[key].push([]);
      f[key] = f[key].slice(0, m);
    }
    S.ui.player = Math.min(S.ui.player, m - 1);
    build();
  }, { id: "kb-players" }));
  for (let p = 0; p < n; p++) {
    box.append(select(CB.t("Colour of P{n}", { n: p + 1 }), KB.colors.map((c, i) => [i, COLOR_NAMES()[i] || c]), S.colors[p] ?? p, (v) => { S.colors[p] = Number(v); build(); }, { "data-colour": String(p) }));
  }
  const xr = f.sections.some(([sid]) => (KB.sections.find((s) => s.id === sid) || {}).crossroads);
  if (xr) {
    const tasks = CB.el("fieldset", { class: "tasks" }, CB.el("legend", { text: CB.t("Crossroads task cards") }));
    for (const t of KB.tasks) {
      const cb = CB.el("input", { type: "checkbox", value: t.id, "data-task": t.id });
      cb.checked = (f.tasks || []).includes(t.id);
      cb.addEventListener("change", () => {
        const cur = (f.tasks || []).filter((x) => x !== t.id);
        if (cb.checked) cur.push(t.id);
        if (cur.length) f.tasks = cur; else delete f.tasks;
        changed();
      });
      tasks.append(CB.el("label", { title: t.rule }, cb, " " + t.name));
    }
    box.append(tasks);
  }
}
function kbPalette(box, f) {
  const n = f.settlements.length;
  for (let p = 0; p < n; p++) {
    const sw = CB.el("span", { class: "swatch" });
    sw.style.background = KB.colors[S.colors[p] ?? p];
    const label = CB.el("span", {}, sw, CB.t("P{n}", { n: p + 1 }));
    box.append(toolButton(label, S.ui.player === p, tool(() => { S.ui.player = p; }), { "data-player": String(p) }));
  }
  box.append(CB.el("br"));
  for (const piece of KB.pieces) {
    const name = piece.id === "settlements" ? CB.t("settlement") : piece.name;
    box.append(toolButton(name, S.ui.piece === piece.id, tool(() => { S.ui.piece = piece.id; }), { "data-piece": piece.id }));
  }
  box.append(CB.el("p", { class: "muted", text: CB.t("Click a hex to place the chosen piece of the chosen player; click a piece to remove it. A city hall is placed by its centre hex.") }));
}
function kbClick(key, f) {
  const m = /^hex:(\d+),(\d+)$/.exec(key);
  if (!m) return;
  const r = Number(m[1]), c = Number(m[2]);
  const same = (rc) => rc[0] === r && rc[1] === c;
  for (const k of ["settlements", "wagons", "ships", "warriors", "city_hall"]) {
    if (!Array.isArray(f[k])) continue;
    for (let p = 0; p < f[k].length; p++) {
      if (!Array.isArray(f[k][p])) continue;
      if (f[k][p].some(same)) {
        f[k][p] = k === "city_hall" ? [] : f[k][p].filter((rc) => !same(rc));
        tidyPieces(f);
        changed();
        return;
      }
    }
  }
  const p = S.ui.player;
  const k = S.ui.piece;
  if (!Array.isArray(f[k])) f[k] = [];
  while (f[k].length <= p) f[k].push([]);
  if (k === "city_hall") {
    const i = r * 20 + c;
    f[k][p] = [[r, c], ...KB.neighbors[i].map((j) => [Math.floor(j / 20), j % 20])];
  } else {
    f[k][p].push([r, c]);
  }
  changed();
}
function tidyPieces(f) {
  for (const k of ["wagons", "ships", "warriors", "city_hall"]) {
    if (Array.isArray(f[k]) && f[k].every((l) => Array.isArray(l) && !l.length)) delete f[k];
  }
}

/* ------------------------------------------------------------------ Sprawlopolis */
function spSetup(box, f) {
  const opts = SP.cards.map((c) => [c.number, `${c.number} ${c.name}`]);
  for (let k = 0; k < 3; k++) {
    box.append(select(CB.t("Scoring condition {n}", { n: k + 1 }), opts, f.conditions[k], (v) => { f.conditions[k] = Number(v); build(); }, { "data-condition": String(k) }));
  }
}
function spPalette(box, f) {
  const used = new Set([...(f.conditions || []), ...(f.cards || []).map((e) => e.card)]);
  for (const c of SP.cards) {
    if (used.has(c.number)) continue;
    const pic = CB.el("span", { class: "card-pic" });
    CB.setSvg(pic, S.ui.rot === 180 ? c.svg180 : c.svg);
    const b = toolButton(CB.el("span", {}, pic, CB.el("span", { class: "card-no", text: String(c.number) })), S.ui.card === c.number, tool(() => { S.ui.card = S.ui.card === c.number ? 0 : c.number; }),
      { class: "card-pick", "data-card": String(c.number), "aria-label": CB.t("card {n}", { n: c.number }), title: CB.t("card {n}", { n: c.number }) });
    box.append(b);
  }
  box.append(CB.el("br"));
  box.append(toolButton(CB.t("Rotate 180°"), S.ui.rot === 180, tool(() => { S.ui.rot = S.ui.rot ? 0 : 180; }), { id: "sp-rotate" }));
  box.append(toolButton(CB.t("Take back the last card"), false, () => { f.cards.pop(); build(); }, { id: "sp-undo" }));
  box.append(CB.el("p", { class: "preview-note", id: "preview-note", "aria-live": "polite" }));
  box.append(CB.el("p", { class: "muted", text: CB.t("Pick a card, then click where its top-left block goes (the four blocks it covers are shown as you point). Cards are placed in play order; each placement is checked as in play.") }));
}
function spClick(key, f) {
  const m = /^(?:pos|blk):(-?\d+),(-?\d+)$/.exec(key);
  if (!m || !S.ui.card) return;
  f.cards.push({ card: S.ui.card, row: Number(m[1]), col: Number(m[2]), rot: S.ui.rot });
  S.ui.card = 0;
  build();
}
/* The 2x2 preview of the picked card at the pointed cell, checked as in play: the would-be
   file is sent to the calculator; if it refuses this card the preview turns red and the
   rule it breaks is shown (answers cached per position). */
const spChecks = new Map();
let spPointed = "";
let spKey = "";  // the cell under the pointer while a card is picked ("" when none)
function spPreview(key, on) {
  const m = /^(?:pos|blk):(-?\d+),(-?\d+)$/.exec(key || "");
  spKey = m && on ? key : "";
  $("board").querySelectorAll(".cb-preview").forEach((e) => e.classList.remove("cb-preview", "illegal"));
  const note = $("preview-note");
  if (!m || !on || !S.ui.card) { spPointed = ""; if (note) note.textContent = ""; return; }
  const r = Number(m[1]), c = Number(m[2]);
  const cells = [[0, 0], [0, 1], [1, 0], [1, 1]].map(([dr, dc]) => `pos:${r + dr},${c + dc}`);
  cells.forEach((k) => mark(k, "cb-preview", true));
  const f = file();
  const trial = Object.assign({}, f, { cards: (f.cards || []).concat([{ card: S.ui.card, row: r, col: c, rot: S.ui.rot }]) });
  const id = JSON.stringify(trial);
  spPointed = id;
  const show = (problem) => {
    if (spPointed !== id) return;
    cells.forEach((k) => boardEls(k).forEach((e) => e.classList.toggle("illegal", !!problem)));
    if (note) note.textContent = problem ? CB.t("Not allowed here: {error}", { error: problem }) : CB.t("Allowed here");
    document.body.dataset.preview = problem ? "illegal" : "legal";
  };
  if (spChecks.has(id)) { show(spChecks.get(id)); return; }
  document.body.dataset.preview = "checking";
  CB.api(`/api/score/sprawlopolis` + langParam().replace("&", "?"), { method: "POST", headers: { "Content-Type": "application/json" }, body: id }).then((res) => {
    const n = trial.cards.length - 1;
    const problem = !res.ok && res.data && String(res.data.field || "").startsWith(`cards[${n}]`) ? res.data.error : "";
    spChecks.set(id, problem);
    show(problem);
  });
}

/* ------------------------------------------------------------------ Roll into Town */
const RIT_TERRAIN = () => [[".", CB.t("empty")], ["fa", CB.t("farm")], ["mo", CB.t("mountain")], ["tr", CB.t("tree")], ["oc", CB.t("ocean")]];
const RIT_RIVER = ["NS", "EW", "NE", "ES", "SW", "NW"];
const RIT_COAST = ["N", "E", "S", "W", "NE", "ES", "SW", "NW", "NS", "EW", "NES", "ESW", "NSW", "NEW"];
function ritSetup(box, f) {
  const name = CB.el("input", { type: "text", value: f.name || "", maxlength: "40", id: "rit-name" });
  name.addEventListener("input", () => { f.name = name.value; changed(); });
  box.append(CB.el("label", {}, CB.t("Player name") + " ", name));
}
function ritPalette(box) {
  const group = (title, items) => {
    const g = CB.el("div", { class: "pal-group" }, CB.el("span", { class: "muted", text: title + ": " }));
    for (const [tok, text] of items) g.append(toolButton(text, S.ui.token === tok, tool(() => { S.ui.token = tok; }), { "data-token": tok, title: tok }));
    box.append(g);
  };
  group(CB.t("terrain"), RIT_TERRAIN());
  // buttons read as the map does (sides and building labels in the page's language); the
  // tooltip keeps the sheet file's token
  const sides = (s) => RIT.sides[s] || s;
  group(CB.t("river (flow sides)"), RIT_RIVER.map((s) => ["r:" + s, sides(s)]));
  group(CB.t("coast (water sides)"), RIT_COAST.map((s) => ["c:" + s, sides(s)]));
  group(CB.t("buildings"), RIT.buildings.map((b) => [b.code, b.name.startsWith(b.label) ? b.name : `${b.label} ${b.name}`]));
  box.append(CB.el("p", { class: "muted", text: CB.t("Pick a square type or building, then click squares. A building on a coast or ocean square keeps the terrain under it.") }));
}
const RIT_BUILD = new Set(["HO", "QU", "LJ", "HA", "WM", "TA", "FO", "MA", "LT", "LB", "CA"]);
function ritClick(key, f) {
  const m = /^sq:(\d+),(\d+)$/.exec(key);
  if (!m || !Array.isArray(f.map)) return;
  const r = Number(m[1]), c = Number(m[2]);
  const row = String(f.map[r] || "").split(/\s+/).filter(Boolean);
  const cur = row[c] || ".";
  if (cur === "TH") return;
  const tok = S.ui.token;
  let next = tok;
  const base = cur.split("+")[0];
  if (RIT_BUILD.has(tok) && (base.startsWith("c:") || base === "oc")) next = base + "+" + tok;
  if (cur === next) next = RIT_BUILD.has(tok) && next.includes("+") ? base : ".";
  row[c] = next;
  f.map[r] = row.join(" ");
  changed();
}

/* ------------------------------------------------------------------ Roll Builder */
const rbSheet = (f) => RB.sheets.find((s) => s.id === f.sheet) || RB.sheets[0];
function rbSetup(box, f) {
  box.append(select(CB.t("Sheet"), RB.sheets.map((s) => [s.id, s.name]), f.sheet, (v) => {
    S.files[S.game] = Object.assign(defaultFile(S.game), { sheet: v });
    build();
  }, { id: "rb-sheet" }));
  const sh = rbSheet(f);
  for (const [key, label, max] of [["favor_crossed", CB.t("favor track: numbers crossed"), sh.favor_max],
    ["strength_crossed", CB.t("strength track: numbers crossed"), sh.strength_max],
    ["wealth_stored", CB.t("wealth stored"), sh.wealth_max]]) {
    const inp = CB.el("input", { type: "number", min: "0", max: String(max), value: String(f[key] || 0), id: "rb-" + key });
    inp.addEventListener("input", () => { f[key] = Math.max(0, Math.min(max, Number(inp.value) || 0)); changed(); });
    box.append(CB.el("label", {}, label + " ", inp));
  }
}
function rbPalette(box, f) {
  const sh = rbSheet(f);
  const tools = [["road", CB.t("road")], ["mark", CB.t("mark (X)")]].concat(
    sh.buildings.map((b) => ["b" + b.number, `${b.number} ${b.name}`]));
  for (const [id, text] of tools) box.append(toolButton(text, S.ui.tool === id, tool(() => { S.ui.tool = id; }), { "data-tool": id }));
  box.append(CB.el("br"));
  box.append(select(CB.t("Die value for the next wonder box"), [[0, CB.t("none (bonus action)")], [1, "1"], [2, "2"], [3, "3"], [4, "4"], [5, "5"], [6, "6"]],
    S.ui.value, (v) => { S.ui.value = Number(v); }, { id: "rb-value" }));
  box.append(CB.el("p", { class: "muted", text: CB.t("Click road sides to draw roads, spaces to mark them or write the chosen building, wonder boxes to fill them and innovation circles to discover the innovation. Click again to remove.") }));
}
function rbClick(key, f) {
  const [kind, rest] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)];
  const toggle = (list, item) => { const i = list.indexOf(item); if (i >= 0) list.splice(i, 1); else list.push(item); };
  if (kind === "edge") { toggle(f.roads, rest); }
  else if (kind === "circle") { toggle(f.innovations, rest.split(".")[0]); }
  else if (kind === "box") {
    let w = f.wonder;
    if (Array.isArray(w)) {
      if (S.ui.value && !w.length) w = f.wonder = {};
      else { toggle(w, rest); changed(); return; }
    }
    // a file gives values for all boxes or for none: without a chosen value a box of a file
    // with values takes the highest value so far (an ascending wonder allows it)
    if (rest in w) delete w[rest]; else w[rest] = S.ui.value || Math.max(1, ...Object.values(w));
  } else if (kind === "space") {
    if (S.ui.tool === "mark") toggle(f.marks, rest);
    else if (S.ui.tool.startsWith("b")) {
      const n = Number(S.ui.tool.slice(1));
      const i = f.buildings.findIndex((b) => b[0] === rest && b[1] === n);
      if (i >= 0) f.buildings.splice(i, 1); else f.buildings.push([rest, n]);
    } else return;
  } else return;
  changed();
}

/* ------------------------------------------------------------------ the page */
const EDIT = {
  "kingdom-builder": [kbSetup, kbPalette, kbClick],
  "sprawlopolis": [spSetup, spPalette, spClick],
  "roll-into-town": [ritSetup, ritPalette, ritClick],
  "roll-builder": [rbSetup, rbPalette, rbClick],
};
/* build(): draw the tabs, setup and palette, and score the file again. A tool button (player,
   piece, card, token...) changes only what the next click does, not the file: tool(fn) redraws
   without scoring, so the board is not redrawn under a click that follows at once (a board
   replaced between mouse-down and mouse-up loses that click). */
function build(rescore = true) {
  if (!S.files[S.game]) S.files[S.game] = defaultFile(S.game);
  const tabs = $("game-tabs");
  tabs.replaceChildren(...M.games.map((g) => toolButton(g.title, g.id === S.game, () => { S.game = g.id; build(); }, { "data-game": g.id })));
  const [setup, palette] = EDIT[S.game];
  setup(legendOf($("setup"), CB.t("Setup")), file());
  palette(legendOf($("palette"), CB.t("Palette")), file());
  document.body.dataset.game = S.game;
  if (rescore) changed();
}
const tool = (fn) => () => { fn(); build(false); };
function afterDraw() {
  if (cursor) mark(cursor, "cb-cursor", true);
  const svg = $("board").querySelector("svg");
  if (svg) { svg.setAttribute("aria-label", CB.t("Board: click to place or remove")); }
  CB.zoomApply($("board"));
}
/* Zoom: the board fits the page ("Fit"); − / + and, on a phone, a first tap on a hex or square
   smaller than a fingertip zoom in (the box scrolls), so a whole Kingdom Builder map shows and
   its hexes can still be hit. */
CB.zoomControls($("board"));
const tapZoom = CB.tapZoomer($("board"), () => null, () => {
  $("hint-text").textContent = CB.t("Zoomed in: tap a space to change it; Fit shows the whole board.");
});
$("zoom-fit").addEventListener("click", () => { $("hint-text").textContent = ""; });
$("board").addEventListener("click", (ev) => {
  const el = ev.target.closest("[data-key]");
  if (!el || tapZoom(ev, el)) return;
  EDIT[S.game][2](el.getAttribute("data-key"), file());
});
$("board").addEventListener("mouseover", (ev) => {
  if (S.game !== "sprawlopolis") return;
  const el = ev.target.closest("[data-key]");
  spPreview(el && el.getAttribute("data-key"), true);
});
$("board").addEventListener("mouseleave", () => { if (S.game === "sprawlopolis") spPreview(null, false); });
/* Keyboard: with the board focused, the arrow keys move a cursor over its squares / hexes /
   slots (row and column; other elements in drawing order) and Enter or Space clicks it. */
let cursor = "";
$("board").addEventListener("keydown", (ev) => {
  const keys = Array.from($("board").querySelectorAll("[data-key]")).map((e) => e.getAttribute("data-key"));
  if (!keys.length) return;
  if (ev.key === "Enter" || ev.key === " ") {
    if (cursor) { ev.preventDefault(); EDIT[S.game][2](cursor, file()); }
    return;
  }
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (!(ev.key in moves)) return;
  ev.preventDefault();
  const [dr, dc] = moves[ev.key];
  const grid = /^([a-z]+):(-?\d+),(-?\d+)$/;
  let next = keys.includes(cursor) ? cursor : keys[0];
  const m = grid.exec(next);
  if (m && keys.includes(cursor)) {
    const cand = `${m[1]}:${Number(m[2]) + dr},${Number(m[3]) + dc}`;
    if (keys.includes(cand)) next = cand;
    else if (m[1] === "blk") { const alt = `pos:${Number(m[2]) + dr},${Number(m[3]) + dc}`; if (keys.includes(alt)) next = alt; }
  } else if (keys.includes(cursor)) {
    next = keys[Math.max(0, Math.min(keys.length - 1, keys.indexOf(cursor) + dr * 10 + dc))];
  }
  setCursor(next);
});
function setCursor(key) {
  $("board").querySelectorAll(".cb-cursor").forEach((e) => e.classList.remove("cb-cursor"));
  cursor = key;
  mark(key, "cb-cursor", true);
  if (S.game === "sprawlopolis") spPreview(key, true);
  $("board").setAttribute("aria-description", key);
}
// a link opened in this tab (another fragment) shows its position (our own replaceState
// writes fire no hashchange)
window.addEventListener("hashchange", readHash);
if (!readHash()) build();
