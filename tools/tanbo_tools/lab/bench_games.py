"""Fixed 9x9 games for ``tanbo bench``'s per-ply board figures.

A seeded random game is the same game only while the legal lists keep their
order: an engine change that reorders them replays every seed differently,
and per-ply figures of two versions then compare different games (removals
move them by a few percent). These eleven games are data: every version
replays them move for move, so their per-ply figure compares like with like.
They were recorded once, uniformly random legal moves (tanbo.rng seeds 100
to 110, engine 2be03f2); the first only warms up.
"""

GAMES_9X9 = (
    ("H9 H3 H7 G3 J7 A8 H6 A7 G9 B9 J9 J2 G7 H4 H5 J4 B3 J1 A2 A6 F9 A5 C2 A4 A1 A3 B4 F3 F7 J5 C1 E3 B5 "
     "B6 G5 F4 C4 C6 D4 J6 D5 F2 G4 F1 D1 G1 D6 C9 E1 C7 E5 C5 D3 D9 E9 F5 E8 F6 E2 D8 A5 G6 D9 E6 D7 E7"),
    ("C2 B9 C3 J2 C4 A9 D3 H3 B4 G3 G8 B7 G7 A7 F7 C7 E7 H1 C5 A6 E3 F3 E4 D7 E6 F4 E2 F2 D5 C6 G6 F5 A4 "
     "G5 G9 E5 A5 H5 A2 C9 A1 J5 E1 J4 J8 F6 J9 F1 D1 E1 J7 D8 D6 H6 J6 D1 D5 A5 C5 E8 D4 C1 D3 E9 C3 F8 "
     "D2 C2 F9 B2 E3 A2 B3 B5 B4 A1 A3"),
    ("H7 H3 B1 J3 A2 C8 J8 A8 A3 D8 A4 D7 H9 E8 G9 E9 C1 F8 D1 A9 G7 G8 F9 H1 D2 J4 D3 B7 H6 J1 C3 G2 A5 "
     "C9 D4 B6 B5 F7 E2 A6 F2 J5 F1 J6 G1 J7 E4 C6 C5 H5 F3 J8 G3 H7 E5 J9 G4 G5 H4 F6 E6 H9 E7 G9 J4 H8 "
     "J3 H7 H5 J8 H6 J9 G6 F5 J6 F4 H1 G5"),
    ("H9 B9 B1 A9 C1 H1 J9 H3 B3 J1 H7 G3 D1 C8 E1 G4 B4 D8 B5 B7 E2 G5 A2 A7 F1 E8 E3 F8 G9 D9 B6 F4 A5 "
     "A6 H6 F9 D3 G8 C4 D7 C6 G6 J7 F7 G1 H5 G2 J5 D6 F6 B7 G7 A7 E4 A8 E6 D5 J6 F9 J3 F3 E7 F8 G8 F7 D4 "
     "A9 D7 E9 C7 B9 E8 C9 C8 E5 B8 D9 J7 F5 G9 E9 H9 F9 J9"),
    ("A2 H3 H9 H1 A1 J2 G9 B9 B3 G1 F9 G3 C2 A9 B4 F3 J9 E3 F8 C8 D2 E4 E8 E2 C1 E1 D8 E5 D7 G4 A4 C7 D3 "
     "D1 F7 C6 A5 C5 D6 D4 F6 G5 G6 B6 H6 E6 A6 C4 J6 H5 D9 C3 C7 E7 B7 C2 D5 J5 C9 C5 B9 C6 J7 B3 B6 A3 "
     "F5 B5 A6 A5 F4 A2 A9 J4 A8"),
    ("J8 B9 J7 J2 A2 J1 B3 B7 A1 C8 G8 G2 C2 F2 H9 A7 D2 B6 J6 G1 J5 H3 J4 D8 H5 D9 G7 B5 C1 F3 F8 E8 J3 "
     "C6 G5 D6 F5 A5 E5 E7 E6 E3 D5 H4 B4 D3 G4 F4 G3 A4 E4 C3 C4 A3 F9 D4 G2 A9 E2 F7 D3 F6 H2 G6 G1 H6 "
     "E1 B3 F2 B2 E3 C3 E9 B1 C5 H7 C4 C1 B4 D3"),
    ("H9 H3 C2 G2 G8 J3 C1 J4 D2 A8 A2 H1 H7 C8 J8 B9 H6 F2 J6 B7 A3 F1 H5 B6 A4 J5 C3 E2 F8 F3 G6 B5 E8 "
     "D8 H4 C6 C4 D7 F6 D9 E6 F4 F9 E7 E5 A5 G4 J1 A1 B4 D6 B3 C5 E9 G3 E4 D4"),
    ("A2 B9 C2 G2 B1 G1 D2 B7 B3 C9 E2 A7 B4 D9 G8 C7 F8 J2 C4 H3 J8 J1 G7 C6 A4 D6 J7 E6 A5 E9 J6 F6 H6 "
     "G6 F9 F2 H5 F5 H9 F3 E1 D8 D3 E7 G5 C5 H4 A6 J4 B5 J3 E3 F1 D3 E8"),
    ("J8 H3 B3 J2 A3 C8 H9 J1 J7 B9 A4 A9 C3 G2 D3 H4 G8 G4 B1 B7 A1 F4 J6 F3 H6 H5 G6 F5 F8 F6 E3 E6 G5 "
     "J4 E2 A7 A5 D8 E1 B6 C1 D6 F9 E8 J5 E9 C4 E4 A6 F7 B5 G1 F1"),
    ("B1 B9 A2 H3 A3 G3 A4 B7 J8 B6 B4 J2 H9 F3 J7 C6 A5 B5 C4 A6 J6 C8 D4 G4 H6 D6 H5 D7 G9 G5 D3 A8 G6 "
     "E3 C5 E7 H4 H1 F9 D5 D2 E2 G7 E5 E4 F7 J4 G1 F6 F8 J3 F1 F4 F5 D1 G8 E6 G5 F3 G4 F2 G3 E1 G2 J2 H2 "
     "J1 F3 E9 H1 D9 D4 C9 D3 D8"),
    ("B3 H3 B4 A8 A3 C8 B1 J2 H9 H1 C3 D8 J9 A9 G8 E8 D3 G3 E3 D9 D2 E7 E4 F3 E5 G4 B5 A7 F4 F7 F8 C7 E6 "
     "F2 D6 G5 D1 E2 C5 G6 G7 G1 A1 E1 B6 C6 A6 F5 B7 H6 D7 J6 E8 H7 F9 H8 F6 J5 F7 J4 B8 G8 C8 J8 G7 G9 "
     "C9 F8 A8 E8 D9 J9 E9 E7 A9 D8"),
)
