"""Golden deals: the one-line form of fixed deals of every variant, pinned as literal strings.

A change in shuffling, dealing order or the card encoding changes these and
fails here: a deal number must mean the same deal forever. (Checked by eye:
yukon 0 has columns of 1, 6..11 cards with 0..6 face down; milligan-yukon 0
has columns of 1..8 cards with only the top one face up and 68 in the stock.)
"""

from __future__ import annotations

from collections import Counter

import pytest

from yukon import Game
from yukon.deal import SplitMix64, shuffled

GOLDEN: dict[tuple[str, int], str] = {
    ("yukon", 0): (
        "yukon,kings,noreturn QD/TS.3SJS4D7SQS/3H4C.AS3D2D9D2C/KDTD8D.AH8S2S7D2H/JD6D5H9H.6S4HTHKS3C/6CJH"
        "5S7C6H.AD7HTCQHQC/5CKH8CKCAC9S.JC5D8H4S9C -/-/-/-"
    ),
    ("yukon", 1): (
        "yukon,kings,noreturn 5C/3S.5S9H6SJC6C/5DQC.3D5H7HAD4D/TS8D9S.8HAH4HQS4S/TD9CKSKH.6DQD3CJD2H/2DTC"
        "2S7DKC.8CKDTH7S6H/4CJHASAC7C2C.3H8SJS9DQH -/-/-/-"
    ),
    ("yukon", 7): (
        "yukon,kings,noreturn 5S/2S.TSJH8H9CKC/5DJD.9S6HAH7HKH/3H7C2D.ACQHJSKSQC/ADTH4D6S.QSAS3S6C8C/4C8S"
        "9H7DTD.2HTC5C8D9D/JCKD4H4S6D2C.3D5HQD7S3C -/-/-/-"
    ),
    ("yukon", 42): (
        "yukon,kings,noreturn 2D/8S.4STCJSAS7D/7H6D.2SQDTS7CJD/8C5H4D.JC5D4H5CAH/9H2C5S9S.KCKS8H4C9C/KHAC"
        "QSQHJH.6S7SQCTD8D/2HKD6H6C3CAD.9DTH3S3D3H -/-/-/-"
    ),
    ("yukon", 123456789): (
        "yukon,kings,noreturn 4S/3D.8H3C5DQHTC/TS5C.AD9CTD2CKH/5HJH4D.6H4H3H9D9S/8D7DAC3S.JD6C2SQC2D/8SKD"
        "8C4CAS.2HTH6S9H7S/QS5S7CQDJSKC.JC6D7HKSAH -/-/-/-"
    ),
    ("russian", 0): (
        "russian,kings,noreturn QD/TS.3SJS4D7SQS/3H4C.AS3D2D9D2C/KDTD8D.AH8S2S7D2H/JD6D5H9H.6S4HTHKS3C/6C"
        "JH5S7C6H.AD7HTCQHQC/5CKH8CKCAC9S.JC5D8H4S9C -/-/-/-"
    ),
    ("russian", 1): (
        "russian,kings,noreturn 5C/3S.5S9H6SJC6C/5DQC.3D5H7HAD4D/TS8D9S.8HAH4HQS4S/TD9CKSKH.6DQD3CJD2H/2D"
        "TC2S7DKC.8CKDTH7S6H/4CJHASAC7C2C.3H8SJS9DQH -/-/-/-"
    ),
    ("russian", 7): (
        "russian,kings,noreturn 5S/2S.TSJH8H9CKC/5DJD.9S6HAH7HKH/3H7C2D.ACQHJSKSQC/ADTH4D6S.QSAS3S6C8C/4C"
        "8S9H7DTD.2HTC5C8D9D/JCKD4H4S6D2C.3D5HQD7S3C -/-/-/-"
    ),
    ("russian", 42): (
        "russian,kings,noreturn 2D/8S.4STCJSAS7D/7H6D.2SQDTS7CJD/8C5H4D.JC5D4H5CAH/9H2C5S9S.KCKS8H4C9C/KH"
        "ACQSQHJH.6S7SQCTD8D/2HKD6H6C3CAD.9DTH3S3D3H -/-/-/-"
    ),
    ("russian", 123456789): (
        "russian,kings,noreturn 4S/3D.8H3C5DQHTC/TS5C.AD9CTD2CKH/5HJH4D.6H4H3H9D9S/8D7DAC3S.JD6C2SQC2D/8S"
        "KD8C4CAS.2HTH6S9H7S/QS5S7CQDJSKC.JC6D7HKSAH -/-/-/-"
    ),
    ("alaska", 0): (
        "alaska,kings,noreturn QD/TS.3SJS4D7SQS/3H4C.AS3D2D9D2C/KDTD8D.AH8S2S7D2H/JD6D5H9H.6S4HTHKS3C/6CJ"
        "H5S7C6H.AD7HTCQHQC/5CKH8CKCAC9S.JC5D8H4S9C -/-/-/-"
    ),
    ("alaska", 1): (
        "alaska,kings,noreturn 5C/3S.5S9H6SJC6C/5DQC.3D5H7HAD4D/TS8D9S.8HAH4HQS4S/TD9CKSKH.6DQD3CJD2H/2DT"
        "C2S7DKC.8CKDTH7S6H/4CJHASAC7C2C.3H8SJS9DQH -/-/-/-"
    ),
    ("alaska", 7): (
        "alaska,kings,noreturn 5S/2S.TSJH8H9CKC/5DJD.9S6HAH7HKH/3H7C2D.ACQHJSKSQC/ADTH4D6S.QSAS3S6C8C/4C8"
        "S9H7DTD.2HTC5C8D9D/JCKD4H4S6D2C.3D5HQD7S3C -/-/-/-"
    ),
    ("alaska", 42): (
        "alaska,kings,noreturn 2D/8S.4STCJSAS7D/7H6D.2SQDTS7CJD/8C5H4D.JC5D4H5CAH/9H2C5S9S.KCKS8H4C9C/KHA"
        "CQSQHJH.6S7SQCTD8D/2HKD6H6C3CAD.9DTH3S3D3H -/-/-/-"
    ),
    ("alaska", 123456789): (
        "alaska,kings,noreturn 4S/3D.8H3C5DQHTC/TS5C.AD9CTD2CKH/5HJH4D.6H4H3H9D9S/8D7DAC3S.JD6C2SQC2D/8SK"
        "D8C4CAS.2HTH6S9H7S/QS5S7CQDJSKC.JC6D7HKSAH -/-/-/-"
    ),
    ("australian", 0): (
        "australian,kings,noreturn QDTS3SJS/4D7SQS3H/4CAS3D2D/9D2CKDTD/8DAH8S2S/7D2HJD6D/5H9H6S4H -/-/-/-"
        " THKS3C6CJH5S7C6HAD7HTCQHQC5CKH8CKCAC9SJC5D8H4S9C/-"
    ),
    ("australian", 1): (
        "australian,kings,noreturn 5C3S5S9H/6SJC6C5D/QC3D5H7H/AD4DTS8D/9S8HAH4H/QS4STD9C/KSKH6DQD -/-/-/-"
        " 3CJD2H2DTC2S7DKC8CKDTH7S6H4CJHASAC7C2C3H8SJS9DQH/-"
    ),
    ("australian", 7): (
        "australian,kings,noreturn 5S2STSJH/8H9CKC5D/JD9S6HAH/7HKH3H7C/2DACQHJS/KSQCADTH/4D6SQSAS -/-/-/-"
        " 3S6C8C4C8S9H7DTD2HTC5C8D9DJCKD4H4S6D2C3D5HQD7S3C/-"
    ),
    ("australian", 42): (
        "australian,kings,noreturn 2D8S4STC/JSAS7D7H/6D2SQDTS/7CJD8C5H/4DJC5D4H/5CAH9H2C/5S9SKCKS -/-/-/-"
        " 8H4C9CKHACQSQHJH6S7SQCTD8D2HKD6H6C3CAD9DTH3S3D3H/-"
    ),
    ("australian", 123456789): (
        "australian,kings,noreturn 4S3D8H3C/5DQHTCTS/5CAD9CTD/2CKH5HJH/4D6H4H3H/9D9S8D7D/AC3SJD6C -/-/-/-"
        " 2SQC2D8SKD8C4CAS2HTH6S9H7SQS5S7CQDJSKCJC6D7HKSAH/-"
    ),
    ("milligan-yukon", 0): (
        "milligan-yukon,kings,return 4C/QD.3D/2H5S.7C/3H5C7D.6S/6D2H7DKC.TS/7H5H6HJC3S.8S/TH8DKH3C6D2C.8S"
        "/TSAHAS3SKCTDJD.9S -/-/-/-/-/-/-/- 2S9D5D4DAHQSAD4SASKD6C9HAC9D8D4C8CTH2S5D2C4H2D5C6S8CKSJDQD3C4"
        "D9SJS7C6HKD5H7HJH8H2D5SKHJHQHAD3H6CTCJS3DTD7SQC8HQSAC4HQH9CTC9HKSQC4SJC7S9C/-"
    ),
    ("milligan-yukon", 1): (
        "milligan-yukon,kings,return 8C/9S.3D/2CKC.5C/QS2C2H.3S/2S9C7HTS.7D/KDKS5SADAC.3D/QCKH4SJCJHQH.AS"
        "/QD3S6S6H7S4C2H.5C -/-/-/-/-/-/-/- TC4HTC5D8CTD8S4SKH6DJC5H4DJHAH9H2DJD9H7CTSJS9DAH2SQC8D2DADQSJ"
        "S7D9CJD9DTHAC5SKDTH7C6H8H3CKC3H9S5D5H8D4HKS4DTD7S8SQD3C4C6S6D7H6C3H6CAS8HQH/-"
    ),
    ("milligan-yukon", 7): (
        "milligan-yukon,kings,return 3S/JS.AS/7HJD.KC/QD5SKS.QD/7SQC9SJH.5D/7C4C8H9D2D.8D/ACQS3C4CTD7S.JC"
        "/TS9C3DKHQHQC5H.3D -/-/-/-/-/-/-/- 2HKH3H5H6C2S8STDTC3SAH8D7D2S9DADKD4DTSTC3H4HKCJDKD2D8C9HKS8H5"
        "D4SJH6H6S8C2C4DJC5C2C6S5CTHAHTH9C7CAC6H7D6C8SASQH6D7H2H9H4HQSAD9S6D5S4SJS3C/-"
    ),
    ("milligan-yukon", 42): (
        "milligan-yukon,kings,return 7S/2H.3S/8D4H.6D/QD8H2S.9H/8S3D2C3C.7D/3C5H9S6CTD.6H/4C3H4H9D5HJD.8H"
        "/KH6SQSTSQCTHAD.5C -/-/-/-/-/-/-/- 9C4DKHJHQD6D4CKC2D4S4DAH7HJSQH5S5D7CQCTDAS7S2S6CAC5D2C8S9DJSA"
        "D9CJC7H6SJC7CAHTSTC8DAC8C9S4S6H3DKS8CKSASQH5SQS3S7DJHKDTH9HTCKCJDKD2H2D5C3H/-"
    ),
    ("milligan-yukon", 123456789): (
        "milligan-yukon,kings,return 2D/4H.JS/9D8C.AS/4D6S5S.QS/9CKHKD6H.6D/4HKSAS2C2S.8D/6DJH8D2DAH8H.4C"
        "/5S3H5C6C3H8CQS.7S -/-/-/-/-/-/-/- QD3DJHAD2CQC2HJC7H3DQH7H7D7S9CTC5D4SJS9S8S9HJDTD7CKS6CQH4D5D6"
        "SKHAC4STC5H7CTSJD2S7D3S5H3CKCKC3CTSTHTHTD8S9S5C9H6H2H4CADQDKD9DQCJC8HAC3SAH/-"
    ),
}


@pytest.mark.parametrize(("variant", "seed"), list(GOLDEN))
def test_golden_deal(variant: str, seed: int) -> None:
    assert Game.deal(variant, seed=seed).to_text() == GOLDEN[(variant, seed)]


@pytest.mark.parametrize(("variant", "seed"), list(GOLDEN))
def test_golden_deals_obey_the_deal_rules(variant: str, seed: int) -> None:
    # read straight from the literal text, not from the engine's deal
    head, cols, found, *stock = GOLDEN[(variant, seed)].split(" ")
    assert head == f"{variant},kings,{'return' if variant == 'milligan-yukon' else 'noreturn'}"
    assert set(found.split("/")) == {"-"}
    shape = []
    all_cards: list[str] = []
    for col in cols.split("/"):
        down, _, up = col.rpartition(".")
        shape.append((len(down) // 2, len(up) // 2))
        all_cards += [col.replace(".", "")[i:i + 2] for i in range(0, len(col.replace(".", "")), 2)]
    if variant == "australian":
        assert shape == [(0, 4)] * 7
    elif variant == "milligan-yukon":
        assert shape == [(i, 1) for i in range(8)]
    else:
        assert shape == [(0, 1)] + [(i, 5) for i in range(1, 7)]
    if stock:
        pile, waste = stock[0].split("/")
        assert waste == "-"
        all_cards += [pile[i:i + 2] for i in range(0, len(pile), 2)]
    copies = 2 if variant == "milligan-yukon" else 1
    assert Counter(all_cards) == Counter({c: copies for c in set(all_cards)})
    assert len(all_cards) == 52 * copies


@pytest.mark.parametrize("seed", [0, 1, 7, 42, 123456789])
def test_the_three_yukon_deals_share_their_cards(seed: int) -> None:
    # Yukon, Russian Solitaire and Alaska deal the same layout; only the rules differ.
    texts = [GOLDEN[(v, seed)].split(" ", 1)[1] for v in ("yukon", "russian", "alaska")]
    assert texts[0] == texts[1] == texts[2]


def test_splitmix64_reference_vectors() -> None:
    # the published outputs of SplitMix64 (Steele, Lea, Flood 2014; Vigna's splitmix64.c)
    r = SplitMix64(0)
    assert [r.next() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    r = SplitMix64(1234567)
    assert [r.next() for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431, 16408922859458223821,
    ]


def test_shuffle_is_pinned() -> None:
    assert shuffled(0, 10) == [6, 3, 2, 9, 8, 1, 4, 7, 0, 5]
    assert shuffled(42, 104)[:10] == [76, 57, 8, 30, 65, 74, 98, 29, 56, 33]
    assert sorted(shuffled(2**64 - 1, 104)) == list(range(104))


def test_below_is_uniform_enough_and_in_range() -> None:
    r = SplitMix64(99)
    counts = Counter(r.below(7) for _ in range(7000))
    assert set(counts) == set(range(7))
    assert all(800 < n < 1200 for n in counts.values())
