/* Collapsed entries of the game page (<details>): a link's #anchor opens the entry it points to,
   on load, on hashchange and on in-page links; printing opens every entry, and closes again the
   ones that were closed. Without this script every entry still opens by hand. */
(() => {
  "use strict";

  const reveal = (hash, scroll) => {
    let id;
    try {
      id = decodeURIComponent((hash || "").slice(1));
    } catch (error) {
      return; // a malformed %-escape names no element
    }
    const target = id && document.getElementById(id);
    if (!target) return;
    for (let node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    // Opening changes the layout after the browser has scrolled to the anchor.
    if (scroll) target.scrollIntoView();
  };

  reveal(location.hash, true);
  window.addEventListener("hashchange", () => reveal(location.hash, true));
  // A link to the anchor already in the address bar fires no hashchange; open before it scrolls.
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href^="#"]') : null;
    if (link) reveal(link.hash, false);
  });

  let openedForPrint = [];
  window.addEventListener("beforeprint", () => {
    openedForPrint = [...document.querySelectorAll("details:not([open])")];
    openedForPrint.forEach((details) => { details.open = true; });
  });
  window.addEventListener("afterprint", () => {
    openedForPrint.forEach((details) => { details.open = false; });
    openedForPrint = [];
  });
})();
