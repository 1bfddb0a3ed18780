"""The Crusaders state: ONE flat int32 array with named offsets.

::

    0     2        40           40+4*PL_SIZE              +6*R       +32
    | RNG | scalars | PLAYERS[4] x PL_SIZE                | REGIONS   | ENEMY_LOC |
                      SCORE ORDER DEALT[2] WHEEL[6] TOK[6]  ENEMY BLD_A BLD_B
                      UP[6] GIANT TROOPS BOARD[8] KNIGHT[4] BONUS INF COAT
                      CAPT[3] ONCE[5] PERM[5] NTILES NEND
                      COATS TOKTOTAL CHAPELQ

Scalars: seat to move, phase (a sub-decision, see ``PH_*``), game over, truncated,
turn, step, influence supply left, end triggered, setup cursor / step, the wedge being
resolved, the two queued actions and their values, the current action and strength,
travel points and moves left, the chosen building type, a Saracen region, pending
distributions, sowing power used this turn, "built an expansion building this turn",
the wedge used this turn, the one-time boosts taken, the Prussian and Slav tracks.

Per player: WHEEL[i] is the wedge at clockwise position i, TOK[i] its tokens (the
giant token counts once here; GIANT is its position or -1), UP[i] 1 if upgraded.
BOARD[t] is a 4-bit mask of the type-t buildings still on the player board (bit l =
level l+1). KNIGHT[k] is a region or -1. CAPT[e] enemies kept by type. ONCE[a]
face-up one-time tiles for action a; PERM[a] permanent ones. NTILES influence tiles
collected, NEND the end-game tiles among them. TOKTOTAL the tokens the wheel must hold,
CHAPELQ tokens owed by Chapels at the end of this turn.

Per region: ENEMY token id or -1; BLD_A/BLD_B a building ``owner*32 + type*4 + level``
or -1 (B only holds an expansion building beside A); BONUS tile id or -1; INF tile id
or -1; COAT owner of the Coat-of-Arms or -1. ENEMY_LOC[token] is a region, or one of
``ELOC_BOX`` / ``ELOC_TRACK`` / ``ELOC_CAPT0 - seat``.
"""

from __future__ import annotations

from . import tables as T

RNG = 0
CUR, PHASE, OVER, TRUNC, TURN, STEP, SUPPLY, ENDING = 2, 3, 4, 5, 6, 7, 8, 9
SETUP_SEAT, SETUP_STEP, CTX_WEDGE, Q_ACT0, Q_VAL0, Q_ACT1, Q_VAL1 = 10, 11, 12, 13, 14, 15, 16
ACT, STRENGTH, TRAVEL_LEFT, MOVES_LEFT, BTYPE, SAR_REGION = 17, 18, 19, 20, 21, 22
PENDING_DIST, POWER_USED, BUILT_EXP, USED_WEDGE, BOOSTED, MILL_LEVEL = 23, 24, 25, 26, 27, 28
TRACK = 29  # [2] Prussian, Slav defeats so far
SOWING_DIST = 31  # 1 while the sowing being decided is a distribution
SAR_TOKEN = 32  # the Saracen token whose reward is being chosen
MAX_PLAYERS = 4

# per-player block
PL_SCORE = 0
PL_ORDER = 1
PL_DEALT = 2  # [2]
PL_WHEEL = 4  # [6]
PL_TOK = 10  # [6]
PL_UP = 16  # [6]
PL_GIANT = 22
PL_TROOPS = 23
PL_BOARD = 24  # [8]
PL_KNIGHT = 32  # [4]
PL_CAPT = 36  # [3]
PL_ONCE = 39  # [5]
PL_PERM = 44  # [5]
PL_NTILES = 49
PL_NEND = 50
PL_COATS = 51
PL_TOKTOTAL = 52
PL_CHAPELQ = 53
PL_SIZE = 56

PLAYERS = 40
REGIONS = PLAYERS + MAX_PLAYERS * PL_SIZE
R_ENEMY = REGIONS
R_BLD_A = R_ENEMY + T.N_REGIONS
R_BLD_B = R_BLD_A + T.N_REGIONS
R_BONUS = R_BLD_B + T.N_REGIONS
R_INF = R_BONUS + T.N_REGIONS
R_COAT = R_INF + T.N_REGIONS
ENEMY_LOC = R_COAT + T.N_REGIONS
STATE_SIZE = ENEMY_LOC + T.N_ENEMY_TOKENS

assert SAR_TOKEN < PLAYERS

ELOC_BOX, ELOC_TRACK, ELOC_CAPT0 = -1, -2, -10  # captured by seat p: ELOC_CAPT0 - p

# phases (each a kind of decision)
(
    PH_ORDER,
    PH_SETUP,
    PH_PLACE,
    PH_TURN,
    PH_SPLIT,
    PH_FIRST,
    PH_BOOST,
    PH_TRAVEL,
    PH_CRUSADE,
    PH_SARACEN,
    PH_INFLUENCE,
    PH_TILE_UPGRADE,
    PH_BUILD_TYPE,
    PH_BUILD_SITE,
    PH_MILL,
    PH_VAULT,
    PH_SOW,
    PH_DIST,
    PH_OVER,
) = range(19)
PHASE_NAMES = (
    "order",
    "setup",
    "place",
    "turn",
    "split",
    "first",
    "boost",
    "travel",
    "crusade",
    "saracen",
    "influence",
    "tile-upgrade",
    "build-type",
    "build-site",
    "mill",
    "vault",
    "sow",
    "distribute",
    "over",
)
N_PHASES = len(PHASE_NAMES)
NO_ACTION = -1


def pl(p: int) -> int:
    """Offset of seat ``p``'s block (plain Python helper; kernels inline the arithmetic)."""
    return PLAYERS + p * PL_SIZE
