/* Yukon card table: talks to the JSON API of yukon.web (docs/web.md). No build step, no dependencies. */
"use strict";
(() => {
  const RANKS = "A23456789TJQK";
  const RANK_NAMES = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"];
  const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const VARIANT_ABOUT = {
    yukon: "7 columns, build down in alternating colours; every card dealt.",
    russian: "Yukon, but build down in the same suit.",
    alaska: "Yukon, but build up or down in the same suit.",
    australian: "7 columns of 4 face-up cards; build down in suit; a stock turned one card at a time, one pass.",
    "milligan-yukon": "Two decks, 8 columns, 8 foundations; each deal puts one card on every column.",
  };
  const $ = (id) => document.getElementById(id);
  const table = $("table");

  // ------------------------------------------------------------------ settings
  const DEFAULTS = { autoplay: true, autofinish: true, winnable: false, animate: true, variant: "yukon", options: {}, winnableOnly: false };
  let settings = { ...DEFAULTS };
  try { settings = { ...DEFAULTS, ...JSON.parse(localStorage.getItem("yukon.settings") || "{}") }; } catch (e) { /* keep defaults */ }
  const saveSettings = () => { try { localStorage.setItem("yukon.settings", JSON.stringify(settings)); } catch (e) { /* private mode */ } };

  // ------------------------------------------------------------------ state
  let state = null;        // the server's game state
  let receivedAt = 0;      // performance.now() when state arrived
  let variants = null;     // GET /api/variants
  let geom = null;         // layout of the current render
  let items = [];          // rendered cards: {key, name, up, pile, idx, x, y, z}
  const cardEls = new Map();
  let zones = {};          // pile id -> zone element (highlights)
  let drag = null;         // pointer drag in progress
  let held = null;         // keyboard pick-up: {pile, idx, card, count}
  let focus = null;        // keyboard focus: {pile, idx}
  let hintTimer = 0;
  let lastClickMove = 0;
  let queue = Promise.resolve();
  let lastBannerFor = "";
  let winnableReq = 0;

  // ------------------------------------------------------------------ helpers
  const rankOf = (name) => RANKS.indexOf(name[0]) + 1;
  const isRed = (name) => name[1] === "H" || name[1] === "D";
  const pretty = (name) => (name[0] === "T" ? "10" : name[0]) + SUIT_SYMBOL[name[1]];
  const longName = (name) => `${RANK_NAMES[rankOf(name) - 1]} of ${SUIT_NAMES[name[1]]}`;
  const fmtTime = (s) => {
    s = Math.max(0, Math.floor(s));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(sec).padStart(2, "0")}`;
  };
  const pileName = (p) => (p === "F" ? "a foundation" : p === "W" ? "the waste" : p === "S" ? "the stock" : `column ${+p.slice(1) + 1}`);

  function parseMove(text) {
    if (text === "deal") return { text, src: "S", dst: "S", card: null, count: 0 };
    const m = /^(\d+|W|F):([A2-9TJQK][SHDC])(?:\+(\d+))?>(\d+|F)$/.exec(text);
    if (!m) return null;
    const pile = (s) => (s === "W" || s === "F" ? s : "c" + (parseInt(s, 10) - 1));
    return { text, src: pile(m[1]), card: m[2], count: m[3] ? parseInt(m[3], 10) + 1 : 1, dst: pile(m[4]) };
  }
  const moveText = (src, card, count, dst) => {
    const p = (x) => (x === "F" || x === "W" ? x : String(+x.slice(1) + 1));
    return `${p(src)}:${card}${count > 1 ? "+" + (count - 1) : ""}>${p(dst)}`;
  };
  function describeMove(mv) {
    if (mv.src === "S") return "Dealt from the stock";
    const group = mv.count > 1 ? ` with ${mv.count - 1} card${mv.count > 2 ? "s" : ""}` : "";
    return `${longName(mv.card)}${group} to ${mv.dst === "F" ? "the foundation" : pileName(mv.dst)}`;
  }

  async function api(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    const res = await fetch(path, init);
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) {
      const err = new Error((data && data.error) || `${res.status} ${res.statusText}`);
      err.status = res.status;
      throw err;
    }
    return data;
  }
  function enqueue(fn) {
    queue = queue.then(fn).catch((err) => { say(err.message || String(err), true); if (state) render(); });
    return queue;
  }

  let sayTimer = 0;
  function say(text, isError = false, keep = false) {
    const el = $("message");
    el.textContent = text;
    el.classList.toggle("error", !!isError);
    clearTimeout(sayTimer);
    if (!keep && text) sayTimer = setTimeout(() => { el.textContent = ""; el.classList.remove("error"); }, isError ? 5000 : 4000);
  }

  // ------------------------------------------------------------------ card faces (SVG, drawn here)
  const PIPS = {
    2: [[50, 0], [50, 1]], 3: [[50, 0], [50, .5], [50, 1]],
    4: [[28, 0], [72, 0], [28, 1], [72, 1]], 5: [[28, 0], [72, 0], [50, .5], [28, 1], [72, 1]],
    6: [[28, 0], [72, 0], [28, .5], [72, .5], [28, 1], [72, 1]],
    7: [[28, 0], [72, 0], [50, .25], [28, .5], [72, .5], [28, 1], [72, 1]],
    8: [[28, 0], [72, 0], [50, .25], [28, .5], [72, .5], [50, .75], [28, 1], [72, 1]],
    9: [[28, 0], [72, 0], [28, 1 / 3], [72, 1 / 3], [50, .5], [28, 2 / 3], [72, 2 / 3], [28, 1], [72, 1]],
    10: [[28, 0], [72, 0], [50, 1 / 6], [28, 1 / 3], [72, 1 / 3], [28, 2 / 3], [72, 2 / 3], [50, 5 / 6], [28, 1], [72, 1]],
  };
  function faceSVG(name) {
    const r = rankOf(name), s = name[1], col = isRed(name) ? "red" : "black";
    const rt = name[0] === "T" ? "10" : name[0];
    const use = (x, y, size, extra = "") => `<use href="#suit-${s}" x="${x - size / 2}" y="${y - size / 2}" width="${size}" height="${size}"${extra}/>`;
    const index = `<text class="rank" x="${rt.length > 1 ? 3 : 6}" y="28" font-size="${rt.length > 1 ? 27 : 30}" textLength="${rt.length > 1 ? 35 : ""}">${rt}</text>`
      .replace(' textLength=""', "") + use(rt.length > 1 ? 50 : 40, 18, 21) + use(88, 12, 13);
    let mid = "";
    if (r === 1) {
      mid = use(50, 84, s === "S" ? 56 : 44);
    } else if (r <= 10) {
      const top = 50, bottom = 124;
      mid = PIPS[r].map(([x, f]) => {
        const y = top + f * (bottom - top);
        return use(x, y, 21, f > .5 ? ` transform="rotate(180 ${x} ${y})"` : "");
      }).join("");
    } else {
      const letter = "JQK"[r - 11];
      mid = `<rect x="17" y="40" width="66" height="88" rx="5" class="frame-${col}" fill="${col === "red" ? "#fde8ea" : "#e8ecf5"}" stroke="currentColor" stroke-width="2"/>` +
        `<rect x="21" y="44" width="58" height="80" rx="3" fill="none" stroke="#c9a227" stroke-width="1.5"/>` +
        `<text class="face-letter" x="50" y="100" font-size="46" text-anchor="middle">${letter}</text>` +
        use(31, 56, 15) + use(69, 112, 15, ` transform="rotate(180 69 112)"`);
    }
    // Small cards (phones, two decks) get a larger index and one big suit instead of pips.
    const small = `<text class="rank" x="${rt.length > 1 ? 2 : 5}" y="38" font-size="${rt.length > 1 ? 37 : 42}"${rt.length > 1 ? ' textLength="50"' : ""}>${rt}</text>` +
      use(rt.length > 1 ? 74 : 64, 23, 32) + use(50, 92, 52);
    return `<svg viewBox="0 0 100 140" aria-hidden="true" focusable="false" class="${col}"><g class="big">${index}${mid}</g><g class="small">${small}</g></svg>`;
  }
  function makeCard(key, name) {
    const el = document.createElement("div");
    el.className = "card";
    el.dataset.key = key;
    el.dataset.name = name;
    el.setAttribute("role", "button");
    el.tabIndex = -1;
    el.innerHTML = `<div class="face">${faceSVG(name)}</div><div class="back"></div>`;
    table.appendChild(el);
    cardEls.set(key, el);
    return el;
  }

  // ------------------------------------------------------------------ layout
  function computeGeom() {
    const L = state.layout;
    const ncols = L.columns, nf = L.foundations;
    const left = L.has_stock ? (L.has_waste ? 2 : 1) : 0;
    const topSlots = left + nf + (left && left + nf < ncols ? 1 : 0);
    const slots = Math.max(ncols, topSlots);
    const width = table.clientWidth;
    const top = table.getBoundingClientRect().top + window.scrollY;
    const availH = Math.max(320, window.innerHeight - top - 6);
    const gap = Math.round(Math.min(14, Math.max(4, width * 0.012)));
    let W = (width - gap * (slots + 1)) / slots;
    W = Math.min(W, availH / (1.4 * 4.3), 140);
    // Long columns: shrink the cards (down to 60% of that) so the longest column still fits the screen.
    const floorW = W * 0.6;
    for (const c of state.tableau) {
      const fans = 2 + (W < 58 ? 0.3 : 0.245) * Math.max(0, c.up.length - 1) + 0.06 * c.down.length, fixed = gap * 3;
      if (fixed + 1.4 * W * fans > availH) W = Math.max(floorW, (availH - fixed) / (1.4 * fans));
    }
    W = Math.max(28, Math.floor(W));
    const H = Math.round(W * 1.4);
    const gridW = slots * W + (slots - 1) * gap;
    const x0 = Math.round((width - gridW) / 2);
    const slotX = (i) => x0 + i * (W + gap);
    const colShift = (slots - ncols) / 2;
    const colX = (i) => Math.round(x0 + (i + colShift) * (W + gap));
    const yTop = gap;
    const yTab = yTop + H + Math.round(gap * 1.8);
    const g = { compact: W < 58, W, H, gap, slots, ncols, nf, left, width, availH, yTop, yTab, colX, pos: {} };
    g.stockX = slotX(0);
    g.wasteX = slotX(1);
    const fStart = left + nf <= ncols ? ncols - nf : left;
    g.foundX = (j) => (left + nf <= ncols ? colX(fStart + j) : slotX(fStart + j));
    // Fan offsets per column: face-down cards tight, face-up cards so that each index shows.
    const downOff = Math.max(4, Math.round(H * 0.1));
    const compact = W < 58;
    const maxUp = Math.round(H * (compact ? 0.38 : 0.33)), minUp = Math.round(H * (compact ? 0.3 : 0.245));
    const room = availH - yTab - gap;
    g.fan = state.tableau.map((c) => {
      const nd = c.down.length, nu = c.up.length;
      let d = downOff, u = maxUp;
      const need = () => H + nd * d + Math.max(0, nu - 1) * u;
      if (need() > room && nu > 1) u = Math.max(minUp, Math.floor((room - H - nd * d) / (nu - 1)));
      if (need() > room && nd > 0) d = Math.max(Math.round(H * 0.06), 3, Math.floor((room - H - Math.max(0, nu - 1) * u) / nd));
      return { d, u };
    });
    let bottom = yTab + H;
    state.tableau.forEach((c, i) => {
      const f = g.fan[i];
      bottom = Math.max(bottom, yTab + H + c.down.length * f.d + Math.max(0, c.up.length - 1) * f.u);
    });
    g.height = Math.max(availH, bottom + gap * 2);
    return g;
  }

  function layoutItems() {
    const g = geom;
    const out = [];
    const seen = {};
    const keyOf = (name) => { seen[name] = (seen[name] || 0) + 1; return name + "#" + seen[name]; };
    state.foundations.forEach((pile, j) => {
      pile.forEach((name, i) => out.push({ key: keyOf(name), name, up: true, pile: "f" + j, idx: i, x: g.foundX(j), y: g.yTop, z: 10 + i, top: i === pile.length - 1 }));
    });
    state.tableau.forEach((c, i) => {
      const f = g.fan[i];
      const all = c.down.length;
      c.down.forEach((name, k) => out.push({ key: keyOf(name), name, up: false, pile: "c" + i, idx: k, x: g.colX(i), y: g.yTab + k * f.d, z: 100 + k }));
      c.up.forEach((name, k) => out.push({ key: keyOf(name), name, up: true, pile: "c" + i, idx: all + k, x: g.colX(i), y: g.yTab + all * f.d + k * f.u, z: 100 + all + k, top: k === c.up.length - 1 }));
    });
    (state.stock || []).forEach((name, i) => out.push({ key: keyOf(name), name, up: false, pile: "S", idx: i, x: g.stockX - Math.min(i, 6) * 0, y: g.yTop, z: 10 + i, top: i === state.stock.length - 1 }));
    const waste = state.waste || [];
    waste.forEach((name, i) => {
      const fromTop = waste.length - 1 - i;
      const shift = fromTop < 3 ? (2 - fromTop) * Math.round(g.W * 0.27) : 0;
      const extra = Math.max(0, 3 - waste.length) * Math.round(g.W * 0.27);
      out.push({ key: keyOf(name), name, up: true, pile: "W", idx: i, x: g.wasteX + Math.max(0, shift - extra), y: g.yTop, z: 10 + i, top: fromTop === 0 });
    });
    return out;
  }

  function pileRect(p) {
    const g = geom;
    if (p[0] === "c") {
      const i = +p.slice(1), c = state.tableau[i], f = g.fan[i];
      const h = g.H + c.down.length * f.d + Math.max(0, c.up.length - 1) * f.u;
      return { x: g.colX(i), y: g.yTab, w: g.W, h: Math.max(h, g.H) };
    }
    if (p[0] === "f") return { x: g.foundX(+p.slice(1)), y: g.yTop, w: g.W, h: g.H };
    if (p === "S") return { x: g.stockX, y: g.yTop, w: g.W, h: g.H };
    if (p === "W") return { x: g.wasteX, y: g.yTop, w: Math.round(g.W * 1.54), h: g.H };
    return null;
  }
  const allPiles = () => {
    const ps = [];
    if (state.layout.has_stock) ps.push("S");
    if (state.layout.has_waste) ps.push("W");
    for (let j = 0; j < state.layout.foundations; j++) ps.push("f" + j);
    for (let i = 0; i < state.layout.columns; i++) ps.push("c" + i);
    return ps;
  };

  // ------------------------------------------------------------------ render
  function render(opts = {}) {
    if (!state) return;
    geom = computeGeom();
    table.style.height = geom.height + "px";
    table.classList.toggle("compact", geom.compact);
    table.style.setProperty("--radius", Math.max(3, Math.round(geom.W * 0.07)) + "px");
    table.querySelectorAll(".slot, .zone, .stock-count").forEach((e) => e.remove());
    zones = {};
    const frag = document.createDocumentFragment();
    for (const p of allPiles()) {
      const r = pileRect(p);
      const slot = document.createElement("div");
      slot.className = "slot" + (p === "S" ? " stock" : "");
      slot.dataset.pile = p;
      Object.assign(slot.style, { left: r.x + "px", top: r.y + "px", width: geom.W + "px", height: geom.H + "px" });
      const lbl = document.createElement("span");
      lbl.className = "slot-label";
      lbl.style.fontSize = Math.round(geom.W * 0.3) + "px";
      if (p[0] === "f") lbl.textContent = "A";
      else if (p === "S") lbl.textContent = "↻";
      else if (p[0] === "c" && state.rules.empty_column === "kings") lbl.textContent = "K";
      slot.appendChild(lbl);
      slot.tabIndex = -1;
      slot.setAttribute("role", "button");
      slot.setAttribute("aria-label", p === "S" ? "stock, empty" : p === "W" ? "waste, empty" : p[0] === "f"
        ? `foundation ${+p.slice(1) + 1}, empty` : `column ${+p.slice(1) + 1}, empty`);
      frag.appendChild(slot);
      const zone = document.createElement("div");
      zone.className = "zone";
      zone.dataset.pile = p;
      Object.assign(zone.style, { left: r.x - 3 + "px", top: r.y - 3 + "px", width: r.w + 6 + "px", height: r.h + 6 + "px" });
      frag.appendChild(zone);
      zones[p] = zone;
    }
    if (state.layout.has_stock) {
      const badge = document.createElement("div");
      badge.className = "stock-count";
      badge.textContent = String(state.stock.length);
      Object.assign(badge.style, { left: geom.stockX + 4 + "px", top: geom.yTop + geom.H - 20 + "px" });
      frag.appendChild(badge);
    }
    table.appendChild(frag);

    items = layoutItems();
    const present = new Set();
    const delays = playedDelays(opts.played || []);
    const fresh = opts.fresh && settings.animate;
    items.forEach((it, n) => {
      present.add(it.key);
      let el = cardEls.get(it.key);
      const created = !el;
      if (!el) el = makeCard(it.key, it.name);
      el.classList.toggle("up", it.up);
      el.classList.toggle("down", !it.up);
      el.classList.remove("dragging", "lifted", "hint");
      el.dataset.pile = it.pile;
      el.dataset.idx = it.idx;
      el.style.width = geom.W + "px";
      el.style.height = geom.H + "px";
      el.style.zIndex = it.z;
      const movable = it.up && (it.pile[0] === "c" || (it.pile === "W" && it.top) || (it.pile[0] === "f" && it.top && state.rules.foundation_return));
      el.classList.toggle("fixed", !movable);
      el.setAttribute("aria-label", cardLabel(it));
      const target = `translate(${it.x}px, ${it.y}px)`;
      if ((created || fresh) && settings.animate && opts.fresh) {
        el.classList.add("instant");
        el.style.transform = `translate(${geom.stockX}px, ${-geom.H}px)`;
        void el.offsetWidth;
        el.classList.remove("instant");
        el.style.transitionDelay = Math.min(n * 12, 900) + "ms";
      } else {
        el.style.transitionDelay = (delays[it.name] || 0) + "ms";
      }
      el.style.transform = target;
    });
    for (const [key, el] of cardEls) {
      if (!present.has(key)) { el.remove(); cardEls.delete(key); }
    }
    table.classList.toggle("no-anim", !settings.animate || !!opts.instant);
    if (opts.instant) requestAnimationFrame(() => table.classList.remove("no-anim"));
    if (held) markHeld();
    applyFocus(false);
    updateChrome();
  }

  function playedDelays(played) {
    const d = {};
    played.forEach((t, k) => {
      const mv = parseMove(t);
      if (mv && mv.card && k > 0) d[mv.card] = Math.min(k * 90, 2500);
    });
    return d;
  }

  function cardLabel(it) {
    if (!it.up) return it.pile === "S" ? `stock, ${state.stock.length} cards` : `face-down card, ${pileName(it.pile)}`;
    const n = longName(it.name);
    if (it.pile[0] === "f") return `${n}, on foundation ${+it.pile.slice(1) + 1}`;
    if (it.pile === "W") return `${n}, on the waste`;
    const col = state.tableau[+it.pile.slice(1)];
    const above = col.down.length + col.up.length - 1 - it.idx;
    return `${n}, ${pileName(it.pile)}` + (above ? `, ${above} card${above > 1 ? "s" : ""} on it` : ", free");
  }

  function updateChrome() {
    $("title").textContent = state.title;
    document.title = `${state.title} · deal ${state.seed ?? "custom"}`;
    const dn = $("deal-number");
    if (document.activeElement !== dn) dn.value = state.seed ?? "custom";
    $("move-count").textContent = state.move_count;
    $("found-count").textContent = `${state.cards_on_foundations}/${state.card_count}`;
    $("btn-undo").disabled = !state.can_undo;
    $("btn-redo").disabled = !state.can_redo;
    $("btn-restart").disabled = !(state.can_undo || state.can_redo) || state.result !== null;
    $("btn-hint").disabled = state.status !== "playing";
    tick();
    const help = $("help-rules");
    if (help) help.textContent = `${state.description}. ` + (VARIANT_ABOUT[state.variant] || "");
  }
  function tick() {
    if (!state) return;
    let s = state.elapsed;
    if (state.clock_running) s += (performance.now() - receivedAt) / 1000;
    $("timer").textContent = fmtTime(s);
  }
  setInterval(tick, 500);

  // ------------------------------------------------------------------ applying server answers
  function accept(data, opts = {}) {
    const newGame = !state || state.id !== data.id;
    const prevStatus = state && state.id === data.id ? state.status : null;
    state = data;
    receivedAt = performance.now();
    try { localStorage.setItem("yukon.game", data.id); } catch (e) { /* private mode */ }
    if (newGame) {
      for (const el of cardEls.values()) el.remove();
      cardEls.clear();
      held = null;
      focus = null;
      lastBannerFor = "";
    }
    clearHint();
    render({ played: data.played, fresh: newGame && opts.fresh });
    if (data.status !== "playing" && (prevStatus === "playing" || prevStatus === null || newGame)) showBanner();
    if (data.status === "playing") { hideBanner(); table.classList.remove("celebrate"); }
    updateWinnable();
  }

  function showBanner() {
    const key = state.id + ":" + state.status + ":" + state.move_count;
    if (lastBannerFor === key) return;
    lastBannerFor = key;
    const box = document.querySelector(".banner-box");
    const title = $("banner-title"), text = $("banner-text");
    box.classList.remove("won", "lost");
    if (state.status === "won") {
      box.classList.add("won");
      if (settings.animate) table.classList.add("celebrate");
      title.textContent = "You won!";
      text.textContent = `${state.title}, deal ${state.seed ?? "(custom)"}: ${state.move_count} moves in ${fmtTime(state.elapsed)}.`;
      $("banner-undo").hidden = true;
    } else if (state.status === "lost") {
      box.classList.add("lost");
      title.textContent = "No moves left";
      text.textContent = `The game is lost with ${state.cards_on_foundations} of ${state.card_count} cards on the foundations. Undo, or start a new game.`;
      $("banner-undo").hidden = !state.can_undo;
    } else {
      return;
    }
    $("banner").hidden = false;
    say(title.textContent, false, true);
    setTimeout(() => $("banner-new").focus(), 50);
  }
  function hideBanner() { $("banner").hidden = true; }

  // ------------------------------------------------------------------ actions
  function legalFor(src, card, count) {
    return state.legal_moves.map(parseMove).filter((m) => m && m.src === src && m.card === card && m.count === count);
  }
  function bestMove(src, card, count) {
    const ms = legalFor(src, card, count);
    if (!ms.length) return null;
    const cols = state.tableau;
    const rank = (m) => {
      if (m.dst === "F") return 0;
      const c = cols[+m.dst.slice(1)];
      if (c.up.length) return 1;
      return 2;
    };
    ms.sort((a, b) => rank(a) - rank(b));
    return ms[0];
  }

  function sendMove(text, opts = {}) {
    return enqueue(async () => {
      const data = await api("POST", `/api/games/${state.id}/moves`, { move: text, autoplay: settings.autoplay, autofinish: settings.autofinish });
      const mv = parseMove(text);
      accept(data);
      const auto = data.played.length - 1;
      if (!opts.quiet) say(describeMove(mv) + (auto > 0 ? ` (+${auto} automatic)` : ""));
    });
  }
  const action = (path, body, message) => enqueue(async () => {
    const data = await api("POST", `/api/games/${state.id}/${path}`, body);
    accept(data);
    if (message) say(message(data));
  });
  const undo = () => state && state.can_undo && action("undo", undefined, (d) => `Undone: ${d.undone.length} move${d.undone.length > 1 ? "s" : ""}`);
  const redo = () => state && state.can_redo && action("redo", undefined, () => "Redone");
  const restart = () => state && action("restart", undefined, () => "Back to the start of the deal (Redo replays your moves)");

  function newGame(params) {
    const body = {
      variant: params.variant ?? settings.variant,
      options: params.options ?? settings.options,
      autoplay: settings.autoplay, autofinish: settings.autofinish,
    };
    if (params.seed !== undefined && params.seed !== null) body.seed = params.seed;
    if (params.winnableOnly && body.seed === undefined) body.winnable_only = true;
    if (state && state.result === null) body.abandon = state.id;  // an untouched game is dropped, a played one counted
    return enqueue(async () => {
      if (body.winnable_only) say("Looking for a winnable deal…", false, true);
      const data = await api("POST", "/api/games", body);
      hideBanner();
      accept(data, { fresh: true });
      say(data.deal_note ? `Deal ${data.seed}: ${data.deal_note}` : `New game: ${data.title}, deal ${data.seed ?? "(custom)"}`);
    });
  }

  function hint() {
    if (!state || state.status !== "playing") return;
    const id = state.id, count = state.move_count;
    say("Thinking…", false, true);
    (async () => {
      let h;
      try { h = await api("POST", `/api/games/${id}/hint`); } catch (err) { say(err.message, true); return; }
      if (!state || state.id !== id || state.move_count !== count) return;
      clearHint();
      if (!h.move) { say(h.note || "No hint", h.status === "lost"); return; }
      const mv = parseMove(h.move);
      if (mv.src === "S") {
        zones.S && zones.S.classList.add("hint");
      } else {
        groupEls(mv.src, mv.card, mv.count).forEach((el) => el.classList.add("hint"));
        const dz = mv.dst === "F" ? foundationZoneFor(mv.card) : zones[mv.dst];
        dz && dz.classList.add("hint");
      }
      say(`Hint: ${describeMove(mv).replace(/^./, (c) => c.toUpperCase())}` + (h.note ? ` (${h.note})` : ""), false, true);
      hintTimer = setTimeout(clearHint, 6000);
    })();
  }
  function clearHint() {
    clearTimeout(hintTimer);
    table.querySelectorAll(".hint").forEach((e) => e.classList.remove("hint"));
  }
  function foundationZoneFor(card) {
    // the pile that takes it: one whose top card is one lower, else an empty pile
    const r = rankOf(card);
    let j = state.foundations.findIndex((p) => p.length && p[p.length - 1][1] === card[1] && rankOf(p[p.length - 1]) === r - 1);
    if (j < 0 && r === 1) j = state.foundations.findIndex((p) => !p.length);
    return zones["f" + Math.max(0, j)];
  }

  // ------------------------------------------------------------------ winnable indicator
  function updateWinnable() {
    const box = $("winnable");
    if (!settings.winnable || !state || state.status === "won" || state.status === "abandoned") { box.hidden = true; return; }
    box.hidden = false;
    box.className = "winnable";
    $("winnable-text").textContent = "Checking…";
    $("btn-back-to-winnable").hidden = true;
    const id = state.id, count = state.move_count, req = ++winnableReq;
    api("POST", `/api/games/${id}/winnable`).then((w) => {
      if (req !== winnableReq || !state || state.id !== id || state.move_count !== count) return;
      box.classList.add(w.status);
      const back = $("btn-back-to-winnable");
      if (w.status === "won") $("winnable-text").textContent = "✓ Still winnable";
      else if (w.status === "lost") {
        $("winnable-text").textContent = "✗ Can no longer be won";
        if (w.last_winnable !== null && w.last_winnable !== undefined) {
          back.hidden = false;
          back.textContent = `Undo to move ${w.last_winnable} (last winnable)`;
          back.onclick = () => action("undo", { to: w.last_winnable }, () => `Back to move ${w.last_winnable}: winnable again`);
        }
      } else $("winnable-text").textContent = "? Can't tell" + (w.note ? ` (${w.note})` : "");
    }).catch(() => { $("winnable-text").textContent = "? Can't tell"; });
  }

  // ------------------------------------------------------------------ drag and drop (pointer events: mouse, pen, touch)
  function groupOf(pile, idx) {
    return items.filter((it) => it.pile === pile && it.idx >= idx).sort((a, b) => a.idx - b.idx);
  }
  function groupEls(pile, card, count) {
    const its = items.filter((it) => it.pile === pile);
    if (pile === "W" || pile[0] === "f" || pile === "F") {
      const top = its.filter((it) => it.name === card && it.top);
      return top.map((it) => cardEls.get(it.key));
    }
    return its.slice(its.length - count).map((it) => cardEls.get(it.key));
  }
  const itemOf = (el) => items.find((it) => it.key === el.dataset.key);
  function pickFrom(it) {
    // the group a pointer or key press picks up at this card: {src, card, count, items}
    if (!it || !it.up) return null;
    if (it.pile[0] === "c") {
      const g = groupOf(it.pile, it.idx);
      return { src: it.pile, card: it.name, count: g.length, items: g };
    }
    if (it.pile === "W" && it.top) return { src: "W", card: it.name, count: 1, items: [it] };
    if (it.pile[0] === "f" && it.top && state.rules.foundation_return) return { src: "F", card: it.name, count: 1, items: [it] };
    return null;
  }
  function targetsFor(pick) {
    const set = new Set();
    for (const m of legalFor(pick.src, pick.card, pick.count)) {
      if (m.dst === "F") { const z = foundationZoneFor(pick.card); if (z) set.add(z.dataset.pile); }
      else set.add(m.dst);
    }
    return set;
  }

  table.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || !state || drag) return;
    const el = e.target.closest(".card");
    if (!el) return;
    const it = itemOf(el);
    const pick = pickFrom(it);
    if (!pick || state.status !== "playing") return;
    cancelHeld();
    const rect = table.getBoundingClientRect();
    drag = {
      pick, pointerId: e.pointerId, x0: e.clientX, y0: e.clientY, rect, started: false,
      els: pick.items.map((i) => cardEls.get(i.key)), origin: pick.items.map((i) => ({ x: i.x, y: i.y })),
    };
  });
  table.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const dx = e.clientX - drag.x0, dy = e.clientY - drag.y0;
    if (!drag.started) {
      if (Math.hypot(dx, dy) < 6) return;
      drag.started = true;
      try { table.setPointerCapture(e.pointerId); } catch (err) { /* fine */ }
      clearHint();
      drag.targets = targetsFor(drag.pick);
      drag.targets.forEach((p) => zones[p] && zones[p].classList.add("target"));
      drag.els.forEach((el, k) => { el.classList.add("dragging"); el.style.zIndex = 5000 + k; el.style.transitionDelay = "0ms"; });
    }
    drag.els.forEach((el, k) => { el.style.transform = `translate(${drag.origin[k].x + dx}px, ${drag.origin[k].y + dy}px)`; });
    const over = dropPile(e, dx, dy);
    Object.values(zones).forEach((z) => z.classList.toggle("over", z.dataset.pile === over && drag.targets.has(over)));
    e.preventDefault();
  });
  function dropPile(e, dx, dy) {
    // the pile under the pointer, else the one the lead card overlaps most
    const px = e.clientX - drag.rect.left, py = e.clientY - drag.rect.top;
    const lead = { x: drag.origin[0].x + dx, y: drag.origin[0].y + dy, w: geom.W, h: geom.H };
    let best = null, bestArea = 0;
    for (const p of allPiles()) {
      if (p === "S" || p === "W") continue;
      const r = pileRect(p);
      const bottom = p[0] === "c" ? Math.max(r.y + r.h, r.y + geom.H * 1.6) : r.y + r.h;
      if (px >= r.x && px <= r.x + r.w && py >= r.y && py <= bottom) return p;
      const ox = Math.min(lead.x + lead.w, r.x + r.w) - Math.max(lead.x, r.x);
      const oy = Math.min(lead.y + lead.h, bottom) - Math.max(lead.y, r.y);
      const area = ox > 0 && oy > 0 ? ox * oy : 0;
      const bonus = drag.targets && drag.targets.has(p) ? 1.5 : 1;
      if (area * bonus > bestArea) { bestArea = area * bonus; best = p; }
    }
    return best;
  }
  function endDrag() {
    Object.values(zones).forEach((z) => z.classList.remove("target", "over"));
    if (drag) try { table.releasePointerCapture(drag.pointerId); } catch (err) { /* fine */ }
    drag = null;
  }
  table.addEventListener("pointerup", (e) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const d = drag;
    if (!d.started) { endDrag(); return; }  // a click: the click handler acts
    const dx = e.clientX - d.x0, dy = e.clientY - d.y0;
    const over = dropPile(e, dx, dy);
    endDrag();
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    tryDrop(d.pick, over, d.els);
  });
  table.addEventListener("pointercancel", () => { if (drag) { endDrag(); render(); } });
  let suppressClick = false;

  function tryDrop(pick, over, els) {
    if (!over || over === pick.src || (over[0] === "f" && pick.src === "F")) { snapBack(els, ""); return; }
    const dst = over[0] === "f" ? "F" : over;
    const ok = legalFor(pick.src, pick.card, pick.count).find((m) => m.dst === dst);
    if (!ok) { snapBack(els, reasonFor(pick, dst)); return; }
    els.forEach((el) => el.classList.remove("dragging"));
    sendMove(ok.text);
  }
  function snapBack(els, reason) {
    els.forEach((el) => el.classList.remove("dragging"));
    render();
    if (reason) {
      say(reason, true);
      els[0] && els[0].classList.add("shake");
      setTimeout(() => els[0] && els[0].classList.remove("shake"), 400);
    }
  }
  function reasonFor(pick, dst) {
    const lead = pretty(pick.card), r = rankOf(pick.card), suit = SUIT_NAMES[pick.card[1]];
    if (state.status !== "playing") return "The game is over.";
    if (dst === "F") {
      if (pick.count > 1) return `Only a free card goes to a foundation: ${lead} has ${pick.count - 1} card${pick.count > 2 ? "s" : ""} on it.`;
      return `${lead} cannot go up yet: the ${RANK_NAMES[r - 2]} of ${suit} must be on a foundation first.`;
    }
    const col = state.tableau[+dst.slice(1)];
    if (!col.up.length) {
      if (state.rules.empty_column === "kings" && r !== 13) return "Only a King (with the cards on it) may go into an empty column.";
      return "Moving a whole column into an empty one changes nothing.";
    }
    const t = col.up[col.up.length - 1], tp = pretty(t);
    const build = state.layout.build;
    if (build === "alternate") {
      if (r === 13) return `${lead} is a King: nothing is higher, it can only lead an empty column.`;
      return `${lead} needs a ${isRed(pick.card) ? "black" : "red"} ${RANK_NAMES[r]}; ${tp} is not one.`;
    }
    if (build === "suit") return r === 13 ? `${lead} is a King: it can only lead an empty column.` : `${lead} goes only on the ${RANK_NAMES[r]} of ${suit}, not on ${tp}.`;
    return `${lead} goes only on the ${r < 13 ? RANK_NAMES[r] : ""}${r < 13 && r > 1 ? " or " : ""}${r > 1 ? RANK_NAMES[r - 2] : ""} of ${suit}, not on ${tp}.`;
  }

  table.addEventListener("click", (e) => {
    if (suppressClick || !state) return;
    if (e.detail > 1) return;
    const slot = e.target.closest(".slot");
    const el = e.target.closest(".card");
    const it = el ? itemOf(el) : null;
    if ((slot && slot.dataset.pile === "S") || (it && it.pile === "S")) { deal(); return; }
    if (!it || state.status !== "playing") return;
    clickCard(it);
  });
  table.addEventListener("dblclick", (e) => {
    if (!state || state.status !== "playing" || performance.now() - lastClickMove < 600) return;
    const el = e.target.closest(".card");
    const it = el ? itemOf(el) : null;
    if (!it || !it.up || !it.top) return;
    const src = it.pile === "W" ? "W" : it.pile;
    const m = legalFor(src, it.name, 1).find((x) => x.dst === "F");
    if (m) sendMove(m.text);
  });
  function clickCard(it) {
    const pick = pickFrom(it);
    if (!pick || pick.src === "F") return;
    const m = bestMove(pick.src, pick.card, pick.count);
    if (!m) {
      const el = cardEls.get(it.key);
      el.classList.add("shake");
      setTimeout(() => el.classList.remove("shake"), 400);
      say(`${pretty(pick.card)}${pick.count > 1 ? ` with ${pick.count - 1} card${pick.count > 2 ? "s" : ""}` : ""} has no legal move now.`, true);
      return;
    }
    lastClickMove = performance.now();
    sendMove(m.text);
  }
  function deal() {
    if (!state || state.status !== "playing") return;
    if (!state.legal_moves.includes("deal")) { say("The stock is empty.", true); return; }
    sendMove("deal");
  }

  // ------------------------------------------------------------------ keyboard
  function focusables() {
    // per pile: the indices that can take focus (face-up cards; an empty pile has idx -1)
    const out = {};
    for (const p of allPiles()) {
      const its = items.filter((it) => it.pile === p);
      if (p[0] === "c") {
        const ups = its.filter((it) => it.up).map((it) => it.idx);
        out[p] = ups.length ? ups : [-1];
      } else {
        out[p] = its.length ? [its[its.length - 1].idx] : [-1];
      }
    }
    return out;
  }
  function elementFor(pos) {
    if (!pos) return null;
    if (pos.idx >= 0) {
      const it = items.find((i) => i.pile === pos.pile && i.idx === pos.idx);
      if (it) return cardEls.get(it.key);
    }
    return table.querySelector(`.slot[data-pile="${pos.pile}"]`);
  }
  function normalizeFocus() {
    const f = focusables();
    if (!focus || !f[focus.pile]) focus = { pile: "c0", idx: f.c0[f.c0.length - 1] };
    const list = f[focus.pile];
    if (!list.includes(focus.idx)) focus.idx = list[list.length - 1];
  }
  function applyFocus(move = true) {
    table.querySelectorAll(".card, .slot").forEach((e) => { e.tabIndex = -1; e.classList.remove("focus"); });
    if (!state) return;
    normalizeFocus();
    const el = elementFor(focus);
    if (!el) return;
    el.tabIndex = 0;
    if (move || (keyboardUser && table.contains(document.activeElement))) {
      el.classList.add("focus");
      el.focus({ preventScroll: false });
    }
  }
  function moveFocus(dx, dy) {
    const f = focusables();
    normalizeFocus();
    const p = focus.pile;
    if (dy !== 0 && p[0] === "c") {
      const list = f[p], k = list.indexOf(focus.idx) + dy;
      if (k >= 0 && k < list.length) { focus.idx = list[k]; applyFocus(); return; }
      if (k < 0) { // up from the column: the top-row pile above
        const x = geom.colX(+p.slice(1));
        const top = allPiles().filter((q) => q[0] !== "c");
        if (!top.length) return;
        const q = top.reduce((a, b) => (Math.abs(pileRect(a).x - x) <= Math.abs(pileRect(b).x - x) ? a : b));
        focus = { pile: q, idx: f[q][0] };
        applyFocus();
      }
      return;
    }
    if (dy > 0 && p[0] !== "c") {
      const x = pileRect(p).x;
      let best = "c0";
      for (let i = 0; i < state.layout.columns; i++) if (Math.abs(geom.colX(i) - x) < Math.abs(pileRect(best).x - x)) best = "c" + i;
      focus = { pile: best, idx: f[best][f[best].length - 1] };
      applyFocus();
      return;
    }
    if (dx !== 0) {
      const row = allPiles().filter((q) => (q[0] === "c") === (p[0] === "c"));
      const k = row.indexOf(p) + dx;
      if (k < 0 || k >= row.length) return;
      const q = row[k];
      const list = f[q];
      focus = { pile: q, idx: list[list.length - 1] };
      applyFocus();
    }
  }
  function focusedItem() {
    return focus ? items.find((i) => i.pile === focus.pile && i.idx === focus.idx) : null;
  }
  function markHeld() {
    if (!held) return;
    groupEls(held.src, held.card, held.count).forEach((el) => el.classList.add("lifted"));
    targetsFor(held).forEach((p) => zones[p] && zones[p].classList.add("target"));
  }
  function cancelHeld() {
    if (!held) return;
    held = null;
    table.querySelectorAll(".lifted").forEach((e) => e.classList.remove("lifted"));
    Object.values(zones).forEach((z) => z.classList.remove("target"));
  }
  function putHeld(dstPile) {
    const pick = held;
    cancelHeld();
    if (dstPile === pick.src || (dstPile[0] === "f" && pick.src === "F")) { say("Put back."); return; }
    const dst = dstPile[0] === "f" ? "F" : dstPile;
    if (dst === "S" || dst === "W") { say("Cards cannot be put there.", true); return; }
    const m = legalFor(pick.src, pick.card, pick.count).find((x) => x.dst === dst);
    if (!m) { say(reasonFor(pick, dst), true); return; }
    sendMove(m.text);
  }

  document.addEventListener("keydown", (e) => {
    if (!state) return;
    const inField = e.target.closest && e.target.closest("input, select, textarea, dialog");
    const key = e.key;
    const ctrl = e.ctrlKey || e.metaKey;
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
        if (held) { putHeld(focus.pile); return; }
        {
          const it = focusedItem();
          if (focus.pile === "S") { deal(); return; }
          const pick = pickFrom(it);
          if (!pick) { say("Nothing to pick up here.", true); return; }
          held = pick;
          markHeld();
          say(`Picked up ${longName(pick.card)}${pick.count > 1 ? ` with ${pick.count - 1} card${pick.count > 2 ? "s" : ""}` : ""}: choose a pile and press Enter (Esc cancels)`, false, true);
        }
        return;
      case " ":
        if (!onTable) return;
        e.preventDefault();
        if (held) { const p = held; cancelHeld(); const m = bestMove(p.src, p.card, p.count); m ? sendMove(m.text) : say(`${pretty(p.card)} has no legal move now.`, true); return; }
        if (focus.pile === "S") { deal(); return; }
        { const it = focusedItem(); if (it) clickCard(it); }
        return;
      case "Escape":
        if (held) { cancelHeld(); say("Put back."); }
        return;
      case "f": case "F": {
        const pick = held || (onTable ? pickFrom(focusedItem()) : null);
        if (!pick) return;
        cancelHeld();
        const m = legalFor(pick.src, pick.card, pick.count).find((x) => x.dst === "F");
        m ? sendMove(m.text) : say(reasonFor(pick, "F"), true);
        return;
      }
      case "d": case "D": deal(); return;
      case "h": case "H": hint(); return;
      case "u": case "U": undo(); return;
      case "r": case "R": redo(); return;
      case "n": case "N": openNewDialog(); return;
      case "s": case "S": openStats(); return;
      case "?": $("dlg-help").showModal(); return;
      default:
        if (/^[1-9]$/.test(key)) {
          const i = +key - 1;
          if (i >= state.layout.columns) return;
          if (held) { putHeld("c" + i); return; }
          const f = focusables();
          focus = { pile: "c" + i, idx: f["c" + i][f["c" + i].length - 1] };
          applyFocus();
        }
    }
  });
  let keyboardUser = false;
  document.addEventListener("keydown", () => { keyboardUser = true; }, true);
  document.addEventListener("pointerdown", () => { keyboardUser = false; }, true);
  table.addEventListener("focusin", (e) => {
    const el = e.target.closest(".card, .slot");
    if (!el || !keyboardUser) return;
    const pile = el.dataset.pile, idx = el.classList.contains("slot") ? -1 : +el.dataset.idx;
    if (!focus || focus.pile !== pile || focus.idx !== idx) {
      const f = focusables();
      if (f[pile] && f[pile].includes(idx)) focus = { pile, idx };
    }
    table.querySelectorAll(".focus").forEach((x) => x.classList.remove("focus"));
    elementFor(focus) && elementFor(focus).classList.add("focus");
  });
  table.addEventListener("focusout", () => { table.querySelectorAll(".focus").forEach((x) => x.classList.remove("focus")); });

  // ------------------------------------------------------------------ panels
  function fillVariants() {
    const sel = $("new-variant");
    sel.innerHTML = "";
    for (const v of variants.variants) {
      const o = document.createElement("option");
      o.value = v.name;
      o.textContent = v.title;
      sel.appendChild(o);
    }
  }
  function setDialogDefaults(variant, options) {
    const v = variants.variants.find((x) => x.name === variant) || variants.variants[0];
    $("new-variant").value = v.name;
    const opts = { ...v.defaults, ...(options || {}) };
    $("new-empty-column").value = opts.empty_column;
    $("new-foundation-return").checked = !!opts.foundation_return;
    $("new-variant-about").textContent = VARIANT_ABOUT[v.name] || "";
  }
  function openNewDialog() {
    if (!variants) return;
    setDialogDefaults(state ? state.variant : settings.variant, state ? state.rules : settings.options);
    $("new-seed").value = "";
    $("new-winnable").checked = !!settings.winnableOnly;
    $("new-winnable").disabled = !variants.solver;
    $("new-abandon").hidden = !(state && state.status === "playing" && (state.move_count > 0 || state.can_redo));
    $("dlg-new").showModal();
  }
  $("new-variant").addEventListener("change", () => setDialogDefaults($("new-variant").value, null));
  $("new-cancel").addEventListener("click", () => $("dlg-new").close());
  $("form-new").addEventListener("submit", (e) => {
    const seedText = $("new-seed").value.trim();
    let seed = null;
    if (seedText) {
      if (!/^\d+$/.test(seedText)) { e.preventDefault(); $("new-seed").setCustomValidity("A deal number is a whole number (or leave it empty for a random deal)"); $("new-seed").reportValidity(); return; }
      seed = Number(seedText);
    }
    $("new-seed").setCustomValidity("");
    settings.variant = $("new-variant").value;
    const v = variants.variants.find((x) => x.name === settings.variant);
    settings.options = { empty_column: $("new-empty-column").value, foundation_return: $("new-foundation-return").checked };
    if (v && settings.options.empty_column === v.defaults.empty_column && settings.options.foundation_return === v.defaults.foundation_return) settings.options = {};
    settings.winnableOnly = $("new-winnable").checked;
    saveSettings();
    newGame({ variant: settings.variant, options: settings.options, seed, winnableOnly: settings.winnableOnly });
  });

  function openOptions() {
    $("opt-autoplay").checked = settings.autoplay;
    $("opt-autofinish").checked = settings.autofinish;
    $("opt-winnable").checked = settings.winnable;
    $("opt-animate").checked = settings.animate;
    $("dlg-options").showModal();
  }
  for (const [id, key] of [["opt-autoplay", "autoplay"], ["opt-autofinish", "autofinish"], ["opt-winnable", "winnable"], ["opt-animate", "animate"]]) {
    $(id).addEventListener("change", () => {
      settings[key] = $(id).checked;
      saveSettings();
      if (key === "winnable") updateWinnable();
      if ((key === "autoplay" || key === "autofinish") && settings[key] && state && state.status === "playing") {
        enqueue(async () => {
          const data = await api("POST", `/api/games/${state.id}/auto`, { autoplay: settings.autoplay, autofinish: settings.autofinish });
          accept(data);
        });
      }
    });
  }

  async function openStats() {
    const body = $("stats-body");
    body.textContent = "Loading…";
    $("dlg-stats").showModal();
    try {
      const { stats } = await api("GET", "/api/stats");
      if (!stats.length) { body.textContent = "No finished games yet. A game counts when it is won, or when you start another after making a move."; return; }
      const pct = (x) => `${Math.round(x * 100)}%`;
      const rows = stats.map((s) => {
        const opts = `empty column: ${s.options.empty_column}, foundation return: ${s.options.foundation_return ? "on" : "off"}`;
        const cur = state && s.variant === state.variant && s.options.empty_column === state.rules.empty_column && s.options.foundation_return === state.rules.foundation_return;
        return `<tr class="${cur ? "current" : ""}"><td>${s.title}<span class="opts">${opts}</span></td><td>${s.played}</td><td>${s.won}</td><td>${pct(s.win_rate)}</td><td>${s.current_streak}</td><td>${s.best_streak}</td><td>${s.best_time === null ? "–" : fmtTime(s.best_time)}</td><td>${s.fewest_moves ?? "–"}</td></tr>`;
      }).join("");
      body.innerHTML = `<table><thead><tr><th>Game</th><th>Played</th><th>Won</th><th>Win rate</th><th>Streak</th><th>Best streak</th><th>Best time</th><th>Fewest moves</th></tr></thead><tbody>${rows}</tbody></table>`;
    } catch (err) {
      body.textContent = `Cannot load the statistics: ${err.message}`;
    }
  }

  $("btn-new").addEventListener("click", openNewDialog);
  $("btn-restart").addEventListener("click", restart);
  $("btn-undo").addEventListener("click", undo);
  $("btn-redo").addEventListener("click", redo);
  $("btn-hint").addEventListener("click", hint);
  $("btn-options").addEventListener("click", openOptions);
  $("btn-stats").addEventListener("click", openStats);
  $("btn-help").addEventListener("click", () => $("dlg-help").showModal());
  $("banner-new").addEventListener("click", () => {
    hideBanner();
    newGame({ variant: state.variant, options: state.rules, winnableOnly: settings.winnableOnly && variants && variants.solver });
  });
  $("banner-stats").addEventListener("click", () => { hideBanner(); openStats(); });
  $("banner-undo").addEventListener("click", () => { hideBanner(); undo(); });
  $("banner").addEventListener("click", (e) => { if (e.target === $("banner")) hideBanner(); });
  $("deal-number").addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      const t = e.target.value.trim();
      if (!/^\d+$/.test(t)) { say("A deal number is a whole number, such as 42.", true); return; }
      e.target.blur();
      newGame({ variant: state.variant, options: state.rules, seed: Number(t) });
    } else if (e.key === "Escape") {
      e.target.value = state.seed ?? "custom";
      e.target.blur();
    }
  });
  $("deal-number").addEventListener("blur", (e) => { if (state) e.target.value = state.seed ?? "custom"; });

  // ------------------------------------------------------------------ clock: pause while the page is hidden
  document.addEventListener("visibilitychange", () => {
    if (!state || state.result !== null) return;
    const url = `/api/games/${state.id}/clock`;
    if (document.hidden) {
      const blob = new Blob([JSON.stringify({ running: false })], { type: "application/json" });
      if (!(navigator.sendBeacon && navigator.sendBeacon(url, blob))) api("POST", url, { running: false }).catch(() => {});
      state.clock_running = false;
    } else {
      api("POST", url, { running: true }).then((c) => { state.elapsed = c.elapsed; state.clock_running = c.clock_running; receivedAt = performance.now(); tick(); }).catch(() => {});
    }
  });

  let resizeTimer = 0;
  window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(() => render({ instant: true }), 60); });

  // ------------------------------------------------------------------ start: resume the last game, or deal one
  async function start() {
    try {
      variants = await api("GET", "/api/variants");
      fillVariants();
    } catch (err) {
      say(`Cannot reach the server: ${err.message}`, true, true);
      return;
    }
    const params = new URLSearchParams(location.search);
    if (params.has("game")) {
      try { accept(await api("GET", `/api/games/${encodeURIComponent(params.get("game"))}`)); return; } catch (e) { /* fall through */ }
    }
    let id = null;
    try { id = localStorage.getItem("yukon.game"); } catch (e) { id = null; }
    if (id) {
      try { accept(await api("GET", `/api/games/${encodeURIComponent(id)}`)); say("Welcome back: your game is where you left it."); return; } catch (e) { /* gone */ }
    }
    try { accept(await api("GET", "/api/games/latest")); say("Welcome back: your game is where you left it."); return; } catch (e) { /* none */ }
    await newGame({ variant: settings.variant, options: settings.options, winnableOnly: false });
  }
  window.yukon = { get state() { return state; }, get geom() { return geom; }, newGame, sendMove, undo, redo, queue: () => queue };
  start();
})();
