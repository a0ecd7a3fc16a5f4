"""The words for cards, melds and table talk in every language the site speaks
(tutor.core.cards, tutor.core.explain, tutor.table.presenters); issue 27 adds French."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

from rules_core import DECK, Card, resolve_weis
from teaching.table.model import MeldWords, TalkLine
from tutor.core import cards, explain
from tutor.core.cards import card_view, display_name
from tutor.table import presenters

SITE_LANGS = [code for code, _name in settings.LANGUAGES]
DECKS = ("swiss", "french")
RANKS = {"6", "7", "8", "9", "10", "J", "Q", "K", "A"}


def test_the_site_speaks_german_english_and_french():
    assert SITE_LANGS == ["de", "en", "fr"] and cards.LANGS == ("de", "en", "fr")


@pytest.mark.parametrize("lang", SITE_LANGS)
@pytest.mark.parametrize("deck", DECKS)
def test_every_language_and_deck_has_a_word_for_every_rank(lang, deck):
    assert set(explain._PLURALS[(lang, deck)]) == RANKS
    assert set(presenters._RANK_FROM[(lang, deck)]) == RANKS
    assert set(cards._INDEX[(deck, lang)]) <= RANKS


@pytest.mark.parametrize("lang", SITE_LANGS)
@pytest.mark.parametrize("deck", DECKS)
def test_every_card_name_reads_back_as_its_card(lang, deck):
    labels = [card_view(card, lang, deck).label for card in DECK]
    assert labels == [display_name(card, lang, deck) for card in DECK]
    assert [Card.parse(label) for label in labels] == list(DECK)


def test_french_card_names_are_the_cores():
    assert display_name("HJ", "fr", "french") == "valet de cœur"
    assert display_name("HQ", "fr", "swiss") == "ober de roses"
    assert display_name("C10", "fr", "swiss") == "bannière de glands"
    assert display_name("S9", "fr", "french") == "9 de pique"
    assert display_name("H6", "it", "swiss") == "Rosen-6"  # an unknown language: German


def test_card_faces_show_the_letters_of_the_language_and_deck():
    def letters(lang, deck):
        return [card_view(code, lang, deck).index for code in ("H10", "HJ", "HQ", "HK", "HA")]

    assert letters("fr", "french") == ["10", "V", "D", "R", "A"]
    assert letters("fr", "swiss") == ["10", "U", "O", "K", "A"]
    assert letters("de", "french") == ["10", "B", "D", "K", "A"]
    assert letters("en", "french") == ["10", "J", "Q", "K", "A"]
    assert letters("de", "swiss") == letters("en", "swiss") == ["10", "U", "O", "K", "A"]


def test_french_explanations_name_cards_contracts_and_melds():
    sequence = {"kind": "sequence", "cards": ["H6", "H7", "H8"], "points": 20}
    four = {"kind": "four_of_a_kind", "cards": ["DJ", "HJ", "SJ", "CJ"], "points": 200}
    with translation.override("fr"):
        assert explain.card_label("HJ", "french") == "valet de cœur"
        assert explain.contract_label("H", "french") == "atout cœur"
        assert explain.contract_label("obenabe", "swiss") == "oben-abe"
        assert explain.suit_label("C", "swiss") == "glands"
        assert explain.meld_label(sequence, "swiss") == (
            "suite de trois cartes, 6 de roses à 8 de roses (20)"
        )
        assert explain.meld_label(four, "french") == "quatre valets (200)"
        assert explain.meld_label(four, "swiss") == "quatre unders (200)"
        assert [explain.rank_plural(r, "swiss") for r in ("6", "9", "10", "Q", "A")] == [
            "six", "nells", "bannières", "obers", "as",
        ]  # fmt: skip
        assert [explain.rank_plural(r, "french") for r in ("10", "Q", "K")] == [
            "dix", "dames", "rois",
        ]  # fmt: skip


def test_french_ladder_compares_two_fours_by_their_rank():
    result = resolve_weis(["DA HA SA CA", "D10 H10 S10 C10", "", ""], "undenufe")
    assert result.comparison is not None and result.team == 1
    melds = (result.team_best[0][1], result.team_best[1][1])
    with translation.override("fr"):
        steps = explain.explain_ladder(
            result.comparison.trace, "swiss", "l'équipe 1", "l'équipe 2", melds=melds
        )
    assert steps[-1].step_label == "Échelon 3 : carte la plus haute"
    assert "quatre as contre quatre bannières" in steps[-1].text
    assert steps[-1].text.endswith("donc l'équipe 2 gagne.")


@pytest.mark.parametrize(
    ("meld", "deck", "said"),
    [
        (MeldWords(kind="sequence", cards=5, rank="Q", end="top", trump=False), "swiss",
         "«Suite de cinq cartes jusqu'à l'ober»"),
        (MeldWords(kind="sequence", cards=5, rank="Q", end="top", trump=False), "french",
         "«Suite de cinq cartes jusqu'à la dame»"),
        (MeldWords(kind="sequence", cards=3, rank="A", end="top", trump=True), "french",
         "«Suite de trois cartes jusqu'à l'as à l'atout»"),
        (MeldWords(kind="sequence", cards=4, rank="10", end="top", trump=False), "swiss",
         "«Suite de quatre cartes jusqu'à la bannière»"),
        (MeldWords(kind="four_of_a_kind", cards=4, rank="K", end=None, trump=False), "french",
         "«Quatre rois»"),
        (MeldWords(kind="four_of_a_kind", cards=4, rank="9", end=None, trump=False), "swiss",
         "«Quatre nells»"),
    ],
    ids=["sequence-ober", "sequence-dame", "trump-sequence-as", "sequence-banniere",
         "four-rois", "four-nells"],
)  # fmt: skip
def test_french_table_talk_names_the_meld_as_said_at_the_table(meld, deck, said):
    with translation.override("fr"):
        assert presenters._talk_line(TalkLine(seat=2, say="meld", meld=meld), deck) == said
