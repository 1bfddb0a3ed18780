"""Benchmarks of the suite (``crusadegym bench`` or ``python -m crusadegym.benchmarks.throughput``).

Throughput modules: :mod:`.throughput` (the ``crusadegym bench`` command),
:mod:`.timing` (the timed loop every measurement shares), :mod:`.loops`
(random-play loops, ours and the peers'), :mod:`.batch` (the compiled batched
driver), :mod:`.ours` and :mod:`.peers` (what is measured), :mod:`.child`,
:mod:`.startup` and :mod:`.memory` (fresh-process time to first step and peak
memory), :mod:`.results` and :mod:`.report` (collection, table, ratios, goals,
JSON and plot). :mod:`.soak` is the ``crusadegym soak`` fuzzing command, and
:mod:`.warmup` the ``crusadegym warmup`` command (compile every game ahead of first
use); ``python -m crusadegym.benchmarks.startup`` prints the cold/warm start table.
"""
