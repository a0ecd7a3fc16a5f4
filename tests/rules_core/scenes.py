"""Deals used by several rules_core tests (not collected: no test_ prefix)."""

from __future__ import annotations

from rules_core.deals import parse_hands

# Each seat holds one whole suit: seat 0 D, seat 1 H, seat 2 S, seat 3 C. Nobody can follow
# anybody, so every card order is legal; in a trump contract the trump holder wins every
# trick it plays to (with Rosen trump seat 1 plays its j-th card as play 1, then 4 * j).
SUITS_TEXT = (
    "D6 D7 D8 D9 D10 DJ DQ DK DA / H6 H7 H8 H9 H10 HJ HQ HK HA / "
    "S6 S7 S8 S9 S10 SJ SQ SK SA / C6 C7 C8 C9 C10 CJ CQ CK CA"
)
SUITS = parse_hands(SUITS_TEXT)

# S-EN 5: "Players 1 and 4 against Players 2 and 3 ... Order: Player 4, 3, 1, 2", so seats
# 0..3 are Players 4, 3, 1, 2. Player 1 (seat 2) holds the 10, Under, Ober and king of
# shields and the 10 of bells; Player 3 (seat 1) three in sequence and no bells; Player 4
# (seat 0) the king of bells and the 7 of roses; Player 2 (seat 3) the 6 of bells.
S_EN_TEXT = (
    "DK D8 DA H7 HA S7 S9 C10 CK / C6 C7 C8 H8 S6 S8 H10 CA CQ / "
    "S10 SJ SQ SK D10 HJ C9 H6 D7 / D6 D9 DJ DQ H9 HQ HK SA CJ"
)
S_EN_DEAL = parse_hands(S_EN_TEXT)

# Seat 0 holds HK HQ (Stöck for team 0); seat 1 a five-card sequence (Weis for team 1).
STOECK_VS_WEIS = parse_hands(
    "HK HQ D6 D8 D10 S6 S8 S10 C6 / C7 C8 C9 C10 CJ D7 D9 S7 S9 / "
    "H6 H8 H10 HA DJ DK SJ SK CQ / H7 H9 HJ DQ DA SQ SA CK CA"
)
