"""The learning-curve figure: logged training win rates and results against timesteps,
with the greedy policy's validation win rates (``--validate-games``) where there are any."""

from __future__ import annotations

PANELS = (
    ("selfplay/win_rate_", "training win rate", (-0.02, 1.02)),
    ("selfplay/result_", "mean game result (+1 win, -1 loss)", (-1.05, 1.05)),
)
"""(key prefix, y label, y limits) of each panel."""


def validation_series(rows: list[dict]) -> dict[str, list[tuple[int, float, float, float]]]:
    """``{baseline: [(steps, win rate, ci low, ci high), ...]}`` from ``validation.json`` rows."""
    series: dict[str, list[tuple[int, float, float, float]]] = {}
    for row in sorted(rows, key=lambda r: r["steps"]):
        for kind, result in row["vs"].items():
            low, high = result["win_rate_ci95"]
            series.setdefault(kind, []).append((row["steps"], result["win_rate"], low, high))
    return series


def plot_learning_curve(
    history: list[dict], path: str, title: str = "", validation: dict | None = None
) -> str:
    """One panel per entry of :data:`PANELS`, a line per opponent kind; saved to ``path``.

    ``validation`` (the dict :class:`~crusadegym.training.validate.CheckpointValidator`
    returns) adds each checkpoint's validation win rate, with its 95% interval, to the
    win-rate panel, and marks the checkpoint kept as ``best.zip``. The training lines
    are the *sampling* policy against the opponents it drew; the validation points are
    the deterministic policy against each baseline.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    checked = validation_series(validation["rows"]) if validation else {}
    kinds = sorted({k.removeprefix(p) for row in history for k in row for p, _, _ in PANELS
                    if k.startswith(p)} | set(checked))  # fmt: skip
    colour = {kind: f"C{i}" for i, kind in enumerate(kinds)}  # one colour per kind, both panels
    fig, axes = plt.subplots(1, len(PANELS), figsize=(10.5, 3.8))
    for ax, (prefix, label, ylim) in zip(axes, PANELS, strict=True):
        series = sorted({k for row in history for k in row if k.startswith(prefix)})
        for key in series:
            points = [(row["timesteps"], row[key]) for row in history if key in row]
            xs, ys = zip(*points, strict=True)
            kind = key.removeprefix(prefix)
            marker = "." if len(xs) <= 80 else None
            ax.plot(xs, ys, marker=marker, lw=1.2, label=kind, color=colour[kind])
        if ax is axes[0] and validation:
            _plot_validation(ax, checked, colour, validation)
        if series or (checked and ax is axes[0]):
            ax.legend(title="vs", fontsize=7, loc="lower center", ncol=2)
        else:
            ax.text(0.5, 0.5, "no finished games logged", ha="center", transform=ax.transAxes)
        ax.set_ylim(*ylim)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x / 1000:g}k"))
        ax.set_xlabel("environment steps (learner moves)")
        ax.set_ylabel(label + " (rolling)")
        ax.grid(alpha=0.3)
    fig.suptitle(title or "self-play learning curve", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _plot_validation(ax: object, checked: dict, colour: dict, validation: dict) -> None:
    """Validation win rates with 95% error bars, and a dotted line at the kept checkpoint."""
    for kind, points in checked.items():
        steps, rates, lows, highs = zip(*points, strict=True)
        errors = [[r - lo for r, lo in zip(rates, lows, strict=True)],
                  [hi - r for r, hi in zip(rates, highs, strict=True)]]  # fmt: skip
        label = f"{kind}, validation ({validation['games_per_baseline']} greedy games)"
        ax.errorbar(steps, rates, yerr=errors, fmt="o", ms=4, capsize=2, lw=0.8,
                    color=colour[kind], label=label)  # fmt: skip
    if checked:
        ax.axvline(validation["best_steps"], ls=":", color="k", lw=1, label="best.zip")
