"""Plunder, carrying, passing, securing and stealing coins [R "Plunder, Camps and
Refugees", "Carrying and Stealing Coins"].

A plundered coin moves from a City Quarter to the plunderer; an emptied quarter
flips to its Refugee side. Coins are secured by a GIVE into one's own camp centre,
passed to a friendly Crusader, or dropped on an empty cell, and picked up again by
standing on them (free) or with a TAKE from next to them (1 Action Point).
"""

from __future__ import annotations

from ..jit import jit
from .campaign.adjoin import controller
from .carry import free_capacity
from .config import P_CAMP_CENTRE, P_SECURE, SECURE_ALL
from .layout import BOARD, GROUND, LAST_PLUNDER, ROUND_LEFT, SCORE, TOK_COINS, TOK_SIDE
from .pieces import is_camp_centre, is_crusader
from .purgatory import WEAK

REFUGEE_SIDE = WEAK  # an emptied City Quarter is flipped [R "flip the token"]


@jit
def plunder(state, t, u, p):
    """Crusader t takes one coin from City Quarter u for seat p [R "Each coin plundered
    costs an action point"]; the quarter's last coin turns it into a Refugee."""
    state[TOK_COINS + u] -= 1
    state[TOK_COINS + t] += 1
    state[LAST_PLUNDER] = p
    if state[TOK_COINS + u] == 0:
        state[TOK_SIDE + u] = REFUGEE_SIDE


@jit
def steal(state, t, u):
    """Crusader t takes one coin from rival Crusader u [R "Crusaders can steal coins"]."""
    state[TOK_COINS + u] -= 1
    state[TOK_COINS + t] += 1


@jit
def pick_up(state, params, t, c):
    """Standing on loose coins picks up as many as t can carry, free [R]."""
    if is_crusader(t) and state[GROUND + c] > 0:
        take = min(state[GROUND + c], free_capacity(state, params, t))
        state[GROUND + c] -= take
        state[TOK_COINS + t] += take


@jit
def take_from(state, t, nb):
    """TAKE: pick one loose coin up from the next cell (1 Action Point) [R]."""
    state[GROUND + nb] -= 1
    state[TOK_COINS + t] += 1


@jit
def give_ok(state, params, c, nb, p):
    """GIVE toward nb: secure in own camp centre, pass to an own (commanded) Crusader,
    or drop."""
    if nb == params[P_CAMP_CENTRE + p]:
        return True
    u = state[BOARD + nb]
    if u >= 0:
        return is_crusader(u) and controller(state, u) == p and free_capacity(state, params, u) > 0
    return not is_camp_centre(params, nb)


@jit
def do_give(state, params, c, nb, p):
    """Move a coin toward nb; returns True when the round's last coin was secured.

    Into the own camp centre: secured, one coin per action, or every coin carried
    with ``secure_coins="all"`` ("moving the coins into it").
    """
    t = state[BOARD + c]
    if nb == params[P_CAMP_CENTRE + p]:
        n = state[TOK_COINS + t] if params[P_SECURE] == SECURE_ALL else 1
        state[TOK_COINS + t] -= n
        state[SCORE + p] += n
        state[ROUND_LEFT] -= n
        return state[ROUND_LEFT] == 0
    state[TOK_COINS + t] -= 1
    u = state[BOARD + nb]
    if u >= 0:
        state[TOK_COINS + u] += 1
    else:
        state[GROUND + nb] += 1
    return False
