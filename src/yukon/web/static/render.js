/* Drawing the table from the state (the cards fly to their places), and the header's buttons and counts. */
import { tick } from "./clock.js";
import { makeCard } from "./faces.js";
import { applyFocus, focusLost, keepFocus } from "./focus.js";
import { markHeld } from "./keys.js";
import { allPiles, computeGeom, layoutItems, pileRect, stockLabel } from "./layout.js";
import { motion } from "./settings.js";
import { $, S, cardEls, table } from "./store.js";
import { dealName, longName, parseMove, pileName, plural, pretty } from "./words.js";

const DEAL_STEP = 50;  // ms between two cards dealt from the stock
const FLYING_Z = 1000;  // over every card at rest and the drop zones (900), under the header (2000)
export function render(opts = {}) {
  if (!S.state) return;
  // (a card in focus that goes, turned face down again by an undo, takes the focus to the page: it goes on
  // from the card now in its place, else Space and F did nothing, silently)
  const hadFocus = table.contains(document.activeElement);
  S.geom = computeGeom();
  table.classList.toggle("compact", S.geom.compact);
  table.style.setProperty("--radius", Math.max(3, Math.round(S.geom.W * 0.07)) + "px");
  table.querySelectorAll(".slot, .zone, .stock-count").forEach((e) => e.remove());
  S.zones = {};
  const frag = document.createDocumentFragment();
  for (const p of allPiles()) {
    const r = pileRect(p);
    const slot = document.createElement("div");
    slot.className = "slot" + (p === "S" ? " stock" : "");
    slot.dataset.pile = p;
    Object.assign(slot.style, { left: r.x + "px", top: r.y + "px", width: S.geom.W + "px", height: S.geom.H + "px", fontSize: Math.round(S.geom.W * 0.3) + "px" });
    // the mark is drawn by CSS (decoration, no text for assistive technology); the stock's place has none: it
    // shows only once the stock is out, and no variant here turns the waste over for a second deal (no ↻)
    slot.dataset.mark = p[0] === "f" ? "A" : p[0] === "c" && S.state.rules.empty_column === "kings" ? "K" : "";
    slot.tabIndex = -1;
    slot.setAttribute("role", "button");
    slot.setAttribute("aria-label", p === "S" ? stockLabel() : p === "W" ? "waste, empty" : p[0] === "f"
      ? `foundation ${+p.slice(1) + 1}, empty` : `column ${+p.slice(1) + 1}, empty`);
    frag.appendChild(slot);
    const zone = document.createElement("div");
    zone.className = "zone";
    zone.dataset.pile = p;
    Object.assign(zone.style, { left: r.x - 3 + "px", top: r.y - 3 + "px", width: r.w + 6 + "px", height: r.h + 6 + "px" });
    frag.appendChild(zone);
    S.zones[p] = zone;
  }
  if (S.state.layout.has_stock) {
    const badge = document.createElement("div");
    badge.className = "stock-count";
    badge.setAttribute("aria-hidden", "true");
    badge.textContent = String(S.state.stock_count);
    Object.assign(badge.style, { left: S.geom.stockX + 4 + "px", top: S.geom.stockY + S.geom.H - 20 + "px" });
    frag.appendChild(badge);
  }
  table.appendChild(frag);

  const zBefore = new Map(S.items.map((i) => [i.key, i.z]));
  S.items = layoutItems();
  const present = new Set();
  const delays = playedDelays(opts.played || []);
  const anim = motion() && !opts.instant;
  const dealt = (opts.played || []).includes("deal");
  let flying = 0;  // the cards dealt from the stock so far: they leave it one after another, the first at once
  S.items.forEach((it, n) => {
    present.add(it.key);
    let el = cardEls.get(it.key);
    const created = !el;
    if (!el) el = makeCard(it.key, it.name);
    el.classList.toggle("up", it.up);
    el.classList.toggle("down", !it.up);
    el.classList.toggle("tight", !!it.tight);
    el.classList.remove("dragging", "lifted", "hint", "losing");
    el.dataset.pile = it.pile;
    el.dataset.idx = it.idx;
    el.style.width = S.geom.W + "px";
    el.style.height = S.geom.H + "px";
    el.dataset.z = it.z;
    const movable = it.up && (it.pile[0] === "c" || (it.pile === "W" && it.top) || (it.pile[0] === "f" && it.top && S.state.rules.foundation_return));
    el.classList.toggle("fixed", !movable);
    el.setAttribute("aria-label", cardLabel(it));
    const target = `translate(${it.x}px, ${it.y}px)`;
    if (created && anim && (opts.fresh || (dealt && it.up))) {
      // a new deal flies out of the stock corner; cards dealt from the stock leave the stock
      el.classList.add("instant");
      el.style.transform = opts.fresh ? `translate(${S.geom.stockX}px, ${-S.geom.H}px)` : `translate(${S.geom.stockX}px, ${S.geom.stockY}px)`;
      void el.offsetWidth;
      el.classList.remove("instant");
      // (a new deal in the order of the table; cards from the stock counted among themselves: by their place
      // among all the cards, the waste's card waited 900 ms, and a row of Milligan Yukon's came unevenly)
      el.style.transitionDelay = (opts.fresh ? Math.min(n * 12, 900) : Math.min(flying++ * DEAL_STEP, 900)) + "ms";
    } else {
      el.style.transitionDelay = (it.name && delays[it.name]) || "0ms";
    }
    // A card that moves keeps its old order among the others, over them all, while it waits for its turn and
    // flies: with its new place's order at once, the cards of a column going up one after another lay in
    // reverse, each hiding the index of the one above it, and a card flew under the columns it passed.
    if (anim && !created && zBefore.has(it.key) && el.style.transform !== target) {
      el.flying = true;
      el.style.zIndex = FLYING_Z + zBefore.get(it.key);
    } else if (!el.flying || !anim) {
      el.flying = false;
      el.style.zIndex = it.z;
    }
    el.style.transform = target;
  });
  for (const [key, el] of cardEls) {
    if (!present.has(key)) { el.remove(); cardEls.delete(key); }
  }
  table.classList.toggle("no-anim", !anim);
  if (S.held) markHeld();
  applyFocus(false);
  if (hadFocus && !table.contains(document.activeElement)) keepFocus();
  updateChrome();
}

function playedDelays(played) {
  const d = {};
  played.forEach((t, k) => {
    const mv = parseMove(t);
    if (mv && mv.card && k > 0) d[mv.card] = Math.min(k * 90, 2500) + "ms";
  });
  return d;
}

function cardLabel(it) {
  // each name starts with what the card shows (its index), then says it in words
  if (!it.up) return it.pile === "S" ? stockLabel() : `face-down card, ${pileName(it.pile)}`;
  const n = `${pretty(it.name)}, ${longName(it.name)}`;
  if (it.pile[0] === "f") return `${n}, on foundation ${+it.pile.slice(1) + 1}`;
  if (it.pile === "W") return `${n}, on the waste`;
  const col = S.state.tableau[+it.pile.slice(1)];
  const above = col.down_count + col.up.length - 1 - it.idx;
  const under = col.down_count && it.idx === col.down_count ? `, ${plural(col.down_count, "face-down card")} under it` : "";
  return `${n}, ${pileName(it.pile)}` + (above ? `, ${plural(above, "card")} on it` : ", free") + under;
}

function updateChrome() {
  const had = document.activeElement;
  $("title").textContent = S.state.title;
  $("message").dataset.title = S.state.title;  // (a phone's header has no room for it: the empty status line shows it)
  document.title = `${S.state.title} · ${dealName(S.state)}`;
  const dn = $("deal-number");
  if (document.activeElement !== dn) dn.value = S.state.seed ?? "custom";
  dn.style.width = Math.max(4, String(dn.value).length + 1.5) + "ch";   // the whole deal number shows
  $("move-count").textContent = S.state.moves_made;  // (the deal's automatic plays are the deal's)
  $("found-count").textContent = `${S.state.cards_on_foundations}/${S.state.card_count}`;
  const open = S.state.result === null && !S.offline;
  $("btn-undo").disabled = !S.state.can_undo || !open;
  $("btn-redo").disabled = !S.state.can_redo || !open;
  $("btn-restart").disabled = !(S.state.can_undo || S.state.can_redo) || !open;
  $("btn-hint").disabled = S.state.status !== "playing" || !open;
  $("btn-replay").disabled = !S.replay && !(S.state.moves_made || S.state.result !== null);
  $("btn-replay").setAttribute("aria-pressed", S.replay ? "true" : "false");
  tick();
  const help = $("help-rules");
  // (in a player's words: "Yukon (empty column: kings, foundation return: off)" named the options as jargon)
  // (how cards build, in the server's words: Milligan Yukon's one sentence never said)
  if (help) help.textContent = `${S.state.title}: ${S.state.about} ${S.state.build_in_words} ${S.state.options_in_words}`;
  $("help-last-column").textContent = String(S.state.layout.columns);  // (1…7 in Yukon, 1…8 in Milligan Yukon)
  // the stock's lines only where there is one (Yukon deals every card: no stock to look for)
  for (const el of document.querySelectorAll("#dlg-help .help-stock")) el.hidden = !S.state.layout.has_stock;
  document.dispatchEvent(new Event("yukon:chrome"));  // demo.js updates its controls
  focusLost(had);
}
