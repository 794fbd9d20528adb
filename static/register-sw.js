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
  // Opened as an installed app (from the home screen), every answer of the page's language as
  // well, so that whatever the offline search finds opens at the table; a browser tab keeps what
  // it opened (a reader who follows one link is not sent the whole site).
  const installed = window.matchMedia("(display-mode: standalone)").matches || navigator.standalone === true;
  navigator.serviceWorker.ready.then((registration) => {
    if (!registration.active) return;
    registration.active.postMessage(installed ? {keep: location.href, keepLanguage: document.documentElement.lang} : {keep: location.href});
  });
})();
