/* The cards' faces, drawn here as SVG, and a card's element on the table. */
import { cardEls, table } from "./store.js";
import { RANKS, isRed, shown } from "./words.js";

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
export function makeCard(key, name) {
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
