"""Scenario 9: two hosts, one content remote (``bench.two_hosts``): accepts on one host, each
checked to show on the other; nothing lost, and the other host's p50 within 3 s."""
from __future__ import annotations

import statistics

from bench import two_hosts

from .scenarios import NAMES, SCENARIOS, Options, Row

CHANGES = 8
OTHER_HOST_P50_S = 3.0


def two_hosts_scenario(opts: Options) -> list[Row]:
    row = Row("9", f"Two hosts on one content remote: {CHANGES} accepts on host A, each read back on host B")
    figures = two_hosts.measure(CHANGES, log=lambda _message: None)
    other = figures["other_host_s"]
    row.check("every accept showed on the other host (none lost)", len(other) == CHANGES, f"{len(other)} of {CHANGES}")
    row.check(f"on the other host within {OTHER_HOST_P50_S:g} s (p50)", figures["visible_other_host_p50_s"] <= OTHER_HOST_P50_S,
              f"p50 {figures['visible_other_host_p50_s']:.2f} s, max {max(other):.2f} s")
    row.p50_ms = statistics.median(other) * 1000
    row.notes.append(f"visible on the accepting host after p50 {figures['visible_p50_s']:.2f} s; on the other host "
                     f"after p50 {figures['visible_other_host_p50_s']:.2f} s (it asks the remote every {figures['follow_s']:g} s)")
    row.details.update(figures)
    return [row]


SCENARIOS["9"] = two_hosts_scenario
NAMES["two-hosts"] = "9"
