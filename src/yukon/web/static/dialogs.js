/* The New game and Options dialogs, and the page's own questions (ask). */
import { stopCascade } from "./banner.js";
import { updateWinnable } from "./hints.js";
import { accept, newGame } from "./play.js";
import { leaving } from "./records.js";
import { api, enqueue } from "./server.js";
import { applyLooks, motion, saveSettings, settings } from "./settings.js";
import { $, S } from "./store.js";

export function fillVariants() {
  const sel = $("new-variant");
  sel.innerHTML = "";
  for (const v of S.variants.variants) {
    const o = document.createElement("option");
    o.value = v.name;
    o.textContent = v.title;
    sel.appendChild(o);
  }
}
function setDialogDefaults(variant, options) {
  const v = S.variants.variants.find((x) => x.name === variant) || S.variants.variants[0];
  $("new-variant").value = v.name;
  const opts = { ...v.defaults, ...(options || {}) };
  $("new-empty-column").value = opts.empty_column;
  $("new-foundation-return").checked = !!opts.foundation_return;
  $("new-variant-about").textContent = v.about || "";
  updateNumbering();
}
// PySolFC's numbers are offered for the variants PySolFC deals from the same layout (the server says which)
function updateNumbering() {
  const v = S.variants.variants.find((x) => x.name === $("new-variant").value);
  const offered = !!v && (v.numberings || ["yukon"]).includes("pysolfc");
  const sel = $("new-numbering");
  sel.querySelector("option[value=pysolfc]").disabled = !offered;
  if (!offered) sel.value = "yukon";
  $("new-numbering-note").textContent = offered
    ? (sel.value === "pysolfc" ? "PySolFC's game numbers run from 1: the same number deals the same cards as in PySolFC." : "")
    : `PySolFC's game numbers are not available for ${v ? v.title : "this variant"}.`;
  $("new-deal").disabled = sel.value === "pysolfc";
}
export function openNewDialog() {
  if (!S.variants) return;
  setDialogDefaults(S.state ? S.state.variant : settings.variant, S.state ? S.state.rules : settings.options);
  $("new-seed").value = "";
  $("new-deal").value = settings.deal || (settings.winnableOnly ? "winnable" : "any");
  $("new-numbering").value = (S.state && S.state.numbering) || settings.numbering || "yukon";
  updateNumbering();
  // only a game the player (or the computer) moved in counts when left: the cards that played themselves at
  // the deal leave no trace (docs/web.md), so they get no warning
  $("new-abandon").hidden = !(S.state && S.state.status === "playing" && S.state.result === null
    && (S.state.player_moved || S.state.computer_moves > 0));
  $("new-abandon").textContent = `Leaving the game in play: ${leaving(S.state)}.`;
  $("dlg-new").showModal();
}
$("new-variant").addEventListener("change", () => setDialogDefaults($("new-variant").value, null));
$("new-numbering").addEventListener("change", updateNumbering);
$("new-cancel").addEventListener("click", () => $("dlg-new").close());
// Enter deals from any field of the dialog, as it does from the deal number (a select would swallow it)
$("form-new").addEventListener("keydown", (e) => {
  if (e.key === "Enter" && !e.isComposing && e.target.tagName === "SELECT") { e.preventDefault(); $("form-new").requestSubmit($("new-ok")); }
});
$("form-new").addEventListener("submit", (e) => {
  const seedText = $("new-seed").value.trim();
  let seed = null;
  if (seedText) {
    if (!/^\d+$/.test(seedText)) { e.preventDefault(); $("new-seed").setCustomValidity("A deal number is a whole number (or leave it empty for a random deal)"); $("new-seed").reportValidity(); return; }
    seed = Number(seedText);
  }
  $("new-seed").setCustomValidity("");
  settings.variant = $("new-variant").value;
  const v = S.variants.variants.find((x) => x.name === settings.variant);
  settings.options = { empty_column: $("new-empty-column").value, foundation_return: $("new-foundation-return").checked };
  if (v && settings.options.empty_column === v.defaults.empty_column && settings.options.foundation_return === v.defaults.foundation_return) settings.options = {};
  settings.deal = $("new-deal").value;
  settings.winnableOnly = settings.deal.startsWith("winnable");
  settings.numbering = $("new-numbering").value;
  saveSettings();
  newGame({ variant: settings.variant, options: settings.options, seed, numbering: settings.numbering, winnableOnly: settings.winnableOnly, deal: settings.deal });
});

export function openOptions() {
  $("opt-autoplay").checked = settings.autoplay;
  $("opt-autofinish").checked = settings.autofinish;
  $("opt-winnable").checked = settings.winnable;
  $("opt-solver-hint").checked = settings.solverHint;
  $("opt-animate").checked = settings.animate;
  $("opt-felt").value = settings.felt;
  $("opt-back").value = settings.back;
  $("dlg-options").showModal();
}
for (const [id, key] of [["opt-felt", "felt"], ["opt-back", "back"]]) {
  $(id).addEventListener("change", () => { settings[key] = $(id).value; saveSettings(); applyLooks(); });
}
for (const [id, key] of [["opt-autoplay", "autoplay"], ["opt-autofinish", "autofinish"], ["opt-winnable", "winnable"], ["opt-solver-hint", "solverHint"], ["opt-animate", "animate"]]) {
  $(id).addEventListener("change", () => {
    settings[key] = $(id).checked;
    saveSettings();
    if (key === "animate") { applyLooks(); if (!motion()) stopCascade(); }
    if (key === "winnable") updateWinnable();
    if ((key === "autoplay" || key === "autofinish") && settings[key] && S.state && S.state.status === "playing") {
      enqueue(async () => {
        const data = await api("POST", `/api/games/${S.state.id}/auto`, { autoplay: settings.autoplay, autofinish: settings.autofinish });
        accept(data);
      });
    }
  });
}

// A question of the page's own (never the browser's confirm(), which stops the page, looks like the browser's
// and cannot be styled): resolves true for the button that goes on, false for the other one or Esc. Whichever
// button is safer to press by mistake takes the focus (`focus`: "ok" or "cancel").
let answerAsk = null;
export function ask({ title, text, ok, cancel = "Cancel", focus: focusOn = "ok" }) {
  const dlg = $("dlg-ask");
  if (answerAsk) {  // (a question asked over another: the first one's answer is no)
    const first = answerAsk;
    answerAsk = null;
    first(false);
    dlg.close();
  }
  $("ask-title").textContent = title;
  $("ask-text").textContent = text;
  $("ask-ok").textContent = ok;
  $("ask-cancel").textContent = cancel;
  dlg.returnValue = "";  // (Esc closes it with this)
  dlg.showModal();
  $(focusOn === "cancel" ? "ask-cancel" : "ask-ok").focus();
  return new Promise((resolve) => { answerAsk = resolve; });
}
$("dlg-ask").addEventListener("close", () => {
  if ($("dlg-ask").open) return;  // (the close of a question asked over: the next one is open already)
  const answer = answerAsk;
  answerAsk = null;
  if (answer) answer($("dlg-ask").returnValue === "ok");
});
// Tab and Shift+Tab go round the open dialog's controls: the focus does not leave it for the browser's own bar
// (the page behind a modal dialog is inert already)
document.addEventListener("keydown", (e) => {
  if (e.key !== "Tab" || e.ctrlKey || e.metaKey || e.altKey) return;
  // (the one the focus is in; two may be open: a question over Options)
  const open = [...document.querySelectorAll("dialog[open]")];
  const dlg = open.find((d) => d.contains(document.activeElement)) || open[open.length - 1];
  if (!dlg) return;
  const stops = [...dlg.querySelectorAll("button, select, input, textarea, [tabindex]:not([tabindex='-1'])")]
    .filter((x) => !x.disabled && x.getClientRects().length);
  if (!stops.length) return;
  const first = stops[0], last = stops[stops.length - 1], at = document.activeElement;
  const outside = !dlg.contains(at) || at === dlg;
  if (e.shiftKey && (at === first || outside)) { e.preventDefault(); last.focus(); }
  else if (!e.shiftKey && (at === last || outside)) { e.preventDefault(); first.focus(); }
});
