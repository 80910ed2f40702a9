/* Home page: seat rows follow the number of players, "Add a bot", options of an expansion
   only while it is ticked, and the visitor's name remembered in this browser. */
"use strict";
const NAME_KEY = "cb_name";
const nameBox = document.getElementById("your-name");
function storedName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch (e) { return ""; }
}
function fillNames() {
  const name = nameBox ? nameBox.value.trim() : "";
  document.querySelectorAll("input.my-name").forEach((i) => {
    if (i.type === "hidden" || !i.dataset.touched) i.value = name;
  });
}
if (nameBox) {
  nameBox.value = storedName();
  nameBox.addEventListener("input", () => {
    try { localStorage.setItem(NAME_KEY, nameBox.value.trim()); } catch (e) { /* private mode */ }
    fillNames();
  });
}
document.querySelectorAll("input.seat-name").forEach((i) => i.addEventListener("input", () => { i.dataset.touched = "1"; }));
fillNames();

document.querySelectorAll("form.create-form").forEach((form) => {
  const sel = form.querySelector(".num-players");
  const addBot = form.querySelector(".add-bot");
  const sync = () => {
    const n = Number(sel.value);
    form.querySelectorAll(".seat-row").forEach((row) => {
      const off = Number(row.dataset.seat) >= n;
      row.hidden = off;
      row.querySelectorAll("select, input").forEach((c) => { c.disabled = off; });
    });
    if (addBot) addBot.hidden = n >= Number(form.dataset.max);
  };
  sel.addEventListener("change", sync);
  if (addBot) {
    addBot.addEventListener("click", () => {
      const n = Number(sel.value);
      if (n >= Number(form.dataset.max)) return;
      sel.value = String(n + 1);
      const kind = form.querySelector(`select[name="seat${n}"]`);
      const bot = Array.from(kind.options).find((o) => o.value === "bot:normal") ||
        Array.from(kind.options).find((o) => o.value.startsWith("bot:"));
      if (bot) kind.value = bot.value;
      sync();
      kind.focus();
    });
  }
  sync();
  // options of an expansion: shown only while that expansion is ticked (still sent, with
  // their usual values, so the game's options stay those of the rules)
  const gate = () => {
    const on = new Set(Array.from(form.querySelectorAll('input[name="opt.expansions"]:checked')).map((c) => c.value));
    form.querySelectorAll("[data-expansion]").forEach((box) => {
      box.hidden = !on.has(box.dataset.expansion);
    });
  };
  form.querySelectorAll('input[name="opt.expansions"]').forEach((c) => c.addEventListener("change", gate));
  gate();
  form.addEventListener("submit", fillNames);
});
document.querySelectorAll("form.quick-form").forEach((f) => f.addEventListener("submit", fillNames));
