"""The learning-curve figure: logged training win rates and results against timesteps."""

from __future__ import annotations

PANELS = (
    ("selfplay/win_rate_", "training win rate", (-0.02, 1.02)),
    ("selfplay/result_", "mean game result (+1 win, -1 loss)", (-1.05, 1.05)),
)
"""(key prefix, y label, y limits) of each panel."""


def plot_learning_curve(history: list[dict], path: str, title: str = "") -> str:
    """One panel per entry of :data:`PANELS`, a line per opponent kind; saved to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    kinds = sorted({k.removeprefix(p) for row in history for k in row for p, _, _ in PANELS
                    if k.startswith(p)})  # fmt: skip
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
        if series:
            ax.legend(title="vs", fontsize=8)
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
