/* Where every pile and card lies: the card size for the variant and the window, and the columns' fans. */
import { S, table } from "./store.js";
import { plural } from "./words.js";

// The card size depends on the variant and the window only, never on the position: it is kept for
// the whole game at a given window size, and long columns compress their fan instead.
const MIN_UP = { big: 0.215, compact: 0.3 };   // the fan at which a face-up card's index still shows
const DOWN = 0.09;                             // the fan of face-down cards
const TIGHT_UP = 0.1;                          // the fan at which the thin index ("tight" cards) still shows
const COMPACT = 62;                            // the card width under which cards show their compact face
// the widest card `slots` piles side by side leave, and `rows` card heights (a top row, or none) above a long
// column this variant reaches: its deepest face-down pile under a run of twelve (two decks: sixteen)
function widthFor(width, availH, slots, rows, gap) {
  const L = S.state.layout;
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
  const key = `${S.state.id}|${window.innerWidth}x${window.innerHeight}`;
  if (S.size && S.size.key === key) return S.size;
  const L = S.state.layout;
  const gap = Math.round(Math.min(14, Math.max(4, width * 0.012)));
  S.size = { key, W: widthFor(width, availH, L.columns, 1, gap), gap, side: null };
  if (S.size.W < COMPACT) {
    const left = L.has_stock ? 1 : 0;
    // the stock's column: the stock, and the waste fanned down under it
    const stockH = (W) => { const H = Math.round(W * 1.4); return left * (H + gap + (L.has_waste ? H + 2 * wasteFan(W, H) + gap : 0)); };
    for (let fcols = 1; fcols <= L.foundations; fcols++) {
      const frows = Math.ceil(L.foundations / fcols);
      let W = Math.min(widthFor(width - 2 * sideGap(gap), availH, L.columns + left + fcols, 0, gap),
        Math.floor(((availH - gap) / frows - gap) / 1.4));
      while (W > 30 && stockH(W) + gap > availH) W--;
      if (W > S.size.W) S.size = { key, W, gap, side: { fcols, frows } };
    }
  }
  return S.size;
}
const sideGap = (gap) => Math.round(gap * 0.8);  // (more room between the tableau and the piles beside it)
// the waste's fan: across in the top row, down in the stock's column beside the tableau
const wasteFan = (W, H) => Math.round((W < COMPACT ? MIN_UP.compact : MIN_UP.big) * H);
export function computeGeom() {
  const L = S.state.layout;
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
  g.fan = S.state.tableau.map((c) => {
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

export function layoutItems() {
  const g = S.geom;
  const out = [];
  const seen = {};
  const keyOf = (name) => { seen[name] = (seen[name] || 0) + 1; return name + "#" + seen[name]; };
  S.state.foundations.forEach((pile, j) => {
    pile.forEach((name, i) => out.push({ key: keyOf(name), name, up: true, pile: "f" + j, idx: i, x: g.foundX(j), y: g.foundY(j), z: 10 + i, top: i === pile.length - 1 }));
  });
  S.state.tableau.forEach((c, i) => {
    const f = g.fan[i];
    const nd = c.down_count;
    for (let k = 0; k < nd; k++) out.push({ key: `down:${i}:${k}`, name: null, up: false, pile: "c" + i, idx: k, x: g.colX(i), y: g.yTab + k * f.d, z: 100 + k });
    c.up.forEach((name, k) => {
      const top = k === c.up.length - 1;
      out.push({ key: keyOf(name), name, up: true, pile: "c" + i, idx: nd + k, x: g.colX(i), y: g.yTab + nd * f.d + k * f.u, z: 100 + nd + k, top, tight: f.tight && !top });
    });
  });
  // the stock: a few backs, slightly stacked (its order is the server's secret)
  const ns = S.state.stock_count || 0;
  for (let i = 0; i < Math.min(ns, 4); i++) out.push({ key: `stock:${i}`, name: null, up: false, pile: "S", idx: i, x: g.stockX + i, y: g.stockY - i, z: 10 + i, top: i === Math.min(ns, 4) - 1 });
  const waste = S.state.waste || [];
  waste.forEach((name, i) => {
    const fromTop = waste.length - 1 - i;
    const step = g.wasteDown || Math.round(g.W * 0.27);  // (down beside the tableau, else across)
    const shift = Math.max(0, (fromTop < 3 ? (2 - fromTop) * step : 0) - Math.max(0, 3 - waste.length) * step);
    out.push({ key: keyOf(name), name, up: true, pile: "W", idx: i, x: g.wasteX + (g.wasteDown ? 0 : shift), y: g.wasteY + (g.wasteDown ? shift : 0), z: 10 + i, top: fromTop === 0 });
  });
  return out;
}

export function pileRect(p) {
  const g = S.geom;
  if (p[0] === "c") {
    const i = +p.slice(1), c = S.state.tableau[i], f = g.fan[i];
    const h = g.H + c.down_count * f.d + Math.max(0, c.up.length - 1) * f.u;
    return { x: g.colX(i), y: g.yTab, w: g.W, h: Math.max(h, g.H) };
  }
  if (p[0] === "f") return { x: g.foundX(+p.slice(1)), y: g.foundY(+p.slice(1)), w: g.W, h: g.H };
  if (p === "S") return { x: g.stockX, y: g.stockY, w: g.W, h: g.H };
  if (p === "W") return g.wasteDown ? { x: g.wasteX, y: g.wasteY, w: g.W, h: g.H + 2 * g.wasteDown }
    : { x: g.wasteX, y: g.wasteY, w: Math.round(g.W * 1.54), h: g.H };
  return null;
}
export const allPiles = () => {
  const ps = [];
  if (S.state.layout.has_stock) ps.push("S");
  if (S.state.layout.has_waste) ps.push("W");
  for (let j = 0; j < S.state.layout.foundations; j++) ps.push("f" + j);
  for (let i = 0; i < S.state.layout.columns; i++) ps.push("c" + i);
  return ps;
};
export const stockLabel = () => `stock, ${plural(S.state.stock_count, "card")}` + (S.state.stock_count ? " (click to deal)" : ", empty");
