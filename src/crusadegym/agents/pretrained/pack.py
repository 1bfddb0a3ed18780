"""Pack a trained checkpoint into the package as the ``pretrained`` policy of its game.

``python -m crusadegym.agents.pretrained.pack runs/RUN/final.zip --command "crusadegym
train ..."`` writes ``<game>.zip`` and ``<game>.json`` next to this file. A MaskablePPO
checkpoint holds the policy weights, the Adam optimizer's two moment estimates (twice
the weights again, useless for playing) and stores every entry uncompressed; packing

* replaces the optimizer state by a fresh optimizer's (no moments): the file still loads
  with ``MaskablePPO.load`` (which wants an optimizer entry) but cannot resume training
  where it stopped;
* stores the policy weights as float16 (loading copies them into the float32 network;
  the measured strength in ``docs/arena.md`` is that of the packed file);
* compresses the zip.

The sidecar gains ``packed_from``, ``training_command`` and ``weights: float16``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import zipfile
from pathlib import Path

from crusadegym.errors import UserError

from . import PRETRAINED_DIR

POLICY_ENTRY = "policy.pth"
OPTIMIZER_ENTRY = "policy.optimizer.pth"


def _half_weights(data: bytes) -> bytes:
    import torch

    state = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    # the same tensor is stored under several names (a shared features extractor); halve it
    # once, so torch.save keeps storing it once
    halves: dict[tuple, object] = {}
    halved = {}
    for name, v in state.items():
        if v.is_floating_point():
            key = (v.data_ptr(), tuple(v.shape), v.stride())
            halved[name] = halves.setdefault(key, v.half())
        else:
            halved[name] = v
    out = io.BytesIO()
    torch.save(halved, out)
    return out.getvalue()


def _fresh_optimizer_state(path: str) -> bytes:
    import torch
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(path, device="cpu")
    policy = model.policy
    fresh = policy.optimizer_class(policy.parameters(), lr=1e-4, **policy.optimizer_kwargs)
    out = io.BytesIO()
    torch.save(fresh.state_dict(), out)
    return out.getvalue()


def pack(checkpoint: str, game: str, command: str, out_dir: Path = PRETRAINED_DIR) -> Path:
    """Write the packed ``checkpoint`` (and its sidecar) as ``out_dir/<game>.zip``; return it."""
    from crusadegym.agents.neural import read_sidecar

    info = read_sidecar(checkpoint)
    if info is None or info.get("game") != game:
        raise UserError(f"{checkpoint}: its sidecar does not name game {game!r}")
    target = Path(out_dir) / f"{game}.zip"
    optimizer = _fresh_optimizer_state(checkpoint)
    with (
        zipfile.ZipFile(checkpoint) as src,
        zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as dst,
    ):
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == POLICY_ENTRY:
                data = _half_weights(data)
            elif item.filename == OPTIMIZER_ENTRY:
                data = optimizer
            dst.writestr(item.filename, data)
    sidecar = {
        **info,
        "packed_from": os.path.basename(checkpoint),
        "training_command": command,
        "weights": "float16",
    }
    target.with_suffix(".json").write_text(json.dumps(sidecar, indent=1) + "\n")
    return target


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m crusadegym.agents.pretrained.pack",
                                description=__doc__.split("\n\n")[0])  # fmt: skip
    p.add_argument("checkpoint", help="a MaskablePPO .zip with its .json sidecar")
    p.add_argument("--game", default="deus_lo_vult")
    p.add_argument("--command", required=True, help="the command that trained it")
    args = p.parse_args(argv)
    path = pack(args.checkpoint, args.game, args.command)
    size = path.stat().st_size + path.with_suffix(".json").stat().st_size
    print(f"wrote {path} and its sidecar: {size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
