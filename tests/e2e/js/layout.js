// The layout checks every right-to-left page passes (tests/e2e/test_rtl_browser.py):
// called with the selectors of boxes whose children must not overlap, it returns
// the problems it found, in words.
(selectors) => {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > window.innerWidth) {
    problems.push(`horizontal scroll: ${root.scrollWidth} > ${window.innerWidth}`);
  }
  const hidden = (el) => !!el.closest(
    ".visually-hidden, .skip, [hidden], details:not([open]) > :not(summary)");
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 1 && box.height > 1 && style.visibility !== "hidden"
      && style.position !== "absolute" && !hidden(el);
  };
  const name = (el) => el.tagName.toLowerCase()
    + (el.className && typeof el.className === "string" ? "." + el.className.trim().split(/\s+/).join(".") : "")
    + ` "${(el.innerText || "").trim().slice(0, 30)}"`;
  const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  // Where an element's ink is: its box and whatever of its content spills out of
  // it (a name that does not wrap, a label hanging below a circle).
  const ink = (el) => {
    const boxes = [el, ...el.querySelectorAll("*")]
      .filter((part) => !hidden(part))
      .map((part) => part.getBoundingClientRect())
      .filter((box) => box.width > 0 && box.height > 0);
    return {
      left: Math.min(...boxes.map((b) => b.left)),
      right: Math.max(...boxes.map((b) => b.right)),
      top: Math.min(...boxes.map((b) => b.top)),
      bottom: Math.max(...boxes.map((b) => b.bottom)),
    };
  };
  for (const selector of selectors) {
    for (const box of document.querySelectorAll(selector)) {
      if (hidden(box)) continue;
      const kids = [...box.children].filter(shown);
      for (let i = 0; i < kids.length; i++) {
        for (let j = i + 1; j < kids.length; j++) {
          if (overlap(ink(kids[i]), ink(kids[j]))) {
            problems.push(`overlap in ${selector}: ${name(kids[i])} / ${name(kids[j])}`);
          }
        }
      }
    }
  }
  // The mission circles' labels hang below them, outside the flow: clear of each
  // other and of the rejections below.
  const labels = [...document.querySelectorAll(".track .m small")].filter(
    (el) => !hidden(el));
  const below = [...document.querySelectorAll(".track + .pips")];
  for (let i = 0; i < labels.length; i++) {
    const box = labels[i].getBoundingClientRect();
    for (let j = i + 1; j < labels.length; j++) {
      if (overlap(box, labels[j].getBoundingClientRect())) {
        problems.push(`overlap of track labels: ${name(labels[i])} / ${name(labels[j])}`);
      }
    }
    for (const pips of below) {
      if (overlap(box, pips.getBoundingClientRect())) {
        problems.push(`track label over the rejections: ${name(labels[i])}`);
      }
    }
  }
  // Nothing sticks out of the screen, except inside a box that scrolls by design.
  for (const el of document.body.querySelectorAll("*")) {
    if (hidden(el) || el.closest(".table-wrap, svg, .chat-messages")) continue;
    const box = el.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) continue;
    if (box.right > window.innerWidth + 0.5 || box.left < -0.5) {
      problems.push(`off the screen: ${name(el)} ${Math.round(box.left)}..${Math.round(box.right)}`);
    }
  }
  // What a form sends, where a link goes and what scripts read stay ASCII.
  for (const el of document.querySelectorAll("[value], [href], [action], [data-seat], [data-version], [data-turn], [data-step], [data-last]")) {
    for (const attr of ["value", "href", "action", "data-seat", "data-version", "data-turn", "data-step", "data-last"]) {
      const value = el.getAttribute(attr);
      if (value && /[\u06F0-\u06F9]/.test(value)) {
        problems.push(`Persian digit in ${attr}="${value}" of ${name(el)}`);
      }
    }
  }
  return problems;
}
