/* The page's shared state: what several modules of the table read and change (each module keeps its own
otherwise). The game state is the server's: what the player can see. */

export const $ = (id) => document.getElementById(id);
export const table = $("table");

export const S = {
  state: null,        // the server's game state (what the player can see)
  receivedAt: 0,      // performance.now() when state arrived
  variants: null,     // GET /api/variants
  geom: null,         // layout of the current render
  size: null,         // the card size of this game at this window size: {key, W}
  items: [],          // rendered cards: {key, name, up, pile, idx, x, y, z}
  zones: {},          // pile id -> zone element (highlights)
  drag: null,         // pointer drag in progress
  held: null,         // keyboard pick-up: {pile, idx, card, count}
  focus: null,        // keyboard focus: {pile, idx}
  queue: Promise.resolve(),  // the requests, one after another (enqueue)
  lastBannerFor: "",  // the game and outcome the box at the end was last shown for
  offline: false,     // the server did not answer the last request
  // the replay in progress: {live (the game's own state), at, total, moves, cont, analysis, want}; null in play
  replay: null,
  keyboardUser: false,  // the last input was a key (the focus ring shows), not a pointer
};
export const cardEls = new Map();  // card key -> its element
export const timings = [];  // move round trips (request to table updated), ms: bench/web.py reads them
