/* Kardinal & König's monastery scoring in the browser, from the table its engine exports (the
   form's data-rules: rules_index/engines/kardinal_und_koenig/calculators.py, rule_table). Both
   calculators give the engine calculator's answer, which a browser test checks on random input.
   A request is the API's, with every mapping by name as a list of [key, value] pairs: JavaScript
   would move a key such as "2" to the front of an object. */
(function (root) {
  "use strict";

  // One land (Regelheft S. 5–6 · Klosterwertung): the most monasteries score one point for each
  // monastery in the land; every further place as many as the place directly above has; equal
  // counts share a place. counts: [[name, monasteries]] -> [[name, points]].
  function monasteryPoints(counts) {
    const total = counts.reduce((sum, [, n]) => sum + n, 0);
    const levels = [...new Set(counts.map(([, n]) => n).filter((n) => n > 0))].sort((a, b) => b - a);
    const worth = new Map(levels.map((level, place) => [level, place === 0 ? total : levels[place - 1]]));
    return counts.map(([name, n]) => [name, worth.get(n) || 0]);
  }

  // {monasteries: [[name, n]]} -> {points: {name: points}}
  function monasteryScore(rules, request) {
    return {points: Object.fromEntries(monasteryPoints(request.monasteries))};
  }

  function places(rules, counts, points) {
    const byName = new Map(points);
    const levels = [...new Set(counts.map(([, n]) => n).filter((n) => n > 0))].sort((a, b) => b - a);
    return levels.map((level, i) => {
      const holders = counts.filter(([, n]) => n === level).map(([name]) => name);
      return {place: i + 1, players: holders, monasteries: level, points: byName.get(holders[0]),
              worth_from: rules.worth_from[i === 0 ? 0 : 1]};
    });
  }

  // {players: [names], lands: [[land, [[name, n]]]]} -> {lands: [...], players: [{name, total, rank}]}
  function landsScore(rules, request) {
    const players = request.players.slice();
    if (new Set(players).size !== players.length) throw new Error("player names must be unique");
    for (const [, given] of request.lands) {
      for (const [name] of given) if (!players.includes(name)) players.push(name);
    }
    const totals = new Map(players.map((p) => [p, 0]));
    const lands = request.lands.map(([land, given]) => {
      const have = new Map(given);
      const counts = players.map((p) => [p, have.get(p) || 0]);
      const points = monasteryPoints(counts);
      points.forEach(([p, v]) => totals.set(p, totals.get(p) + v));
      return {land, monasteries_in_land: counts.reduce((sum, [, n]) => sum + n, 0),
              points: Object.fromEntries(points), places: places(rules, counts, points)};
    });
    const order = players.slice().sort((a, b) => totals.get(b) - totals.get(a));  // stable
    const ranked = order.map((p) => ({name: p, total: totals.get(p),
                                      rank: 1 + players.filter((q) => totals.get(q) > totals.get(p)).length}));
    return {lands, players: ranked};
  }

  // A count as the server reads it: empty is none, else a whole number in the rules' range.
  const count = (read, rules, text) => {
    if (!text.trim()) return 0;
    const n = read.whole(text.trim());
    return n !== null && n >= rules.min_monasteries && n <= rules.max_monasteries ? n : null;
  };

  // The pages' outputs: each player's points, once every filled field reads as the server reads it.
  function monasteryOutputs(rules, read, say) {
    const counts = [];
    const rows = [];
    for (let row = 0; row < read.rows; row += 1) {
      const name = read.name(row);
      const text = read.value(`count${row}`);
      if (name === "" && !text.trim()) continue;
      const n = text.trim() ? count(read, rules, text) : null;
      if (!name || n === null || counts.some(([other]) => other === name)) return {};
      counts.push([name, n]);
      rows.push(row);
    }
    const points = monasteryScore(rules, {monasteries: counts}).points;
    return Object.fromEntries(rows.map((row, i) => [row, say("points", {points: points[counts[i][0]]})]));
  }

  function landsOutputs(rules, read, say) {
    const names = new Map();
    for (let row = 0; row < read.rows; row += 1) {
      const name = read.name(row);
      const counted = rules.lands.some((land) => read.value(`${land}${row}`).trim());
      if (name === "" && !counted) continue;
      if (!name || [...names.values()].includes(name)) return {};
      names.set(row, name);
    }
    const lands = [];
    for (const land of rules.lands) {
      const given = [];
      for (const [row, name] of names) {
        const n = count(read, rules, read.value(`${land}${row}`));
        if (n === null) return {};
        if (n) given.push([name, n]);
      }
      if (given.length) lands.push([land, given]);
    }
    const totals = new Map(landsScore(rules, {players: [...names.values()], lands}).players.map((p) => [p.name, p.total]));
    return Object.fromEntries([...names].map(([row, name]) => [row, say("points", {points: totals.get(name)})]));
  }

  root.Calculators = root.Calculators || {};
  root.Calculators["kardinal-und-koenig/monastery-score"] = {compute: monasteryScore, outputs: monasteryOutputs};
  root.Calculators["kardinal-und-koenig/lands-score"] = {compute: landsScore, outputs: landsOutputs};
})(window);
