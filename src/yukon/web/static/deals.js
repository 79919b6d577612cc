// The deal's difficulty beside the deal number (docs/difficulty.md). The game's state carries it only where
// it tells the player nothing the table does not: a deal dealt as winnable, or a game that is over (a grade
// says the deal can be won). app.js announces every state it accepts with a "yukon:state" event.
(() => {
  "use strict";
  const wrap = document.getElementById("deal-grade-wrap");
  const out = document.getElementById("deal-grade");
  if (!wrap || !out) return;
  document.addEventListener("yukon:state", (event) => {
    const grade = (event.detail || {}).difficulty;
    out.textContent = grade || "";
    wrap.title = grade ? "Difficulty of this deal (the solver's effort, validated on the honest player's games: docs/difficulty.md)" : "";
    wrap.hidden = !grade;
  });
})();
