/* The pointer (mouse, pen, touch): drag and drop, a click to the best place, a double click to a
foundation. */
import { clearHint, foundationZoneFor } from "./hints.js";
import { cancelHeld } from "./keys.js";
import { allPiles, pileRect } from "./layout.js";
import { bestFor, foundationFor, legalFor, playMove, sendMove, tryMove } from "./play.js";
import { render } from "./render.js";
import { enqueue } from "./server.js";
import { say } from "./status.js";
import { S, cardEls, table } from "./store.js";
import { onIt, parseMove, pretty } from "./words.js";

function groupOf(pile, idx) {
  return S.items.filter((it) => it.pile === pile && it.idx >= idx).sort((a, b) => a.idx - b.idx);
}
export function groupEls(pile, card, count) {
  const its = S.items.filter((it) => it.pile === pile || (pile === "F" && it.pile[0] === "f"));
  if (pile === "W" || pile[0] === "f" || pile === "F") {
    const top = its.filter((it) => it.name === card && it.top);
    return top.map((it) => cardEls.get(it.key));
  }
  return its.slice(its.length - count).map((it) => cardEls.get(it.key));
}
const itemOf = (el) => S.items.find((it) => it.key === el.dataset.key);
export function pickFrom(it) {
  // the group a pointer or key press picks up at this card: {src, card, count, items}
  if (!it || !it.up) return null;
  if (it.pile[0] === "c") {
    const g = groupOf(it.pile, it.idx);
    return { src: it.pile, card: it.name, count: g.length, items: g };
  }
  if (it.pile === "W" && it.top) return { src: "W", card: it.name, count: 1, items: [it] };
  if (it.pile[0] === "f" && it.top && S.state.rules.foundation_return) return { src: "F", card: it.name, count: 1, items: [it] };
  return null;
}
export function targetsFor(pick) {
  const set = new Set();
  for (const m of legalFor(pick.src, pick.card, pick.count)) {
    if (m.dst === "F") { const z = foundationZoneFor(pick.card); if (z) set.add(z.dataset.pile); }
    else set.add(m.dst);
  }
  return set;
}

table.addEventListener("pointerdown", (e) => {
  if (e.button !== 0 || !S.state || S.drag || S.replay) return;
  const el = e.target.closest(".card");
  if (!el) return;
  const it = itemOf(el);
  const pick = pickFrom(it);
  if (!pick || S.state.status !== "playing" || S.state.result !== null) return;
  cancelHeld();
  const rect = table.getBoundingClientRect();
  S.drag = {
    pick, pointerId: e.pointerId, x0: e.clientX, y0: e.clientY, rect, started: false,
    els: pick.items.map((i) => cardEls.get(i.key)), origin: pick.items.map((i) => ({ x: i.x, y: i.y })),
  };
});
table.addEventListener("pointermove", (e) => {
  if (!S.drag || e.pointerId !== S.drag.pointerId || S.drag.cancelled) return;
  const dx = e.clientX - S.drag.x0, dy = e.clientY - S.drag.y0;
  if (!S.drag.started) {
    if (Math.hypot(dx, dy) < 6) return;
    S.drag.started = true;
    try { table.setPointerCapture(e.pointerId); } catch (err) { /* fine */ }
    clearHint();
    cancelClick();
    S.drag.targets = targetsFor(S.drag.pick);
    S.drag.targets.forEach((p) => S.zones[p] && S.zones[p].classList.add("target"));
    S.drag.els.forEach((el, k) => { el.classList.add("dragging"); el.style.zIndex = 5000 + k; el.style.transitionDelay = "0ms"; });
  }
  S.drag.els.forEach((el, k) => { el.style.transform = `translate(${S.drag.origin[k].x + dx}px, ${S.drag.origin[k].y + dy}px)`; });
  const over = dropPile(e, dx, dy);
  Object.values(S.zones).forEach((z) => z.classList.toggle("over", z.dataset.pile === over && S.drag.targets.has(over)));
  e.preventDefault();
});
function dropPile(e, dx, dy) {
  // the pile under the pointer, else the one the lead card overlaps most
  const px = e.clientX - S.drag.rect.left, py = e.clientY - S.drag.rect.top;
  const lead = { x: S.drag.origin[0].x + dx, y: S.drag.origin[0].y + dy, w: S.geom.W, h: S.geom.H };
  let best = null, bestArea = 0;
  for (const p of allPiles()) {
    if (p === "S" || p === "W") continue;
    const r = pileRect(p);
    const bottom = p[0] === "c" ? Math.max(r.y + r.h, r.y + S.geom.H * 1.6) : r.y + r.h;
    if (px >= r.x && px <= r.x + r.w && py >= r.y && py <= bottom) return p;
    const ox = Math.min(lead.x + lead.w, r.x + r.w) - Math.max(lead.x, r.x);
    const oy = Math.min(lead.y + lead.h, bottom) - Math.max(lead.y, r.y);
    const area = ox > 0 && oy > 0 ? ox * oy : 0;
    const bonus = S.drag.targets && S.drag.targets.has(p) ? 1.5 : 1;
    if (area * bonus > bestArea) { bestArea = area * bonus; best = p; }
  }
  return best;
}
const clearTargets = () => Object.values(S.zones).forEach((z) => z.classList.remove("target", "over"));
function endDrag() {
  clearTargets();
  if (S.drag) try { table.releasePointerCapture(S.drag.pointerId); } catch (err) { /* fine */ }
  S.drag = null;
}
table.addEventListener("pointerup", (e) => {
  if (!S.drag || e.pointerId !== S.drag.pointerId) return;
  const d = S.drag;
  if (!d.started) { endDrag(); return; }  // a click: the click handler acts
  if (d.cancelled) {  // the table was laid out anew under the drag (cancelDrag): neither a drop nor a click
    endDrag();
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    return;
  }
  const dx = e.clientX - d.x0, dy = e.clientY - d.y0;
  const over = dropPile(e, dx, dy);
  endDrag();
  suppressClick = true;
  setTimeout(() => { suppressClick = false; }, 0);
  tryDrop(d.pick, over, d.els);
});
table.addEventListener("pointercancel", () => { if (S.drag) { endDrag(); render(); } });
let suppressClick = false;

function tryDrop(pick, over, els) {
  if (!over || over === pick.src || (over[0] === "f" && pick.src === "F")) { snapBack(els, ""); return; }
  const dst = over[0] === "f" ? "F" : over;
  els.forEach((el) => el.classList.remove("dragging"));
  tryMove(pick, dst, els);
}
export function snapBack(els, reason) {
  els.forEach((el) => el.classList.remove("dragging"));
  render();
  if (reason) {
    say(reason, true);
    shake(els[0]);
  }
}
function shake(el) {
  if (!el) return;
  el.classList.add("shake");
  setTimeout(() => el.classList.remove("shake"), 400);
}

// A single click sends a card to its best place; a double click to its foundation only. When the best
// place is not a foundation, the single click waits for the double-click time before it acts.
const DOUBLE_CLICK_MS = 260;
let pendingClick = 0, pendingCard = null;
// the first click of this double click acted at once (it sent a card up, or dealt): the double click is then
// done, and must not act on the card the move uncovered under the pointer
let clickActed = false;
const cancelClick = () => { clearTimeout(pendingClick); pendingClick = 0; pendingCard = null; };
// a click elsewhere ends the wait: the waiting click is played first (else a quick second click dropped it,
// and six quick clicks played only the last), so every click does what a click does, in order
function flushClick() {
  if (!pendingClick) return;
  const it = pendingCard;
  cancelClick();
  clickCard(it);
}
// a click on the stock's place deals, whatever lies there: the cards of the last deal still leaving it (a
// quick second click was taken for a click on one of them: "2♠ has no legal move now"), and a quick click
// after another deals again (it was taken for half a double click, and dealt nothing)
function onStock(e) {
  if (!S.state.layout.has_stock) return false;
  const r = pileRect("S"), t = table.getBoundingClientRect(), x = e.clientX - t.left, y = e.clientY - t.top;
  return x >= r.x && x <= r.x + r.w + 4 && y >= r.y - 4 && y <= r.y + r.h;  // (its backs lie a little stacked)
}
table.addEventListener("click", (e) => {
  if (suppressClick || !S.state || S.replay) return;
  if (e.detail === 1) flushClick();
  if (onStock(e)) { clickActed = true; deal(); return; }
  if (e.detail > 1) return;
  clickActed = false;
  const slot = e.target.closest(".slot");
  const el = e.target.closest(".card");
  const it = el ? itemOf(el) : null;
  if ((slot && slot.dataset.pile === "S") || (it && it.pile === "S")) { clickActed = true; deal(); return; }
  if (S.state.status !== "playing" || S.state.result !== null) return;
  // (a click that can do nothing says why, for a player who does not know the game yet)
  if (it && !it.up && it.pile[0] === "c") { say("A face-down card turns over by itself once every card on it has moved."); return; }
  if (!it && slot && slot.dataset.pile[0] === "f") { say("A foundation starts with an Ace, then takes the next card of its suit: 2, 3, … up to the King."); return; }
  if (!it) return;
  const pick = pickFrom(it);
  if (!pick || pick.src === "F") { if (pick) { clickActed = true; clickCard(it); } return; }
  const best = bestFor(pick);
  if (best && parseMove(best).dst === "F") { clickActed = true; clickCard(it); return; }  // as a double click
  pendingCard = it;
  pendingClick = setTimeout(() => { pendingClick = 0; pendingCard = null; clickCard(it); }, DOUBLE_CLICK_MS);
});
table.addEventListener("dblclick", (e) => {
  cancelClick();
  if (clickActed) { clickActed = false; return; }
  if (!S.state || S.state.status !== "playing" || S.state.result !== null) return;
  const el = e.target.closest(".card");
  const it = el ? itemOf(el) : null;
  const pick = pickFrom(it);
  if (!pick || pick.src === "F") return;
  const best = bestFor(pick);
  if (best && parseMove(best).dst === "F") return;  // the first click sent it up already
  const m = foundationFor(pick);
  if (m) { sendMove(m); return; }
  tryMove(pick, "F", [cardEls.get(it.key)]);  // the server says why it cannot go up
});
// decided in the queue, against the state the moves clicked before it left (the card may have moved with them)
export function clickCard(clicked) {
  return enqueue(async () => {
    const it = S.items.find((i) => i.key === clicked.key);
    if (!S.state || S.replay || S.state.status !== "playing" || S.state.result !== null) return;
    const pick = pickFrom(it);
    if (!pick) return;
    const m = bestFor(pick);
    if (!m) {
      shake(cardEls.get(it.key));
      say(`${pretty(pick.card)}${pick.count > 1 ? ` (${onIt(pick.count).trim()})` : ""} has no legal move now.`, true);
      return;
    }
    await playMove(m);
  });
}
export function deal() {
  if (!S.state || S.replay || S.state.status !== "playing" || S.state.result !== null) return;
  if (!S.state.legal_moves.includes("deal")) { say(S.state.layout.has_stock ? "The stock is empty." : "This game has no stock.", true); return; }
  sendMove("deal");
}

// A drag measured on the old layout would drop where the pointer no longer means the same pile: a resize
// (a phone turned, a window dragged) puts the cards back and the drag ends with no move.
function cancelDrag() {
  if (!S.drag || !S.drag.started) { endDrag(); return; }
  clearTargets();
  S.drag.els.forEach((el) => el.classList.remove("dragging"));
  S.drag.cancelled = true;
}
let resizeTimer = 0;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => { if (S.drag) cancelDrag(); if (S.state) render({ instant: true }); }, 60);
});
