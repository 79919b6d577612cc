/* The keyboard focus on the table: which card or empty pile has it, and where the arrow keys take it. */
import { allPiles, pileRect } from "./layout.js";
import { $, S, cardEls, table } from "./store.js";

// A control that had the focus went away: disabled (Undo at the start), hidden (the replay bar, the computer's bar,
// the box at the end) or made inert (the header under the replay bar). `had`: what had the focus before the
// change (Chrome moves the focus off a disabled button at once, off a hidden one only later); without it, the
// focus already on the page itself counts as lost. A keyboard user goes on from the replay's slider, or from the
// table's card in focus, not from the top of the page; another dialog open keeps the focus.
export function focusLost(had = null) {
  const gone = (el) => !!el && el !== document.body && (el.disabled || !el.isConnected || !!el.closest("[hidden], [inert]"));
  const at = document.activeElement;
  const lost = !at || at === document.body ? had === null || gone(had) : gone(at);
  if (!lost || document.querySelector("dialog[open]")) return;
  if (S.replay && !$("replay-bar").hidden) { if (S.keyboardUser) $("replay-slider").focus(); return; }
  applyFocus(S.keyboardUser);
}

export function focusables() {
  // per pile: the indices that can take focus (face-up cards; an empty pile has idx -1)
  const out = {};
  for (const p of allPiles()) {
    const its = S.items.filter((it) => it.pile === p);
    if (p[0] === "c") {
      const ups = its.filter((it) => it.up).map((it) => it.idx);
      out[p] = ups.length ? ups : [-1];
    } else {
      out[p] = its.length ? [its[its.length - 1].idx] : [-1];
    }
  }
  return out;
}
export function elementFor(pos) {
  if (!pos) return null;
  if (pos.idx >= 0) {
    const it = S.items.find((i) => i.pile === pos.pile && i.idx === pos.idx);
    if (it) return cardEls.get(it.key);
  }
  return table.querySelector(`.slot[data-pile="${pos.pile}"]`);
}
function normalizeFocus() {
  const f = focusables();
  if (!S.focus || !f[S.focus.pile]) S.focus = { pile: "c0", idx: f.c0[f.c0.length - 1] };
  const list = f[S.focus.pile];
  if (!list.includes(S.focus.idx)) S.focus.idx = list[list.length - 1];
}
export function applyFocus(move = true) {
  table.querySelectorAll(".card, .slot").forEach((e) => { e.tabIndex = -1; e.classList.remove("focus"); });
  if (!S.state) return;
  normalizeFocus();
  const el = elementFor(S.focus);
  if (!el) return;
  el.tabIndex = 0;
  if (move || (S.keyboardUser && table.contains(document.activeElement))) {
    el.classList.add("focus");
    el.focus({ preventScroll: false });
  }
}
// the focus back on the table's card in focus, its ring only for a keyboard user (a click on Undo left the focus
// on the button: Space then undid again, and the arrows went nowhere)
export function keepFocus() {
  normalizeFocus();
  const el = elementFor(S.focus);
  if (!el) return;
  el.tabIndex = 0;
  el.classList.toggle("focus", S.keyboardUser);
  el.focus({ preventScroll: true });
}
// Beside the tableau (geom.side) the piles lie in columns of their own: an arrow goes to the nearest pile that
// way, as the eye sees them (by their order, the foundations stacked down took → and ←, and ↓ left them).
function nearestPile(from, dx, dy) {
  const a = pileRect(from);
  let best = null, bestD = Infinity;
  for (const q of allPiles()) {
    if (q === from) continue;
    const r = pileRect(q);
    const along = dx ? (r.x - a.x) * dx : (r.y - a.y) * dy, across = dx ? Math.abs(r.y - a.y) : Math.abs(r.x - a.x);
    if (along <= S.geom.W / 2 || (dy && across > S.geom.W / 2)) continue;  // (up and down: within its own column)
    const d = along + 2 * across;
    if (d < bestD) { bestD = d; best = q; }
  }
  return best;
}
function focusPile(q, f) {
  S.focus = { pile: q, idx: f[q][f[q].length - 1] };
  applyFocus();
}
export function moveFocus(dx, dy) {
  const f = focusables();
  normalizeFocus();
  const p = S.focus.pile;
  if (S.geom.side && p[0] !== "c") {
    const q = nearestPile(p, dx, dy);
    if (q) focusPile(q, f);
    return;
  }
  if (dy !== 0 && p[0] === "c") {
    const list = f[p], k = list.indexOf(S.focus.idx) + dy;
    if (k >= 0 && k < list.length) { S.focus.idx = list[k]; applyFocus(); return; }
    if (k < 0) { // up from the column: the top-row pile above
      const x = S.geom.colX(+p.slice(1));
      const top = allPiles().filter((q) => q[0] !== "c");
      if (!top.length) return;
      const q = top.reduce((a, b) => (Math.abs(pileRect(a).x - x) <= Math.abs(pileRect(b).x - x) ? a : b));
      S.focus = { pile: q, idx: f[q][0] };
      applyFocus();
    }
    return;
  }
  if (dy > 0 && p[0] !== "c") {
    const x = pileRect(p).x;
    let best = "c0";
    for (let i = 0; i < S.state.layout.columns; i++) if (Math.abs(S.geom.colX(i) - x) < Math.abs(pileRect(best).x - x)) best = "c" + i;
    S.focus = { pile: best, idx: f[best][f[best].length - 1] };
    applyFocus();
    return;
  }
  if (dx !== 0) {
    const row = allPiles().filter((q) => (q[0] === "c") === (p[0] === "c"));
    const k = row.indexOf(p) + dx;
    if ((k < 0 || k >= row.length) && S.geom.side) {  // from the first or last column to the piles beside them
      const q = nearestPile(p, dx, 0);
      if (q) focusPile(q, f);
      return;
    }
    if (k < 0 || k >= row.length) return;
    const q = row[k];
    const list = f[q];
    S.focus = { pile: q, idx: list[list.length - 1] };
    applyFocus();
  }
}
export function focusedItem() {
  return S.focus ? S.items.find((i) => i.pile === S.focus.pile && i.idx === S.focus.idx) : null;
}
