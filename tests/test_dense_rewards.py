"""Dense rewards for every game (issue #36, goal 3): ``reward="score"`` and shaping.

For the Duel, the Campaign, Deus and Crusaders: summed over a game, ``reward="score"``
pays the result plus the game's weight times the final score lead (paid as the score
changes, so mid-game steps carry reward), and the potential-based shaping sums to exactly
the result. Checked on whole games, with the final score lead recomputed from the state.
"""

from __future__ import annotations

import numpy as np
import pytest

from crusadegym.agents import make_agent, select_action
from crusadegym.envs.aec import CrusadeAECEnv
from crusadegym.envs.shaping import POTENTIAL_WEIGHTS, SCORE_WEIGHTS, SCORES

CASES = {
    "deus_lo_vult": ("heuristic", {"players": 2, "rounds": 1, "max_turns": 15}),
    "deus": ("random", {"players": 3, "max_turns": 12}),
    "crusaders": ("random", {"players": 2, "max_turns": 25}),
    "deus_lo_vult_campaign": ("heuristic", {"players": 2, "max_turns": 12, "battles": 1}),
}
"""Game -> (the agent that plays every seat, the config). Random Campaign play secures no
coin in a short game; the heuristic does."""


def play(name: str, seed: int, **env_options) -> tuple[CrusadeAECEnv, dict, bool]:
    """Play ``name`` to the end with its case's agent in every seat; return the env, each
    agent's summed reward, and whether any reward was paid before the last step."""
    spec, config = CASES[name]
    env = CrusadeAECEnv(name, **config, **env_options)
    env.reset(seed=seed)
    agents = [make_agent(spec, seed + s) for s in range(env.game.num_players)]
    totals = dict.fromkeys(env.possible_agents, 0.0)
    paid_midgame = False
    while not all(env.terminations.values()):
        seat = env.agent_name_mapping[env.agent_selection]
        env.step(select_action(agents[seat], env.game, env.game_state))
        for agent in env.possible_agents:
            totals[agent] += env.rewards[agent]
        paid_midgame |= not all(env.terminations.values()) and any(env.rewards.values())
    return env, totals, paid_midgame


@pytest.mark.parametrize("name", sorted(CASES))
def test_score_reward_pays_the_score_lead_as_it_changes_and_the_result(name: str) -> None:
    env, totals, paid_midgame = play(name, seed=3, reward="score")
    score = SCORES[name](env.game, env.game_state)
    result = env.game.returns(env.game_state)
    others = (score.sum() - score) / (len(score) - 1)
    assert paid_midgame and np.any(score != score[0])
    for i, agent in enumerate(env.possible_agents):
        lead = float(score[i] - others[i])
        expected = float(result[i]) + SCORE_WEIGHTS[name] * lead
        assert totals[agent] == pytest.approx(expected, abs=1e-4)
    assert sum(totals.values()) == pytest.approx(float(result.sum()), abs=1e-4)  # lead: zero-sum


@pytest.mark.parametrize("name", sorted(CASES))
def test_shaping_pays_along_the_game_and_sums_to_the_result(name: str) -> None:
    assert POTENTIAL_WEIGHTS[name] > 0
    env, totals, paid_midgame = play(name, seed=4, shaped_rewards=True)
    result = env.game.returns(env.game_state)
    assert paid_midgame
    for i, agent in enumerate(env.possible_agents):
        assert totals[agent] == pytest.approx(float(result[i]), abs=1e-4)
