/* Registers the service worker (its address is on the script tag), so that the pages a reader
   opens stay readable without a network. Pages opened from a file (the static export) have none. */
(() => {
  "use strict";
  const script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script || !script.dataset.worker) return;
  if (location.protocol !== "https:" && location.protocol !== "http:") return;
  navigator.serviceWorker.register(script.dataset.worker).catch(() => {
    // Not installable here (e.g. a browser that refuses workers): the site works as before.
  });
  // The page that installed the worker was loaded before it: the worker keeps a copy of it too.
  // And every answer of the page's language, so that the offline search's results open.
  navigator.serviceWorker.ready.then((registration) => {
    if (registration.active) registration.active.postMessage({keep: location.href, keepLanguage: document.documentElement.lang});
  });
})();
