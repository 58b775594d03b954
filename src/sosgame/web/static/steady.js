// Redraws wait while a finger or a mouse button is down. A button replaced between the press
// and the release gets no click (the browser sends none to a node taken from the page), so a
// redraw arriving then (someone joining, a pushed list) would swallow the tap.
const LONGEST_PRESS_MS = 5000; // past this a press is no tap: the page catches up

let pressed = false;
let timer = 0;
const owed = new Map(); // each deferred redraw, with the latest arguments it was given

function release() {
  if (!pressed) return;
  pressed = false;
  clearTimeout(timer);
  // A task later: the click this release makes is handled before the page changes.
  setTimeout(() => {
    const due = [...owed];
    owed.clear();
    for (const [draw, args] of due) draw(...args);
  }, 0);
}

addEventListener("pointerdown", () => {
  pressed = true;
  clearTimeout(timer);
  timer = setTimeout(release, LONGEST_PRESS_MS);
}, true);
addEventListener("pointerup", release, true);
addEventListener("pointercancel", release, true);
addEventListener("blur", release);

// `draw`, run at once unless a press is under way, else once it ends (with the latest
// arguments: a redraw shows the newest state, and only once).
export function steadily(draw) {
  return (...args) => {
    if (pressed) owed.set(draw, args);
    else draw(...args);
  };
}
