"""The bridge's settings: a TOML file, the token from the environment, flags over both."""

import pytest

from service.bridge.config import TOKEN_VARIABLE, ConfigError, load


def test_flags_override_the_file_which_overrides_the_defaults(tmp_path):
    path = tmp_path / "bot.toml"
    path.write_text(
        'url = "http://example.test:8000"\ntoken = "from-file"\ngames_at_once = 3\nrated = false\n'
    )
    config = load(path, {"games_at_once": 5, "url": None}, {})
    assert (config.url, config.token, config.games_at_once, config.rated) == (
        "http://example.test:8000",
        "from-file",
        5,
        False,
    )
    assert config.casual is True  # a default kept


def test_the_token_may_come_from_the_environment_but_a_flag_wins():
    assert load(None, {}, {TOKEN_VARIABLE: "from-env"}).token == "from-env"
    assert load(None, {"token": "from-flag"}, {TOKEN_VARIABLE: "from-env"}).token == "from-flag"


@pytest.mark.parametrize(
    ("text", "overrides", "says"),
    [
        ("", {}, "no token"),
        ('token = "t"\ncolour = "red"\n', {}, "unknown settings colour"),
        ('token = "t"\nurl = "localhost:8000"\n', {}, r"not an http\(s\) URL"),
        ('token = "t"\n', {"games_at_once": 0}, "at least 1"),
        ("token = ", {}, "bot.toml"),
    ],
)
def test_a_bad_configuration_is_refused_saying_what_is_wrong(tmp_path, text, overrides, says):
    path = tmp_path / "bot.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=says):
        load(path, overrides, {})
