"""The pictures over HTTP: board.svg, board.txt and one patch's SVG, with their headers, 304s and escaping.

Every response is also checked against openapi.yaml by the client (an SVG
must parse as XML there).
"""

from __future__ import annotations

from xml.etree import ElementTree

import pytest

SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'"
SVG_NS = "{http://www.w3.org/2000/svg}"
# A name that would run, break out of an attribute, or drive a terminal, were it not escaped.
HOSTILE = "<script>x</script>\"'&\x1b[2J"


def svg_root(resp) -> ElementTree.Element:
    return ElementTree.fromstring(resp.get_data())


def assert_self_contained(root: ElementTree.Element) -> None:
    """No script, no foreign object, no reference to anything outside the document."""
    for element in root.iter():
        assert element.tag not in (f"{SVG_NS}script", f"{SVG_NS}foreignObject"), element.tag
        for name, value in element.attrib.items():
            assert not name.lower().startswith("on"), (element.tag, name)
            if name.endswith("href"):
                assert value.startswith("#"), (element.tag, name, value)


def test_board_svg_is_the_game_with_its_tag_and_policy(client, table):
    game = table({"seed": 7, "players": [{"name": "Ada"}, {"name": "Grace"}]})
    resp = client.get(f"/games/{game.id}/board.svg")
    assert resp.status_code == 200
    assert resp.mimetype == "image/svg+xml"
    assert resp.headers["ETag"] == '"1"'
    assert resp.headers["Content-Security-Policy"] == SVG_CSP
    root = svg_root(resp)
    assert root.tag == f"{SVG_NS}svg"
    assert_self_contained(root)
    quilts = [g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "quilt"]
    assert sorted(g.get("data-seat") for g in quilts) == ["0", "1"]
    names = [t.text for t in root.iter(f"{SVG_NS}text") if t.get("class") == "name"]
    assert names == ["Ada", "Grace"]
    market = [g for g in root.iter(f"{SVG_NS}g") if g.get("class") == "market-patch"]
    assert len(market) == 3


@pytest.mark.parametrize("picture", ["board.svg", "board.txt"])
def test_a_board_answers_304_while_the_game_is_unchanged_and_200_after_a_move(client, table, picture):
    game = table()
    url = f"/games/{game.id}/{picture}"
    resp = client.get(url, headers={"If-None-Match": '"1"'})
    assert resp.status_code == 304
    assert resp.headers["ETag"] == '"1"'
    assert resp.get_data() == b""
    game.play({"action": "advance"})
    resp = client.get(url, headers={"If-None-Match": '"1"'})
    assert resp.status_code == 200
    assert resp.headers["ETag"] == '"2"'


def test_board_text_is_utf8_text_naming_the_players(client, table):
    game = table({"players": [{"name": "Ada"}, {"name": "Grace"}]})
    resp = client.get(f"/games/{game.id}/board.txt")
    assert resp.status_code == 200
    assert resp.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert resp.headers["ETag"] == '"1"'
    text = resp.get_data(as_text=True)
    assert "Ada" in text and "Grace" in text
    assert text.endswith("\n")


def test_a_hostile_name_is_escaped_in_the_svg_and_harmless_in_the_text(client, table):
    game = table({"players": [{"name": HOSTILE}, {"name": "Grace"}]})
    svg = client.get(f"/games/{game.id}/board.svg")
    assert svg.status_code == 200
    root = svg_root(svg)  # well-formed: the quotes and the ampersand were escaped
    assert_self_contained(root)
    raw = svg.get_data(as_text=True)
    assert "<script" not in raw
    assert "\x1b" not in raw
    shown = next(t.text for t in root.iter(f"{SVG_NS}text") if t.get("class") == "name")
    assert shown.startswith("<script>x</script>\"'&")  # the name as text, not as markup
    text = client.get(f"/games/{game.id}/board.txt").get_data(as_text=True)
    assert "<script>x</script>" in text
    assert "\x1b" not in text


@pytest.mark.parametrize("picture", ["board.svg", "board.txt"])
def test_a_board_of_no_game_is_404_game_not_found(client, picture):
    resp = client.get(f"/games/nosuchgame/{picture}")
    assert resp.status_code == 404
    assert resp.get_json()["code"] == "game_not_found"


def test_a_board_with_a_malformed_if_none_match_is_400(client, table):
    game = table()
    resp = client.get(f"/games/{game.id}/board.svg", headers={"If-None-Match": "1"})
    assert resp.status_code == 400
    assert resp.get_json()["errors"][0]["header"] == "If-None-Match"


def test_a_patch_picture_turns_and_flips_as_asked(client):
    plain = client.get("/patches/11.svg")
    assert plain.status_code == 200
    assert plain.mimetype == "image/svg+xml"
    assert plain.headers["Content-Security-Policy"] == SVG_CSP
    assert "max-age=" in plain.headers["Cache-Control"]
    assert_self_contained(svg_root(plain))
    turned = client.get("/patches/11.svg?rotation=90")
    flipped = client.get("/patches/11.svg?rotation=90&flipped=true")
    same = client.get("/patches/11.svg?rotation=0&flipped=false")
    assert turned.status_code == flipped.status_code == same.status_code == 200
    assert len({plain.get_data(), turned.get_data(), flipped.get_data()}) == 3
    assert same.get_data() == plain.get_data()


# Patch 11 (.X / XX / .X): cost 2, time 2, income 0, 4 cells.
PATCH_11_LABELS = {
    "en": (
        "patch 11 · rotation 90, flipped",
        "Patch 11: cost 2, time 2, income 0, 4 cells, rotation 90, flipped",
    ),
    "es": (
        "parche 11 · giro 90, volteado",
        "Parche 11: coste 2, tiempo 2, ingresos 0, 4 casillas, giro 90, volteado",
    ),
    "pt": (
        "retalho 11 · rotação 90, virado",
        "Retalho 11: custo 2, tempo 2, renda 0, 4 casas, rotação 90, virado",
    ),
    "fr": (
        "pièce 11 · rotation 90, retournée",
        "Pièce 11 : coût 2, temps 2, revenu 0, 4 cases, rotation 90, retournée",
    ),
}


@pytest.mark.parametrize("language", sorted(PATCH_11_LABELS))
def test_a_patch_picture_is_labelled_in_the_language_its_url_names(client, language):
    resp = client.get(f"/patches/11.svg?rotation=90&flipped=true&lang={language}")
    assert resp.status_code == 200 and resp.headers["Content-Language"] == language
    root = svg_root(resp)
    caption = [text.text for text in root.iter(f"{SVG_NS}text")][-1]
    assert (caption, root.find(f"{SVG_NS}title").text) == PATCH_11_LABELS[language]
    # The URL alone says what the picture is (it is cached for a day): Accept-Language changes nothing.
    asked = client.get("/patches/11.svg?rotation=90&flipped=true", headers={"Accept-Language": language})
    assert asked.get_data() == client.get("/patches/11.svg?rotation=90&flipped=true&lang=en").get_data()


@pytest.mark.parametrize(
    "query, parameter",
    [
        ("rotation=45", "rotation"),
        ("rotation=ninety", "rotation"),
        ("flipped=yes", "flipped"),
        ("flipped=1", "flipped"),
        ("rotation=0&rotation=90", "rotation"),
    ],
)
def test_a_patch_picture_with_a_bad_query_is_400(client, query, parameter):
    resp = client.get(f"/patches/11.svg?{query}")
    assert resp.status_code == 400
    body = resp.get_json()
    assert body["code"] == "invalid_request"
    assert [fault["parameter"] for fault in body["errors"]] == [parameter]


@pytest.mark.parametrize("patch_id", ["0", "34", "999", "01", "-1", "1.0", "abc", "%3Cb%3E"])
def test_a_patch_picture_of_no_patch_is_404_not_found(client, patch_id):
    resp = client.get(f"/patches/{patch_id}.svg")
    assert resp.status_code == 404
    problem = resp.get_json()
    assert problem["code"] == "not_found"
    assert (
        "regular patches are 1 to 33" in problem["detail"]
    )  # the picture route's answer, not a missing route's
