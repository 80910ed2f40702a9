/* The replay page: step through a stored game (first / prev / next / last). */
"use strict";
const R = CB.page;
let step = R.steps;
let seat = R.seat === null ? 0 : R.seat;
const slider = document.getElementById("slider");
slider.max = String(R.steps);
const seatSel = document.getElementById("seat");
if (R.token) document.getElementById("seat-pick").hidden = true;
for (let i = 0; i < R.num_players; i++) seatSel.append(CB.el("option", { value: String(i), text: (R.seat_names && R.seat_names[i]) || CB.t("seat {num}", { num: i + 1 }) }));
seatSel.onchange = () => { seat = Number(seatSel.value); load(); };

let asked = 0;  // the newest request: quick steps send several, whose replies may cross
async function load() {
  const q = new URLSearchParams({ step: String(step) });
  if (R.token) q.set("token", R.token); else q.set("seat", String(seat));
  const mine = ++asked;
  const r = await CB.api(`/api/games/${R.game_id}/replay?${q}`);
  if (mine !== asked) return;  // a later step was asked for meanwhile: its reply draws
  if (!r.ok) { CB.showError(r.data.error); return; }
  CB.showError("");
  const v = r.data;
  R.steps = v.steps;
  slider.max = String(v.steps);
  slider.value = String(v.step);
  document.getElementById("stepinfo").textContent = `${v.step} / ${v.steps}`;
  const board = document.getElementById("board");
  CB.setSvg(board, v.svg);
  CB.zoomApply(board);
  const last = v.log[v.log.length - 1];
  // this step's move, marked on the board; every player's last turn outlined
  CB.markLastTurns(board, v);
  for (const e of CB.keyElements(board, last)) e.classList.add("cb-step");
  CB.renderLegend(v);
  const over = v.terminal ? CB.t("Game over") + (v.result && v.result.summary ? ` (${v.result.summary})` : "") + ". " : "";
  document.getElementById("status").textContent = over + (last ? CB.t("Move {n}: {who}: {text}", { n: last.n, who: last.who, text: last.text }) : CB.t("Start of the game"));
  document.getElementById("scores").replaceChildren(CB.scoreTable(v, false, v.terminal));
  CB.renderSeatKey(v, v.you);
  CB.showScored(board, v, 0, null, document.getElementById("scored-note"));
  R.view = v;
  CB.renderPanels(v);
  CB.renderLog(v, board);
  const tok = R.token ? `token=${encodeURIComponent(R.token)}&` : "";
  document.getElementById("export").href = `/api/games/${R.game_id}/record?${tok}download=1`;
}
// the last step: a points cell shows on the board what scored it (as the play page's end screen)
document.getElementById("scores").addEventListener("click", (ev) => {
  const cell = ev.target.closest("[data-part]");
  if (!cell || !R.view) return;
  CB.explainPart(document.getElementById("board"), cell.dataset.part);
  CB.showScored(document.getElementById("board"), R.view, Number(cell.dataset.seat || 0), cell.dataset.part, document.getElementById("scored-note"));
});
const go = (s) => { step = Math.max(0, Math.min(R.steps, s)); load(); };
document.getElementById("first").onclick = () => go(0);
document.getElementById("prev").onclick = () => go(step - 1);
document.getElementById("next").onclick = () => go(step + 1);
document.getElementById("last").onclick = () => go(R.steps);
slider.oninput = () => go(Number(slider.value));
document.addEventListener("keydown", (ev) => {
  if (ev.target && ev.target.tagName === "SELECT") return;
  if (ev.key === "ArrowLeft") go(step - 1);
  else if (ev.key === "ArrowRight") go(step + 1);
  else if (ev.key === "Home") go(0);
  else if (ev.key === "End") go(R.steps);
});
CB.zoomControls(document.getElementById("board"));
CB.tips(document.getElementById("board"));
load();
