// The deal's difficulty (docs/difficulty.md): beside the deal number, and in the New dialog.
// Beside the deal number: the game's state carries the grade only where it tells the player nothing the table
// does not (a deal dealt as winnable, or a game that is over: a grade says the deal can be won). play.js
// announces every state it accepts with a "yukon:state" event.
// In the New dialog: only the grades the chosen variant and options offer (/api/variants: "grades").
(() => {
  "use strict";
  const wrap = document.getElementById("deal-grade-wrap");
  const out = document.getElementById("deal-grade");
  if (wrap && out) {
    document.addEventListener("yukon:state", (event) => {
      const grade = (event.detail || {}).difficulty;
      out.textContent = grade || "";
      wrap.title = grade ? "Difficulty of this deal (the solver's effort, validated on the honest player's games: docs/difficulty.md)" : "";
      wrap.hidden = !grade;
    });
  }

  const dialog = document.getElementById("dlg-new");
  const deal = document.getElementById("new-deal");
  const variant = document.getElementById("new-variant");
  const empty = document.getElementById("new-empty-column");
  const back = document.getElementById("new-foundation-return");
  if (!dialog || !deal || !variant || !empty || !back) return;
  const note = document.getElementById("new-deal-note");
  let offered = null;  // variant name -> [{empty_column, foundation_return, grades}]
  let titles = new Map();  // variant name -> its title
  fetch("/api/variants").then((r) => (r.ok ? r.json() : null)).then((d) => {
    if (!d) return;
    offered = new Map(d.variants.map((v) => [v.name, v.grades || []]));
    titles = new Map(d.variants.map((v) => [v.name, v.title]));
    update();
  }).catch(() => { /* offline: the server refuses a grade it does not offer, naming the ones it does */ });

  // why a difficulty is greyed out (else it looks broken): the shipped verdicts grade only some rule options
  function why(scales, grades) {
    const title = titles.get(variant.value) || "this variant";
    if (grades.length) return `Graded deals of ${title} with these options: ${grades.join(", ")}.`;
    const elsewhere = scales.filter((s) => s.grades.length);
    if (!elsewhere.length) return `No graded deals for ${title}: its shipped deals have no difficulty grades.`;
    const said = elsewhere.map((s) => `empty column: ${s.empty_column}${s.foundation_return ? ", cards come back" : ""}`);
    return `No graded deals for ${title} with these options; there are some with ${said.join(" or ")}.`;
  }
  function update() {
    if (!offered) return;
    const scales = offered.get(variant.value) || [];
    const scale = scales.find((s) => s.empty_column === empty.value && s.foundation_return === back.checked);
    const grades = scale ? scale.grades : [];
    let missing = false;
    const reason = why(scales, grades);
    for (const option of deal.options) {
      const [kind, grade] = option.value.split(":");
      if (kind !== "winnable" || !grade) continue;
      option.disabled = option.hidden = !grades.includes(grade);
      option.title = option.disabled ? reason : "";
      missing = missing || option.disabled;
    }
    if (note) note.textContent = missing ? reason : "";
    if (deal.selectedOptions[0] && deal.selectedOptions[0].disabled) deal.value = "winnable";
  }
  for (const el of [variant, empty, back]) el.addEventListener("change", update);
  // dialogs.js fills the dialog's fields when it opens (no change event): look again then
  new MutationObserver(update).observe(dialog, { attributes: true, attributeFilter: ["open"] });
})();
