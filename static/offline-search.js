// Search for the static export: ranks the prebuilt documents by the query's words
// (title words count most), prefers the reader's language, shows each entry once, in the
// reader's language, with a passage of its text where the words occur.
(function () {
  "use strict";
  var data = window.RULES_INDEX;
  var root = document.getElementById("results");
  if (!data || !root) { return; }
  var lang = document.documentElement.lang;
  var params = new URLSearchParams(window.location.search);
  var query = (params.get("q") || "").slice(0, 200);
  ["q", "q2"].forEach(function (id) {
    var input = document.getElementById(id);
    if (input) { input.value = query; }
  });
  if (!query.trim()) { return; }
  // The language switch keeps the question (each language's search page is its own file).
  Array.prototype.forEach.call(document.querySelectorAll("nav.langs a[href]"), function (link) {
    link.href = link.getAttribute("href").split("?")[0] + "?" + new URLSearchParams({q: query}).toString();
  });

  var SNIPPET = 220;
  var LETTER = /[\p{L}\p{N}]/u;
  function fold(text) { return text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, ""); }
  var stems = fold(query).split(/[^\p{L}\p{N}]+/u).filter(function (w) { return w.length > 2; })
    .map(function (w) { return w.length > 5 ? w.slice(0, w.length - 2) : w; });

  function folded(doc) {
    if (doc.ft === undefined) {
      doc.ft = fold(doc.title);
      doc.fw = fold(doc.title + " " + doc.k + " " + doc.s);
    }
    return doc;
  }

  var best = {};
  data.docs.forEach(function (doc) {
    folded(doc);
    var score = 0;
    stems.forEach(function (stem) {
      if (doc.ft.indexOf(stem) >= 0) { score += 3; }
      else if (doc.fw.indexOf(stem) >= 0) { score += 1; }
    });
    if (!score) { return; }
    if (doc.lang === lang) { score += 0.5; }
    var key = doc.kind + ":" + doc.game + ":" + doc.entry;
    if (!best[key] || best[key].score < score) { best[key] = {score: score, key: key}; }
  });
  var byKey = {};
  data.docs.forEach(function (doc) { if (doc.lang === lang) { byKey[doc.kind + ":" + doc.game + ":" + doc.entry] = doc; } });
  var hits = Object.keys(best).map(function (k) { return best[k]; })
    .sort(function (a, b) { return b.score - a.score; }).slice(0, 20)
    .map(function (hit) { return byKey[hit.key]; }).filter(Boolean);
  var kinds = JSON.parse(root.getAttribute("data-kinds"));
  if (!hits.length) {
    var none = document.createElement("p");
    none.textContent = root.getAttribute("data-none").replace("%s", query);
    root.appendChild(none);
    return;
  }

  // The text folded character by character, with where each folded character came from,
  // so that matches found in the folded text can be marked in the original.
  function foldedWithOrigin(text) {
    var out = "";
    var origin = [];
    for (var i = 0; i < text.length; i++) {
      var part = fold(text[i]);
      for (var j = 0; j < part.length; j++) { out += part[j]; origin.push(i); }
    }
    origin.push(text.length);
    return {text: out, origin: origin};
  }

  // Matches of the query's stems at the start of a word, each extended to the word's end.
  function wordMatches(text) {
    var f = foldedWithOrigin(text);
    var found = [];
    stems.forEach(function (stem) {
      var at = f.text.indexOf(stem);
      while (at >= 0) {
        if (at === 0 || !LETTER.test(f.text[at - 1])) {
          var end = at + stem.length;
          while (end < f.text.length && LETTER.test(f.text[end])) { end += 1; }
          found.push([f.origin[at], f.origin[end]]);
        }
        at = f.text.indexOf(stem, at + 1);
      }
    });
    found.sort(function (a, b) { return a[0] - b[0]; });
    var merged = [];
    found.forEach(function (m) {
      var last = merged[merged.length - 1];
      if (last && m[0] <= last[1]) { last[1] = Math.max(last[1], m[1]); } else { merged.push(m.slice()); }
    });
    return merged;
  }

  function snippet(text) {
    var matches = wordMatches(text);
    var start = 0;
    if (matches.length && matches[0][0] > 60) {
      start = Math.min(text.indexOf(" ", matches[0][0] - 60) + 1, matches[0][0]);
    }
    var end = Math.min(text.length, start + SNIPPET);
    if (end < text.length) { end = Math.max(text.lastIndexOf(" ", end), matches.length ? matches[0][1] : start + 1); }
    var p = document.createElement("p");
    p.className = "snippet";
    var at = start;
    if (start > 0) { p.appendChild(document.createTextNode("… ")); }
    matches.forEach(function (m) {
      if (m[0] < at || m[1] > end) { return; }
      p.appendChild(document.createTextNode(text.slice(at, m[0])));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(m[0], m[1]);
      p.appendChild(mark);
      at = m[1];
    });
    p.appendChild(document.createTextNode(text.slice(at, end) + (end < text.length ? " …" : "")));
    return p;
  }

  var list = document.createElement("ol");
  hits.forEach(function (doc) {
    var item = document.createElement("li");
    item.className = "hit hit-" + doc.kind;
    var kind = document.createElement("span");
    kind.className = "kind";
    kind.textContent = kinds[doc.kind] + " · " + data.games[doc.game][lang];
    var link = document.createElement("a");
    link.href = "../../" + doc.url;
    link.textContent = doc.title;
    item.appendChild(kind);
    item.appendChild(document.createTextNode(" "));
    item.appendChild(link);
    if (doc.s) { item.appendChild(snippet(doc.s)); }
    list.appendChild(item);
  });
  root.appendChild(list);
}());
