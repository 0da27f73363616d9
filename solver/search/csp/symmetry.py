"""Mirror symmetry of a compiled model, proven on its tables, never assumed.

When every constraint is mirror-invariant, the search places the pivot (the
king) on the left half only and each rank found also stands for its mirror
image. :func:`mirrored` checks that on the domains and the allowed tuples.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.kinds.model import Model


def pivot(model: Model) -> str | None:
    """The piece whose file decides the half: the king, or another lone piece."""
    singles = [names[0] for names in model.instances.values() if len(names) == 1]
    if "K" in singles:
        return "K"
    return singles[0] if singles else None


def mirror_names(model: Model) -> dict[str, str]:
    """Which piece each piece becomes when the rank is mirrored.

    Identical pieces in file order come out in reverse order; a pair split
    by colour swaps when mirroring swaps the colours (an even board).
    """
    swap: dict[str, str] = {}
    for letter, names in model.instances.items():
        if letter in model.colour_split and model.region_size % 2:
            swap.update({n: n for n in names})
        else:
            swap.update(zip(names, reversed(names), strict=True))
    return swap


def mirrored(
    model: Model, tables: Sequence[tuple[tuple[str, ...], frozenset[tuple[int, ...]]]]
) -> bool:
    """Whether the mirror image of every solution is a solution (proven on tables)."""
    last = model.region_size - 1
    swap = mirror_names(model)
    for name, domain in model.domains.items():
        if {last - f for f in domain} != set(model.domains[swap[name]]):
            return False
    for pieces, allowed in tables:
        where = {name: i for i, name in enumerate(pieces)}
        if set(map(swap.get, pieces)) != set(pieces):
            return False
        moves = [where[swap[name]] for name in pieces]
        for row in allowed:
            image = [0] * len(row)
            for value, to in zip(row, moves, strict=True):
                image[to] = last - value
            if tuple(image) not in allowed:
                return False
    return True
