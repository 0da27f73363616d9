"""Certificates made with an earlier version of a bundled rule file still verify.

A draw certificate names its rule file by the SHA-256 of its bytes, so editing a
bundled file (even adding a numbering) would leave every draw certified before
unverifiable. rules/earlier/NAME-HASH.toml keeps each earlier version since
certificates began; verify reads the one a certificate names, and says so.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from pathlib import Path

import pytest

from solver.draws.certificate import certificate_from, certify, verify
from solver.errors import CertificateMismatchError
from solver.family import Family
from solver.ruleset.bundled import EARLIER, rules_folder
from solver.ruleset.reader import bundled_names
from solver.ruleset.source import RuleSource

FOLDER = Path(rules_folder())
EARLIER_FILES = sorted((FOLDER / EARLIER).glob("*.toml"))
DATA = Path(__file__).parent / "data"

#: Each bundled rule file's SHA-256 as this build ships it. A test below fails when a
#: file changes, saying how to keep the version it replaces for earlier certificates.
DIGESTS = {
    "bench-12": "e0cdc01e44953448d624ca2e3347179b827bd9c458d847f833481626055afccc",
    "bishops-opposite": "640869d1bf21317824eb0ea5bd833aa5145617aab375683f263acf8cb6575708",
    "capablanca-random-full": "e2431e6ee3117e9ca4b99d0740ea21c58568b397cb53474c1a5334c1b1bee30c",
    "capablanca-random": "cb3f2cf37c49920ec114bf011485441e12634c0cb6a044bf02b3893b2181ec24",
    "capablanca-shuffle": "6b5e7aca9c559c7ad409ff6d4941caa6b1e115122d14aeaebf01f6d9b63acd4e",
    "capahouse960": "0c791433453e8905f9d6d10a17d74b96d75d07307acf14e236c8e4596f9d12bf",
    "chess256": "54d75310bcae40a431e57fdeff95ebdc1d033b63533bbc321bf730a1c38bc65f",
    "chess324": "920c8deee507463a2899794e2c6a52a150556fb7df1b1c308bd10c259ef624b4",
    "chess324x16": "4883e0ab12b6e03f185263e77b8a7eed161831274cc745c7e44eea3ffe41a556",
    "chess480": "90a981ac793893345156fc952b0f5486673dcf9aac1159607bdc71e6bf464e2c",
    "chess960": "008ba989b252b0037cb9d61dd7b74fd0299cf7fc3050b9e8f71cec62f02ee7ce",
    "chess99-random": "e1c31e267cd4ea0b74958cacff66328307a84764feea25d195c44c333246a2eb",
    "corner": "5b1099b52c9ac82beb010856cdb1e3926930f391b7f647a3cc507f22d3055f33",
    "cutechess-caparandom": "f57fd65f74dabb1859e205a0b4c370df76b566420315e6aebd5c09aa1b55935e",
    "dfrc": "1dcd67000d8fc215e3c23a94bfe6c501fb986dd5b8860addb8a3ca2411ea7872",
    "horde960": "3ec5b31236560c1c358379ee5836a3886a3a27a2bd066e3f8b492b1eb54a9650",
    "janggi": "c33dd0811dd2bcec97cbf61813d4dc7b1ebb04f44eff7c1332b15105e325589a",
    "king-between-rooks": "b194696cb98d01a7df510a01fe9b302e15c69b1409c6a5efb07788017dfdfa51",
    "myshogi": "44be8300ad94b0d9aa4c4f8dc0bf9c98116ad5462c42d85518f686702ff6e13e",
    "placement": "87d833cdf1f9c865a81ef51957fabfc91adb25c71368174f1265c61f7f7b5c84",
    "racing-kings": "1f22d621321d4446f84096cbbffc1200fc25c1c6e436b08e757bad53b6e5d5e2",
    "seirawan960": "5e8e5673f5d71cf13e14fe84a2a537ef6fcb528d866d8a2cc9d371720afdd89b",
    "shogi-shuffle": "1b731774990e39f6c9fefa80341e86d87a9c723346e0c1a68ae472af6ad58b3a",
    "shuffle-nocastle": "cb0d4970f726b02c0642ead64ed02ed4c7aee02c8e824292c8842f87058b3381",
    "shuffle": "ef0668f9cbe9d6aea61a716c82bd5c1196d5640521d6a4bb94e67a01e5819811",
    "transcendental": "2368e03f51c598a5439baf14e235d6adb3aa78ad8f5e1e2ed9cb70d15eae61e4",
    "wild3": "29d5597a2fae0516075729223ab683c8761d958e2b69548d4eaf529380d1cb86",
    "wild4": "e1fca61e5654832ae9b2a750016758b830f76cc46aea819f5a3023a59351a02b",
    "xboard-caparandom": "70dfcb26e7f38c023b4e305bd571b0aee32d47a1254c211c44d34eff9c24a50e",
    "pychess-capablanca": "6ca76f6b08d61a1491056439cdb0394502efbe8ea5c5de9b395e28cc8b8c52fa",
    "myshogi-program": "3aed3ec016a8c2b0debd87aba9c56bfcb1dd5f43a49445d6d0b382d75fdde974",
    "sittuyin": "ce135dbabee623171521330a9cff0984ac0010f483e0b3f7fe10135cc42b3de3",
    "jieqi": "477d2e6db57a11b55d66475a78018affd30e921a78664beb72eca12bcdee47e8",
    "cwda": "8ef7e44c288c9c9d1d76f3cd1780a510d2f0b49634456f84d0f5faffa98e3e5d",
    "chess18": "0238838b755fa8a43baf38cf41298ecbadfe7d882a902100eb1203e8d3452132",
    "makruk-shuffle": "11f969b3e2687a1c823df3aa9a833577030459fd7d70e0e275d7f370e26d6449",
    "shatranj-shuffle": "cbf324016179813f2258ab3fde702da3d2b9cf5383acfb8a26fb6231ad76d1fa",
    "metamachy": "45c5bc8c3082d5771a41dd007a09e86e931ce288c1927c08f2028faa3dfec5ad",
}


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_every_bundled_file_is_the_version_recorded_or_its_predecessor_is_kept() -> None:
    assert sorted(DIGESTS) == bundled_names(), "a family added or removed: update DIGESTS"
    changed = []
    for name, recorded in DIGESTS.items():
        now = _sha256((FOLDER / f"{name}.toml").read_bytes())
        if now != recorded:
            changed.append(
                f"rules/{name}.toml changed: keep the version it replaces for the draws "
                f"certified with it (git show HEAD:rules/{name}.toml > "
                f"rules/{EARLIER}/{name}-{recorded[:16]}.toml), then set DIGESTS[{name!r}] "
                f"= {now!r}")
    assert not changed, "\n".join(changed)


@pytest.mark.parametrize("path", EARLIER_FILES, ids=lambda p: p.name)
def test_an_earlier_version_is_named_by_its_family_and_hash_and_still_loads(path: Path) -> None:
    match = re.fullmatch(r"([a-z0-9-]+)-([0-9a-f]{16})\.toml", path.name)
    assert match, f"{path.name}: not NAME-HASH.toml"
    name, short = match.groups()
    assert name in bundled_names(), f"{path.name}: no bundled family {name!r}"
    data = path.read_bytes()
    assert _sha256(data)[:16] == short, f"{path.name}: its bytes hash to another name"
    assert _sha256(data) != DIGESTS[name], f"{path.name} is the current version"
    family = Family.from_source(RuleSource(str(path), path.name, data, True))
    assert family.name == name


@pytest.mark.parametrize("path", EARLIER_FILES, ids=lambda p: p.name)
def test_a_draw_certified_with_an_earlier_version_verifies_against_it(path: Path) -> None:
    name = path.name.rsplit("-", 1)[0]
    made = certify(str(path), "random", 2, seed=f"earlier {path.name}").certificate
    assert not made.bundled
    as_bundled = dataclasses.replace(made, rules=name, bundled=True)
    said = verify(as_bundled)
    assert f"the bundled {name} as an earlier version shipped it " in said
    assert f"(sha256 {made.rules_sha256[:16]}...) unchanged" in said


def test_a_certificate_the_build_before_jocly_made_verifies() -> None:
    """Made by the build at ad2dffb (before Jocly's numbering was added to chess960.toml)."""
    text = (DATA / "certificate-before-jocly.json").read_text(encoding="utf-8")
    certificate = certificate_from(json.loads(text), "before-jocly.json")
    said = verify(certificate, "before-jocly.json")
    assert said.endswith("the bundled chess960 as an earlier version shipped it "
                         "(sha256 90c33732fe30ae7a...) unchanged, scharnagl numbering")


def test_a_hash_no_version_had_is_still_refused() -> None:
    text = (DATA / "certificate-before-jocly.json").read_text(encoding="utf-8")
    data = json.loads(text)
    data["rules"]["sha256"] = "0" * 64
    with pytest.raises(CertificateMismatchError, match="is not the rule file of the draw"):
        verify(certificate_from(data, "forged.json"), "forged.json")
