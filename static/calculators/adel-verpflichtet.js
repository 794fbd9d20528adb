/* Adel Verpflichtet's exhibitions in the browser, from the table its engine exports (the form's
   data-rules: rules_index/engines/adel_verpflichtet/calculators.py, rule_table). Both calculators
   give the engine calculator's answer, which a browser test checks on random input. A request is
   the API's, with the exhibitions by name as a list of [name, exhibit] pairs (JavaScript would
   move a name such as "2" to the front of an object). */
(function (root) {
  "use strict";

  const SEPARATORS = " \t\r\n,;-/";

  // "Was eine Ausstellung ist": at least min_exhibition cards whose letters follow each other
  // without a gap. -> [valid, reason]; a letter outside the table is refused.
  function validity(rules, cards) {
    const letters = [...cards].filter((c) => !SEPARATORS.includes(c)).map((c) => c.toUpperCase());
    if (!letters.length || letters.some((c) => !rules.letters.includes(c))) throw new Error("not collection cards");
    if (letters.length < rules.min_exhibition) return [false, rules.reasons.too_few];
    const indices = [...new Set(letters.map((c) => rules.letters.indexOf(c)))].sort((a, b) => a - b);
    return indices[indices.length - 1] - indices[0] + 1 === indices.length ? [true, null] : [false, rules.reasons.gap];
  }

  // {cards} -> {cards, valid, reason}
  function exhibition(rules, request) {
    const letters = request.cards.replace(/ /g, "").toUpperCase();
    const [valid, reason] = validity(rules, letters);
    return {cards: letters, valid, reason};
  }

  // Phase 4 · Ausstellungen: most cards first, then the oldest object (the greater age); where
  // the rules cannot decide (an age missing, equal ages) the exhibitions share a place.
  // {players: [[name, {cards, oldest_age}]]} -> {ranking, invalid}
  function ranking(rules, request) {
    const d = rules.decided;
    const valid = [];
    const invalid = [];
    for (const [name, shown] of request.players) {
      const [ok, reason] = validity(rules, shown.cards);
      const age = shown.oldest_age === undefined ? null : shown.oldest_age;
      if (ok) valid.push({name, cards: [...shown.cards].filter((c) => !SEPARATORS.includes(c)).map((c) => c.toUpperCase()).sort().join(""), age});
      else invalid.push({name, cards: shown.cards.replace(/ /g, "").toUpperCase(), reason});
    }
    const counts = [...new Set(valid.map((e) => e.cards.length))].sort((a, b) => b - a);
    const ranked = [];
    let place = 1;
    for (const count of counts) {
      const group = valid.filter((e) => e.cards.length === count);
      const agesKnown = group.every((e) => e.age !== null);
      const tiers = group.length > 1 && !agesKnown ? [group]
        : [...new Set(group.map((e) => e.age))].sort((a, b) => (b || 0) - (a || 0)).map((age) => group.filter((e) => e.age === age));
      tiers.forEach((tier, t) => {
        tier.forEach((e, i) => {
          let decided;
          if (i > 0) decided = agesKnown ? d.same_age : d.age_unknown;
          else if (!ranked.length) decided = valid.length === 1 ? d.only_one : d.first;
          else decided = t === 0 ? d.more_cards : d.older_object;
          ranked.push({name: e.name, cards: e.cards, count, oldest_age: e.age, place, decided_by: decided});
        });
        place += tier.length;
      });
    }
    return {ranking: ranked, invalid};
  }

  // The letters of a cards field as the server reads them, or null where it would refuse them.
  const letters = (rules, text) => {
    const cards = text.replace(/ /g, "");
    const known = [...cards].every((c) => rules.letters.includes(c.toUpperCase()));
    return cards && known && cards.length <= rules.max_cards ? cards : null;
  };

  function exhibitionOutputs(rules, read, say) {
    const cards = letters(rules, read.value("cards"));
    if (cards === null) return {};
    const result = exhibition(rules, {cards});
    const key = result.valid ? "valid" : result.reason === rules.reasons.too_few ? "too_few" : "gap";
    return {verdict: say(key, {cards: result.cards})};
  }

  // Each player's place, once every filled card reads as the server reads it. An age is the age
  // of the oldest object, or the year it was made counted back from the form's year_reference.
  function rankingOutputs(rules, read, say) {
    const byYear = read.value("dating") === "year";
    const shown = [];
    const rows = new Map();
    for (let row = 0; row < read.rows; row += 1) {
      const name = read.name(row);
      const typed = read.value(`cards${row}`).replace(/ /g, "");
      const ageText = read.value(`age${row}`).trim();
      if (name === "" && !typed && !ageText) continue;
      const cards = letters(rules, typed);
      let age = ageText ? read.whole(ageText) : null;
      if (byYear && age !== null) age = age > read.form.year_reference ? undefined : read.form.year_reference - age;
      const badAge = ageText && (age === null || age === undefined || age > rules.max_age);
      if (!name || rows.has(name) || cards === null || badAge) return {};
      shown.push([name, {cards, oldest_age: age}]);
      rows.set(name, row);
    }
    const result = ranking(rules, {players: shown});
    const texts = {};
    result.ranking.forEach((r) => { texts[rows.get(r.name)] = say("place", {place: r.place}); });
    result.invalid.forEach((x) => { texts[rows.get(x.name)] = say("not_valid"); });
    return texts;
  }

  root.Calculators = root.Calculators || {};
  root.Calculators["adel-verpflichtet/exhibition"] = {compute: exhibition, outputs: exhibitionOutputs};
  root.Calculators["adel-verpflichtet/exhibitions-ranking"] = {compute: ranking, outputs: rankingOutputs};
})(window);
