/* The keyboard: the game's keys, and picking up cards with Enter to put them on another pile. */
import { hideBanner } from "./banner.js";
import { openNewDialog } from "./dialogs.js";
import { applyFocus, elementFor, focusables, focusedItem, moveFocus } from "./focus.js";
import { hint } from "./hints.js";
import { bestFor, foundationFor, redo, sendMove, tryMove, undo } from "./play.js";
import { clickCard, deal, groupEls, pickFrom, targetsFor } from "./pointer.js";
import { openReplay, replayKey } from "./replay.js";
import { openStats } from "./stats.js";
import { say } from "./status.js";
import { $, S, table } from "./store.js";
import { longName, onIt, pretty } from "./words.js";

export function markHeld() {
  if (!S.held) return;
  groupEls(S.held.src, S.held.card, S.held.count).forEach((el) => el.classList.add("lifted"));
  targetsFor(S.held).forEach((p) => S.zones[p] && S.zones[p].classList.add("target"));
}
export function cancelHeld() {
  if (!S.held) return;
  S.held = null;
  table.querySelectorAll(".lifted").forEach((e) => e.classList.remove("lifted"));
  Object.values(S.zones).forEach((z) => z.classList.remove("target"));
}
function putHeld(dstPile) {
  const pick = S.held;
  cancelHeld();
  if (dstPile === pick.src || (dstPile[0] === "f" && pick.src === "F")) { say("Put back."); return; }
  const dst = dstPile[0] === "f" ? "F" : dstPile;
  if (dst === "S" || dst === "W") { say("Cards cannot be put there.", true); return; }
  tryMove(pick, dst, groupEls(pick.src, pick.card, pick.count));
}

document.addEventListener("keydown", (e) => {
  if (!S.state) return;
  // (the box at the end of a game is no field: the game's keys work from its buttons, as they did)
  const inField = e.target.closest && e.target.closest("input:not([type=range]), select, textarea, dialog:not(#banner)");
  const key = e.key;
  const ctrl = e.ctrlKey || e.metaKey;
  if (S.replay && !inField && !ctrl && !e.altKey) { replayKey(e); return; }
  if (ctrl && (key === "z" || key === "Z") && !inField) { e.preventDefault(); e.shiftKey ? redo() : undo(); return; }
  if (ctrl && (key === "y" || key === "Y") && !inField) { e.preventDefault(); redo(); return; }
  if (inField || ctrl || e.altKey) return;
  if (!$("banner").hidden && key === "Escape") { hideBanner(); return; }
  const onTable = table.contains(document.activeElement);
  switch (key) {
    case "ArrowLeft": case "ArrowRight": case "ArrowUp": case "ArrowDown":
      if (!onTable && document.activeElement && document.activeElement.tagName === "BUTTON" && (key === "ArrowLeft" || key === "ArrowRight")) return;
      e.preventDefault();
      if (!onTable) { applyFocus(); return; }
      moveFocus(key === "ArrowLeft" ? -1 : key === "ArrowRight" ? 1 : 0, key === "ArrowUp" ? -1 : key === "ArrowDown" ? 1 : 0);
      return;
    case "Enter":
      if (!onTable) return;
      e.preventDefault();
      if (S.held) { putHeld(S.focus.pile); return; }
      {
        const it = focusedItem();
        if (S.focus.pile === "S") { deal(); return; }
        const pick = pickFrom(it);
        if (!pick) { say("Nothing to pick up here.", true); return; }
        S.held = pick;
        markHeld();
        say(`Picked up ${longName(pick.card)}${onIt(pick.count)}: choose a pile and press Enter (Esc cancels)`, false, true);
      }
      return;
    case " ":
      if (!onTable) return;
      e.preventDefault();
      if (S.held) { const p = S.held; cancelHeld(); const m = bestFor(p); m ? sendMove(m) : say(`${pretty(p.card)} has no legal move now.`, true); return; }
      if (S.focus.pile === "S") { deal(); return; }
      { const it = focusedItem(); if (it) clickCard(it); }
      return;
    case "Escape":
      if (S.held) { cancelHeld(); say("Put back."); }
      return;
    case "f": case "F": {
      const pick = S.held || (onTable ? pickFrom(focusedItem()) : null);
      if (!pick) return;
      cancelHeld();
      const m = foundationFor(pick);
      m ? sendMove(m) : tryMove(pick, "F", groupEls(pick.src, pick.card, pick.count));
      return;
    }
    case "d": case "D": deal(); return;
    case "h": case "H": hint(); return;
    case "p": case "P": openReplay(); return;
    case "u": case "U": undo(); return;
    case "r": case "R": redo(); return;
    case "n": case "N": openNewDialog(); return;
    case "s": case "S": openStats(); return;
    case "?": $("dlg-help").showModal(); return;
    default:
      if (/^[1-9]$/.test(key)) {
        const i = +key - 1;
        if (i >= S.state.layout.columns) {  // (a picked-up card stays up: the player may still press a column's digit)
          say(`There is no column ${key}: ${S.state.title} has ${S.state.layout.columns}.`, true);  // (the terminal's words)
          return;
        }
        if (S.held) { putHeld("c" + i); return; }
        const f = focusables();
        S.focus = { pile: "c" + i, idx: f["c" + i][f["c" + i].length - 1] };
        applyFocus();
      }
  }
});

// the focus ring shows for a keyboard user only (store.js: S.keyboardUser)
document.addEventListener("keydown", () => { S.keyboardUser = true; }, true);
document.addEventListener("pointerdown", () => { S.keyboardUser = false; }, true);
table.addEventListener("focusin", (e) => {
  const el = e.target.closest(".card, .slot");
  if (!el || !S.keyboardUser) return;
  const pile = el.dataset.pile, idx = el.classList.contains("slot") ? -1 : +el.dataset.idx;
  if (!S.focus || S.focus.pile !== pile || S.focus.idx !== idx) {
    const f = focusables();
    if (f[pile] && f[pile].includes(idx)) S.focus = { pile, idx };
  }
  table.querySelectorAll(".focus").forEach((x) => x.classList.remove("focus"));
  elementFor(S.focus) && elementFor(S.focus).classList.add("focus");
});
table.addEventListener("focusout", () => { table.querySelectorAll(".focus").forEach((x) => x.classList.remove("focus")); });
