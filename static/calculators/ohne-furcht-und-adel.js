/* Ohne Furcht und Adel's score pad in the browser, from the table its engine exports (the form's
   data-rules: rules_index/engines/ohne_furcht_und_adel/calculators.py, rule_table). `score` gives
   the engine calculator's answer (calculators.final_score), which a browser test checks on random
   games; `costs` reads a cost field as the server does (calculator_forms._costs). */
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

  // request: {players: [{name, districts: [{color, cost}]}], first_complete: a name or null}.
  // The answer: {players (ranked, each with district_points, all_colours_bonus, complete_bonus and
  // total), winner, winners, tie_break_used}; an Error where the engine refuses.
  function score(rules, request) {
    const players = request.players;
    const first = request.first_complete;
    const names = players.map((p) => p.name);
    if (new Set(names).size !== names.length) throw new Error("player names must be unique");
    if (first !== null && !names.includes(first)) throw new Error("first_complete is not a player");
    const scores = {};
    for (const player of players) {
      const districtPoints = player.districts.reduce((sum, d) => sum + d.cost, 0);
      const colours = new Set(player.districts.map((d) => d.color));
      const allColours = rules.colours.every((c) => colours.has(c)) ? rules.all_colours_bonus : 0;
      let complete = player.districts.length >= rules.complete_city ? rules.later_complete_bonus : 0;
      if (player.name === first) {
        if (player.districts.length < rules.complete_city) throw new Error("first to complete without a complete city");
        complete = rules.first_complete_bonus;
      }
      scores[player.name] = {name: player.name, district_points: districtPoints, all_colours_bonus: allColours,
                             complete_bonus: complete, total: districtPoints + allColours + complete};
    }
    // Total, then points from districts alone (S. 2); level players keep their order (a stable sort).
    const better = (a, b) => b.total - a.total || b.district_points - a.district_points;
    const ranked = names.map((n) => scores[n]).sort(better);
    const winners = ranked.filter((p) => ranked.length && better(p, ranked[0]) === 0).map((p) => p.name);
    const topTotal = ranked.filter((p) => p.total === ranked[0].total);
    return {players: ranked, winner: winners.length === 1 ? winners[0] : null, winners, tie_break_used: topTotal.length > 1};
  }

  // The page: each card's total, computed for that card alone ("–" where the server would refuse).
  function outputs(rules, read, say) {
    const first = read.value("first");
    const texts = {};
    for (let row = 0; row < read.rows; row += 1) {
      const name = read.name(row);
      const districts = [];
      let valid = Boolean(name);
      for (const colour of rules.colours) {
        const values = costs(read.value(`${colour}${row}`), rules);
        if (values === null) valid = false;
        else values.forEach((cost) => districts.push({color: colour, cost}));
      }
      if (!valid || districts.length > rules.max_districts) continue;
      try {
        const result = score(rules, {players: [{name, districts}], first_complete: first === String(row) ? name : null});
        texts[row] = say("points", {points: result.players[0].total});
      } catch (error) { /* the server would refuse it too: no total */ }
    }
    return texts;
  }

  root.Calculators = root.Calculators || {};
  root.Calculators["ohne-furcht-und-adel/score"] = {compute: score, costs, outputs};
})(window);
