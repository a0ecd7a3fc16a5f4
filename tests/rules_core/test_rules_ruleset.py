"""R2.4 contracts and R8 rule sets (defaults, presets, validation, storage)."""

from __future__ import annotations

import json

import pytest

from rules_core import Contract, RulesError, RuleSet, Suit


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("D", "D"), ("h", "H"), ("S", "S"), ("c", "C"), ("Rosen", "H"), ("hearts", "H"),
        ("Trumpf Schellen", "D"), ("spades trumps", "S"), ("Eicheln", "C"), ("Kreuz", "C"),
        ("obenabe", "obenabe"), ("OBENABE", "obenabe"), ("Obe-Abe", "obenabe"),
        ("undenufe", "undenufe"), ("Undeufe", "undenufe"), ("bottom-up", "undenufe"),
        ("atout cœur", "H"), ("Atout coeur", "H"), ("atout roses", "H"), ("glands", "C"),
        ("atout grelots", "D"), ("oben-abe", "obenabe"), ("Unden-ufe", "undenufe"),
    ],
)  # fmt: skip
def test_r2_4_contract_parse(text, code):
    assert Contract.parse(text).code == code


def test_r2_4_contracts_trump_and_names():
    assert [c.code for c in Contract] == ["D", "H", "S", "C", "obenabe", "undenufe"]
    assert Contract.H.trump is Suit.H and Contract.OBENABE.trump is None
    assert Contract.UNDENUFE.trump is None
    assert Contract.for_suit("Rosen") is Contract.H
    assert Contract.H.display_name() == "Trumpf Rosen"
    assert Contract.H.display_name("en", "french") == "Trump hearts"
    assert Contract.OBENABE.display_name("en") == "Obenabe"
    assert Contract.H.display_name("fr") == "atout roses"
    assert Contract.H.display_name("fr", "french") == "atout cœur"
    assert Contract.S.display_name("fr", "french") == "atout pique"
    assert Contract.OBENABE.display_name("fr") == "oben-abe"
    assert Contract.UNDENUFE.display_name("fr", "french") == "unden-ufe"
    with pytest.raises(RulesError, match="unknown language"):
        Contract.H.display_name("it")
    with pytest.raises(RulesError, match="unknown language"):
        Contract.OBENABE.display_name("it")
    assert str(Contract.UNDENUFE) == "undenufe"
    for bad in ("slalom", "", "H S"):
        with pytest.raises(RulesError, match="unknown contract"):
            Contract.parse(bad)
    with pytest.raises(RulesError):
        Contract.parse(3)


@pytest.mark.parametrize("lang", ["de", "en", "fr"])
@pytest.mark.parametrize("deck", ["swiss", "french"])
def test_r2_4_every_contract_display_name_parses_back(lang, deck):
    for contract in Contract:
        assert Contract.parse(contract.display_name(lang, deck)) is contract


def test_r8_defaults():
    rules = RuleSet()
    assert rules.low_quads_score is True
    assert rules.undenufe_reverses_weis is True
    assert rules.target_order == ("weis", "stoeck", "tricks")
    assert all(rules.factor(c) == 1 for c in Contract)
    assert rules.target == 1000
    assert RuleSet.preset("default") == rules


def test_r8_presets_listed_and_exact():
    assert RuleSet.presets() == ("default", "w-en", "ausmachregel", "swisslos-2500")
    w_en = RuleSet.preset("w-en")
    assert (w_en.low_quads_score, w_en.undenufe_reverses_weis) == (False, False)
    assert w_en.target_order == ("weis", "stoeck", "tricks") and w_en.target == 1000
    aus = RuleSet.preset("ausmachregel")
    assert aus.target_order == ("stoeck", "weis", "tricks")
    assert aus.low_quads_score and aus.undenufe_reverses_weis and aus.target == 1000
    swisslos = RuleSet.preset("swisslos-2500")
    # RULES 8: "Swisslos 2500": H and C 1, S and D 2, Obenabe and Undenufe 3
    assert [swisslos.factor(c) for c in Contract] == [2, 1, 2, 1, 3, 3]
    assert swisslos.target == 2500
    assert swisslos.target_order == ("stoeck", "weis", "tricks")
    for name in RuleSet.presets():
        assert RuleSet.preset(name).preset_name() == name


def test_r8_s_en_multipliers_match_swisslos():
    # S-EN 8: "multipliers (bells/leaves x2, Obenabe/Undenufe x3) can be switched on"
    swisslos = RuleSet.preset("swisslos-2500")
    assert swisslos.factor(Contract.parse("bells")) == 2
    assert swisslos.factor(Contract.parse("Laub")) == 2
    assert swisslos.factor(Contract.parse("Herz")) == 1 == swisslos.factor(Contract.parse("Eichel"))


def test_r8_unknown_preset_lists_valid_names():
    with pytest.raises(RulesError) as err:
        RuleSet.preset("jassverband")
    assert "default, w-en, ausmachregel, swisslos-2500" in str(err.value)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"low_quads_score": 1}, "low_quads_score must be True or False"),
        ({"undenufe_reverses_weis": "yes"}, "undenufe_reverses_weis"),
        ({"target_order": ("weis", "tricks")}, "target_order"),
        ({"target_order": ("weis", "weis", "tricks")}, "target_order"),
        ({"target_order": "weis"}, "target_order"),
        ({"factors": {"X": 2}}, "unknown contract 'X'"),
        ({"factors": {"H": 0}}, "factor of H"),
        ({"factors": {"H": 2, "hearts": 3}}, "given twice"),
        ({"factors": {"H": True}}, "factor of H"),
        ({"factors": 3}, "factors must map"),
        ({"target": 0}, "target must be"),
        ({"target": 1000.0}, "target must be"),
    ],
)
def test_r8_validation(kwargs, message):
    with pytest.raises(RulesError, match=message):
        RuleSet(**kwargs)


def test_r8_ruleset_is_frozen_hashable_and_normalised():
    rules = RuleSet(factors={"S": 2}, target_order=["stoeck", "weis", "tricks"])
    assert rules.target_order == ("stoeck", "weis", "tricks")
    assert rules.factors == (
        ("D", 1),
        ("H", 1),
        ("S", 2),
        ("C", 1),
        ("obenabe", 1),
        ("undenufe", 1),
    )
    assert hash(rules) == hash(
        RuleSet(factors=(("S", 2),), target_order=("stoeck", "weis", "tricks"))
    )
    assert rules.preset_name() is None
    with pytest.raises(AttributeError):
        rules.target = 5  # type: ignore[misc]


def test_r8_ruleset_round_trips_through_json():
    for name in RuleSet.presets():
        rules = RuleSet.preset(name)
        data = json.loads(json.dumps(rules.to_dict()))
        assert RuleSet.from_dict(data) == rules
    assert RuleSet.from_dict({}) == RuleSet()
    with pytest.raises(RulesError, match="unknown rule set field"):
        RuleSet.from_dict({"targett": 1000})
    with pytest.raises(RulesError, match="mapping"):
        RuleSet.from_dict([("target", 1000)])
