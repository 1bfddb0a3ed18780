"""A tutorial-sized MaskablePPO run on ``reward="score"``, with its learning curve.

    python scripts/score_reward_demo.py --steps 20000 --out runs/score_demo
    python scripts/score_reward_demo.py --random-games 100   # which configs random play ends

sb3-contrib's documented MaskablePPO recipe with only the env swapped in:
``gymnasium.make("crusadegym/DeusLoVult-v0", reward=..., opponents=...)`` on the
training config (``rounds=1, max_turns=15``), default hyperparameters, one env. Each
episode's return, coin lead and result are logged; the figure shows their running
mean over training (the numbers quoted in docs/training.md come from this script).
"""

from __future__ import annotations

import argparse
import json
import os
import time

import gymnasium
import numpy as np

import crusadegym.envs  # noqa: F401  (registers the ids)
from crusadegym.core.deus_lo_vult import layout as L


class EpisodeLog(gymnasium.Wrapper):
    """Records each episode's return, the learner's final coin lead and its result."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        self.rows: list[dict] = []
        self._ret = 0.0

    def reset(self, **kwargs):
        self._ret = 0.0
        return self.env.reset(**kwargs)

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._ret += float(reward)
        if terminated or truncated:
            inner = self.env.unwrapped
            score = inner.game_state[L.SCORE : L.SCORE + inner.game.num_players]
            lead = float(score[inner.seat] - np.delete(score, inner.seat).mean())
            result = float(inner.game.returns(inner.game_state)[inner.seat])
            self.rows.append({"return": self._ret, "coin_lead": lead, "result": result})
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()


def progress_callback(env: EpisodeLog):
    """An SB3 callback printing the episodes so far after each rollout (to follow a run)."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Progress(BaseCallback):
        def _on_step(self) -> bool:
            return True

        def _on_rollout_end(self) -> None:
            recent = env.rows[-20:]
            mean = np.mean([r["return"] for r in recent]) if recent else float("nan")
            print(f"{self.num_timesteps} steps, {len(env.rows)} episodes, "
                  f"last-20 mean return {mean:+.3f}", flush=True)  # fmt: skip

    return Progress()


RANDOM_CONFIGS = [(1, 15), (1, 30), (1, 60), (1, 120), (3, 60), (3, 180)]
"""(rounds, max_turns per seat) pairs the random-play table covers; (1, 15) is the training
config."""


def random_finish_table(games: int) -> None:
    """Uniform random play in 2-player games: how often the game's own end is reached."""
    from crusadegym.core import make_game

    print("rounds max_turns  ended by turn cap  decided  coins secured per game  steps")
    for rounds, max_turns in RANDOM_CONFIGS:
        game = make_game("deus_lo_vult", players=2, rounds=rounds, max_turns=max_turns)
        rng = np.random.default_rng(0)
        capped = decided = coins = steps = 0
        for seed in range(games):
            state = game.new_state(seed)
            while not game.is_terminal(state):
                game.step(state, int(rng.choice(game.legal_actions(state))))
                steps += 1
            capped += game.is_truncated(state)
            result = game.returns(state)
            decided += bool(result[0] != result[1])
            coins += int(state[L.SCORE : L.SCORE + 2].sum())
        print(f"{rounds:>6} {max_turns:>9}  {capped:>8}/{games:<8}  {decided:>3}/{games:<4}"
              f"  {coins / games:>22.2f}  {steps / games:>5.0f}")  # fmt: skip


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=20_000)
    p.add_argument("--reward", default="score", choices=("score", "result"))
    p.add_argument("--opponents", default="heuristic")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="runs/score_demo")
    p.add_argument("--random-games", type=int, default=0,
                   help="instead of training: play this many random games per config")  # fmt: skip
    args = p.parse_args()
    if args.random_games:
        random_finish_table(args.random_games)
        return 0
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)  # small MLP: more threads only contend on a shared machine

    os.makedirs(args.out, exist_ok=True)
    env = EpisodeLog(
        gymnasium.make(
            "crusadegym/DeusLoVult-v0", opponents=args.opponents, reward=args.reward,
            players=2, rounds=1, max_turns=15,
        )
    )  # fmt: skip
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, device="cpu", verbose=0)
    start = time.perf_counter()
    model.learn(total_timesteps=args.steps, callback=progress_callback(env))
    seconds = time.perf_counter() - start
    rows = env.rows
    tenth = max(1, len(rows) // 10)
    summary = {
        "args": vars(args), "episodes": len(rows), "seconds": seconds,
        "first_tenth": {k: float(np.mean([r[k] for r in rows[:tenth]])) for k in rows[0]},
        "last_tenth": {k: float(np.mean([r[k] for r in rows[-tenth:]])) for k in rows[0]},
        "rows": rows,
    }  # fmt: skip
    with open(os.path.join(args.out, f"{args.reward}_{args.seed}.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps({k: v for k, v in summary.items() if k != "rows"}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
