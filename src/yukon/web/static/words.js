/* Cards, piles and moves in words and notation. A move's words come from the server ("words" in its
answers): the page words no move itself. */
import { S } from "./store.js";

const RANK_NAMES = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"];
export const RANKS = "A23456789TJQK";
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const shown = (name) => (name[0] === "T" ? "10" : name[0]);
export const pretty = (name) => shown(name) + SUIT_SYMBOL[name[1]];
export const longName = (name) => `${RANK_NAMES[RANKS.indexOf(name[0])]} of ${SUIT_NAMES[name[1]]}`;
export const isRed = (name) => name[1] === "H" || name[1] === "D";
export const fmtTime = (s) => {
  s = Math.max(0, Math.floor(s));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(sec).padStart(2, "0")}`;
};
export const dealName = (s) => (s.seed === null || s.seed === undefined ? "custom deal" : s.numbering === "pysolfc" ? `PySolFC game ${s.seed}` : `deal ${s.seed}`);
export const pileName = (p) => (p === "F" ? "a foundation" : p === "W" ? "the waste" : p === "S" ? "the stock" : `column ${+p.slice(1) + 1}`);
export const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
// a move number as the player counts: the deal's automatic plays (an Ace straight up) are the deal's, not moves
export const moveNo = (n, game = S.state) => n - ((game && game.dealt) || 0);
// a pile of the page ("c3", "W", "f2") in the notation's words ("4", "W", "F")
export const note = (p) => (p === "W" ? "W" : p === "F" || p[0] === "f" ? "F" : String(+p.slice(1) + 1));

export function parseMove(text) {
  if (text === "deal") return { text, src: "S", dst: "S", card: null, count: 0 };
  const m = /^(\d+|W|F):([A2-9TJQK][SHDC])(?:\+(\d+))?>(\d+|F)$/.exec(text);
  if (!m) return null;
  const pile = (s) => (s === "W" || s === "F" ? s : "c" + (parseInt(s, 10) - 1));
  return { text, src: pile(m[1]), card: m[2], count: m[3] ? parseInt(m[3], 10) + 1 : 1, dst: pile(m[4]) };
}
export const moveText = (src, card, count, dst) => `${note(src)}:${card}${count > 1 ? "+" + (count - 1) : ""}>${note(dst)}`;
// the cards a group's lead carries: " and 8 cards on it", as the terminal says ("with 8 cards" read as eight in all)
export const onIt = (count) => (count > 1 ? ` and ${plural(count - 1, "card")} on it` : "");
// A move in words comes from the server, with the answer that names it ("words": the terminal game's wording
// too): what a move is, not that it happened (a hint and the replay's "Next" name it too). The page words no
// move itself; one it was not told about (none should be) shows as its notation.
const moveWords = new Map();
export function learnWords(data) {
  if (data && data.words && typeof data.words === "object") Object.entries(data.words).forEach(([t, w]) => moveWords.set(t, w));
}
export const describeMove = (mv) => moveWords.get(mv.text) || mv.text;
