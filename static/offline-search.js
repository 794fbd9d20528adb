// Search for the static export: ranks the prebuilt documents by the query's words
// (title words count most), prefers the reader's language, shows each entry once.
(function () {
  "use strict";
  var data = window.RULES_INDEX;
  var root = document.getElementById("results");
  if (!data || !root) { return; }
  var lang = document.documentElement.lang;
  var params = new URLSearchParams(window.location.search);
  var query = (params.get("q") || "").slice(0, 200);
  document.getElementById("q2").value = query;
  if (!query.trim()) { return; }
  function fold(text) { return text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, ""); }
  var words = fold(query).split(/[^\p{L}\p{N}]+/u).filter(function (w) { return w.length > 2; });
  var best = {};
  data.docs.forEach(function (doc) {
    var score = 0;
    words.forEach(function (word) {
      var stem = word.length > 5 ? word.slice(0, word.length - 2) : word;
      if (doc.t.indexOf(stem) >= 0) { score += 3; }
      else if (doc.w.indexOf(stem) >= 0) { score += 1; }
    });
    if (!score) { return; }
    if (doc.lang === lang) { score += 0.5; }
    var key = doc.kind + ":" + doc.game + ":" + doc.entry;
    if (!best[key] || best[key].score < score) { best[key] = {score: score, key: key, game: doc.game, kind: doc.kind, entry: doc.entry}; }
  });
  var byKey = {};
  data.docs.forEach(function (doc) { if (doc.lang === lang) { byKey[doc.kind + ":" + doc.game + ":" + doc.entry] = doc; } });
  var hits = Object.keys(best).map(function (k) { return best[k]; }).sort(function (a, b) { return b.score - a.score; }).slice(0, 20);
  var kinds = JSON.parse(root.getAttribute("data-kinds"));
  if (!hits.length) {
    var p = document.createElement("p");
    p.textContent = root.getAttribute("data-none").replace("%s", query);
    root.appendChild(p);
    return;
  }
  var list = document.createElement("ol");
  hits.forEach(function (hit) {
    var doc = byKey[hit.key];
    if (!doc) { return; }
    var item = document.createElement("li");
    item.className = "hit";
    var kind = document.createElement("span");
    kind.className = "kind";
    kind.textContent = kinds[doc.kind] + " · " + data.games[doc.game][lang];
    var link = document.createElement("a");
    link.href = "../../" + doc.url;
    link.textContent = doc.title;
    item.appendChild(kind);
    item.appendChild(document.createTextNode(" "));
    item.appendChild(link);
    list.appendChild(item);
  });
  root.appendChild(list);
}());
