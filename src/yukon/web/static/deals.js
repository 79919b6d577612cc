// The deal's difficulty beside the deal number, when the shipped verdicts prove the deal winnable
// (docs/difficulty.md). app.js announces every state it accepts with a "yukon:state" event.
(() => {
  "use strict";
  const wrap = document.getElementById("deal-grade-wrap");
  const out = document.getElementById("deal-grade");
  if (!wrap || !out) return;
  let shownFor = "";
  let request = 0;
  document.addEventListener("yukon:state", (event) => {
    const s = event.detail || {};
    const rules = s.rules || {};
    const key = s.seed === null || s.seed === undefined || s.numbering === "pysolfc" ? "" : JSON.stringify([s.variant, rules.empty_column, rules.foundation_return, s.seed]);
    if (key === shownFor) return;
    shownFor = key;
    wrap.hidden = true;
    if (!key) return;
    const q = new URLSearchParams({ variant: s.variant, seed: String(s.seed) });
    if (rules.empty_column) q.set("empty_column", rules.empty_column);
    if (rules.foundation_return !== undefined) q.set("foundation_return", String(!!rules.foundation_return));
    const mine = ++request;
    fetch(`/api/deals/difficulty?${q}`).then((r) => (r.ok ? r.json() : null)).then((d) => {
      if (mine !== request || !d || !d.difficulty) return;
      out.textContent = d.difficulty;
      wrap.title = `Difficulty of this deal (proved winnable by solver ${d.solver_version}; docs/difficulty.md)`;
      wrap.hidden = false;
    }).catch(() => { /* offline: no grade shown */ });
  });
})();
