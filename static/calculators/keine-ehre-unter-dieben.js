/* Keine Ehre unter Dieben's sharing of the loot in the browser, from the table its engine exports
   (the form's data-rules: rules_index/engines/keine_ehre_unter_dieben/calculators.py, rule_table).
   `share` gives the engine calculator's answer, which a browser test checks on random input. */
(function (root) {
  "use strict";

  // The leader's share (Rezension · Das Verteilen der Beute): the number printed under the last
  // card (the cards lie on fields 1..cards), as many as the leader wants, or nothing.
  function quota(rules, ending, cards) {
    const kind = rules.leader_share[ending];
    if (kind === "printed") {
      const n = Math.min(rules.printed_take[Math.max(cards, 1) - 1], cards);
      return [n, n];
    }
    return kind === "any" ? [0, cards] : [0, 0];
  }

  // request: {players (clockwise), leader, ending, cards, leader_takes (a number or null)}.
  // The answer: {leader, leader_min, leader_max, order, shares, left, extra_card}; an Error where
  // the engine refuses.
  function share(rules, request) {
    const players = request.players;
    const takes = request.leader_takes === undefined ? null : request.leader_takes;
    if (new Set(players).size !== players.length) throw new Error("player names must be unique");
    if (!players.includes(request.leader)) throw new Error("the leader is not a player");
    const [low, high] = rules.cards_after[request.ending];
    if (request.cards < low || request.cards > high) throw new Error("the board cannot hold these cards after this ending");
    const kind = rules.leader_share[request.ending];
    if (takes !== null && (kind !== "any" || takes > request.cards)) throw new Error("the leader's share is not the leader's to choose");
    const seat = players.indexOf(request.leader);
    const order = players.slice(seat + 1).concat(players.slice(0, seat));  // clockwise from the leader's left
    const [least, most] = quota(rules, request.ending, request.cards);
    const answer = {leader: request.leader, leader_min: least, leader_max: most, order};
    if (kind === "any" && takes === null) return {...answer, shares: null, left: null, extra_card: null};
    const taken = takes === null ? least : takes;
    let left = request.cards - taken;
    const shares = [{name: request.leader, cards: taken}];
    for (const name of order) {
      const got = Math.min(1, left);  // one card each while cards last
      left -= got;
      shares.push({name, cards: got});
    }
    return {...answer, shares, left, extra_card: rules.extra_card[request.ending] && left > 0};
  }

  // The page: each thief's cards and what is left, once the form reads as the server reads it.
  function outputs(rules, read, say) {
    const rows = new Map();
    for (let row = 0; row < read.rows; row += 1) {
      const name = read.name(row);
      if (name === "") continue;
      if (name === null || [...rows.values()].includes(name)) return {};
      rows.set(row, name);
    }
    const leaderRow = read.value("leader");
    const leader = leaderRow === "" ? undefined : rows.get(Number(leaderRow));
    const ending = read.value("ending");
    const cards = read.whole(read.value("cards").trim());
    // The leader's count is read after a master stroke only, as the server does.
    const takesText = ending === "master_stroke" ? read.value("takes").trim() : "";
    const takes = takesText ? read.whole(takesText) : null;
    if (rows.size < rules.min_players || !leader || !rules.endings.includes(ending) || cards === null
        || (takesText && takes === null)) return {};
    let result;
    try {
      result = share(rules, {players: [...rows.values()], leader, ending, cards, leader_takes: takes});
    } catch (error) {
      return {};  // the server refuses it too
    }
    const rowOf = new Map([...rows].map(([row, name]) => [name, row]));
    if (result.shares === null) {
      return {[rowOf.get(leader)]: say("between", {low: result.leader_min, high: result.leader_max}),
              left: say("choose", {name: leader, high: result.leader_max})};
    }
    const texts = {};
    result.shares.forEach((s) => { texts[rowOf.get(s.name)] = say("cards", {num: s.cards}); });
    texts.left = !result.left ? say("none_left")
      : say(result.extra_card ? "left_extra" : "left_discarded", {num: result.left, name: leader});
    return texts;
  }

  root.Calculators = root.Calculators || {};
  root.Calculators["keine-ehre-unter-dieben/loot-sharing"] = {compute: share, outputs};
})(window);
