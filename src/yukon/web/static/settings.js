/* The player's settings (Options, kept in localStorage) and the looks they choose: felt, card backs, motion. */

const reducedMotionQuery = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
const DEFAULTS = { autoplay: true, autofinish: true, winnable: false, solverHint: false, animate: true, variant: "yukon", options: {}, winnableOnly: false, numbering: "yukon", felt: "green", back: "blue" };
export const settings = { ...DEFAULTS };
try { Object.assign(settings, JSON.parse(localStorage.getItem("yukon.settings") || "{}")); } catch (e) { /* keep defaults */ }
export const saveSettings = () => { try { localStorage.setItem("yukon.settings", JSON.stringify(settings)); } catch (e) { /* private mode */ } };
export const motion = () => settings.animate && !(reducedMotionQuery && reducedMotionQuery.matches);
export function applyLooks() {
  const b = document.body;
  [...b.classList].filter((c) => c.startsWith("felt-") || c.startsWith("back-")).forEach((c) => b.classList.remove(c));
  b.classList.add("felt-" + settings.felt, "back-" + settings.back);
  b.classList.toggle("reduce-motion", !motion());
}
applyLooks();
if (reducedMotionQuery && reducedMotionQuery.addEventListener) reducedMotionQuery.addEventListener("change", applyLooks);
