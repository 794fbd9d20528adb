/* The score pad's rules in the browser, from the table the engine exports (the form's
   data-rules: rules_index/engines/ohne_furcht_und_adel/calculators.py, rule_table). The same
   results as the engine's scoring.score, which a browser test checks on random games. Also the
   reading of a cost field as the server reads it (calculator_forms._costs). */
(function (root) {
  "use strict";

  // "3 5 1", "3,5;1" or, since every cost is a single digit, "351". null: not costs.
  function costs(text, rules) {
    const tokens = text.trim().split(/[\s,;]+/).filter(Boolean);
    const out = [];
    for (const token of tokens) {
      const parts = rules.max_cost < 10 && /^[0-9]{2,}$/.test(token) ? token.split("") : [token];
      for (const part of parts) {
        if (!/^[0-9]{1,9}$/.test(part)) return null;
        const value = Number(part);
        if (value < rules.min_cost || value > rules.max_cost) return null;
        out.push(value);
      }
    }
    return out;
  }

  // players: [{name, districts: [{color, cost}]}]; firstComplete: a name or null.
  // The engine's answer: {scores: {name: {district_points, all_colours_bonus, complete_bonus,
  // total}}, ranking, winner, winners, tie_break_used}; an Error where the engine refuses.
  function score(rules, players, firstComplete) {
    const names = players.map((p) => p.name);
    if (new Set(names).size !== names.length) throw new Error("player names must be unique");
    if (firstComplete !== null && !names.includes(firstComplete)) throw new Error("first_complete is not a player");
    const scores = {};
    for (const player of players) {
      const districtPoints = player.districts.reduce((sum, d) => sum + d.cost, 0);
      const colours = new Set(player.districts.map((d) => d.color));
      const allColours = rules.colours.every((c) => colours.has(c)) ? rules.all_colours_bonus : 0;
      let complete = player.districts.length >= rules.complete_city ? rules.later_complete_bonus : 0;
      if (player.name === firstComplete) {
        if (player.districts.length < rules.complete_city) throw new Error("first to complete without a complete city");
        complete = rules.first_complete_bonus;
      }
      scores[player.name] = {district_points: districtPoints, all_colours_bonus: allColours,
                             complete_bonus: complete, total: districtPoints + allColours + complete};
    }
    const key = (n) => [scores[n].total, scores[n].district_points];
    const ranking = names.slice().sort((a, b) => key(b)[0] - key(a)[0] || key(b)[1] - key(a)[1]);  // stable
    const best = ranking.length ? key(ranking[0]) : null;
    const winners = ranking.filter((n) => key(n)[0] === best[0] && key(n)[1] === best[1]);
    const topTotal = ranking.filter((n) => scores[n].total === best[0]);
    return {scores, ranking, winner: winners.length === 1 ? winners[0] : null, winners, tie_break_used: topTotal.length > 1};
  }

  root.ScorePad = {costs, score};
})(window);
