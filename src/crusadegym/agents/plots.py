"""Arena figures: rating bar chart with error bars, pairwise score heatmap (matplotlib)."""

from __future__ import annotations

import numpy as np


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _label(agent: str) -> str:
    """An agent spec on several lines (one option per line) so long specs stay readable."""
    return agent.replace(":", "\n")


def _title(result: dict) -> str:
    n = len(result["records"])
    return f"{result['game']}, {result['players']} players, {n} games"


def plot_ratings(result: dict, path: str) -> str:
    """Bars of OpenSkill mu per agent with +-2 sigma error bars; saved to ``path``."""
    plt = _pyplot()
    agents = sorted(result["agents"], key=lambda a: -result["ratings"][a]["mu"])
    mu = [result["ratings"][a]["mu"] for a in agents]
    err = [2 * result["ratings"][a]["sigma"] for a in agents]
    fig, ax = plt.subplots(figsize=(1.6 + 1.3 * len(agents), 3.6))
    ax.bar([_label(a) for a in agents], mu, yerr=err, capsize=6, color="#8c6d31", alpha=0.85)
    ax.axhline(25.0, color="grey", lw=0.8, ls="--", label="prior mu = 25")
    ax.set_ylabel("OpenSkill mu (error bar: 2 sigma)")
    ax.set_title(_title(result), fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_pairwise(result: dict, path: str) -> str:
    """Heatmap of the pairwise score of the row agent over the column agent."""
    plt = _pyplot()
    agents = result["pairwise"]["agents"]
    score = np.array(result["pairwise"]["score"], dtype=float)
    games = np.array(result["pairwise"]["games"])
    size = 1.8 + 1.1 * len(agents)
    fig, ax = plt.subplots(figsize=(size + 1.2, size))
    im = ax.imshow(score, vmin=0, vmax=1, cmap="RdYlGn")
    labels = [_label(a) for a in agents]
    ax.set_xticks(range(len(agents)), labels, fontsize=8)
    ax.set_yticks(range(len(agents)), labels, fontsize=8)
    for i in range(len(agents)):
        for j in range(len(agents)):
            if games[i, j]:
                ax.text(j, i, f"{score[i, j]:.2f}\n(n={games[i, j]})", ha="center",
                        va="center", fontsize=8)  # fmt: skip
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    ax.set_title("score of row over column (win 1, tie 0.5)\n" + _title(result), fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.046)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
