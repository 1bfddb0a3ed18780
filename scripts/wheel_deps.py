"""Expose an environment's installed copies of a wheel's dependencies to a fresh venv.

``python scripts/wheel_deps.py WHEEL EXTRAS OUT_DIR`` reads the wheel's ``Requires-Dist``,
follows them (with ``EXTRAS``, comma-separated) through the installed distributions of
the interpreter that runs it, and symlinks every file tree those distributions installed
into ``OUT_DIR``. A ``.pth`` file naming ``OUT_DIR`` then gives a fresh venv exactly these
packages: the wheel's declared dependencies and nothing else (no torch, no test tools,
no editable crusadegym), without downloading them again. A dependency missing from
this interpreter is an error (install it, or let the smoke test use the index).
"""

from __future__ import annotations

import importlib.metadata as md
import sys
import zipfile
from pathlib import Path

try:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
except ImportError:  # pip always carries a copy
    from pip._vendor.packaging.requirements import Requirement
    from pip._vendor.packaging.utils import canonicalize_name


def wheel_requirements(wheel: Path) -> list[str]:
    """The ``Requires-Dist`` lines of a wheel's METADATA."""
    with zipfile.ZipFile(wheel) as zf:
        meta = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        text = zf.read(meta).decode()
    return [line.split(":", 1)[1].strip() for line in text.splitlines()
            if line.startswith("Requires-Dist:")]  # fmt: skip


def closure(requirements: list[str], extras: set[str]) -> dict[str, md.Distribution]:
    """Every installed distribution the requirements need (markers evaluated here)."""
    found: dict[str, md.Distribution] = {}
    todo = [(r, extras) for r in requirements]
    while todo:
        text, active = todo.pop()
        req = Requirement(text)
        envs = [{"extra": e} for e in active] or [{"extra": ""}]
        if req.marker is not None and not any(req.marker.evaluate(env) for env in envs):
            continue
        key = canonicalize_name(req.name)
        if key in found:
            continue
        try:
            dist = md.distribution(req.name)
        except md.PackageNotFoundError:
            sys.exit(f"wheel_deps: {req.name} is not installed in {sys.prefix}")
        if dist.version not in req.specifier and req.specifier:
            sys.exit(f"wheel_deps: installed {req.name} {dist.version} does not satisfy {req}")
        found[key] = dist
        todo += [(r, set(req.extras)) for r in dist.requires or []]
    return found


def link(dists: dict[str, md.Distribution], out: Path) -> int:
    """Symlink each distribution's top-level files and folders into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for dist in dists.values():
        roots = {Path(str(f)).parts[0] for f in dist.files or []}
        base = Path(str(dist.locate_file("")))
        for root in sorted(roots - {"..", "__pycache__"}):
            target, dest = base / root, out / root
            if target.exists() and not dest.exists():
                dest.symlink_to(target)
                count += 1
    return count


def main(argv: list[str]) -> int:
    wheel, extras, out = Path(argv[0]), {e for e in argv[1].split(",") if e}, Path(argv[2])
    dists = closure(wheel_requirements(wheel), extras)
    n = link(dists, out)
    print(f"wheel_deps: {len(dists)} distributions ({n} entries) linked into {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
