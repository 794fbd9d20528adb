// Search for the static export. The documents and the server's search words come from
// static/search-index.js (written by rules_index/search/offline.py); MiniSearch
// (static/vendor/minisearch.js) ranks them. MiniSearch rather than Lunr: typo tolerance (edit
// distance) and prefix search per query term, BM25 with field boosts, a tokenizer and term
// function of our own, in one small file without dependencies; Lunr brings stemmers unlike the
// server's and takes typo tolerance as query syntax.
//
// A question is read as the server reads it: folded alike (its analysis.fold_german), the stop
// words of every language out, players' words followed by the rulebooks' words, German compounds
// with their parts, a game's name taken as the choice of that game. A word the content has is
// searched as typed and, from four letters, as the start of longer words; a word it lacks (a typo)
// finds the content's words with two neighbouring letters swapped or its double letters typed
// once ("asasin") or, failing those, the words one edit away (two from eight letters), weighed as
// the server weighs corrections. Titles,
// keywords and texts weigh as on the server, the reader's language a little more; each entry
// counts once, by its best language, and is shown in the reader's language, answers first, with
// a passage of its text.
(function () {
  "use strict";
  var data = window.RULES_INDEX;
  var root = document.getElementById("results");
  var words = data && data.words;
  var UMLAUTS = {"ä": "a", "ö": "o", "ü": "u", "ß": "ss"};
  var TRANSLIT = /ae|oe|ue/g;
  var TOKEN = /[\p{L}\p{N}]+/gu;

  // The server's fold_german: "Söldner", "Soeldner" and "Soldner" are all "soldner".
  function fold(word) {
    word = word.toLowerCase().replace(/[äöüß]/g, function (c) { return UMLAUTS[c]; });
    // At the start or after a letter a-z (the server's look-behind; none here, for older Safari).
    if (word.indexOf("q") < 0) {
      word = word.replace(TRANSLIT, function (m, at, all) { return at === 0 || /[a-z]/.test(all[at - 1]) ? m[0] : m; });
    }
    return word.normalize("NFKD").replace(/\p{M}/gu, "");
  }
  window.offlineSearchFold = fold;  // a browser test holds it against the server's

  var lang = document.documentElement.lang;
  var params = new URLSearchParams(window.location.search);
  var box = document.getElementById("q2");
  var query = (params.get("q") || "").slice(0, box && box.maxLength > 0 ? box.maxLength : undefined);
  ["q", "q2"].forEach(function (id) {
    var input = document.getElementById(id);
    if (input) { input.value = query; }
  });
  if (!query.trim()) {
    // Nothing asked: the page's own box, with its label, is the only one.
    var header = document.getElementById("q");
    if (header && header.form && box) { header.form.hidden = true; }
    return;
  }
  if (!words || !root || !window.MiniSearch) { return; }
  // With a question, the header's box holds it, as on the live site: a second box with the same
  // words pushed the results a third of a phone's screen down.
  if (box && box.form) { box.form.hidden = true; }
  // The language switch keeps the question (each language's search page is its own file).
  Array.prototype.forEach.call(document.querySelectorAll("nav.langs a[href]"), function (link) {
    link.href = link.getAttribute("href").split("?")[0] + "?" + new URLSearchParams({q: query}).toString();
  });

  var LIMIT = 20;
  var SNIPPET = 220;
  var weights = words.weights;
  var stops = new Set(words.stop);
  var compounds = new Map(Object.entries(words.compounds));
  var players = new Map(Object.entries(words.players));

  function tokens(text) { return text.normalize("NFC").match(TOKEN) || []; }

  // What the index holds for a word: nothing for a stop word, else the word folded and, for a
  // German compound, its parts.
  function terms(word) {
    var folded = fold(word);
    if (folded.length < 2 || stops.has(word.toLowerCase()) || stops.has(folded)) { return []; }
    return [folded].concat(compounds.get(folded) || []);
  }

  var known = new Set();
  var index = new window.MiniSearch({
    fields: ["title", "k", "s"],
    tokenize: tokens,
    processTerm: function (word) {
      var found = terms(word);
      found.forEach(function (term) { known.add(term); });
      return found;
    },
    searchOptions: {
      boost: {title: weights.title, k: weights.keywords, s: weights.body},
      weights: {fuzzy: weights.corrected, prefix: weights.prefix},
      boostDocument: function (id) { return data.docs[id].lang === lang ? weights.reader : 1; },
      tokenize: function (term) { return [term]; },
      processTerm: function (term) { return term; }
    }
  });
  index.addAll(data.docs.map(function (doc, id) { return {id: id, title: doc.title, k: doc.k, s: doc.s}; }));

  // Double letters typed once, once or twice ("asasin"), as spelling.doublings.
  function doubled(word) {
    var found = [];
    for (var i = 0; i < word.length; i++) {
      if (/\p{L}/u.test(word[i]) && word[i] !== word[i + 1] && word[i] !== word[i - 1]) { found.push(word.slice(0, i + 1) + word.slice(i)); }
    }
    return found;
  }
  function retyped(word) {
    var found = [];
    var candidates = [];
    for (var i = 0; i + 1 < word.length; i++) {
      candidates.push(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
    }
    doubled(word).forEach(function (once) { candidates.push(once); candidates.push.apply(candidates, doubled(once)); });
    candidates.forEach(function (other) {
      if (other !== word && known.has(other) && found.indexOf(other) < 0) { found.push(other); }
    });
    return found;
  }

  // One query per term: its own prefix and typo settings, the scores added up.
  var asked = [];
  var queries = [];
  function ask(term, typed) {
    if (asked.indexOf(term) >= 0) { return; }
    asked.push(term);
    var spec = {queries: [term], prefix: term.length >= 4, fuzzy: false};
    if (!known.has(term) && typed) {
      var swaps = retyped(term);
      if (swaps.length) {
        spec = {queries: swaps, prefix: false, fuzzy: false, boostTerm: function () { return weights.corrected; }};
      } else if (term.length >= 4) {
        spec.fuzzy = term.length >= 8 ? 2 : 1;
      }
    }
    queries.push(spec);
  }
  // A game's name in the question picks the game, and its words leave the question, as on the
  // server (query.GameNames): no entry holds its game's name. The name alone asks what the game
  // is: its facts answer (searcher.TITLE_FACTS).
  var connectors = new Set(words.connectors);
  function understand(text) {
    var found = Array.from(text.matchAll(TOKEN)).filter(function (m) { return !connectors.has(fold(m[0])); });
    for (var [name, slug] of words.games) {
      for (var start = 0; start + name.length <= found.length; start++) {
        var part = found.slice(start, start + name.length);
        if (!part.every(function (m, i) { return fold(m[0]) === name[i]; })) { continue; }
        var last = part[part.length - 1];
        var rest = text.slice(0, part[0].index) + " " + text.slice(last.index + last[0].length);
        var scores = tokens(rest).some(function (word) { return terms(word).length; });
        return scores ? {text: rest, game: slug} : {text: "", game: slug, titleOnly: true};
      }
    }
    return {text: text, game: null};
  }
  var understood = understand(query.normalize("NFC"));
  tokens(understood.text).forEach(function (word) {
    var found = terms(word);
    if (!found.length) { return; }
    var rules = players.get(fold(word));
    // A players' word is never taken for a typo.
    found.forEach(function (term) { ask(term, !rules); });
    (rules || []).forEach(function (plain) {
      tokens(plain).forEach(function (w) { terms(w).forEach(function (term) { ask(term, false); }); });
    });
  });

  var best = new Map();
  if (understood.titleOnly) {
    words.title_facts.forEach(function (fact, rank) {
      var key = "fact:" + understood.game + ":" + fact;
      best.set(key, {key: key, kind: "fact", score: words.title_facts.length - rank});
    });
  }
  var matched = new Set(asked);
  var results = queries.length ? index.search({combineWith: "OR", queries: queries}) : [];
  results.forEach(function (result) {
    var doc = data.docs[result.id];
    if (understood.game && doc.game !== understood.game) { return; }
    var key = doc.kind + ":" + doc.game + ":" + doc.entry;
    result.terms.forEach(function (term) { matched.add(term); });
    if (!best.has(key)) { best.set(key, {key: key, kind: doc.kind, score: result.score}); }  // best first
  });
  var byKey = {};
  data.docs.forEach(function (doc) { if (doc.lang === lang) { byKey[doc.kind + ":" + doc.game + ":" + doc.entry] = doc; } });
  var order = words.order;
  var shown = Array.from(best.values()).slice(0, LIMIT)
    .sort(function (a, b) { return (order[a.kind] - order[b.kind]) || (b.score - a.score); });
  // A glossary term far ahead of every answer is what was asked: it comes first (the server's
  // searcher.term_asked).
  var answer = Math.max.apply(null, [0].concat(shown.filter(function (h) { return h.kind === "faq" || h.kind === "fact"; })
    .map(function (h) { return h.score; })));
  var term = shown.filter(function (h) { return h.kind === "glossary"; })
    .sort(function (a, b) { return b.score - a.score; })[0];
  if (term && term.score >= words.term_lead * answer) {
    shown.splice(shown.indexOf(term), 1);
    shown.unshift(term);
  }
  var hits = shown.map(function (hit) { return byKey[hit.key]; }).filter(Boolean);
  var kinds = JSON.parse(root.getAttribute("data-kinds"));
  if (!hits.length) {
    var none = document.createElement("p");
    none.textContent = root.getAttribute("data-none").replace("%s", query);
    root.appendChild(none);
    return;
  }

  // [start, end] of the words of a text that the search matched.
  function wordMatches(text) {
    var found = [];
    for (var m of text.matchAll(TOKEN)) {
      if (terms(m[0]).some(function (term) { return matched.has(term); })) { found.push([m.index, m.index + m[0].length]); }
    }
    return found;
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
    // The export's addresses are relative to its root; the live site's begin with "/".
    link.href = doc.url.charAt(0) === "/" ? doc.url : "../../" + doc.url;
    if (doc.kind === "mistake") {  // a common mistake never reads as a statement: struck, marked wrong
      var wrong = document.createElement("s");
      wrong.textContent = doc.title;
      link.className = "wrong";
      link.appendChild(document.createTextNode("✗ "));
      link.appendChild(wrong);
    } else {
      link.textContent = doc.title;
    }
    item.appendChild(kind);
    item.appendChild(document.createTextNode(" "));
    item.appendChild(link);
    if (doc.s) { item.appendChild(snippet(doc.s)); }
    list.appendChild(item);
  });
  root.appendChild(list);
}());
