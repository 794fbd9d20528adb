/* An answer page holds a link to the same answer in each other language, hidden. The first of
   the reader's preferred languages that the site has decides: when it is not the page's, its
   link is shown. Every reader gets the same page, so it is cached as one. */
(() => {
  "use strict";

  const page = document.documentElement.lang;
  const hints = document.querySelectorAll("[data-hint-lang]");
  const offered = new Set([page, ...Array.from(hints, (hint) => hint.dataset.hintLang)]);
  const preferred = (navigator.languages || [navigator.language || ""])
    .map((tag) => tag.toLowerCase().split("-")[0])
    .find((lang) => offered.has(lang));
  if (!preferred || preferred === page) return;
  hints.forEach((hint) => { hint.hidden = hint.dataset.hintLang !== preferred; });
})();
