/* Hints (the honest player's, or the solver's), and the "still winnable?" indicator. */
import { undoTo } from "./play.js";
import { groupEls } from "./pointer.js";
import { analyse } from "./records.js";
import { api, failed } from "./server.js";
import { settings } from "./settings.js";
import { offer, say } from "./status.js";
import { $, S, table } from "./store.js";
import { describeMove, moveNo, parseMove } from "./words.js";

let hintTimer = 0;
let winnableReq = 0;
export function hint() {
  if (!S.state || S.state.status !== "playing" || S.state.result !== null) return;
  const id = S.state.id, count = S.state.move_count;
  say("Thinking…", false, true);
  (async () => {
    let h;
    try { h = await api("POST", `/api/games/${id}/hint`, { kind: settings.solverHint ? "solver" : "honest" }); } catch (err) { failed(err); return; }
    if (!S.state || S.state.id !== id || S.state.move_count !== count) return;
    clearHint();
    if (h.status === "lost") offerLastWinnable();
    // every hint says which kind it is: the honest player's, or the solver's, which sees what the player cannot
    // (the server says what: the face-down cards, the stock's order in Australian Patience, or both)
    const kind = h.kind === "solver" ? "Solver hint" : "Hint (no peeking)";
    const peeked = h.kind === "solver" ? ` · it sees ${h.unseen || "the face-down cards"}` : "";
    if (!h.move && h.kind === "honest" && h.status === "unknown" && S.state.legal_moves.length) {
      // round in circles: every move leads back to a position seen already. Moves are left, so no "No moves
      // left" box comes: the ways on, and a button for the one that says where the game was lost
      say(`${kind}: ${h.note}: undo, turn on "Solver hint" in Options (it sees ${h.unseen || "the face-down cards"}),`
        + ` or ask "Where did it go wrong?"`, false, true);
      offer("Where did it go wrong?", analyse);
      return;
    }
    if (!h.move) { say(`${kind}: ${h.note || "no move to suggest"}${peeked}`, h.status === "lost", h.status === "lost"); return; }
    const mv = parseMove(h.move);
    if (mv.src === "S") {
      S.zones.S && S.zones.S.classList.add("hint");
    } else {
      groupEls(mv.src, mv.card, mv.count).forEach((el) => el.classList.add("hint"));
      const dz = mv.dst === "F" ? foundationZoneFor(mv.card) : S.zones[mv.dst];
      dz && dz.classList.add("hint");
    }
    // a position proved lost: the proof first, then the move, as the terminal says it (in brackets after the
    // move, the sentence read "Solver hint: ... (The solver proved this position lost: ...)")
    if (h.status === "lost" && h.note) say(`${h.note}. Best try (${kind.toLowerCase()}): ${describeMove(mv)}${peeked}`, true, true);
    else say(`${kind}: ${describeMove(mv)}` + (h.note ? ` (${h.note})` : "") + peeked, h.status === "lost", true);
    hintTimer = setTimeout(clearHint, 6000);
  })();
}
// a position the solver proved lost: offer to undo back to the last position that can still be won
async function offerLastWinnable() {
  const id = S.state.id, count = S.state.move_count;
  try {
    const w = await api("POST", `/api/games/${id}/winnable`);
    if (!S.state || S.state.id !== id || S.state.move_count !== count) return;
    if (w.status === "lost" && w.last_winnable !== null && w.last_winnable !== undefined) {
      offer(`Undo to move ${moveNo(w.last_winnable)} (last winnable)`, () => undoTo(w.last_winnable));
    }
  } catch (err) { failed(err); }
}
export function clearHint() {
  clearTimeout(hintTimer);
  table.querySelectorAll(".hint").forEach((e) => e.classList.remove("hint"));
}
// the foundation pile the card would go on now, as the server says (the page knows no rule); null for none
export function foundationZoneFor(card) {
  const j = (S.state.foundation_piles || {})[card];
  return j === undefined ? null : S.zones["f" + j] || null;
}

// the verdict in words, and in one word for a phone's status line (where the message needs the room)
function showVerdict(long, short) {
  $("winnable-text").textContent = long;
  $("winnable-short").textContent = short;
}
export function updateWinnable() {
  const box = $("winnable");
  if (!settings.winnable || !S.state || S.state.status === "won" || S.state.result !== null) { box.hidden = true; return; }
  box.hidden = false;
  box.className = "winnable";
  showVerdict("Checking…", "…");
  $("btn-back-to-winnable").hidden = true;
  const id = S.state.id, count = S.state.move_count, req = ++winnableReq;
  api("POST", `/api/games/${id}/winnable`).then((w) => {
    if (req !== winnableReq || !S.state || S.state.id !== id || S.state.move_count !== count) return;
    box.classList.add(w.status);
    box.title = w.label || "";  // a perfect-information verdict: the solver sees the face-down cards
    const back = $("btn-back-to-winnable");
    if (w.status === "won") showVerdict("✓ Still winnable (if every card were known)", "✓ Winnable");
    else if (w.status === "lost") {
      // before the player's first move it never could be won (a deal proven lost): "no longer" would blame a move
      showVerdict(S.state.moves_made === 0 ? "✗ This deal cannot be won, even knowing every card"
        : "✗ Can no longer be won, even knowing every card", "✗ Lost");
      if (w.last_winnable !== null && w.last_winnable !== undefined) {
        back.hidden = false;
        const wide = (text) => Object.assign(document.createElement("span"), { className: "wide", textContent: text });
        const label = document.createElement("span");  // one flex item, its spaces kept; a phone: "Undo to 8"
        label.append("Undo to ", wide("move "), String(moveNo(w.last_winnable)), wide(" (last winnable)"));
        back.replaceChildren(label);
        back.title = back.textContent;
        back.onclick = () => undoTo(w.last_winnable);
      }
    } else showVerdict("? Can't tell" + (w.note ? ` (${w.note})` : ""), "? Can't tell");
  }).catch(() => { showVerdict("? Can't tell", "? Can't tell"); });
}
