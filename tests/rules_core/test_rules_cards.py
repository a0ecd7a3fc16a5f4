"""R1.1-R1.3: cards, suits, ranks, codes, names; parsing what people type."""

from __future__ import annotations

import copy
import pickle

import pytest

from rules_core import (
    DECK,
    Card,
    CardParseError,
    Contract,
    Rank,
    RulesError,
    Suit,
    card_name,
    parse_cards,
    rank_name,
    suit_name,
    trump_name,
)


def test_r1_1_thirty_six_cards_four_suits_of_nine():
    assert len(DECK) == 36 == len(set(DECK))
    for suit in Suit:
        assert len([c for c in DECK if c.suit is suit]) == 9
    assert [s.code for s in Suit] == ["D", "H", "S", "C"]


@pytest.mark.parametrize(
    ("names", "code"),
    [
        # R1.1 table: Swiss-German, French, German pack (S-EN 8) names of each suit;
        # French words of both decks, singular and plural, with and without accents
        (("Schellen", "bells", "diamonds", "Ecken", "Karo"), "D"),
        (("Rosen", "roses", "hearts", "Herz"), "H"),
        (("Schilten", "shields", "spades", "Schaufeln", "Schaufel", "Laub", "leaves"), "S"),
        (("Eicheln", "Eichel", "acorns", "clubs", "Kreuz"), "C"),
        (("grelots", "grelot", "carreau", "carreaux"), "D"),
        (("rose", "cœur", "coeur", "cœurs", "coeurs"), "H"),
        (("boucliers", "bouclier", "pique", "piques"), "S"),
        (("glands", "gland", "trèfle", "trefle", "trèfles", "trefles"), "C"),
    ],
)
def test_r1_1_suit_names_of_both_decks(names, code):
    for name in names:
        assert Suit.parse(name).code == code
        assert Suit.parse(name.upper()).code == code


def test_r1_1_display_names_of_suits():
    assert [suit_name(s) for s in Suit] == ["Schellen", "Rosen", "Schilten", "Eicheln"]
    assert [suit_name(s, "de", "french") for s in Suit] == ["Ecken", "Herz", "Schaufeln", "Kreuz"]
    assert [suit_name(s, "en") for s in Suit] == ["bells", "roses", "shields", "acorns"]
    assert [suit_name(s, "en", "french") for s in Suit] == ["diamonds", "hearts", "spades", "clubs"]
    assert [suit_name(s, "fr") for s in Suit] == ["grelots", "roses", "boucliers", "glands"]
    assert [suit_name(s, "fr", "french") for s in Suit] == ["carreau", "cœur", "pique", "trèfle"]


def test_r1_2_natural_order_and_codes():
    assert [r.code for r in Rank] == ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    assert sorted(Rank, reverse=True)[0] is Rank.ACE
    assert Rank.TEN < Rank.UNDER < Rank.OBER < Rank.KING  # the Under stands after the ten
    assert [str(Card.parse(c)) for c in ("H7", "S10", "DJ", "CA")] == ["H7", "S10", "DJ", "CA"]


def test_r1_2_card_identity_order_and_hash():
    assert Card(Suit.H, Rank.SEVEN) is Card.parse("H7") is Card.parse("h7") is Card.parse("7H")
    assert Card("H", "7") is Card.parse("H7")
    assert {Card.parse("S10"): 1}[Card.parse("Schilten Banner")] == 1
    assert sorted(parse_cards("CA D6 HA H6")) == list(parse_cards("D6 H6 HA CA"))
    assert Card.from_index(0) is DECK[0]
    assert repr(Card.parse("DJ")) == "Card('DJ')"
    card = Card.parse("HQ")
    assert pickle.loads(pickle.dumps(card)) is card
    assert copy.deepcopy(card) is card
    with pytest.raises(AttributeError):
        card.rank = Rank.ACE


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Rosen Ass", "HA"),
        ("Rosen Ober", "HQ"),
        ("hearts queen", "HQ"),
        ("queen of hearts", "HQ"),
        ("Herz Dame", "HQ"),
        ("Schilten 10", "S10"),
        ("Eichel Under", "CJ"),
        ("Schellen Banner", "D10"),
        ("Kreuz Bube", "CJ"),
        ("spades ten", "S10"),
        ("Ecken König", "DK"),
        ("Ecken Koenig", "DK"),
        ("Ecken Konig", "DK"),
        ("ECKEN KÖNIG", "DK"),
        ("Schaufel As", "SA"),
        ("Ass Rosen", "HA"),
        ("Rosen-Ass", "HA"),
        ("Rosenass", "HA"),
        ("Schellenkönig", "DK"),
        ("ace of acorns", "CA"),
        ("Ober of roses", "HQ"),
        ("10 of bells", "D10"),
        ("Rosen Puur", "HJ"),
        ("Schilten Nell", "S9"),
        ("  s10  ", "S10"),
        ("10s", "S10"),
        ("valet de cœur", "HJ"),
        ("Valet de coeur", "HJ"),
        ("cœur valet", "HJ"),
        ("valet cœur", "HJ"),
        ("as de trèfle", "CA"),
        ("as de trefle", "CA"),
        ("AS DE TRÈFLES", "CA"),
        ("ober de roses", "HQ"),
        ("dame de cœur", "HQ"),
        ("bannière de glands", "C10"),
        ("banniere de glands", "C10"),
        ("9 de pique", "S9"),
        ("neuf de boucliers", "S9"),
        ("under de grelots", "DJ"),
        ("roi de carreau", "DK"),
        ("bour de roses", "HJ"),
        ("nell de pique", "S9"),
    ],
)
def test_r1_1_parse_names_people_type(text, code):
    assert Card.parse(text).code == code


def test_r1_2_rank_parse_alone():
    assert Rank.parse("Ober") is Rank.OBER
    assert Rank.parse("Dame") is Rank.QUEEN is Rank.OBER
    assert Rank.parse("Banner") is Rank.TEN
    assert Rank.parse("König") is Rank.parse("koenig") is Rank.parse("KONIG") is Rank.KING
    assert Rank.parse("Under") is Rank.parse("Bube") is Rank.parse("jack") is Rank.J


def test_r1_2_parse_cards_mixes_codes_and_names():
    assert [c.code for c in parse_cards("H6 Rosen Sieben, queen of hearts; Herz König HA")] == [
        "H6",
        "H7",
        "HQ",
        "HK",
        "HA",
    ]
    assert parse_cards(["SA", "Rosen Ass"]) == (Card.parse("SA"), Card.parse("HA"))
    assert parse_cards("") == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Rosen Zwölf", "unknown rank 'Zwölf'"),
        ("Blumen Ass", "unknown suit 'Blumen'"),
        ("Rosen", "no rank given"),
        ("Ass", "no suit given"),
        ("", "empty"),
        ("H11", "unknown word 'H11'"),
    ],
)
def test_r1_2_parse_errors_say_what_is_wrong(text, message):
    with pytest.raises(CardParseError) as err:
        Card.parse(text)
    assert message in str(err.value)
    assert isinstance(err.value, RulesError) and isinstance(err.value, ValueError)


def test_r1_2_parse_cards_error_names_the_word():
    with pytest.raises(CardParseError, match="'X9'"):
        parse_cards("H6 X9 H8")
    with pytest.raises(CardParseError, match="card 2"):
        parse_cards(["H6", 7])
    with pytest.raises(CardParseError):
        parse_cards(42)
    with pytest.raises(CardParseError):
        Card.parse(None)


def test_r1_2_card_names_in_both_languages_and_decks():
    card = Card.parse("HQ")
    assert card_name(card) == "Rosen Ober"
    assert card_name(card, "de", "french") == "Herz Dame"
    assert card_name(card, "en") == "Ober of roses"
    assert card_name(card, "en", "french") == "queen of hearts"
    assert card_name("S10") == "Schilten Banner"
    assert card_name("S10", "de", "french") == "Schaufel 10"
    assert card_name("CJ") == "Eichel Under"
    assert card_name("CJ", "de", "french") == "Kreuz Bube"
    assert card_name("DK", "de", "french") == "Ecken König"
    assert card_name("DA", "en") == "ace of bells"
    assert rank_name("A") == "Ass" and rank_name("J", "en", "french") == "jack"
    assert card_name(card, "fr") == "ober de roses"
    assert card_name(card, "fr", "french") == "dame de cœur"
    assert card_name("HJ", "fr", "french") == "valet de cœur"
    assert card_name("CA", "fr", "french") == "as de trèfle"
    assert card_name("C10", "fr") == "bannière de glands"
    assert card_name("C10", "fr", "french") == "10 de trèfle"
    assert card_name("S9", "fr", "french") == "9 de pique"
    assert card_name("DJ", "fr") == "under de grelots"
    assert card_name("DK", "fr", "french") == "roi de carreau"
    assert rank_name("10", "fr") == "bannière" and rank_name("Q", "fr", "french") == "dame"
    with pytest.raises(RulesError, match="unknown language"):
        card_name(card, "it")
    with pytest.raises(RulesError, match="unknown deck"):
        card_name(card, "de", "tarot")


def test_r1_2_every_display_name_parses_back():
    for card in DECK:
        for lang in ("de", "en", "fr"):
            for deck in ("swiss", "french"):
                assert Card.parse(card_name(card, lang, deck)) is card


@pytest.mark.parametrize("deck", ["swiss", "french"])
def test_r1_2_every_french_name_parses_back_in_a_list_of_cards(deck):
    names = [card_name(card, "fr", deck) for card in DECK]
    assert len(set(names)) == 36
    assert parse_cards(", ".join(names)) == DECK
    assert parse_cards(" ".join(names)) == DECK  # "de" keeps each three-word name together


def test_r1_2_french_card_names_say_de_as_no_french_suit_starts_with_a_vowel():
    """card_name writes «<rang> de <couleur>»; a suit starting with a vowel would need «d'»."""
    import unicodedata

    for deck in ("swiss", "french"):
        for suit in Suit:
            first = unicodedata.normalize("NFD", suit_name(suit, "fr", deck))[0].lower()
            assert first not in "aeiouy", (deck, suit)


def test_r1_3_puur_and_nell_are_the_trump_under_and_nine():
    assert trump_name("HJ", Contract.H) == "Puur"
    assert trump_name("H9", "H") == "Nell"
    assert trump_name("SJ", "H") is None  # an Under outside trump is no Puur
    assert trump_name("HK", "H") is None
    assert trump_name("HJ", "obenabe") is None and trump_name("H9", "undenufe") is None


def test_r4_r5_r6_public_tables_agree_with_the_engine():
    """rules_core.tables is the one place other modules read rule values from; it must
    say what the engine computes."""
    from rules_core import Card, Contract, card_points, find_melds, parse_cards, trick_winner
    from rules_core.cards import Rank, Suit
    from rules_core.tables import (
        SEQUENCE_POINTS,
        card_points_of_rank,
        four_of_a_kind_points,
        stoeck_pair,
        trick_order,
    )

    for length, points in SEQUENCE_POINTS.items():
        run = [Card(Suit.D, rank) for rank in list(Rank)[:length]]
        assert max(m.points for m in find_melds(run)) == points
    for rank in Rank:
        quad = [Card(suit, rank) for suit in Suit]
        assert max((m.points for m in find_melds(quad)), default=0) == four_of_a_kind_points(rank)
    for code in ("D", "H", "S", "C", "obenabe", "undenufe"):
        contract = Contract.parse(code)
        for trump in (True, False):
            suit = (
                contract.trump
                if trump and contract.trump
                else next(s for s in Suit if s is not contract.trump)
            )
            for rank in Rank:
                assert card_points(Card(suit, rank), contract) == card_points_of_rank(
                    rank, contract, trump=trump
                )
            order = trick_order(contract, trump=trump)
            # The strongest of any two cards of that suit wins a trick led in it.
            for hi, lo in zip(order, order[1:], strict=False):
                assert trick_winner((Card(suit, lo), Card(suit, hi)), contract) == 1
    assert stoeck_pair("S") == tuple(parse_cards("SK SQ"))
