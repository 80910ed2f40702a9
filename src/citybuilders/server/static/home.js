/* Home page: show only as many seat rows as the chosen number of players. */
"use strict";
document.querySelectorAll("form.create-form").forEach((form) => {
  const sel = form.querySelector(".num-players");
  const sync = () => {
    const n = Number(sel.value);
    form.querySelectorAll(".seat-row").forEach((row) => { row.hidden = Number(row.dataset.seat) >= n; });
  };
  sel.addEventListener("change", sync);
  sync();
});
