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
      const v = a.value.replace(/[\s\u0000-\u001f]+/g, "").toLowerCase();
      if (n.startsWith("on") || ((n === "href" || n.endsWith(":href") || n === "src") && (v.startsWith("javascript:") || v.startsWith("data:text")))) e.removeAttribute(a.name);
    }
  });
  box.replaceChildren(t.content);
};
/* The page language (<html lang>, e.g. "pt-BR"): every API and WebSocket call carries it as
   ?lang= so the server's texts (errors, panels, status lines, log) come in the same language. */
CB.lang = document.documentElement.lang || "en";
CB.withLang = (url) => url + (url.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(CB.lang);
CB.api = async (url, opts) => {
  const res = await fetch(CB.withLang(url), opts);
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
CB.renderPanels = (view) => {
  const box = document.getElementById("panels");
  box.replaceChildren();
  const panels = (view && view.display) || [];
  if (!panels.length) { box.append(CB.el("p", { class: "muted", text: CB.t("(nothing to show)") })); return; }
  for (const p of panels) {
    box.append(CB.el("section", { class: "panel", "data-panel": p.title }, CB.el("h4", { text: p.title }), CB.value(p.value)));
  }
};
CB.scoreTable = (view) => {
  const parts = [];
  view.scores.forEach((s) => Object.keys(s.parts || {}).forEach((p) => { if (!parts.includes(p)) parts.push(p); }));
  const t = CB.el("table", { class: "scores" });
  t.append(CB.el("tr", {}, CB.el("th", { text: CB.t("player") }), ...parts.map((p) => CB.el("th", { text: (view.score_labels && view.score_labels[p]) || p })), CB.el("th", { text: CB.t("total") })));
  view.scores.forEach((s, i) => {
    const win = view.result && view.result.winners && view.result.winners.includes(i);
    t.append(CB.el("tr", { class: win ? "winner" : "" }, CB.el("td", { text: view.you !== null && view.you !== undefined && i === view.you ? CB.t("{name} (you)", { name: CB.seatName(view, i) }) : CB.seatName(view, i) }),
      ...parts.map((p) => CB.el("td", { text: String((s.parts || {})[p] ?? "") })), CB.el("td", { class: "total", text: String(s.total) })));
  });
  return t;
};
CB.renderLog = (view) => {
  const ol = document.getElementById("log");
  ol.replaceChildren(...view.log.slice(-300).map((e) => CB.el("li", { value: String(e.n) }, CB.el("span", { class: "who", text: e.who + ": " }), CB.el("span", { text: e.text }))));
  ol.scrollTop = ol.scrollHeight;
};
/* The end screen's headline (view.result.summary: won/lost, target, solo rank, winners). */
CB.resultLine = (view) => {
  const r = view.result || {};
  const line = CB.el("div", { class: "end-result" + (r.outcome ? " " + r.outcome : ""), id: "end-result", text: r.summary || "" });
  return line;
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
