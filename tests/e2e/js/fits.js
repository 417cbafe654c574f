// Whether a page fits the screen (tests/e2e/test_phone_browser.py): returns the
// problems found, in words. A page fits when the document does not scroll sideways,
// nothing shown sticks out of the screen or is cut off by a box that hides its
// overflow, and every box that scrolls sideways is a region a keyboard can reach and a
// screen reader can name (tabindex="0", role="region", aria-label).
() => {
  const problems = [];
  const width = window.innerWidth;
  const root = document.documentElement;
  if (root.scrollWidth > width) {
    problems.push(`the page scrolls sideways: ${root.scrollWidth} > ${width}`);
  }
  // Inside a box that shows nothing (the visually-hidden pattern: clipped to nothing).
  const clippedAway = (el) => {
    for (let up = el; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.clip === "rect(0px, 0px, 0px, 0px)" || style.display === "none") return true;
    }
    return false;
  };
  const hidden = (el) => !!el.closest(
    ".visually-hidden, .skip, [hidden], details:not([open]) > :not(summary)")
    || clippedAway(el);
  const name = (el) => el.tagName.toLowerCase()
    + (el.id ? "#" + el.id : "")
    + (typeof el.className === "string" && el.className.trim()
      ? "." + el.className.trim().split(/\s+/).join(".") : "")
    + ` "${(el.innerText || el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40)}"`;
  const scrolls = (el) => {
    const x = getComputedStyle(el).overflowX;
    return (x === "auto" || x === "scroll") && el.scrollWidth > el.clientWidth + 1;
  };
  for (const el of document.body.querySelectorAll("*")) {
    if (hidden(el) || el.closest("svg")) continue;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1 || style.visibility === "hidden") continue;
    // A box that scrolls sideways clips its top and bottom too: nothing may spill
    // there (a box made to scroll up and down has a max-height).
    if (["auto", "scroll"].includes(style.overflowX) && style.maxHeight === "none"
        && el.scrollHeight > el.clientHeight + 1) {
      problems.push(`cut off at the top or bottom: ${name(el)} (${el.scrollHeight} > ${el.clientHeight})`);
    }
    if (scrolls(el)) {
      const labelled = el.getAttribute("aria-label") || el.getAttribute("aria-labelledby");
      if (el.getAttribute("tabindex") !== "0" || el.getAttribute("role") !== "region"
          || !labelled) {
        problems.push(`scrolls sideways but is not a labelled, focusable region: ${name(el)}`);
      }
      continue;
    }
    const clips = ["hidden", "clip"].includes(style.overflowX);
    if (clips && el.scrollWidth > el.clientWidth + 1 && el.textContent.trim()) {
      problems.push(`cut off: ${name(el)} (${el.scrollWidth} > ${el.clientWidth})`);
    }
    if (style.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`shortened with an ellipsis: ${name(el)}`);
    }
    let inside = false;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (scrolls(up)) { inside = true; break; }
    }
    if (!inside && (box.right > width + 0.5 || box.left < -0.5)) {
      if (style.position === "absolute" && el.closest(".skip")) continue;
      problems.push(`off the screen: ${name(el)} ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
  }
  // A chart's words stay inside the chart (an SVG cuts off what is outside it).
  for (const text of document.querySelectorAll("svg text")) {
    if (hidden(text)) continue;
    const svg = text.closest("svg").getBoundingClientRect();
    const box = text.getBoundingClientRect();
    if (box.width && (box.left < svg.left - 0.5 || box.right > svg.right + 0.5)) {
      problems.push(`cut off by its chart: text "${text.textContent.trim().slice(0, 30)}"`);
    }
  }
  // Only the innermost culprits: an element off the screen drags its ancestors too.
  return [...new Set(problems)].slice(0, 20);
}
