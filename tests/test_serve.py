"""The web table over HTTP (``pitchsim serve``'s app on a real uvicorn server on
127.0.0.1, a free port, stopped by the test): whole games, bad requests answered in
JSON, games kept apart, the saves folder the only place read or written, the bounds.

Expected results come from the library directly: a game over the API is replayed and
checked by ``table.record.replay``; a refused preset gets the message the table itself
raises; the odds are ``bid_odds``'s with the same seed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from pitchsim.game.rules import Rules
from pitchsim.table.game import game_end_words, play_table_game
from pitchsim.table.record import replay, views_of
from pitchsim.util.jsonio import read_json
from pitchsim.web.app import create_app
from pitchsim.web.server import Running


def call(url: str, body=None, method=None, headers=None, raw: bytes | None = None):
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    h = {"Content-Type": "application/json"} | (headers or {})
    req = urllib.request.Request(url, data=data, headers=h, method=method)
    try:
        with urllib.request.urlopen(req, timeout=300) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        text = e.read()
        return e.code, json.loads(text)  # every error is JSON


@pytest.fixture
def server(tmp_path):
    saves = tmp_path / "saves"
    with Running(create_app(saves, max_games=2, idle=600)) as url:
        yield url, saves


def pick(legal: list[str]) -> str:
    """Pass when allowed (a seat that always bids 4 keeps the bots from pitching, and the
    game from ending), else the last legal action."""
    return "pass" if "pass" in legal else legal[-1]


def play_out(url: str, game: dict) -> tuple[dict, list[str]]:
    """Play the person's seat to the end; the last state and the actions sent."""
    sent = []
    while game["status"] != "over":
        if game["status"] == "your turn":
            action = pick(game["view"]["legal"])
            status, doc = call(f"{url}/api/games/{game['id']}/action", {"action": action})
            assert status == 200, doc
            sent.append(action)
        status, game = call(f"{url}/api/games/{game['id']}?since={game['version']}")
        assert status == 200 and game["status"] != "error", game
    return game, sent


def test_a_whole_game_over_http_is_saved_and_replays(server):
    url, saves = server
    status, game = call(
        f"{url}/api/games", {"players": 3, "rules": "target=3", "coach": False, "seed": 4}
    )
    assert status == 201 and game["status"] == "your turn"
    assert len(game["id"]) >= 24  # secrets.token_urlsafe(18)
    final, sent = play_out(url, game)
    record = replay(read_json(str(saves / final["saved_as"]), "save"), strategies=False)
    assert record["final_scores"] == final["final_scores"]
    assert record["winner"] == final["winner"] is not None
    assert max(final["final_scores"]) >= 3
    # how it ended, in the one wording the terminal's practice uses too
    assert final["result_words"] == game_end_words(record, 0, False)
    # every action the test sent is the person's, in order; the others are the bots'
    mine = [a for v, a in views_of(record) if v.seat == 0 and len(v.legal()) > 1]
    assert mine == sent
    assert record["strategies"] == ["you", "odds+rollout", "odds+rollout"]  # practice's
    # the hands shown at their ends are the record's
    assert final["hands"] == [h for h in record["hands"]]
    # the same seed and the same choices: the bots decided the same (the table's loop)
    again = play_table_game(
        [Scripted(sent), "odds+rollout", "odds+rollout"], Rules.parse("target=3"), 4
    )
    assert again["hands"] == record["hands"]


class Scripted:
    name = "you"

    def __init__(self, actions):
        self.actions = list(actions)

    def call(self, view):
        return self._next(view)

    def play(self, view):
        return self._next(view)

    def _next(self, view):
        legal = view.legal()
        return legal[0] if len(legal) == 1 else self.actions.pop(0)


def test_the_coach_judges_every_choice_and_review_gives_the_same(server):
    url, _ = server
    body = {"players": 2, "rules": "target=1", "samples": 300, "worlds": 20, "seed": 9}
    status, game = call(f"{url}/api/games", body)
    final, sent = play_out(url, game)
    assert len(final["judgements"]) == len(sent)
    assert [j["chosen"] for j in final["judgements"]] == sent
    for j in final["judgements"]:
        assert j["text"].startswith("coach:") and set(j["values"]) >= {j["chosen"], j["best"]}
    # review from the saved game: the coach's own judgements, one step per decision
    status, r = call(f"{url}/api/review", {"save": final["saved_as"]})
    assert status == 200 and r["source"] == "the coach during the game"
    judged = [s["judgement"] for s in r["steps"] if s["judgement"] is not None]
    assert [j["values"] for j in judged] == [j["values"] for j in final["judgements"]]
    # judged anew with the game's seed and counts: the same numbers (coach_seed)
    status, again = call(
        f"{url}/api/review",
        {"save": final["saved_as"], "again": True, "samples": 300, "worlds": 20},
    )
    assert status == 200 and again["source"].startswith("reviewed now")
    fresh = [s["judgement"] for s in again["steps"] if s["judgement"] is not None]
    assert [j["values"] for j in fresh] == [j["values"] for j in judged]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ({"players": 9}, "players must be a whole number 2-7"),
        ({"players": "4"}, "players must be a whole number 2-7"),
        ({"rules": "low=sideways"}, "low"),
        ({"rules": "/etc/passwd"}, "rule family"),  # text, never a file
        ({"opponents": "nonsense+x"}, "nonsense"),
        ({"seat": 5, "players": 4}, "seat must be a whole number 0-3"),
        ({"coach": "yes"}, "coach must be true or false"),
        ({"samples": 10**9}, "samples must be a whole number"),
        ({"partnership": True, "players": 3}, "partnership"),
        # the form's kitty (12.2): the rules' own refusals (6.3.8, 12.2.3), one kitty only
        ({"kitty": 3}, "kitty=3 needs trump=named"),
        ({"preset": "ten-point", "kitty": 3}, "kitty=3 needs rob=false"),
        ({"preset": "smear", "kitty": 3, "rules": "kitty=2"}, "kitty is given twice"),
        ({"preset": "smear", "players": 7, "kitty": 11}, "a kitty of 11 is more than the"),
        ({"preset": "smear", "kitty": -1}, "kitty must be a whole number 0-54"),
        ({"preset": "smear", "kitty": True}, "kitty must be a whole number 0-54"),
    ],
)
def test_bad_game_requests_get_one_json_line(server, body, says):
    url, _ = server
    status, doc = call(f"{url}/api/games", body)
    assert status == 400 and says in doc["error"] and "\n" not in doc["error"]


@pytest.mark.parametrize(
    "path, body, field",
    [
        ("/api/games", {"players": 2, "target": 10000}, "target"),  # was a game to 7
        ("/api/games", {"coach": False, "Seed": 4}, "Seed"),
        ("/api/review", {"save": "x.json", "seat": 0, "verbose": True}, "verbose"),
        ("/api/odds", {"hand": "AH KH 2H 9C 7D 3S", "samples": 100, "levels": "2"}, "levels"),
        ("/api/odds/trumps", {"hand": "AH KH 2H 9C 7D 3S", "players": 4}, "players"),
        ("/api/kitties", {"preset": "smear", "seat": 0}, "seat"),
    ],
)
def test_an_unknown_field_is_refused_naming_it(server, path, body, field):
    url, saves = server
    status, doc = call(url + path, body)
    assert status == 400, doc
    assert doc["error"].startswith(f"unknown field {field!r}: {path} takes "), doc
    assert "\n" not in doc["error"]
    assert not saves.exists() or not list(saves.iterdir())  # no game was started
    # the fields a request takes, as /api/options gives them to the page: all read
    _, options = call(f"{url}/api/options")
    assert field not in options["fields"][path]
    assert set(body) - {field} <= set(options["fields"][path])


def test_an_action_or_a_quit_with_an_unknown_field_is_refused(server):
    url, _ = server
    _, game = call(f"{url}/api/games", {"players": 2, "coach": False, "seed": 1})
    base = f"{url}/api/games/{game['id']}"
    legal = game["view"]["legal"]
    status, doc = call(f"{base}/action", {"action": legal[0], "seat": 0})
    assert status == 400 and doc["error"].startswith("unknown field 'seat'"), doc
    status, doc = call(f"{base}/quit", {"save": False})
    assert status == 400 and "unknown field 'save'" in doc["error"] and "no fields" in doc["error"]
    _, now = call(base)
    assert now["status"] == "your turn" and now["version"] == game["version"]  # untouched
    assert call(f"{base}/action", {"action": legal[0]})[0] == 200


def test_malformed_requests(server):
    url, _ = server
    assert call(f"{url}/api/games", raw=b"{not json")[0] == 400
    assert call(f"{url}/api/games", raw=b"[1, 2]")[0] == 400
    status, doc = call(f"{url}/api/games", raw=b"{}", headers={"Content-Type": "text/plain"})
    assert status == 400 and "application/json" in doc["error"]
    status, doc = call(f"{url}/api/games", raw=b" " * (5 << 20))
    assert status == 400 and "MB" in doc["error"]
    assert call(f"{url}/nothing-here")[0] == 404
    assert call(f"{url}/api/games", method="GET")[0] == 405
    # a name that is not this machine's: refused (DNS rebinding)
    status, doc = call(f"{url}/api/options", headers={"Host": "evil.example"})
    assert status == 421 and "127.0.0.1" in doc["error"]


def test_games_are_kept_apart_and_turns_checked(server):
    url, _ = server
    _, a = call(f"{url}/api/games", {"players": 2, "coach": False, "seed": 1})
    _, b = call(f"{url}/api/games", {"players": 2, "coach": False, "seed": 1})
    assert a["id"] != b["id"]
    # another id: its last character changed (to x, or y where it was x: 1 id in 64)
    other = a["id"][:-1] + ("y" if a["id"].endswith("x") else "x")
    status, doc = call(f"{url}/api/games/{other}")
    assert status == 404 and "no such game" in doc["error"]
    status, doc = call(f"{url}/api/games/{other}/action", {"action": "pass"})
    assert status == 404
    # an illegal action: refused with the legal ones named, and the game goes on
    status, doc = call(f"{url}/api/games/{a['id']}/action", {"action": "AS AH"})
    assert status == 409 and "not a legal action" in doc["error"]
    for malformed in ({}, {"action": ["pass"]}, {"action": None}, {"action": 2}):
        status, doc = call(f"{url}/api/games/{a['id']}/action", malformed)
        assert (status, doc["error"]) == (
            400,
            'send {"action": "KS"} (a card) or {"action": "pass"} (a call)',
        ), malformed
    legal = a["view"]["legal"]
    assert call(f"{url}/api/games/{a['id']}/action", {"action": legal[0]})[0] == 200
    # b is untouched by a's action
    status, b2 = call(f"{url}/api/games/{b['id']}")
    assert b2["view"] == b["view"] and b2["version"] == b["version"]
    # the cap: two games at once here; a third waits for one to end
    status, doc = call(f"{url}/api/games", {"players": 2, "coach": False})
    assert status == 503 and "games are in progress" in doc["error"]
    status, q = call(f"{url}/api/games/{b['id']}/quit", {})
    assert status == 200 and q["status"] == "over" and q["stopped"] == "quit"
    assert call(f"{url}/api/games", {"players": 2, "coach": False})[0] == 201


def test_saves_are_the_only_files_read_or_written(server, tmp_path):
    url, saves = server
    secret = tmp_path / "secret.json"
    secret.write_text('{"format": "pitchsim-game"}')
    for name in ("../secret.json", "..%2Fsecret.json", ".hidden.json", "x.txt", "secret"):
        status, doc = call(f"{url}/api/saves/{name}")
        assert status == 404 and "error" in doc
        status, doc = call(f"{url}/api/review", {"save": name})
        assert status == 404
    (saves).mkdir(exist_ok=True)
    (saves / "link.json").symlink_to(secret)
    assert call(f"{url}/api/saves/link.json")[0] == 404
    assert call(f"{url}/api/saves")[1] == {"saves": []}
    _, game = call(f"{url}/api/games", {"players": 2, "coach": False, "seed": 3})
    final, _ = play_out(url, game)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saves", "secret.json"]
    assert sorted(p.name for p in saves.iterdir()) == sorted(["link.json", final["saved_as"]])
    status, doc = call(f"{url}/api/saves/{final['saved_as']}")
    assert status == 200 and doc["final_scores"] == final["final_scores"]


def test_an_idle_game_is_stopped_and_saved(tmp_path):
    saves = tmp_path / "saves"
    with Running(create_app(saves, idle=1.0)) as url:
        _, game = call(f"{url}/api/games", {"players": 2, "coach": False})
        deadline = time.monotonic() + 30
        while not list(saves.glob("*.json")) and time.monotonic() < deadline:
            time.sleep(0.2)
        (path,) = saves.glob("*.json")
        record = read_json(str(path), "save")
        assert record["stopped"] == "quit" and record["hands"][-1]["incomplete"]
        while call(f"{url}/api/games/{game['id']}")[0] == 200:  # ended, then forgotten
            assert time.monotonic() < deadline
            time.sleep(1.5)


def test_review_of_an_uploaded_record_and_bad_ones(server):
    url, _ = server
    record = play_table_game(["odds+heuristic"] * 2, Rules.parse("target=1"), 6)
    status, r = call(
        f"{url}/api/review", {"record": record, "seat": 1, "samples": 200, "worlds": 10}
    )
    assert status == 200 and r["seat"] == 1
    mine = [(v, a) for v, a in views_of(record) if v.seat == 1]
    assert [s["action"] for s in r["steps"]] == [a for _, a in mine]
    assert [s["judgement"] is None for s in r["steps"]] == [len(v.legal()) == 1 for v, _ in mine]
    bad = dict(record, final_scores=[9, 9])
    status, doc = call(f"{url}/api/review", {"record": bad, "seat": 1})
    assert status == 400 and "final_scores" in doc["error"]
    assert call(f"{url}/api/review", {"record": record, "seat": 5})[0] == 400
    assert call(f"{url}/api/review", {})[0] == 400


def test_odds_are_the_librarys(server):
    from pitchsim.advice.odds import bid_odds

    url, _ = server
    body = {"hand": "AH KH 2H 9C 7D 3S", "players": 3, "samples": 500, "seed": 5, "dealer": 2}
    status, doc = call(f"{url}/api/odds", body)
    assert status == 200
    expected = bid_odds("AH KH 2H 9C 7D 3S", 3, 500, 5).to_json()
    assert doc["bid_odds"]["by_trump"] == json.loads(json.dumps(expected["by_trump"]))
    assert set(doc["advise"]["by_call"]) == {"pass", "1", "2", "3", "4"}
    status, doc = call(f"{url}/api/odds", dict(body, hand="AH AH"))
    assert status == 400 and doc["error"]


def test_the_page_and_its_files(server):
    url, _ = server
    for path, kind in (("/", "text/html"), ("/app.js", "javascript"), ("/style.css", "css")):
        with urllib.request.urlopen(url + path) as r:
            assert kind in r.headers["Content-Type"]
            assert "default-src 'self'" in r.headers["Content-Security-Policy"]
    assert call(f"{url}/static/../../pyproject.toml")[0] == 404


def test_serve_command_refuses_bad_options_in_one_line(tmp_path):
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    busy = str(taken.getsockname()[1])
    for args, says in (
        (["--port", "70000"], "--port"),
        (["--idle", "0"], "--idle"),
        (["--port", busy], f"cannot serve on 127.0.0.1:{busy}"),
    ):
        p = subprocess.run(
            [sys.executable, "-m", "pitchsim", "serve", *args, "--saves", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert p.returncode == 2 and says in p.stderr and len(p.stderr.splitlines()) == 1
    taken.close()


def test_a_saves_folder_no_game_fits_is_refused_before_serving(tmp_path):
    """A --saves that is a file, or under one, is refused at once in one line, never
    found out when the first game ends and cannot be saved (nothing is served)."""
    (tmp_path / "a-file").write_text("")
    for saves, says in (
        (tmp_path / "a-file", f"--saves {tmp_path / 'a-file'} is not a folder"),
        (tmp_path / "a-file" / "x", f"{tmp_path / 'a-file'} is not a folder"),
    ):
        p = subprocess.run(
            [sys.executable, "-m", "pitchsim", "serve", "--port", "0", "--saves", str(saves)],
            capture_output=True,
            text=True,
            timeout=30,  # a server that started serves until stopped: a failure here
        )
        assert p.returncode == 2 and p.stdout == "", (p.stdout, p.stderr)
        assert says in p.stderr and len(p.stderr.splitlines()) == 1, p.stderr


def test_the_coachs_verdict_ends_the_coach_status():
    """After the person acts with the coach on, the page says "coach" until a verdict
    line comes (a judgement, or the call's and the put-down's notes, which are not
    judgements); then the others are playing again.  A forced move's line does not end it."""
    from pitchsim.web.sessions import Game

    g = Game("x" * 8, 4, 0, "random", Rules.parse("smear"), 1, coach=True)
    g.publish(thinking=True)
    assert g.to_json()["status"] == "coach"
    g.log("your only card: 2H")
    assert g.to_json()["status"] == "coach"
    g.log("coach: pitchsim calls the same card.")
    assert g.to_json()["status"] == "playing"
    assert g.to_json()["log"][-1] == "coach: pitchsim calls the same card."


def test_the_coachs_panel_shows_a_call_or_put_down_note_until_a_judgement_follows():
    """The coach's note on a call of a partner's card or a put-down (12.1.2, 12.8.3: a
    note, not a judgement) is the page's coach panel's (``note``) until a judgement comes
    after it; then the panel shows that judgement, as before."""
    from pitchsim.coach.judge import Judgement
    from pitchsim.web.sessions import Game

    g = Game("x" * 8, 5, 0, "random", Rules.parse("smear,partner=called"), 1, coach=True)
    assert g.to_json()["note"] is None
    said = {"hand": 1, "after": 0, "text": "coach: pitchsim calls A♠, ..."}
    g.state.notes.append(said)
    assert g.to_json()["note"] == said
    j = Judgement(1, 0, "card", "AS", "AS", {"AS": 1.0}, {"AS": 0.1}, 0.0, 0.0, None, "margin", 9)
    g.state.judgements.append(j)
    assert g.to_json()["note"] is None
