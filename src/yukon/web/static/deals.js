// The deal's difficulty (docs/difficulty.md): beside the deal number, and in the New dialog.
// Beside the deal number: the game's state carries the grade only where it tells the player nothing the table
// does not (a deal dealt as winnable, or a game that is over: a grade says the deal can be won). play.js
// announces every state it accepts with a "yukon:state" event.
// In the New dialog: only the grades the chosen variant and options offer (/api/variants: "grades"), and "a deal
// proven lost" only where the shipped verdicts have one ("lost"); what is greyed out says why.
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
  let lost = new Map();  // variant name -> [{empty_column, foundation_return}] that have a deal proven lost
  let titles = new Map();  // variant name -> its title
  fetch("/api/variants").then((r) => (r.ok ? r.json() : null)).then((d) => {
    if (!d) return;
    offered = new Map(d.variants.map((v) => [v.name, v.grades || []]));
    lost = new Map(d.variants.map((v) => [v.name, v.lost || []]));
    titles = new Map(d.variants.map((v) => [v.name, v.title]));
    update();
  }).catch(() => { /* offline: the server refuses a grade it does not offer, naming the ones it does */ });

  const said = (s) => `empty column: ${s.empty_column}${s.foundation_return ? ", cards come back" : ""}`;
  // why a difficulty is greyed out (else it looks broken): the shipped verdicts grade only some rule options
  function why(scales, grades) {
    const title = titles.get(variant.value) || "this variant";
    if (grades.length) return `Graded deals of ${title} with these options: ${grades.join(", ")}.`;
    const elsewhere = scales.filter((s) => s.grades.length);
    if (!elsewhere.length) return `No graded deals for ${title}: its shipped deals have no difficulty grades.`;
    return `No graded deals for ${title} with these options; there are some with ${elsewhere.map(said).join(" or ")}.`;
  }
  // why "a deal proven lost" is greyed out: the shipped verdicts (the server's only source of one) have none
  function whyNoLost(sets) {
    const title = titles.get(variant.value) || "this variant";
    if (!sets.length) return `No deals proven lost for ${title}: its shipped verdicts have none.`;
    return `No deals proven lost for ${title} with these options; there are some with ${sets.map(said).join(" or ")}.`;
  }
  function update() {
    if (!offered) return;
    const here = (s) => s.empty_column === empty.value && s.foundation_return === back.checked;
    const scales = offered.get(variant.value) || [];
    const scale = scales.find(here);
    const grades = scale ? scale.grades : [];
    let missing = false;
    const reason = why(scales, grades);
    const lostSets = lost.get(variant.value) || [];
    const noLost = !lostSets.some(here);
    const lostReason = noLost ? whyNoLost(lostSets) : "";
    for (const option of deal.options) {
      const [kind, grade] = option.value.split(":");
      if (kind === "lost") {
        option.disabled = noLost;  // greyed, not hidden: the choice exists, for other rules
        option.title = lostReason;
        continue;
      }
      if (kind !== "winnable" || !grade) continue;
      option.disabled = option.hidden = !grades.includes(grade);
      option.title = option.disabled ? reason : "";
      missing = missing || option.disabled;
    }
    if (note) note.textContent = [missing ? reason : "", lostReason].filter(Boolean).join(" ");
    const chosen = deal.selectedOptions[0];
    if (chosen && chosen.disabled) deal.value = chosen.value === "lost" ? "any" : "winnable";
  }
  for (const el of [variant, empty, back]) el.addEventListener("change", update);
  // dialogs.js fills the dialog's fields when it opens (no change event): look again then
  new MutationObserver(update).observe(dialog, { attributes: true, attributeFilter: ["open"] });
})();
