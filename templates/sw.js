/* Service worker: the pages a reader opened, and the files they need, for use without a network;
   kept at install, the offline search and every calculator page; and, asked by the installed app
   once a page of a language is read, every answer and game page of that language.
   Rendered by rules_index/web/installable.py with this release's file addresses. */
"use strict";

const VERSION = {{ version|tojson }};
const SHELL = "shell-" + VERSION;
const PAGES = "pages";
const PRECACHE = {{ precache|tojson }};
const OFFLINE = {{ offline|tojson }};
const STANDIN = {{ standin|tojson }};
const VERSIONED = {{ versioned|tojson }};
const SKIP = {{ skip|tojson }};
const ANSWERS = {{ answers|tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith("shell-") && name !== SHELL).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

// The page's language; for an address that names none, the browser's, else the site's first.
function pageLang(url) {
  const first = url.pathname.split("/")[1];
  if (OFFLINE[first]) return first;
  const browser = (self.navigator.languages || [self.navigator.language || ""]).map((tag) => tag.slice(0, 2).toLowerCase());
  return browser.find((code) => OFFLINE[code]) || Object.keys(OFFLINE)[0];
}

// Static files (and the search data) carry their version: the kept copy is the right one.
async function fromCacheFirst(request) {
  const kept = await caches.match(request);
  if (kept) return kept;
  try {
    const response = await fetch(request);
    if (response.ok) (await caches.open(SHELL)).put(request, response.clone());
    return response;
  } catch (error) {
    // A page kept under an earlier release asks for its files by their earlier versions.
    const earlier = await caches.match(request, {ignoreSearch: true});
    if (earlier) return earlier;
    throw error;
  }
}

// A page is kept under its address without what chats and mail add to a shared link (utm_*,
// fbclid, gclid…), so that the link and the page's own address find one copy; looked up, a
// trailing slash too many or too few ("…/tie-break/") finds it as well, as the server redirects.
const TRACKING = new RegExp({{ tracking|tojson }});

function pageKey(address) {
  const url = new URL(address);
  for (const name of [...url.searchParams.keys()]) if (TRACKING.test(name)) url.searchParams.delete(name);
  return url.href;
}

async function keptPage(address) {
  const key = pageKey(address);
  const url = new URL(key);
  url.pathname = url.pathname.endsWith("/") ? url.pathname.replace(/\/+$/, "") || "/" : url.pathname + "/";
  return (await caches.match(key)) || (await caches.match(url.href));
}

// Pages: the network's answer, kept for later. Without a network: the kept copy; for a search,
// the offline search page (it reads the question from the address); for a calculator, the kept
// page with every player card (offline no server can add one), unless a result was kept; else
// the offline page.
async function fromNetworkFirst(request, url) {
  try {
    const response = await fetch(request);
    const noStore = (response.headers.get("Cache-Control") || "").includes("no-store");
    if (response.ok && !noStore) (await caches.open(PAGES)).put(pageKey(request.url), response.clone());
    return response;
  } catch (error) {
    const standin = STANDIN[url.pathname];
    const kept = (standin && !new URL(pageKey(url.href)).search && await caches.match(standin)) || await keptPage(request.url);
    if (kept) return kept;
    if (request.mode === "navigate") {
      const offline = (standin && await caches.match(standin)) || await caches.match(OFFLINE[pageLang(url)]);
      if (offline) return offline;
    }
    throw error;
  }
}

async function keep(url) {
  if (await caches.match(pageKey(url))) return;
  const response = await fetch(url);
  const noStore = (response.headers.get("Cache-Control") || "").includes("no-store");
  if (response.ok && !noStore) await (await caches.open(PAGES)).put(pageKey(url), response);
}

// Every answer of the language, one after the other (those kept already are not fetched again;
// visited online, a page is renewed as always). Without a network the rest waits for the next page.
async function keepLanguage(lang) {
  for (const path of ANSWERS[lang] || []) {
    try {
      await keep(new URL(path, self.location.origin).href);
    } catch (error) {
      return;
    }
  }
}

// A page loaded before the worker took over asks to be kept; every page asks for its language.
self.addEventListener("message", (event) => {
  const url = event.data && event.data.keep;
  if (typeof url === "string" && new URL(url).origin === self.location.origin) event.waitUntil(keep(url).catch(() => {}));
  const lang = event.data && event.data.keepLanguage;
  if (typeof lang === "string" && ANSWERS[lang]) event.waitUntil(keepLanguage(lang));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (SKIP.some((prefix) => url.pathname.startsWith(prefix))) return;  // editors and the API: always live
  const versioned = VERSIONED.some((prefix) => url.pathname.startsWith(prefix));
  event.respondWith(versioned ? fromCacheFirst(request) : fromNetworkFirst(request, url));
});
