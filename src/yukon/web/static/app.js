/* Yukon card table: talks to the JSON API of yukon.web (docs/web.md). No build step, no dependencies.

The page knows no rule of the game: the server says which moves are legal, the best place for each
card, why a move is refused, and it never tells the face-down cards (only how many lie face down). */
"use strict";
(() => {
  const RANK_NAMES = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"];
  const RANKS = "A23456789TJQK";
  const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
  const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
  const $ = (id) => document.getElementById(id);
  const table = $("table");
  const reducedMotionQuery = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  // ------------------------------------------------------------------ settings
  const DEFAULTS = { autoplay: true, autofinish: true, winnable: false, solverHint: false, animate: true, variant: "yukon", options: {}, winnableOnly: false, numbering: "yukon", felt: "green", back: "blue" };
  let settings = { ...DEFAULTS };
  try { settings = { ...DEFAULTS, ...JSON.parse(localStorage.getItem("yukon.settings") || "{}") }; } catch (e) { /* keep defaults */ }
  const saveSettings = () => { try { localStorage.setItem("yukon.settings", JSON.stringify(settings)); } catch (e) { /* private mode */ } };
  const motion = () => settings.animate && !(reducedMotionQuery && reducedMotionQuery.matches);
  function applyLooks() {
    const b = document.body;
    [...b.classList].filter((c) => c.startsWith("felt-") || c.startsWith("back-")).forEach((c) => b.classList.remove(c));
    b.classList.add("felt-" + settings.felt, "back-" + settings.back);
    b.classList.toggle("reduce-motion", !motion());
  }
  applyLooks();
  if (reducedMotionQuery && reducedMotionQuery.addEventListener) reducedMotionQuery.addEventListener("change", applyLooks);

  // ------------------------------------------------------------------ state
  let state = null;        // the server's game state (what the player can see)
  let receivedAt = 0;      // performance.now() when state arrived
  let variants = null;     // GET /api/variants
  let geom = null;         // layout of the current render
  let size = null;         // the card size of this game at this window size: {key, W}
  let items = [];          // rendered cards: {key, name, up, pile, idx, x, y, z}
  const cardEls = new Map();
  let zones = {};          // pile id -> zone element (highlights)
  let drag = null;         // pointer drag in progress
  let held = null;         // keyboard pick-up: {pile, idx, card, count}
  let focus = null;        // keyboard focus: {pile, idx}
  let hintTimer = 0;
  let queue = Promise.resolve();
  let lastBannerFor = "";
  let winnableReq = 0;
  let offline = false;     // the server did not answer the last request
  let retryTimer = 0;
  // the replay in progress: {live (the game's own state), at, total, moves, cont, analysis, want}; null in play
  let replay = null;
  let replayReq = 0;
  const timings = [];      // move round trips (request to table updated), ms: bench/web.py reads them

  // ------------------------------------------------------------------ helpers
  const shown = (name) => (name[0] === "T" ? "10" : name[0]);
  const pretty = (name) => shown(name) + SUIT_SYMBOL[name[1]];
  const longName = (name) => `${RANK_NAMES[RANKS.indexOf(name[0])]} of ${SUIT_NAMES[name[1]]}`;
  const isRed = (name) => name[1] === "H" || name[1] === "D";
  const fmtTime = (s) => {
    s = Math.max(0, Math.floor(s));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(sec).padStart(2, "0")}`;
  };
  const dealName = (s) => (s.seed === null || s.seed === undefined ? "custom deal" : s.numbering === "pysolfc" ? `PySolFC game ${s.seed}` : `deal ${s.seed}`);
  const pileName = (p) => (p === "F" ? "a foundation" : p === "W" ? "the waste" : p === "S" ? "the stock" : `column ${+p.slice(1) + 1}`);
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  // a move number as the player counts: the deal's automatic plays (an Ace straight up) are the deal's, not moves
  const moveNo = (n, game = state) => n - ((game && game.dealt) || 0);
  // a pile of the page ("c3", "W", "f2") in the notation's words ("4", "W", "F")
  const note = (p) => (p === "W" ? "W" : p === "F" || p[0] === "f" ? "F" : String(+p.slice(1) + 1));

  function parseMove(text) {
    if (text === "deal") return { text, src: "S", dst: "S", card: null, count: 0 };
    const m = /^(\d+|W|F):([A2-9TJQK][SHDC])(?:\+(\d+))?>(\d+|F)$/.exec(text);
    if (!m) return null;
    const pile = (s) => (s === "W" || s === "F" ? s : "c" + (parseInt(s, 10) - 1));
    return { text, src: pile(m[1]), card: m[2], count: m[3] ? parseInt(m[3], 10) + 1 : 1, dst: pile(m[4]) };
  }
  const moveText = (src, card, count, dst) => `${note(src)}:${card}${count > 1 ? "+" + (count - 1) : ""}>${note(dst)}`;
  // the cards a group's lead carries: " and 8 cards on it", as the terminal says ("with 8 cards" read as eight in all)
  const onIt = (count) => (count > 1 ? ` and ${plural(count - 1, "card")} on it` : "");
  // A move in words comes from the server, with the answer that names it ("words": the terminal game's wording
  // too): what a move is, not that it happened (a hint and the replay's "Next" name it too). The page words no
  // move itself; one it was not told about (none should be) shows as its notation.
  const moveWords = new Map();
  function learnWords(data) {
    if (data && data.words && typeof data.words === "object") Object.entries(data.words).forEach(([t, w]) => moveWords.set(t, w));
  }
  const describeMove = (mv) => moveWords.get(mv.text) || mv.text;

  async function api(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) { init.headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    let res;
    try {
      res = await fetch(path, init);
    } catch (e) {
      const err = new Error("the server is not answering");
      err.offline = true;
      throw err;
    }
    let data = null;
    try { data = await res.json(); } catch (e) { data = null; }
    if (!res.ok) {
      const err = new Error((data && (data.explanation || data.error)) || `${res.status} ${res.statusText}`);
      err.status = res.status;
      err.data = data || {};
      throw err;
    }
    if (offline) backOnline();
    learnWords(data);
    return data;
  }
  function failed(err) {
    if (err.offline) { goOffline(); return; }
    if (err.status === 409 && !(err.data && err.data.reason) && state && /over/.test(err.message)) { gameEnded(); return; }
    if (err.status === 409 && state && /moved on/.test(err.message)) { caughtUp(); return; }
    say(err.message || String(err), true);
    if (state) render();
  }
  function enqueue(fn) {
    queue = queue.then(fn).catch(failed);
    return queue;
  }

  let sayTimer = 0;
  function say(text, isError = false, keep = false) {
    const el = $("message");
    el.textContent = text;
    el.title = text;
    el.classList.toggle("error", !!isError);
    clearTimeout(sayTimer);
    if (!keep && text) sayTimer = setTimeout(() => { el.textContent = ""; el.title = ""; el.classList.remove("error"); }, isError ? 6000 : 4000);
  }
  // one button in the status line for the way out of a dead end
  function offer(label, fn) {
    const b = $("status-action");
    if (!label) { b.hidden = true; b.onclick = null; return; }
    b.textContent = label;
    b.hidden = false;
    b.onclick = () => { offer(null); fn(); };
  }

  // ------------------------------------------------------------------ the server not answering; a game ended elsewhere
  function goOffline() {
    if (state && state.clock_running) { state.elapsed = shownElapsed(); state.clock_running = false; }
    if (!offline) {
      offline = true;
      say("The server is not answering: trying again…", true, true);
      offer("Retry now", retry);
    }
    clearTimeout(retryTimer);
    retryTimer = setTimeout(retry, 2000);
    if (state) render();
  }
  async function retry() {
    clearTimeout(retryTimer);
    try {
      if (!variants) { variants = await api("GET", "/api/variants"); fillVariants(); }
      if (state) accept(await api("GET", `/api/games/${state.id}`));
      else await start();
    } catch (err) {
      if (err.offline) { retryTimer = setTimeout(retry, 3000); return; }
      if (err.status === 404) { state = null; await start(); return; }
      failed(err);
    }
  }
  function backOnline() {
    offline = false;
    clearTimeout(retryTimer);
    offer(null);
    say("The server answers again.");
    if (state && state.player_moved && state.result === null && !document.hidden) setClock(true);
  }
  // the game was played on elsewhere (another tab): show it as it is now, the move not played
  async function caughtUp() {
    try { accept(await api("GET", `/api/games/${state.id}`)); } catch (err) { if (err.offline) goOffline(); return; }
    say("The game moved on in another tab or window: this is where it is now (your move was not played).", true);
  }
  async function gameEnded() {
    try { accept(await api("GET", `/api/games/${state.id}`), { elsewhere: true }); } catch (err) { if (err.offline) goOffline(); }
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
  // A court card: a double-headed figure (crown, tiara or cap; robe in the suit's colours) in a gold frame.
  function courtSVG(rank, s, use) {
    const red = s === "H" || s === "D";
    const robe = red ? "#c8102e" : "#1f3f8f", trim = red ? "#1f3f8f" : "#c8102e";
    const gold = "#d9a91a", skin = "#f6d7b8", hair = rank === 13 ? "#e8e4dc" : "#6b3e1e";
    let hat;
    if (rank === 13) hat = `<path d="M39 50 L39 41 L44 46 L50 38 L56 46 L61 41 L61 50 Z" fill="${gold}" stroke="#7a5a00" stroke-width=".8"/><circle cx="50" cy="44" r="1.6" fill="${trim}"/>`;
    else if (rank === 12) hat = `<path d="M41 50 Q50 40 59 50 Z" fill="${gold}" stroke="#7a5a00" stroke-width=".8"/><circle cx="50" cy="44.5" r="1.8" fill="${trim}"/><circle cx="45" cy="47" r="1" fill="#fff"/><circle cx="55" cy="47" r="1" fill="#fff"/>`;
    else hat = `<path d="M39 50 Q40 41 50 41 Q60 41 61 50 Z" fill="${trim}"/><path d="M58 43 Q66 36 70 40 Q64 40 60 46 Z" fill="${gold}"/>`;
    const beard = rank === 13 ? `<path d="M43 58 Q50 68 57 58 Q50 62 43 58 Z" fill="${hair}"/>` : "";
    const locks = rank === 12 ? `<path d="M40 52 Q37 62 42 66 L44 56 Z M60 52 Q63 62 58 66 L56 56 Z" fill="${hair}"/>` : "";
    const item = rank === 13 ? `<path d="M28 76 L36 48" stroke="#8a8a8a" stroke-width="2.2"/><path d="M31 60 L37 62" stroke="${gold}" stroke-width="2"/>`
      : rank === 12 ? `<circle cx="31" cy="60" r="4" fill="${trim}"/><circle cx="31" cy="60" r="1.6" fill="${gold}"/><path d="M31 64 L33 78" stroke="#2e7d32" stroke-width="1.6"/>`
      : `<path d="M70 78 L66 50" stroke="#8b5a2b" stroke-width="2.2"/><path d="M63 50 Q70 46 72 54 Z" fill="#9e9e9e"/>`;
    const half = `<g>${item}<path d="M32 84 Q33 70 42 66 L58 66 Q67 70 68 84 Z" fill="${robe}"/>` +
      `<path d="M42 66 L50 78 L58 66 Z" fill="${gold}"/><path d="M47 70 L50 84 L53 70 Z" fill="${trim}"/>` +
      `${locks}<ellipse cx="50" cy="56" rx="8" ry="9" fill="${skin}" stroke="#8a6a50" stroke-width=".6"/>` +
      `<circle cx="47" cy="55" r=".9" fill="#333"/><circle cx="53" cy="55" r=".9" fill="#333"/><path d="M47.5 60 Q50 61.5 52.5 60" stroke="#a0522d" stroke-width=".8" fill="none"/>` +
      `${beard}${hat}${use(64, 74, 9)}</g>`;
    return `<rect x="17" y="40" width="66" height="88" rx="4" fill="${red ? "#fff3f0" : "#f1f4fb"}" stroke="${gold}" stroke-width="1.6"/>` +
      `<svg x="17" y="40" width="66" height="88" viewBox="17 40 66 88"><g>${half}</g><g transform="rotate(180 50 84)">${half}</g></svg>` +
      `<path d="M19 84 H81" stroke="${gold}" stroke-width=".8"/>`;
  }
  function faceSVG(name) {
    const r = RANKS.indexOf(name[0]) + 1, s = name[1], col = isRed(name) ? "red" : "black";
    const rt = shown(name);
    const use = (x, y, sz, extra = "") => `<use href="#suit-${s}" x="${x - sz / 2}" y="${y - sz / 2}" width="${sz}" height="${sz}"${extra}/>`;
    const index = `<text class="rank" x="${rt.length > 1 ? 3 : 6}" y="28" font-size="${rt.length > 1 ? 27 : 30}"${rt.length > 1 ? ' textLength="35"' : ""}>${rt}</text>` +
      use(rt.length > 1 ? 50 : 40, 18, 21) + use(88, 12, 13);
    let mid;
    if (r === 1) mid = use(50, 84, s === "S" ? 56 : 44);
    else if (r <= 10) {
      const top = 50, bottom = 124;
      mid = PIPS[r].map(([x, f]) => {
        const y = top + f * (bottom - top);
        return use(x, y, 21, f > .5 ? ` transform="rotate(180 ${x} ${y})"` : "");
      }).join("");
    } else mid = courtSVG(r, s, use);
    // Small cards (phones, two decks) get a larger index and one big suit instead of pips.
    const small = `<text class="rank" x="${rt.length > 1 ? 2 : 5}" y="38" font-size="${rt.length > 1 ? 37 : 42}"${rt.length > 1 ? ' textLength="50"' : ""}>${rt}</text>` +
      use(rt.length > 1 ? 74 : 64, 23, 32) + use(50, 92, 52);
    // A card of a long column shows only a strip of its top: a thin index, rank and suit side by side.
    const tight = `<text class="rank" x="4" y="13" font-size="16"${rt.length > 1 ? ' textLength="21"' : ""}>${rt}</text>` +
      use(rt.length > 1 ? 33 : 25, 7.5, 12);
    return `<svg viewBox="0 0 100 140" aria-hidden="true" focusable="false" class="${col}"><g class="big"><g class="ix">${index}</g>${mid}</g>` +
      `<g class="small"><g class="ix">${small}</g></g><g class="tight">${tight}</g></svg>`;
  }
  function makeCard(key, name) {
    const el = document.createElement("div");
    el.className = "card";
    el.dataset.key = key;
    if (name) {
      el.dataset.name = name;
      el.setAttribute("role", "button");
      el.innerHTML = `<div class="face">${faceSVG(name)}</div>`;
    } else {
      el.setAttribute("role", "img");
      el.innerHTML = '<div class="back"></div>';
    }
    el.tabIndex = -1;
    // a card in flight lies over the others (FLYING_Z) until it lands, then takes its place in the pile's order
    const landed = (e) => {
      if (e.target !== el || e.propertyName !== "transform") return;
      el.flying = false;
      el.style.zIndex = el.dataset.z;
    };
    el.addEventListener("transitionend", landed);
    el.addEventListener("transitioncancel", landed);
    table.appendChild(el);
    cardEls.set(key, el);
    return el;
  }

  // ------------------------------------------------------------------ layout
  // The card size depends on the variant and the window only, never on the position: it is kept for
  // the whole game at a given window size, and long columns compress their fan instead.
  const MIN_UP = { big: 0.215, compact: 0.3 };   // the fan at which a face-up card's index still shows
  const DOWN = 0.09;                             // the fan of face-down cards
  const TIGHT_UP = 0.1;                          // the fan at which the thin index ("tight" cards) still shows
  const COMPACT = 62;                            // the card width under which cards show their compact face
  // the widest card `slots` piles side by side leave, and `rows` card heights (a top row, or none) above a long
  // column this variant reaches: its deepest face-down pile under a run of twelve (two decks: sixteen)
  function widthFor(width, availH, slots, rows, gap) {
    const L = state.layout;
    let W = Math.min((width - gap * (slots + 1)) / slots, 150);
    const nd = Math.max(...L.deal_down), nu = L.decks > 1 ? 16 : 12;
    for (const kind of ["big", "compact"]) {
      if ((kind === "compact") !== (W < COMPACT)) continue;
      const perH = rows + 1 + nd * DOWN + (nu - 1) * MIN_UP[kind];
      W = Math.min(W, (availH - gap * (2 + 2 * rows)) / perH / 1.4);
    }
    return Math.max(30, Math.floor(W));
  }
  // The foundations (and the stock) above the tableau; in a short, wide window (a phone held sideways), where
  // that row would leave small cards, beside it when that gives larger ones: the foundations at the right in
  // as few columns as their height allows, the stock with its waste under it at the left. side: null, or
  // {fcols, frows} (the foundations' columns and rows).
  function cardWidth(width, availH) {
    const key = `${state.id}|${window.innerWidth}x${window.innerHeight}`;
    if (size && size.key === key) return size;
    const L = state.layout;
    const gap = Math.round(Math.min(14, Math.max(4, width * 0.012)));
    size = { key, W: widthFor(width, availH, L.columns, 1, gap), gap, side: null };
    if (size.W < COMPACT) {
      const left = L.has_stock ? 1 : 0;
      // the stock's column: the stock, and the waste fanned down under it
      const stockH = (W) => { const H = Math.round(W * 1.4); return left * (H + gap + (L.has_waste ? H + 2 * wasteFan(W, H) + gap : 0)); };
      for (let fcols = 1; fcols <= L.foundations; fcols++) {
        const frows = Math.ceil(L.foundations / fcols);
        let W = Math.min(widthFor(width - 2 * sideGap(gap), availH, L.columns + left + fcols, 0, gap),
          Math.floor(((availH - gap) / frows - gap) / 1.4));
        while (W > 30 && stockH(W) + gap > availH) W--;
        if (W > size.W) size = { key, W, gap, side: { fcols, frows } };
      }
    }
    return size;
  }
  const sideGap = (gap) => Math.round(gap * 0.8);  // (more room between the tableau and the piles beside it)
  // the waste's fan: across in the top row, down in the stock's column beside the tableau
  const wasteFan = (W, H) => Math.round((W < COMPACT ? MIN_UP.compact : MIN_UP.big) * H);
  function computeGeom() {
    const L = state.layout;
    const ncols = L.columns, nf = L.foundations;
    const left = L.has_stock ? (L.has_waste ? 2 : 1) : 0;
    const width = table.clientWidth;
    // the table's own height (a floor only for a table not laid out yet): a 640x360 window leaves it 222 px, and
    // cards sized for 240 left its long columns below the window
    const availH = Math.max(120, table.clientHeight);
    const { W, gap, side } = cardWidth(width, availH);
    const H = Math.round(W * 1.4);
    const compact = W < COMPACT;
    const g = { compact, W, H, gap, ncols, nf, left, width, availH, side };
    const yTop = g.yTop = gap;
    if (side) {
      const lcols = L.has_stock ? 1 : 0, sg = sideGap(gap);
      const gridW = (lcols + ncols + side.fcols) * W + (lcols + ncols + side.fcols - 1) * gap + (lcols ? sg : 0) + sg;
      const x0 = Math.round((width - gridW) / 2);
      const colX = g.colX = (i) => Math.round(x0 + (lcols ? W + gap + sg : 0) + i * (W + gap));
      const fx0 = colX(ncols - 1) + W + gap + sg;
      g.yTab = yTop;
      g.stockX = g.wasteX = x0;
      g.stockY = yTop;
      g.wasteY = yTop + H + gap;
      g.wasteDown = wasteFan(W, H);
      g.foundX = (j) => Math.round(fx0 + Math.floor(j / side.frows) * (W + gap));
      g.foundY = (j) => yTop + (j % side.frows) * (H + gap);
    } else {
      const gridW = ncols * W + (ncols - 1) * gap;
      const x0 = Math.round((width - gridW) / 2);
      const colX = g.colX = (i) => Math.round(x0 + i * (W + gap));
      g.yTab = yTop + H + Math.round(gap * 1.8);
      g.stockX = colX(0);
      g.wasteX = colX(1);
      g.stockY = g.wasteY = yTop;
      g.wasteDown = 0;
      g.foundY = () => yTop;
      // foundations at the right of the top row; when they do not fit beside the stock they overlap a little
      if (left + nf <= ncols) g.foundX = (j) => colX(ncols - nf + j);
      else {
        const first = colX(0) + left * (W + gap), last = colX(ncols - 1);
        const pitch = nf > 1 ? (last - first) / (nf - 1) : 0;
        g.foundX = (j) => Math.round(first + j * pitch);
      }
    }
    const yTab = g.yTab;
    // Fan offsets per column: generous while there is room, compressed so the longest column still fits.
    const downOff = Math.max(4, Math.round(H * (compact ? 0.17 : DOWN)));
    const maxUp = Math.round(H * (compact ? 0.66 : 0.3));
    const room = availH - yTab - gap;
    // The order keeps the ranks readable longest: face-up cards down to the fan where their index shows,
    // then the face-down cards (they show only how many there are) if that is enough, else face-up cards
    // below that fan, which then show a thin index of their own (tight, TIGHT_UP); only then less.
    const readable = Math.ceil(H * MIN_UP[compact ? "compact" : "big"]);
    g.fan = state.tableau.map((c) => {
      const nd = c.down_count, nu = c.up.length;
      let d = downOff, u = maxUp;
      const need = () => H + nd * d + Math.max(0, nu - 1) * u;
      const fitUp = (floor) => { if (need() > room && nu > 1) u = Math.max(floor, Math.floor((room - H - nd * d) / (nu - 1))); };
      fitUp(Math.min(u, readable));
      const dReadable = nd > 0 ? Math.floor((room - H - Math.max(0, nu - 1) * u) / nd) : 0;
      if (need() > room && dReadable >= 3) d = dReadable;   // (when that keeps the index: else the backs stay)
      fitUp(Math.min(u, Math.ceil(H * TIGHT_UP)));
      if (need() > room && nd > 0) d = Math.max(2, Math.floor((room - H - Math.max(0, nu - 1) * u) / nd));
      fitUp(3);
      return { d, u, tight: u < readable };
    });
    return g;
  }

  function layoutItems() {
    const g = geom;
    const out = [];
    const seen = {};
    const keyOf = (name) => { seen[name] = (seen[name] || 0) + 1; return name + "#" + seen[name]; };
    state.foundations.forEach((pile, j) => {
      pile.forEach((name, i) => out.push({ key: keyOf(name), name, up: true, pile: "f" + j, idx: i, x: g.foundX(j), y: g.foundY(j), z: 10 + i, top: i === pile.length - 1 }));
    });
    state.tableau.forEach((c, i) => {
      const f = g.fan[i];
      const nd = c.down_count;
      for (let k = 0; k < nd; k++) out.push({ key: `down:${i}:${k}`, name: null, up: false, pile: "c" + i, idx: k, x: g.colX(i), y: g.yTab + k * f.d, z: 100 + k });
      c.up.forEach((name, k) => {
        const top = k === c.up.length - 1;
        out.push({ key: keyOf(name), name, up: true, pile: "c" + i, idx: nd + k, x: g.colX(i), y: g.yTab + nd * f.d + k * f.u, z: 100 + nd + k, top, tight: f.tight && !top });
      });
    });
    // the stock: a few backs, slightly stacked (its order is the server's secret)
    const ns = state.stock_count || 0;
    for (let i = 0; i < Math.min(ns, 4); i++) out.push({ key: `stock:${i}`, name: null, up: false, pile: "S", idx: i, x: g.stockX + i, y: g.stockY - i, z: 10 + i, top: i === Math.min(ns, 4) - 1 });
    const waste = state.waste || [];
    waste.forEach((name, i) => {
      const fromTop = waste.length - 1 - i;
      const step = g.wasteDown || Math.round(g.W * 0.27);  // (down beside the tableau, else across)
      const shift = Math.max(0, (fromTop < 3 ? (2 - fromTop) * step : 0) - Math.max(0, 3 - waste.length) * step);
      out.push({ key: keyOf(name), name, up: true, pile: "W", idx: i, x: g.wasteX + (g.wasteDown ? 0 : shift), y: g.wasteY + (g.wasteDown ? shift : 0), z: 10 + i, top: fromTop === 0 });
    });
    return out;
  }

  function pileRect(p) {
    const g = geom;
    if (p[0] === "c") {
      const i = +p.slice(1), c = state.tableau[i], f = g.fan[i];
      const h = g.H + c.down_count * f.d + Math.max(0, c.up.length - 1) * f.u;
      return { x: g.colX(i), y: g.yTab, w: g.W, h: Math.max(h, g.H) };
    }
    if (p[0] === "f") return { x: g.foundX(+p.slice(1)), y: g.foundY(+p.slice(1)), w: g.W, h: g.H };
    if (p === "S") return { x: g.stockX, y: g.stockY, w: g.W, h: g.H };
    if (p === "W") return g.wasteDown ? { x: g.wasteX, y: g.wasteY, w: g.W, h: g.H + 2 * g.wasteDown }
      : { x: g.wasteX, y: g.wasteY, w: Math.round(g.W * 1.54), h: g.H };
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
  const stockLabel = () => `stock, ${plural(state.stock_count, "card")}` + (state.stock_count ? " (click to deal)" : ", empty");

  // ------------------------------------------------------------------ render
  const DEAL_STEP = 50;  // ms between two cards dealt from the stock
  const FLYING_Z = 1000;  // over every card at rest and the drop zones (900), under the header (2000)
  function render(opts = {}) {
    if (!state) return;
    // (a card in focus that goes, turned face down again by an undo, takes the focus to the page: it goes on
    // from the card now in its place, else Space and F did nothing, silently)
    const hadFocus = table.contains(document.activeElement);
    geom = computeGeom();
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
      Object.assign(slot.style, { left: r.x + "px", top: r.y + "px", width: geom.W + "px", height: geom.H + "px", fontSize: Math.round(geom.W * 0.3) + "px" });
      // the mark is drawn by CSS (decoration, no text for assistive technology); the stock's place has none: it
      // shows only once the stock is out, and no variant here turns the waste over for a second deal (no ↻)
      slot.dataset.mark = p[0] === "f" ? "A" : p[0] === "c" && state.rules.empty_column === "kings" ? "K" : "";
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
      zones[p] = zone;
    }
    if (state.layout.has_stock) {
      const badge = document.createElement("div");
      badge.className = "stock-count";
      badge.setAttribute("aria-hidden", "true");
      badge.textContent = String(state.stock_count);
      Object.assign(badge.style, { left: geom.stockX + 4 + "px", top: geom.stockY + geom.H - 20 + "px" });
      frag.appendChild(badge);
    }
    table.appendChild(frag);

    const zBefore = new Map(items.map((i) => [i.key, i.z]));
    items = layoutItems();
    const present = new Set();
    const delays = playedDelays(opts.played || []);
    const anim = motion() && !opts.instant;
    const dealt = (opts.played || []).includes("deal");
    let flying = 0;  // the cards dealt from the stock so far: they leave it one after another, the first at once
    items.forEach((it, n) => {
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
      el.style.width = geom.W + "px";
      el.style.height = geom.H + "px";
      el.dataset.z = it.z;
      const movable = it.up && (it.pile[0] === "c" || (it.pile === "W" && it.top) || (it.pile[0] === "f" && it.top && state.rules.foundation_return));
      el.classList.toggle("fixed", !movable);
      el.setAttribute("aria-label", cardLabel(it));
      const target = `translate(${it.x}px, ${it.y}px)`;
      if (created && anim && (opts.fresh || (dealt && it.up))) {
        // a new deal flies out of the stock corner; cards dealt from the stock leave the stock
        el.classList.add("instant");
        el.style.transform = opts.fresh ? `translate(${geom.stockX}px, ${-geom.H}px)` : `translate(${geom.stockX}px, ${geom.stockY}px)`;
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
    if (held) markHeld();
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
    const col = state.tableau[+it.pile.slice(1)];
    const above = col.down_count + col.up.length - 1 - it.idx;
    const under = col.down_count && it.idx === col.down_count ? `, ${plural(col.down_count, "face-down card")} under it` : "";
    return `${n}, ${pileName(it.pile)}` + (above ? `, ${plural(above, "card")} on it` : ", free") + under;
  }

  function updateChrome() {
    const had = document.activeElement;
    $("title").textContent = state.title;
    $("message").dataset.title = state.title;  // (a phone's header has no room for it: the empty status line shows it)
    document.title = `${state.title} · ${dealName(state)}`;
    const dn = $("deal-number");
    if (document.activeElement !== dn) dn.value = state.seed ?? "custom";
    dn.style.width = Math.max(4, String(dn.value).length + 1.5) + "ch";   // the whole deal number shows
    $("move-count").textContent = state.moves_made;  // (the deal's automatic plays are the deal's)
    $("found-count").textContent = `${state.cards_on_foundations}/${state.card_count}`;
    const open = state.result === null && !offline;
    $("btn-undo").disabled = !state.can_undo || !open;
    $("btn-redo").disabled = !state.can_redo || !open;
    $("btn-restart").disabled = !(state.can_undo || state.can_redo) || !open;
    $("btn-hint").disabled = state.status !== "playing" || !open;
    $("btn-replay").disabled = !replay && !(state.moves_made || state.result !== null);
    $("btn-replay").setAttribute("aria-pressed", replay ? "true" : "false");
    tick();
    const help = $("help-rules");
    // (in a player's words: "Yukon (empty column: kings, foundation return: off)" named the options as jargon)
    // (how cards build, in the server's words: Milligan Yukon's one sentence never said)
    if (help) help.textContent = `${state.title}: ${state.about} ${state.build_in_words} ${state.options_in_words}`;
    $("help-last-column").textContent = String(state.layout.columns);  // (1…7 in Yukon, 1…8 in Milligan Yukon)
    // the stock's lines only where there is one (Yukon deals every card: no stock to look for)
    for (const el of document.querySelectorAll("#dlg-help .help-stock")) el.hidden = !state.layout.has_stock;
    document.dispatchEvent(new Event("yukon:chrome"));  // demo.js updates its controls
    focusLost(had);
  }
  function shownElapsed() {
    if (!state) return 0;
    let s = state.elapsed;
    if (state.clock_running && !offline && !document.hidden) s += (performance.now() - receivedAt) / 1000;
    return s;
  }
  function tick() {
    if (state) $("timer").textContent = fmtTime(shownElapsed());
  }
  setInterval(tick, 500);

  // ------------------------------------------------------------------ applying server answers
  function accept(data, opts = {}) {
    if (replay) { state = replay.live; endReplay(); }
    const isNew = !state || state.id !== data.id;
    const prevStatus = state && state.id === data.id ? state.status : null;
    state = data;
    receivedAt = performance.now();
    document.dispatchEvent(new CustomEvent("yukon:state", { detail: data }));  // (deals.js: the deal's difficulty)
    try { localStorage.setItem("yukon.game", data.id); } catch (e) { /* private mode */ }
    if (isNew) {
      for (const el of cardEls.values()) el.remove();
      cardEls.clear();
      held = null;
      focus = null;
      lastBannerFor = "";
      size = null;
      stopCascade();
      offer(null);
    }
    clearHint();
    render({ played: data.played, fresh: isNew && opts.fresh });
    const over = data.result !== null;
    if (!over) offer(null);  // a way out of a dead end lasts only as long as the dead end
    const justWon = data.status === "won" && prevStatus === "playing" && !opts.elsewhere;
    if (over && !justWon) {
      if (opts.elsewhere || prevStatus !== data.status) showEnded(opts.elsewhere);
    } else if (data.status !== "playing" && (prevStatus === "playing" || isNew || justWon)) showBanner();
    if (data.status === "playing" && !over) hideBanner();
    updateWinnable();
  }

  async function statsLine() {
    // streaks and best time of this variant with these options, for the win box
    try {
      const { stats } = await api("GET", `/api/stats?variant=${encodeURIComponent(state.variant)}`);
      const row = stats.find((s) => s.options.empty_column === state.rules.empty_column && s.options.foundation_return === state.rules.foundation_return && s.numbering === (state.numbering || "yukon"));
      if (!row) return "";
      const best = row.best_time === null ? "–" : fmtTime(row.best_time);
      const record = state.status === "won" && row.best_time !== null && Math.abs(row.best_time - state.elapsed) < 0.01 && row.won > 1 ? " (a new best!)" : "";
      return `Streak ${row.current_streak} · best streak ${row.best_streak} · best time ${best}${record} · won ${row.won} of ${row.played}`;
    } catch (e) { return ""; }
  }

  function showBanner() {
    const key = state.id + ":" + state.status + ":" + state.move_count;
    if (lastBannerFor === key) return;
    lastBannerFor = key;
    const box = document.querySelector(".banner-box");
    const title = $("banner-title"), text = $("banner-text");
    box.classList.remove("won", "lost", "over");
    $("banner-stats-line").textContent = "";
    $("banner-analyse").hidden = true;
    $("banner").classList.toggle("win", state.status === "won");  // no dimming: the cascade shows
    if (state.status === "won") {
      box.classList.add("won");
      title.textContent = state.computer_moves ? "The computer won!" : "You won!";
      text.textContent = `${state.title}, ${dealName(state)}: ${plural(state.moves_made, "move")} in ${fmtTime(state.elapsed)}.`
        + (state.computer_moves ? ` The computer chose ${plural(state.computer_moves, "move")}: the game is not counted in your statistics.` : "");
      $("banner-undo").hidden = true;
      // your streak and best time belong under your win, not under the computer's (it counts for nothing)
      const id = state.id;
      if (!state.computer_moves) statsLine().then((t) => { if (state.id === id) $("banner-stats-line").textContent = t; });
      cascade();
    } else if (state.status === "lost") {
      box.classList.add("lost");
      // the computer's dead end is its own, as its win is: not counted (else it reads as the player's loss)
      title.textContent = state.computer_moves ? "The computer lost: no moves left" : "No moves left";
      text.textContent = `The game is lost with ${state.cards_on_foundations} of ${state.card_count} cards on the foundations.`
        + (state.computer_moves ? ` The computer chose ${plural(state.computer_moves, "move")}: the game is not counted in your statistics.` : "")
        + " Undo, or start a new game.";
      $("banner-undo").hidden = !state.can_undo;
      $("banner-analyse").hidden = false;
      $("banner-analyse").textContent = "Give up: where did it go wrong?";
    } else {
      return;
    }
    $("banner-new").textContent = "Next deal";
    openBanner();
    say(title.textContent, false, true);
  }
  // A game that ended elsewhere (another tab, the phone) or before this page opened: say so, offer a new deal.
  function showEnded(elsewhere) {
    const key = state.id + ":ended";
    if (lastBannerFor === key) return;
    lastBannerFor = key;
    const box = document.querySelector(".banner-box");
    box.classList.remove("won", "lost", "over");
    box.classList.add("over");
    $("banner").classList.remove("win");
    const where = elsewhere ? " (in another tab or window)" : "";
    const how = state.result === "won" ? `It was won${where}: ${plural(state.moves_made, "move")} in ${fmtTime(state.elapsed)}.`
      : state.result === "lost" ? `It was left at a dead end${where}: it counts as lost.`
      : `It was given up, or left for another game${where}: it counts as not won.`;
    $("banner-title").textContent = "This game is over";
    $("banner-text").textContent = `${how} A finished game takes no more moves.`;
    $("banner-stats-line").textContent = "";
    $("banner-undo").hidden = true;
    $("banner-analyse").hidden = state.result === "won";
    $("banner-analyse").textContent = "Where did it go wrong?";
    $("banner-new").textContent = "New deal";
    openBanner();
    say(`This game is over: ${how[0].toLowerCase()}${how.slice(1)}`, false, true);  // (one sentence: "over: it was won")
    offer("New deal", () => newGame({ variant: state.variant, options: state.rules }));
  }
  // The box at the end of a game is a modal dialog: the focus goes into it (on the next deal: Enter plays on) and
  // stays there, Esc closes it. (Its `hidden` follows it: the tests and the styles know it by that.)
  function openBanner() {
    const dlg = $("banner");
    dlg.hidden = false;
    if (!dlg.open) dlg.showModal();
    $("banner-new").focus();
  }
  function hideBanner() {
    const dlg = $("banner");
    dlg.hidden = true;
    if (dlg.open) dlg.close();
  }
  // closed, the focus goes back where it was; when that is gone (the cards drawn anew), to the table, not to the
  // page (unless another dialog took it: Statistics from the box)
  $("banner").addEventListener("close", () => {
    $("banner").hidden = true;
    focusLost();
  });
  // A control that had the focus went away: disabled (Undo at the start), hidden (the replay bar, the computer's bar,
  // the box at the end) or made inert (the header under the replay bar). `had`: what had the focus before the
  // change (Chrome moves the focus off a disabled button at once, off a hidden one only later); without it, the
  // focus already on the page itself counts as lost. A keyboard user goes on from the replay's slider, or from the
  // table's card in focus, not from the top of the page; another dialog open keeps the focus.
  function focusLost(had = null) {
    const gone = (el) => !!el && el !== document.body && (el.disabled || !el.isConnected || !!el.closest("[hidden], [inert]"));
    const at = document.activeElement;
    const lost = !at || at === document.body ? had === null || gone(had) : gone(at);
    if (!lost || document.querySelector("dialog[open]")) return;
    if (replay && !$("replay-bar").hidden) { if (keyboardUser) $("replay-slider").focus(); return; }
    applyFocus(keyboardUser);
  }

  // ------------------------------------------------------------------ the celebration: a cascade of the foundation cards
  let cascadeLayer = null;
  function stopCascade() {
    if (cascadeLayer) { cascadeLayer.remove(); cascadeLayer = null; }
  }
  function cascade() {
    stopCascade();
    if (!motion() || !geom) return;
    const layer = cascadeLayer = document.createElement("div");
    layer.className = "cascade";
    layer.setAttribute("aria-hidden", "true");
    document.body.appendChild(layer);
    const floor = window.innerHeight - geom.H;
    const piles = state.foundations.map((p, j) => ({ j, cards: [...p] }));
    let n = 0;
    for (let level = 13 * 2; level >= 0 && n < 60; level--) {
      for (const p of piles) {
        const name = p.cards.pop();
        if (!name || n >= 60) continue;
        const it = items.find((x) => x.pile === "f" + p.j && x.name === name);
        const src = it && cardEls.get(it.key);
        if (!src) continue;
        const r = src.getBoundingClientRect();
        const el = src.cloneNode(true);
        el.removeAttribute("role"); el.removeAttribute("aria-label"); el.removeAttribute("tabindex");
        el.className = "card up cascade-card";
        el.style.transform = "none";
        el.style.left = r.left + "px";
        el.style.top = r.top + "px";
        layer.appendChild(el);
        // a bouncing path: gravity, a floor, losing a third of the speed at each bounce, out at a side
        let x = 0, y = 0, vx = (Math.random() < 0.5 ? -1 : 1) * (3 + Math.random() * 4), vy = -2 - Math.random() * 4;
        const frames = [];
        for (let t = 0; t < 240 && r.left + x > -geom.W && r.left + x < window.innerWidth + 10; t++) {
          frames.push({ transform: `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)`, opacity: 1 });
          vy += 0.6; x += vx; y += vy;
          if (r.top + y > floor) { y = floor - r.top; vy = -vy * 0.66; }
        }
        frames.push({ transform: `translate(${x.toFixed(1)}px, ${y.toFixed(1)}px)`, opacity: 0 });
        const delay = n * 110;
        el.animate(frames, { duration: frames.length * 16, delay, fill: "both", easing: "linear" });
        n++;
      }
    }
    setTimeout(() => { if (cascadeLayer === layer) stopCascade(); }, n * 110 + 4200);
  }

  // ------------------------------------------------------------------ actions
  const keyOfPick = (pick) => `${note(pick.src)}:${pick.card}`;
  function legalFor(src, card, count) {
    return state.legal_moves.map(parseMove).filter((m) => m && m.src === src && m.card === card && m.count === count);
  }
  // the best place for a card, as the server says
  const bestFor = (pick) => state.best_moves[keyOfPick(pick)] || null;
  const foundationFor = (pick) => (pick.count === 1 ? state.foundation_moves[keyOfPick(pick)] || null : null);

  // Why automatic play leaves a card that could go up, said once per card and game as the terminal game does:
  // else it looks as if automatic play forgot it. The server words each reason (held_back_why: while the Milligan
  // stock lasts, or as the tableau may still need the card), in the terminal's words, as the page knows no rule.
  let explained = { id: null, cards: new Set() };
  function heldNews(data) {
    if (!settings.autoplay || !data.held_back || !data.held_back.length) return "";
    if (explained.id !== data.id) explained = { id: data.id, cards: new Set() };
    const why = data.held_back_why || {};
    const fresh = data.held_back.map((t) => [t, parseMove(t)]).filter(([t, m]) => m && why[t] && !explained.cards.has(m.card));
    fresh.forEach(([, m]) => explained.cards.add(m.card));
    if (!fresh.length) return "";
    return fresh.map(([t]) => ` · ${why[t]}`).join("") + `. A double click or tap plays ${fresh.length === 1 ? "it" : "one"} up.`;
  }
  const sendMove = (text, opts = {}) => enqueue(() => playMove(text, opts));
  // (the move itself, for a step already in the queue: a click decided against the state the moves before it left)
  async function playMove(text, opts = {}) {
    const t0 = performance.now();
    // a move the state does not list is asked about first: the server says why it is refused as an answer,
    // not as an error (a refusal is expected here, and the console shows no error for it)
    if (state.result === null && !state.legal_moves.includes(text)) {
      const c = await api("POST", `/api/games/${state.id}/check`, { move: text });
      if (!c.legal) {
        const why = c.explanation || c.error;
        if (opts.refused) opts.refused(why); else say(why, true);
        return;
      }
    }
    let data;
    try {
      // at: where this page saw the game, so that a move from a page another tab has overtaken is refused
      data = await api("POST", `/api/games/${state.id}/moves`, { move: text, autoplay: settings.autoplay, autofinish: settings.autofinish, at: state.move_count });
    } catch (err) {
      if (err.status === 409 && err.data && err.data.reason) {  // refused: the server says why
        if (opts.refused) opts.refused(err.message); else say(err.message, true);
        return;
      }
      throw err;
    }
    const mv = parseMove((data.played && data.played[0]) || text);  // (the server's own text of the move, its words' key)
    accept(data);
    timings.push(performance.now() - t0);
    if (timings.length > 1000) timings.shift();
    const auto = data.played.length - 1;
    if (!opts.quiet && state.status === "playing") say(describeMove(mv).replace(/^./, (c) => c.toUpperCase()) + (auto > 0 ? ` (+${auto} automatic)` : "") + heldNews(data));
  }
  // a move the page has not checked (a drop, a key): the server plays it or says why not
  function tryMove(pick, dst, els) {
    const legal = legalFor(pick.src, pick.card, pick.count).find((m) => m.dst === dst);
    // only a single card goes to a foundation: ask for that one, and the server says it is covered
    const text = legal ? legal.text : moveText(pick.src, pick.card, dst === "F" ? 1 : pick.count, dst);
    return sendMove(text, { refused: (why) => snapBack(els || [], why) });
  }
  const action = (path, body, message) => enqueue(async () => {
    const data = await api("POST", `/api/games/${state.id}/${path}`, body);
    accept(data);
    if (message) say(message(data));
  });
  // (the earliest move undone is named: the later ones, automatic plays, may name cards face down again)
  const undone = (d) => d.undone_first
    ? `Undone: ${describeMove(parseMove(d.undone_first))}${d.undone_count > 1 ? ` and ${plural(d.undone_count - 1, "automatic move")}` : ""}`
    : `Undone: ${plural(d.undone_count, "move")}`;
  const undo = () => state && state.can_undo && state.result === null && action("undo", undefined, undone);
  const redo = () => state && state.can_redo && state.result === null
    && action("redo", undefined, (d) => (d.played.length ? `Redone: ${describeMove(parseMove(d.played[0]))}` : "Redone"));
  const restart = () => state && action("restart", undefined, () => "Back to the start of the deal (Redo replays your moves)");
  const undoTo = (n) => action("undo", { to: n }, () => `Back to move ${moveNo(n)}: winnable again`);

  function newGame(params) {
    const body = {
      variant: params.variant ?? settings.variant,
      options: params.options ?? settings.options,
      autoplay: settings.autoplay, autofinish: settings.autofinish,
    };
    if (params.seed !== undefined && params.seed !== null) body.seed = params.seed;
    if (params.numbering && params.numbering !== "yukon") body.numbering = params.numbering;
    if (params.winnableOnly && body.seed === undefined && !body.numbering) body.winnable_only = true;
    if (params.deal && params.deal !== "any" && body.seed === undefined && !body.numbering) {  // (deals.js)
      const [kind, grade] = params.deal.split(":");
      delete body.winnable_only; body.deal = kind; if (grade) body.difficulty = grade;
    }
    if (state && state.result === null) body.abandon = state.id;  // an untouched game is dropped, a played one counted
    return enqueue(async () => {
      if (body.winnable_only || body.deal) say("Looking for a deal…", false, true);
      let data;
      try {
        data = await api("POST", "/api/games", body);
      } catch (err) {
        if (err.status === 409 && body.abandon) { delete body.abandon; data = await api("POST", "/api/games", body); } else throw err;
      }
      hideBanner();
      accept(data, { fresh: true });
      say((data.deal_note ? `Deal ${data.seed}: ${data.deal_note}` : `New game: ${data.title}, ${dealName(data)}`) + heldNews(data)
        + (params.welcome ? ` · ${WELCOME}` : ""));
    });
  }
  //: what a first visit is told (the terminal game opens with its own): how to move, and where the rules are
  const WELCOME = "Drag a card, and the cards on it come along; a click or tap sends it to its best place. Help (?) has the rules.";

  function hint() {
    if (!state || state.status !== "playing" || state.result !== null) return;
    const id = state.id, count = state.move_count;
    say("Thinking…", false, true);
    (async () => {
      let h;
      try { h = await api("POST", `/api/games/${id}/hint`, { kind: settings.solverHint ? "solver" : "honest" }); } catch (err) { failed(err); return; }
      if (!state || state.id !== id || state.move_count !== count) return;
      clearHint();
      if (h.status === "lost") offerLastWinnable();
      // every hint says which kind it is: the honest player's, or the solver's, which sees what the player cannot
      // (the server says what: the face-down cards, the stock's order in Australian Patience, or both)
      const kind = h.kind === "solver" ? "Solver hint" : "Hint (no peeking)";
      const peeked = h.kind === "solver" ? ` · it sees ${h.unseen || "the face-down cards"}` : "";
      if (!h.move && h.kind === "honest" && h.status === "unknown" && state.legal_moves.length) {
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
        zones.S && zones.S.classList.add("hint");
      } else {
        groupEls(mv.src, mv.card, mv.count).forEach((el) => el.classList.add("hint"));
        const dz = mv.dst === "F" ? foundationZoneFor(mv.card) : zones[mv.dst];
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
    const id = state.id, count = state.move_count;
    try {
      const w = await api("POST", `/api/games/${id}/winnable`);
      if (!state || state.id !== id || state.move_count !== count) return;
      if (w.status === "lost" && w.last_winnable !== null && w.last_winnable !== undefined) {
        offer(`Undo to move ${moveNo(w.last_winnable)} (last winnable)`, () => undoTo(w.last_winnable));
      }
    } catch (err) { failed(err); }
  }
  function clearHint() {
    clearTimeout(hintTimer);
    table.querySelectorAll(".hint").forEach((e) => e.classList.remove("hint"));
  }
  // the foundation pile the card would go on now, as the server says (the page knows no rule); null for none
  function foundationZoneFor(card) {
    const j = (state.foundation_piles || {})[card];
    return j === undefined ? null : zones["f" + j] || null;
  }

  // ------------------------------------------------------------------ winnable indicator
  // the verdict in words, and in one word for a phone's status line (where the message needs the room)
  function showVerdict(long, short) {
    $("winnable-text").textContent = long;
    $("winnable-short").textContent = short;
  }
  function updateWinnable() {
    const box = $("winnable");
    if (!settings.winnable || !state || state.status === "won" || state.result !== null) { box.hidden = true; return; }
    box.hidden = false;
    box.className = "winnable";
    showVerdict("Checking…", "…");
    $("btn-back-to-winnable").hidden = true;
    const id = state.id, count = state.move_count, req = ++winnableReq;
    api("POST", `/api/games/${id}/winnable`).then((w) => {
      if (req !== winnableReq || !state || state.id !== id || state.move_count !== count) return;
      box.classList.add(w.status);
      box.title = w.label || "";  // a perfect-information verdict: the solver sees the face-down cards
      const back = $("btn-back-to-winnable");
      if (w.status === "won") showVerdict("✓ Still winnable (if every card were known)", "✓ Winnable");
      else if (w.status === "lost") {
        // before the player's first move it never could be won (a deal proven lost): "no longer" would blame a move
        showVerdict(state.moves_made === 0 ? "✗ This deal cannot be won, even knowing every card"
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

  // ------------------------------------------------------------------ drag and drop (pointer events: mouse, pen, touch)
  function groupOf(pile, idx) {
    return items.filter((it) => it.pile === pile && it.idx >= idx).sort((a, b) => a.idx - b.idx);
  }
  function groupEls(pile, card, count) {
    const its = items.filter((it) => it.pile === pile || (pile === "F" && it.pile[0] === "f"));
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
    if (e.button !== 0 || !state || drag || replay) return;
    const el = e.target.closest(".card");
    if (!el) return;
    const it = itemOf(el);
    const pick = pickFrom(it);
    if (!pick || state.status !== "playing" || state.result !== null) return;
    cancelHeld();
    const rect = table.getBoundingClientRect();
    drag = {
      pick, pointerId: e.pointerId, x0: e.clientX, y0: e.clientY, rect, started: false,
      els: pick.items.map((i) => cardEls.get(i.key)), origin: pick.items.map((i) => ({ x: i.x, y: i.y })),
    };
  });
  table.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.pointerId || drag.cancelled) return;
    const dx = e.clientX - drag.x0, dy = e.clientY - drag.y0;
    if (!drag.started) {
      if (Math.hypot(dx, dy) < 6) return;
      drag.started = true;
      try { table.setPointerCapture(e.pointerId); } catch (err) { /* fine */ }
      clearHint();
      cancelClick();
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
  const clearTargets = () => Object.values(zones).forEach((z) => z.classList.remove("target", "over"));
  function endDrag() {
    clearTargets();
    if (drag) try { table.releasePointerCapture(drag.pointerId); } catch (err) { /* fine */ }
    drag = null;
  }
  table.addEventListener("pointerup", (e) => {
    if (!drag || e.pointerId !== drag.pointerId) return;
    const d = drag;
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
  table.addEventListener("pointercancel", () => { if (drag) { endDrag(); render(); } });
  let suppressClick = false;

  function tryDrop(pick, over, els) {
    if (!over || over === pick.src || (over[0] === "f" && pick.src === "F")) { snapBack(els, ""); return; }
    const dst = over[0] === "f" ? "F" : over;
    els.forEach((el) => el.classList.remove("dragging"));
    tryMove(pick, dst, els);
  }
  function snapBack(els, reason) {
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
    if (!state.layout.has_stock) return false;
    const r = pileRect("S"), t = table.getBoundingClientRect(), x = e.clientX - t.left, y = e.clientY - t.top;
    return x >= r.x && x <= r.x + r.w + 4 && y >= r.y - 4 && y <= r.y + r.h;  // (its backs lie a little stacked)
  }
  table.addEventListener("click", (e) => {
    if (suppressClick || !state || replay) return;
    if (e.detail === 1) flushClick();
    if (onStock(e)) { clickActed = true; deal(); return; }
    if (e.detail > 1) return;
    clickActed = false;
    const slot = e.target.closest(".slot");
    const el = e.target.closest(".card");
    const it = el ? itemOf(el) : null;
    if ((slot && slot.dataset.pile === "S") || (it && it.pile === "S")) { clickActed = true; deal(); return; }
    if (state.status !== "playing" || state.result !== null) return;
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
    if (!state || state.status !== "playing" || state.result !== null) return;
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
  function clickCard(clicked) {
    return enqueue(async () => {
      const it = items.find((i) => i.key === clicked.key);
      if (!state || replay || state.status !== "playing" || state.result !== null) return;
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
  function deal() {
    if (!state || replay || state.status !== "playing" || state.result !== null) return;
    if (!state.legal_moves.includes("deal")) { say(state.layout.has_stock ? "The stock is empty." : "This game has no stock.", true); return; }
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
  // the focus back on the table's card in focus, its ring only for a keyboard user (a click on Undo left the focus
  // on the button: Space then undid again, and the arrows went nowhere)
  function keepFocus() {
    normalizeFocus();
    const el = elementFor(focus);
    if (!el) return;
    el.tabIndex = 0;
    el.classList.toggle("focus", keyboardUser);
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
      if (along <= geom.W / 2 || (dy && across > geom.W / 2)) continue;  // (up and down: within its own column)
      const d = along + 2 * across;
      if (d < bestD) { bestD = d; best = q; }
    }
    return best;
  }
  function focusPile(q, f) {
    focus = { pile: q, idx: f[q][f[q].length - 1] };
    applyFocus();
  }
  function moveFocus(dx, dy) {
    const f = focusables();
    normalizeFocus();
    const p = focus.pile;
    if (geom.side && p[0] !== "c") {
      const q = nearestPile(p, dx, dy);
      if (q) focusPile(q, f);
      return;
    }
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
      if ((k < 0 || k >= row.length) && geom.side) {  // from the first or last column to the piles beside them
        const q = nearestPile(p, dx, 0);
        if (q) focusPile(q, f);
        return;
      }
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
    tryMove(pick, dst, groupEls(pick.src, pick.card, pick.count));
  }

  document.addEventListener("keydown", (e) => {
    if (!state) return;
    // (the box at the end of a game is no field: the game's keys work from its buttons, as they did)
    const inField = e.target.closest && e.target.closest("input:not([type=range]), select, textarea, dialog:not(#banner)");
    const key = e.key;
    const ctrl = e.ctrlKey || e.metaKey;
    if (replay && !inField && !ctrl && !e.altKey) { replayKey(e); return; }
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
          say(`Picked up ${longName(pick.card)}${onIt(pick.count)}: choose a pile and press Enter (Esc cancels)`, false, true);
        }
        return;
      case " ":
        if (!onTable) return;
        e.preventDefault();
        if (held) { const p = held; cancelHeld(); const m = bestFor(p); m ? sendMove(m) : say(`${pretty(p.card)} has no legal move now.`, true); return; }
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
          if (i >= state.layout.columns) {  // (a picked-up card stays up: the player may still press a column's digit)
            say(`There is no column ${key}: ${state.title} has ${state.layout.columns}.`, true);  // (the terminal's words)
            return;
          }
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
    $("new-variant-about").textContent = v.about || "";
    updateNumbering();
  }
  // PySolFC's numbers are offered for the variants PySolFC deals from the same layout (the server says which)
  function updateNumbering() {
    const v = variants.variants.find((x) => x.name === $("new-variant").value);
    const offered = !!v && (v.numberings || ["yukon"]).includes("pysolfc");
    const sel = $("new-numbering");
    sel.querySelector("option[value=pysolfc]").disabled = !offered;
    if (!offered) sel.value = "yukon";
    $("new-numbering-note").textContent = offered
      ? (sel.value === "pysolfc" ? "PySolFC's game numbers run from 1: the same number deals the same cards as in PySolFC." : "")
      : `PySolFC's game numbers are not available for ${v ? v.title : "this variant"}.`;
    $("new-deal").disabled = sel.value === "pysolfc";
  }
  function openNewDialog() {
    if (!variants) return;
    setDialogDefaults(state ? state.variant : settings.variant, state ? state.rules : settings.options);
    $("new-seed").value = "";
    $("new-deal").value = settings.deal || (settings.winnableOnly ? "winnable" : "any");
    $("new-numbering").value = (state && state.numbering) || settings.numbering || "yukon";
    updateNumbering();
    // only a game the player (or the computer) moved in counts when left: the cards that played themselves at
    // the deal leave no trace (docs/web.md), so they get no warning
    $("new-abandon").hidden = !(state && state.status === "playing" && state.result === null
      && (state.player_moved || state.computer_moves > 0));
    $("new-abandon").textContent = `Leaving the game in play: ${leaving(state)}.`;
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
    const v = variants.variants.find((x) => x.name === settings.variant);
    settings.options = { empty_column: $("new-empty-column").value, foundation_return: $("new-foundation-return").checked };
    if (v && settings.options.empty_column === v.defaults.empty_column && settings.options.foundation_return === v.defaults.foundation_return) settings.options = {};
    settings.deal = $("new-deal").value;
    settings.winnableOnly = settings.deal.startsWith("winnable");
    settings.numbering = $("new-numbering").value;
    saveSettings();
    newGame({ variant: settings.variant, options: settings.options, seed, numbering: settings.numbering, winnableOnly: settings.winnableOnly, deal: settings.deal });
  });

  function openOptions() {
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
      if ((key === "autoplay" || key === "autofinish") && settings[key] && state && state.status === "playing") {
        enqueue(async () => {
          const data = await api("POST", `/api/games/${state.id}/auto`, { autoplay: settings.autoplay, autofinish: settings.autofinish });
          accept(data);
        });
      }
    });
  }

  // A question of the page's own (never the browser's confirm(), which stops the page, looks like the browser's
  // and cannot be styled): resolves true for the button that goes on, false for the other one or Esc. Whichever
  // button is safer to press by mistake takes the focus (`focus`: "ok" or "cancel").
  let answerAsk = null;
  function ask({ title, text, ok, cancel = "Cancel", focus = "ok" }) {
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
    $(focus === "cancel" ? "ask-cancel" : "ask-ok").focus();
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

  const STATS_COLUMNS = ["Game", "Played", "Won", "Win rate", "Streak", "Best streak", "Best time", "Fewest moves"];
  async function openStats() {
    const body = $("stats-body");
    body.textContent = "Loading…";
    $("dlg-stats").showModal();
    try {
      const { stats } = await api("GET", "/api/stats");
      // the figures are of finished games: a game you are playing is in them only once it is won or left, which
      // a new player cannot guess ("No games played yet" in the middle of one)
      const pending = state && state.player_moved && state.result === null && !state.computer_moves
        ? "The game in play is not in these figures yet: it counts once it is won, or left for another game." : "";
      if (!stats.length) { body.textContent = pending ? `No game finished yet. ${pending}` : "No games played yet."; return; }
      const pct = (x) => `${Math.round(x * 100)}%`;
      const rows = stats.map((s) => {
        // PySolFC's deal 42 is another deal than this program's 42: its games are a row of their own
        const opts = `empty column: ${s.options.empty_column}, foundation return: ${s.options.foundation_return ? "on" : "off"}${s.numbering === "pysolfc" ? ", PySolFC deal numbers" : ""}`;
        const cur = state && s.variant === state.variant && s.options.empty_column === state.rules.empty_column && s.options.foundation_return === state.rules.foundation_return && s.numbering === (state.numbering || "yukon");
        const cells = [s.played, s.won, pct(s.win_rate), s.current_streak, s.best_streak,
          s.best_time === null ? "–" : fmtTime(s.best_time), s.fewest_moves ?? "–"];
        // each cell names its column (data-label): a phone shows a game's figures as a labelled grid, not a wide row
        return `<tr class="${cur ? "current" : ""}"><td>${s.title}<span class="opts">${opts}</span></td>${cells.map((c, i) => `<td data-label="${STATS_COLUMNS[i + 1]}">${c}</td>`).join("")}</tr>`;
      }).join("");
      body.innerHTML = `<table><thead><tr>${STATS_COLUMNS.map((c) => `<th>${c}</th>`).join("")}</tr></thead><tbody>${rows}</tbody></table>`;
      if (pending) { const note = document.createElement("p"); note.className = "stats-pending"; note.textContent = pending; body.append(note); }
    } catch (err) {
      body.textContent = err.offline ? "The server is not answering: the statistics cannot be loaded now." : `Cannot load the statistics: ${err.message}`;
    }
  }

  $("btn-new").addEventListener("click", openNewDialog);
  $("btn-restart").addEventListener("click", restart);
  $("skip-to-table").addEventListener("click", (e) => { e.preventDefault(); if (state) applyFocus(true); });
  // (a click, not Enter or Space on the button: a keyboard user goes on from the button)
  const thenTable = (fn) => (e) => { const r = fn(); if (e.detail > 0 && r) r.then(() => { if (!document.querySelector("dialog[open]")) keepFocus(); }); };
  $("btn-undo").addEventListener("click", thenTable(undo));
  $("btn-redo").addEventListener("click", thenTable(redo));
  $("btn-hint").addEventListener("click", hint);
  $("btn-replay").addEventListener("click", () => (replay ? closeReplay() : openReplay()));
  $("btn-options").addEventListener("click", openOptions);
  $("btn-stats").addEventListener("click", openStats);
  $("btn-help").addEventListener("click", () => $("dlg-help").showModal());
  $("banner-new").addEventListener("click", () => {
    hideBanner();
    stopCascade();
    newGame({ variant: state.variant, options: state.rules, winnableOnly: settings.winnableOnly, deal: settings.deal });
  });
  // Statistics opens over the box, as New (N) does: Esc or Close returns to the box, not past it to the table
  $("banner-stats").addEventListener("click", () => { stopCascade(); openStats(); });
  $("banner-undo").addEventListener("click", () => { hideBanner(); undo(); });
  $("banner-analyse").addEventListener("click", () => { hideBanner(); stopCascade(); analyse(); });
  $("banner-replay").addEventListener("click", () => { hideBanner(); stopCascade(); openReplay(); });
  $("banner").addEventListener("click", (e) => { if (e.target === $("banner")) hideBanner(); });
  $("deal-number").addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      const t = e.target.value.trim();
      if (!/^\d+$/.test(t)) { say("A deal number is a whole number, such as 42.", true); return; }
      if (!Number.isSafeInteger(Number(t))) { say(`This page takes deal numbers up to ${Number.MAX_SAFE_INTEGER}.`, true); return; }
      e.target.blur();
      newGame({ variant: state.variant, options: state.rules, seed: Number(t), numbering: state.numbering });
    } else if (e.key === "Escape") {
      e.target.value = state.seed ?? "custom";
      e.target.blur();
    }
  });
  $("deal-number").addEventListener("blur", (e) => { if (state) e.target.value = state.seed ?? "custom"; });


  // ------------------------------------------------------------------ replay: step through the game's moves (read-only)
  // Every position comes from the server (GET /replay), which shows only what the player has seen: the page
  // is never given a record with face-down cards while the game is in play. Nothing changes the game but
  // "Play from here" (undo to that move; for a finished game, a new game from its record cut there).
  function replayView(pos) {
    return {
      ...replay.live, tableau: pos.tableau, foundations: pos.foundations, foundation_piles: pos.foundation_piles,
      stock_count: pos.stock_count, waste: pos.waste,
      cards_on_foundations: pos.cards_on_foundations, face_down_count: pos.face_down_count,
      move_count: pos.at + pos.then.length, moves_made: moveNo(pos.at, replay.live) + pos.then.length, legal_moves: [], best_moves: {}, foundation_moves: {},
      can_undo: false, can_redo: false, status: "replay", played: [],
    };
  }
  function beginReplay(live, analysis) {
    // (``first``: the replay starts where the player's game did, after the deal's automatic plays)
    replay = { live, at: -1, first: live.dealt || 0, total: live.move_count, moves: live.moves, cont: null, analysis,
      want: { at: live.move_count, k: 0 } };
    held = null;
    clearHint();
    stopCascade();
    table.classList.add("replaying");
  }
  function endReplay() {  // the caller renders
    replay = null;
    replayReq++;
    table.classList.remove("replaying");
    $("replay-bar").hidden = true;
    coverHeader(false);
  }
  // The replay bar lies over the header: its controls are not to be tabbed to unseen. The page's heading stays
  // (an inert header took the one h1 out of the page while the replay was open).
  function coverHeader(on) {
    for (const el of document.querySelectorAll("header.bar .info, header.bar .actions")) el.inert = on;
  }
  async function loadReplay(at, k = 0, played = []) {
    const r = replay;
    if (!r) return;
    const req = ++replayReq;
    const then = r.cont ? r.cont.moves.slice(0, k) : [];
    const q = `at=${at}` + (then.length ? `&then=${encodeURIComponent(then.join(" "))}` : "");
    const pos = await api("GET", `/api/games/${encodeURIComponent(r.live.id)}/replay?${q}`);
    if (replay !== r || req !== replayReq) return;
    r.at = at;
    if (r.cont) r.cont.k = k;
    state = replayView(pos);
    showReplayBar();
    render({ played });
    markReplay();
  }
  function replayTo(at, k = 0, played = []) {
    if (!replay) return queue;
    replay.want = { at, k };
    return enqueue(() => loadReplay(at, k, played));
  }
  function openReplay() {
    if (!state || replay) return;
    if (!state.moves_made && state.result === null) { say("No moves to replay yet.", true); return; }
    hideBanner();
    beginReplay(state, null);
    say("Replay: ← → step through the moves, Esc closes. The game is not changed.");
    replayTo(state.move_count);
  }
  function closeReplay() {
    if (!replay) return;
    state = replay.live;
    endReplay();
    render();
    // a finished game takes no more moves: say so, rather than "back to the game" at a table that does nothing
    say(state.result === null ? "Back to the game." : "This game is over: it takes no more moves. New deal plays another.");
  }
  function stepReplay(d) {  // (the promise: analysis.js plays the winning line one step after another)
    const r = replay;
    if (!r) return queue;
    if (r.cont) {
      const k = Math.max(0, Math.min(r.cont.moves.length, r.want.k + d));
      return k !== r.want.k ? replayTo(r.cont.from, k, d === 1 ? [r.cont.moves[k - 1]] : []) : queue;
    }
    const at = Math.max(r.first, Math.min(r.total, r.want.at + d));
    return at !== r.want.at ? replayTo(at, 0, d === 1 ? [r.moves[at - 1]] : []) : queue;
  }
  function jumpReplay(n) {  // n: a move number of what the slider shows (the game's moves, or the winning line)
    const r = replay;
    if (!r) return queue;
    if (r.cont) return replayTo(r.cont.from, Math.max(0, Math.min(r.cont.moves.length, n)));
    return replayTo(Math.max(r.first, Math.min(r.total, r.first + n)));
  }
  function replayKey(e) {
    const key = e.key, onSlider = e.target && e.target.id === "replay-slider";
    if ((key === "ArrowLeft" || key === "ArrowRight") && !onSlider) { e.preventDefault(); stepReplay(key === "ArrowLeft" ? -1 : 1); return; }
    if ((key === "Home" || key === "End") && !onSlider) { e.preventDefault(); jumpReplay(key === "Home" ? 0 : Infinity); return; }
    if (key === "Escape") { e.preventDefault(); if (replay.cont) toggleLine(); else closeReplay(); return; }
    if (key === "p" || key === "P") { closeReplay(); return; }
    if (key === "?") $("dlg-help").showModal();
  }
  function clearMarks() { table.querySelectorAll(".hint, .losing").forEach((x) => x.classList.remove("hint", "losing")); }
  function markMove(text, cls) {
    const mv = parseMove(text);
    if (!mv) return;
    if (mv.src === "S") { if (zones.S) zones.S.classList.add(cls); return; }
    groupEls(mv.src, mv.card, mv.count).forEach((el) => el.classList.add(cls));
    const dz = mv.dst === "F" ? foundationZoneFor(mv.card) : zones[mv.dst];
    if (dz) dz.classList.add(cls);
  }
  // the move about to be played is lit; the losing move in red
  function markReplay() {
    const r = replay;
    clearMarks();
    if (!r) return;
    const next = r.cont ? r.cont.moves[r.cont.k] : r.moves[r.at];
    if (next) markMove(next, !r.cont && r.analysis && r.analysis.losing_move === r.at + 1 ? "losing" : "hint");
  }
  function showReplayBar() {
    const r = replay, bar = $("replay-bar");
    bar.hidden = !r;
    if (!r) return;
    fitReplayBar();
    coverHeader(true);
    const a = r.analysis, c = r.cont, over = r.live.result !== null;
    const at = c ? c.k : r.at, end = c ? c.moves.length : r.total;
    const first = c ? 0 : r.first, shownAt = at - first, shownEnd = end - first;  // (the game's moves as counted)
    bar.classList.toggle("line", !!c);
    const slider = $("replay-slider");
    slider.max = String(shownEnd);
    slider.value = String(shownAt);
    slider.setAttribute("aria-valuetext", c ? `winning line, move ${at} of ${end}` : `move ${shownAt} of ${shownEnd}`);
    $("replay-first").disabled = $("replay-back").disabled = at <= first;
    $("replay-forward").disabled = $("replay-last").disabled = at >= end;
    $("replay-pos").textContent = c ? `Winning line: move ${at} of ${end}` : `Move ${shownAt} of ${shownEnd}`;
    const next = c ? c.moves[at] : r.moves[at];
    const losing = !c && a && a.losing_move === at + 1;
    $("replay-next").textContent = next
      ? `${losing ? "Next, the move that lost the game" : "Next"}: ${describeMove(parseMove(next))}`
      : c ? "Won: every card is up." : over ? "The end of the game." : "Where you are now in the game.";
    const mark = $("replay-mark");
    mark.hidden = !(a && a.losing_move && !c);
    if (!mark.hidden) mark.style.left = `${((a.losing_move - r.first) / Math.max(1, r.total - r.first)) * 100}%`;
    const line = $("replay-line");
    line.hidden = !lineOf(a, r.total);
    wideLabel(line, c ? "{Back to the }game's moves" : "{Show the }winning line");
    const ask = $("replay-analyse");
    ask.hidden = !!a || r.live.result === "won";
    // (what it costs is said at every width: a phone read only "Where did it go wrong?")
    ask.textContent = over ? "Where did it go wrong?" : "Where did it go wrong? (ends the game)";
    $("replay-export").hidden = !over;
    wideLabel($("replay-play"), over ? "Play on{ from here (a new game)}" : "Play from here");
    $("replay-play").title = over ? "Play on from here: a new game from this move" : "Back into play at this move (Redo plays the later ones)";
    const text = $("replay-analysis");
    text.hidden = !a;
    // (the button's name as it reads: without its "Show the" on a phone)
    if (a) { wideLabel(text, analysisText(a, r.moves, !!c)); text.classList.toggle("lost", !!a.losing_move); }
    replayHooks.forEach((f) => f(r));
  }
  const replayHooks = [];  // called with the replay each time its bar is shown (analysis.js)
  // The replay bar lies over the header and the status line, exactly as tall as they are: the table keeps its
  // box and the cards their places when it comes and goes (style.css).
  function fitReplayBar() {
    const bar = $("replay-bar");
    if (!bar.hidden) bar.style.height = `${table.getBoundingClientRect().top}px`;
  }
  window.addEventListener("resize", fitReplayBar);
  // a button's label whose {parts} a phone leaves out (.wide): its accessible name is what it shows
  function wideLabel(el, text) {
    el.replaceChildren(...text.split(/(\{[^}]*\})/).filter(Boolean).map((part) => {
      if (part[0] !== "{") return document.createTextNode(part);
      const wide = document.createElement("span");
      wide.className = "wide";
      wide.textContent = part.slice(1, -1);
      return wide;
    }));
  }
  // (``showing``: the winning line is on the table, and its button says "Back to the game's moves": the words that
  // say to press "Show the winning line" go)
  function analysisText(a, moves, showing = false) {
    if (a.losing_move) {
      const mv = parseMove(moves[a.losing_move - 1] || "");
      return `Move ${moveNo(a.losing_move, replay ? replay.live : state)} lost the game${mv ? ` (${describeMove(mv).replace(/^./, (ch) => ch.toLowerCase())})` : ""}: before it, the game could still be won by someone seeing every card.`
        + (showing ? "" : ' "{Show the }winning line" plays what would have won, move by move.');
    }
    if (a.start === "lost") return "This deal could not be won from the start, even seeing every card: no move of yours lost it.";
    if (a.end === "won") return "You won: no move lost the game.";
    if (a.losing_range && a.range_text) return `${a.range_text}.`;
    if (a.end === "winnable") {
      return "The game could still be won where it was left: no move lost it."
        + (a.winning_line && a.winning_line.length && !showing ? ' "{Show the }winning line" plays a way to win from there.' : "");
    }
    return "The solver could not decide in time where the game was lost.";
  }
  // the winning line an analysis shows: from before the move that lost the game, or from where a game still
  // winnable was left (of ``total`` moves)
  function lineOf(a, total) {
    if (!a) return null;
    if (a.losing_move && a.continuation.length) return { from: a.losing_move - 1, moves: a.continuation };
    if (a.end === "winnable" && a.winning_line && a.winning_line.length) return { from: total, moves: a.winning_line };
    return null;
  }
  function toggleLine() {
    const r = replay;
    const found = r && lineOf(r.analysis, r.total);
    if (!found) return;
    const from = found.from;
    if (r.cont) { r.cont = null; replayTo(from); return; }
    r.cont = { from, moves: found.moves, k: 0 };
    say("The winning line: → plays it move by move.");
    replayTo(from, 0);
  }
  function playFromHere() {
    const r = replay;
    if (!r) return;
    const c = r.cont, at = c ? c.from : r.at;
    if (r.live.result === null) {
      // (the deal's automatic plays are the deal's: play resumes after them at the earliest)
      const to = Math.max(at, r.live.dealt || 0);
      if (to === r.total) { closeReplay(); return; }
      enqueue(async () => {
        const data = await api("POST", `/api/games/${r.live.id}/undo`, { to });
        accept(data);
        say(`Back in play at move ${moveNo(to, r.live)}: Redo plays the later moves again.`);
      });
      return;
    }
    // a finished game takes no more moves: a new game from its record, cut here
    enqueue(async () => {
      const record = await api("GET", `/api/games/${r.live.id}/record`);
      record.moves = record.moves.slice(0, at).concat(c ? c.moves.slice(0, c.k) : []);
      delete record.result;
      const data = await api("POST", "/api/games/import", { record });
      hideBanner();
      accept(data, { fresh: true });
      say(`A new game from move ${record.moves.length} of the last one: play on.`);
    });
  }
  // what leaving a game in play does to the statistics (a game the computer played in is not counted)
  function leaving(game) {
    return game && game.computer_moves ? "it is not counted in your statistics, since the computer played in it"
      : "it counts as not won";
  }
  // "Where did it go wrong?": a game in play is ended first (the answer shows face-down cards)
  async function analyse() {
    const live = replay ? replay.live : state;
    if (!live || live.result === "won") return;
    if (live.result === null && live.status === "playing") {
      const yes = await ask({
        title: "End this game?",
        text: `Asking where it went wrong ends this game (${leaving(live)}): the answer shows ${live.unseen || "the face-down cards"}.`,
        ok: "End it and ask", cancel: "Keep playing", focus: "cancel",
      });
      if (!yes || live !== (replay ? replay.live : state)) return;  // (no, or the game changed meanwhile)
    }
    enqueue(async () => {
      let over = live;
      if (over.result === null) {
        over = await api("POST", `/api/games/${live.id}/resign`);
        accept(over);
      }
      say("Where did it go wrong? The solver is looking (it may take a few seconds)…", false, true);
      const a = await api("POST", `/api/games/${over.id}/analysis`);
      const cur = replay ? replay.live : state;
      if (!cur || cur.id !== over.id) return;
      hideBanner();
      if (replay) { state = replay.live; endReplay(); }
      beginReplay(cur, a);
      say(a.losing_move ? `Found it: move ${moveNo(a.losing_move, cur)} lost the game (in red below).` : "The analysis is done (below).", false);
      const at = a.losing_move ? a.losing_move - 1 : cur.move_count;
      replay.want = { at, k: 0 };
      await loadReplay(at);
    });
  }
  function exportRecord() {
    const live = replay ? replay.live : state;
    if (!live || live.result === null) { say("A game is saved as a record once it is over: a record shows the face-down cards.", true); return; }
    enqueue(async () => {
      const record = await api("GET", `/api/games/${live.id}/record`);
      const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1) + "\n"], { type: "application/json" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = `yukon-${live.variant}-${live.seed ?? "custom"}.json`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      say(`Saved the record as ${a.download}.`);
    });
  }
  function importRecord(record, name) {
    const live = replay ? replay.live : state;
    const body = { record };
    if (live && live.result === null) body.abandon = live.id;  // as for a new deal
    enqueue(async () => {
      let data;
      try {
        data = await api("POST", "/api/games/import", body);
      } catch (err) {
        if (err.status === 409 && body.abandon) { delete body.abandon; data = await api("POST", "/api/games/import", body); }
        else if (err.status === 400 || err.status === 413 || err.status === 422) { say(`${name}: ${err.message}`, true, true); return; }
        else throw err;
      }
      hideBanner();
      accept(data, { fresh: true });
      say(`Opened ${name}: ${plural(data.move_count, "move")} played. Play on, or Replay (P) to step through them.`);
    });
  }
  $("replay-first").addEventListener("click", () => jumpReplay(0));
  $("replay-back").addEventListener("click", () => stepReplay(-1));
  $("replay-forward").addEventListener("click", () => stepReplay(1));
  $("replay-last").addEventListener("click", () => jumpReplay(Infinity));
  let sliderTimer = 0;
  $("replay-slider").addEventListener("input", (e) => {
    clearTimeout(sliderTimer);
    const n = +e.target.value;
    sliderTimer = setTimeout(() => jumpReplay(n), 40);
  });
  $("replay-line").addEventListener("click", toggleLine);
  $("replay-analyse").addEventListener("click", analyse);
  $("replay-export").addEventListener("click", exportRecord);
  $("replay-play").addEventListener("click", playFromHere);
  $("replay-close").addEventListener("click", closeReplay);
  $("new-import").addEventListener("click", () => $("import-file").click());
  $("import-file").addEventListener("change", async (e) => {
    const file = e.target.files && e.target.files[0];
    e.target.value = "";
    if (!file) return;
    $("dlg-new").close();
    let record;
    try { record = JSON.parse(await file.text()); } catch (err) { say(`${file.name} is not a game record: it is not JSON.`, true, true); return; }
    importRecord(record, file.name);
  });

  // ------------------------------------------------------------------ clock: pause while the page is hidden
  function setClock(running) {
    if (!state || state.result !== null) return;
    const url = `/api/games/${state.id}/clock`;
    if (!running) {
      state.elapsed = shownElapsed();
      receivedAt = performance.now();
      state.clock_running = false;
      const blob = new Blob([JSON.stringify({ running: false })], { type: "application/json" });
      if (!(navigator.sendBeacon && navigator.sendBeacon(url, blob))) api("POST", url, { running: false }).catch(() => {});
      return;
    }
    api("POST", url, { running: true }).then((c) => {
      state.elapsed = c.elapsed; state.clock_running = c.clock_running; receivedAt = performance.now(); tick();
    }).catch((err) => { if (err.offline) goOffline(); });
  }
  document.addEventListener("visibilitychange", () => setClock(!document.hidden));

  // A drag measured on the old layout would drop where the pointer no longer means the same pile: a resize
  // (a phone turned, a window dragged) puts the cards back and the drag ends with no move.
  function cancelDrag() {
    if (!drag || !drag.started) { endDrag(); return; }
    clearTargets();
    drag.els.forEach((el) => el.classList.remove("dragging"));
    drag.cancelled = true;
  }
  let resizeTimer = 0;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { if (drag) cancelDrag(); if (state) render({ instant: true }); }, 60);
  });

  // ------------------------------------------------------------------ start: resume the last game, or deal one
  async function start() {
    try {
      variants = await api("GET", "/api/variants");
      fillVariants();
    } catch (err) {
      if (err.offline) { goOffline(); return; }
      say(`Cannot start: ${err.message}`, true, true);
      return;
    }
    const resumed = (data) => {
      accept(data);
      if (data.result === null && data.player_moved) say("Welcome back: your game is where you left it.");
    };
    // a game the server no longer knows (another database, deleted) is expected: 204, no console error
    const known = async (gameId) => api("GET", `/api/games/${encodeURIComponent(gameId)}?missing_ok=true`);
    const params = new URLSearchParams(location.search);
    if (params.has("game")) {
      try { const data = await known(params.get("game")); if (data) { resumed(data); return; } } catch (e) { if (e.offline) { goOffline(); return; } }
    }
    let id = null;
    try { id = localStorage.getItem("yukon.game"); } catch (e) { id = null; }
    if (id) {
      try { const data = await known(id); if (data) { resumed(data); return; } } catch (e) { if (e.offline) { goOffline(); return; } }
    }
    // (none on a first visit: 204, not an error the console would show)
    try {
      const latest = await api("GET", "/api/games/latest?missing_ok=true");
      if (latest) { resumed(latest); return; }
    } catch (e) { if (e.offline) { goOffline(); return; } }
    // a first visit (no game to resume, here or on the server): the table says how to play
    await newGame({ variant: settings.variant, options: settings.options, winnableOnly: false, welcome: true });
  }
  window.yukon = {
    get state() { return state; }, get geom() { return geom; }, get offline() { return offline; }, timings,
    get replay() { return replay; }, newGame, sendMove, undo, redo, queue: () => queue,
    // for demo.js (watch the computer play): the same requests, answers and messages as the player's moves
    api, accept, enqueue, say, settings, saveSettings, describeMove, parseMove, ask, focusLost,
    // for analysis.js: the replay's controls, and a hook on each position it shows
    stepReplay, jumpReplay, toggleLine, closeReplay, analyse, say, wideLabel, onReplayShown: (f) => replayHooks.push(f),
  };
  // the game is asked for once the page's other scripts have run too: shown while demo.js or analysis.js was still
  // on its way, the game took no T or W (their keys are theirs), and a key pressed at once was lost
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start, { once: true });
  else start();
})();
