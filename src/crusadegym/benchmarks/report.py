"""Ratios against the peers, the project's throughput goals, and the outputs.

Outputs: a printed table (steps/s, games/s, mean game length, a batched row's share
of the limit probe at the same B and threads (``probe.py``), and the ratio of each of
our rows to each peer), the same table as Markdown, a JSON file, and a PNG plot
(steps/s per method on a log scale; batched steps/s against B).
A games/s figure marked ``~`` is steps/s divided by the case's pooled mean game
length, for rows where too few games finished inside the timed window to count
them (large batches; see :attr:`.timing.Measurement.mean_game_length`).
"""

from __future__ import annotations

import json
from pathlib import Path

from .results import Results

# peer method -> short column name
PEER_COLUMNS = {
    "pz_connect_four": "PZ c4",
    "pz_chess": "PZ chess",
    "os_connect_four": "OS c4",
    "os_connect_four_obs": "OS c4+obs",
    "os_chess": "OS chess",
    "os_chess_obs": "OS chs+obs",
}


def _ours(results: Results) -> list[dict]:
    return [r for r in results.measurements if r["side"] == "ours" and r.get("kind") != "legal"]


def _probes(results: Results) -> list[dict]:
    return [r for r in results.measurements if r["side"] == "probe"]


def _peers(results: Results) -> dict[str, dict]:
    return {r["method"]: r for r in results.measurements if r["side"] == "peer"}


def _cases(results: Results) -> list[tuple[str, int]]:
    seen: dict[tuple[str, int], None] = {}
    for r in results.measurements:
        if r["side"] == "ours":
            seen[(r["game"], r["players"])] = None
    return list(seen)


def ratios(results: Results) -> list[dict]:
    """Every one of our rows divided by every peer row (steps/s over steps/s)."""
    peers = _peers(results)
    out = []
    for r in _ours(results):
        for pm, p in peers.items():
            if p["steps_per_s"] > 0:
                out.append(
                    {
                        "game": r["game"],
                        "players": r["players"],
                        "method": r["method"],
                        "peer": pm,
                        "ratio": r["steps_per_s"] / p["steps_per_s"],
                    }
                )
    return out


def _rate(results: Results, game: str, players: int, method: str) -> float | None:
    rows = results.find(game=game, players=players, method=method)
    return rows[0]["steps_per_s"] if rows else None


def internal_ratios(results: Results) -> list[dict]:
    """Checking overhead (raw / checked) and compiled / reference legal-mask speed-up."""
    out = []
    for game, players in _cases(results):
        for name, num, den in (
            ("raw kernels / checked front", "core_raw", "core_checked"),
            ("compiled / reference legal_mask", "legal_compiled", "legal_reference"),
        ):
            a, b = _rate(results, game, players, num), _rate(results, game, players, den)
            if a and b:
                out.append({"game": game, "players": players, "what": name, "ratio": a / b})
    return out


def _best_batched(results: Results, game: str, players: int, threads: int) -> dict | None:
    rows = results.find(game=game, players=players, threads=threads, side="ours")
    return max(rows, key=lambda r: r["steps_per_s"]) if rows else None


def probe_share(results: Results, row: dict) -> float | None:
    """A batched row's steps/s over the limit probe's at the same game, B and threads."""
    if "batch" not in row or row.get("side") != "ours":
        return None
    method = f"probe_b{row['batch']}_t{row['threads']}"
    probes = results.find(game=row["game"], players=row["players"], method=method, side="probe")
    if not probes or not probes[0]["steps_per_s"]:
        return None
    return row["steps_per_s"] / probes[0]["steps_per_s"]


def _startup(results: Results, game: str, players: int, cache: str) -> float | None:
    for row in results.startup:
        if row["game"] == game and row["players"] == players and row["cache"] == cache:
            return row["first_step_s"]
    return None


def goals(results: Results) -> list[dict]:
    """The project's throughput goals, for every measured two-player case."""
    peers = _peers(results)
    out = []

    def goal(game, players, text, value, target, higher=True, note=""):
        met = None if value is None else (value >= target if higher else value <= target)
        out.append(
            {
                "game": game,
                "players": players,
                "goal": text,
                "value": value,
                "target": target,
                "higher_is_better": higher,
                "met": met,
                "note": note,
            }
        )

    def over(a: float | None, peer: str) -> float | None:
        p = peers.get(peer)
        return a / p["steps_per_s"] if a and p and p["steps_per_s"] else None

    for game, players in _cases(results):
        if players != 2:
            continue
        aec = _rate(results, game, players, "aec")
        goal(
            game,
            players,
            "AEC random play / PettingZoo connect_four_v3",
            over(aec, "pz_connect_four"),
            2.0,
        )
        goal(game, players, "AEC random play / PettingZoo chess_v6", over(aec, "pz_chess"), 20.0)
        b2 = _best_batched(results, game, players, 2)
        b2_rate = b2["steps_per_s"] if b2 else None
        note = f"best B={b2['batch']}" if b2 else ""
        goal(
            game,
            players,
            "batched 2 threads / OpenSpiel chess from Python",
            over(b2_rate, "os_chess"),
            10.0,
            note=note,
        )
        b1 = _rate(results, game, players, f"batched_b{b2['batch']}_t1") if b2 else None
        scale = b2_rate / b1 if b2_rate and b1 else None
        goal(game, players, "batched 2 threads / 1 thread (same B)", scale, 1.7, note=note)
        share = probe_share(results, b2) if b2 else None
        goal(game, players, "batched 2 threads / limit probe (same B)", share, 0.25, note=note)
        for cache, target in (("warm", 2.0), ("cold", 30.0)):
            t = _startup(results, game, players, cache)
            goal(game, players, f"time to first step, {cache} cache (s)", t, target, higher=False)
    return out


def _percent(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.1f}%"


def _fmt(x: float | None, digits: int = 0) -> str:
    if x is None:
        return "-"
    if digits == 0:
        return f"{x:,.0f}"
    return f"{x:,.{digits}f}"


def pooled_game_length(results: Results, game: str, players: int) -> float | None:
    """Mean game length over every row of the case that finished games (steps / games)."""
    rows = [r for r in _ours(results) if r["game"] == game and r["players"] == players]
    rows = [r for r in rows if r["mean_game_length"] is not None]
    steps = sum(r["steps"] for r in rows)
    games = sum(r["games"] for r in rows)
    return steps / games if games else None


def table_rows(results: Results) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the main table (ours with ratio columns, then the peers)."""
    peers = _peers(results)
    cols = [pm for pm in PEER_COLUMNS if pm in peers]
    header = ["game/players", "method", "steps/s", "games/s", "mean len", "of probe"]
    header += [f"x {PEER_COLUMNS[c]}" for c in cols]
    rows = []
    for r in _ours(results) + _probes(results):
        length = pooled_game_length(results, r["game"], r["players"])
        games = _fmt(r["games_per_s"], 1)
        if r["mean_game_length"] is None and length and r["side"] == "ours":
            games = "~" + _fmt(r["steps_per_s"] / length, 1)
        row = [
            f"{r['game']}/{r['players']}",
            r["label"],
            _fmt(r["steps_per_s"]),
            games,
            _fmt(r["mean_game_length"], 1),
            _percent(probe_share(results, r)),
        ]
        if r["side"] == "probe":
            row[0] = f"probe ({r['game']}/{r['players']} state size)"
        row += [_fmt(r["steps_per_s"] / peers[c]["steps_per_s"], 2) for c in cols]
        rows.append(row)
    for pm in cols:
        p = peers[pm]
        rows.append(
            [
                "peer",
                p["label"],
                _fmt(p["steps_per_s"]),
                _fmt(p["games_per_s"], 1),
                _fmt(p["mean_game_length"], 1),
                "",
            ]
            + ["" for _ in cols]
        )
    return header, rows


def format_text(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=True)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    for row in rows:
        pairs = enumerate(zip(row, widths, strict=True))
        cells = [c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in pairs]
        lines.append("  ".join(cells))
    return "\n".join(lines)


def format_markdown(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |"]
    lines.append("|" + "|".join("---" if i < 2 else "---:" for i in range(len(header))) + "|")
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def summary_text(results: Results, goal_rows: list[dict], internal: list[dict]) -> str:
    """Startup, memory, internal ratios and goals as plain lines."""
    meta = results.meta
    lines = []
    if meta:
        load = "/".join(
            "n/a" if meta.get(k) is None else f"{meta[k][0]:.1f}"
            for k in ("loadavg_start", "loadavg_end")
        )
        lines.append(
            f"machine: {meta.get('cpu_count')} CPUs, numba {meta.get('numba')} "
            f"({meta.get('threading_layer')} threading layer), 1-min load average "
            f"start/end {load}, {meta.get('wall_seconds', 0):.0f} s wall"
        )
    for s in results.startup:
        extra = ", ".join(f"{k} {v:.2f}s" for k, v in s.items() if k.endswith("_s"))
        lines.append(f"startup {s['game']}/{s['players']} {s['cache']}: {extra}")
    for m in results.memory:
        if "batch" not in m:
            lines.append(f"memory {m['game']}/{m['players']}: {m['bytes_per_state']} bytes/state")
            continue
        rss = m["rss_delta_bytes"]
        lines.append(
            f"memory {m['game']}/{m['players']}: {m['bytes_per_state']} bytes/state; "
            f"B={m['batch']}: states {m['batch_states_bytes'] / 2**20:.2f} MiB, tracemalloc peak "
            f"{m['tracemalloc_peak_bytes'] / 2**20:.2f} MiB, RSS delta "
            + ("n/a" if rss is None else f"{rss / 2**20:.1f} MiB")
        )
    for r in internal:
        lines.append(f"{r['game']}/{r['players']}: {r['what']} = {r['ratio']:.1f}x")
    for g in goal_rows:
        status = {True: "MET", False: "MISSED", None: "not measured"}[g["met"]]
        op = ">=" if g["higher_is_better"] else "<="
        note = f" ({g['note']})" if g["note"] else ""
        lines.append(
            f"goal {g['game']}/{g['players']}: {g['goal']} = {_fmt(g['value'], 2)} "
            f"(target {op} {g['target']}){note}: {status}"
        )
    for s in results.skipped:
        lines.append(f"skipped {s['what']}: {s['reason']}")
    return "\n".join(lines)


def plot(results: Results, path: Path) -> bool:
    """Write the PNG; False (nothing written) when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [r for r in results.measurements if r.get("kind") != "legal"]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(15, max(4.0, 0.28 * len(rows) + 1.5)))
    labels = [
        (f"{r['game']}/{r['players']}: " if r["side"] != "peer" else "") + r["label"] for r in rows
    ]
    side_color = {"ours": "tab:blue", "probe": "tab:orange", "peer": "tab:gray"}
    colors = [side_color.get(r["side"], "tab:gray") for r in rows]
    ax1.barh(range(len(rows)), [r["steps_per_s"] for r in rows], color=colors)
    ax1.set_yticks(range(len(rows)), labels, fontsize=7)
    ax1.invert_yaxis()
    ax1.set_xscale("log")
    ax1.set_xlabel("steps/s (log scale); blue: ours, orange: limit probe, gray: peers")
    ax1.set_title("Random-play throughput")
    colors2 = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, (game, players) in enumerate(_cases(results)):
        threads = sorted(
            {r["threads"] for r in results.find(game=game, players=players) if "threads" in r}
        )
        for t in threads:
            pts = sorted(
                (r["batch"], r["steps_per_s"])
                for r in results.find(game=game, players=players, threads=t, side="ours")
            )
            ax2.plot(
                *zip(*pts, strict=True),
                marker="o",
                color=colors2[i % len(colors2)],
                linestyle="-" if t == 1 else "--",
                label=f"{game}/{players}p, {t} thread(s)",
            )
    rates = [y for line in ax2.lines for y in line.get_ydata()]
    if rates:  # at least one decade, so that noise does not look like a trend
        mid = (min(rates) * max(rates)) ** 0.5
        ax2.set_ylim(min(min(rates), mid / 3.2) / 1.2, max(max(rates), mid * 3.2) * 1.2)
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    ax2.set_xlabel("batch size B")
    ax2.set_ylabel("steps/s")
    ax2.set_title("Batched compiled random playouts: scaling with B")
    if ax2.lines:
        ax2.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def results_from_json(path: Path) -> Results:
    """A :class:`Results` rebuilt from a written JSON file (to redraw or re-tabulate)."""
    data = json.loads(Path(path).read_text())
    keys = ("measurements", "skipped", "startup", "memory", "meta")
    return Results(**{k: data[k] for k in keys}, verbose=False)


def write_outputs(results: Results, json_path: Path) -> dict:
    """Print the table and summary; write JSON, Markdown table and PNG next to it."""
    header, rows = table_rows(results)
    goal_rows, internal = goals(results), internal_ratios(results)
    print()
    print(format_text(header, rows))
    print()
    print(summary_text(results, goal_rows, internal))
    data = {
        "meta": results.meta,
        "measurements": results.measurements,
        "ratios": ratios(results),
        "probe_shares": [
            {k: r[k] for k in ("game", "players", "method", "batch", "threads")}
            | {"share": probe_share(results, r)}
            for r in _ours(results)
            if probe_share(results, r) is not None
        ],
        "internal_ratios": internal,
        "cases": [
            {"game": g, "players": p, "mean_game_length": pooled_game_length(results, g, p)}
            for g, p in _cases(results)
        ],
        "startup": results.startup,
        "memory": results.memory,
        "goals": goal_rows,
        "skipped": results.skipped,
    }
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(data, indent=2))
    md_path = json_path.with_suffix(".md")
    md_path.write_text(
        format_markdown(header, rows)
        + "\n\n```\n"
        + summary_text(results, goal_rows, internal)
        + "\n```\n"
    )
    png_path = json_path.with_suffix(".png")
    wrote_png = plot(results, png_path)
    png_note = f", {png_path}" if wrote_png else " (no PNG: matplotlib missing)"
    print(f"\nwrote {json_path}, {md_path}{png_note}")
    data["files"] = {
        "json": str(json_path),
        "markdown": str(md_path),
        "png": str(png_path) if wrote_png else None,
    }
    return data
