"""A smear hand in a real browser (headless Chromium, Playwright), played by clicking:
the calls, naming trump, the cards.  What the page shows is checked against the rules
(docs/rules.md): the named trump, the jick shown and playable as a trump (3.6, 3.7), the
hand's points with the Jick among them (3.8); then the game is saved, and reviewed in
the page with the named trump as a step.
"""

from __future__ import annotations

import pytest
from browser import PHONE, start_game

from pitchsim.game.rules import Rules
from pitchsim.table.record import replay, views_of
from pitchsim.util.jsonio import read_json
from pitchsim.web.sessions import keys_json

SECONDS = 600_000  # ms a step may take (kernels may compile on a cold cache; a busy machine)
SAME_COLOUR = {"C": "S", "S": "C", "D": "H", "H": "D"}


def to_odds(page) -> None:
    """The Odds tab, once the page has taken its hashchange: that event comes a task
    after the click returns, and its handler shows the tab and, a game in progress,
    fills the form from the game (``oddsFromGame``): a test typing before it would see
    its input overwritten, or read the form unfilled."""
    page.locator("#nav-odds").click()
    page.wait_for_selector("#odds:not([hidden])", timeout=SECONDS)


def test_a_smear_hand_clicked_through_the_page_then_reviewed(browser_site, open_table, tmp_path):
    _, saves, _ = browser_site
    page, errors = open_table(preset="smear", players=3, samples=300, worlds=20, seed=8)

    chosen: list[str] = []
    named = None
    jick_seen = 0
    strips = []
    for _ in range(40):
        page.wait_for_function(
            "['your turn', 'over', 'error'].includes(document.body.dataset.status)"
            " || Number(document.querySelector('#breakdown').dataset.hands || 0) > 0",
            timeout=SECONDS,
        )
        if page.locator("#breakdown").get_attribute("data-hands"):
            break
        status = page.evaluate("document.body.dataset.status")
        assert status == "your turn", page.locator("#status").inner_text()
        before = int(page.locator("#coach").get_attribute("data-count") or 0)
        buttons = page.locator("#choices button")
        text = page.locator("#status").inner_text()
        if buttons.count():
            offered = [buttons.nth(i).get_attribute("data-call") for i in range(buttons.count())]
            if text == "Name trump":  # 3.1: the pitcher names trump, any suit
                assert sorted(offered) == ["trump:C", "trump:D", "trump:H", "trump:S"]
                assert "♥ hearts" in buttons.all_inner_texts()
                action = "trump:H"
            else:  # the auction: bid the most (5, the whole hand: 3.13) to pitch
                assert text == "Your call" and offered[0] == "pass"
                action = offered[-1]
            buttons.nth(offered.index(action)).click()
        else:
            cards = page.locator("#hand button.legal")
            legal = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
            # the jick is a trump (3.6): gold-edged among the trumps in the hand
            trump_cards = page.locator("#hand .card.trump")
            marked = [
                trump_cards.nth(i).get_attribute("data-card") for i in range(trump_cards.count())
            ]
            expected = [
                c
                for c in page.locator("#hand .card").evaluate_all(
                    "cs => cs.map(c => c.dataset.card)"
                )
                if c[1] == named or c == "J" + SAME_COLOUR[named]
            ]
            assert marked == expected
            jick_seen += ("J" + SAME_COLOUR[named]) in marked
            # the trump order beside the pitcher: A K Q J, the jick J♦, then 10 ... 2 (3.6)
            strips.append(
                page.locator("#contract .trump-order .card").evaluate_all(
                    "cs => cs.map(c => c.dataset.card)"
                )
            )
            action = legal[0]
            cards.nth(0).click()
        chosen.append(action)
        if action.startswith("trump:"):
            named = action[-1]
            page.wait_for_selector(".named-trump", timeout=SECONDS)
            page.wait_for_function(
                f"Number(document.querySelector('#coach').dataset.count || 0) > {before}",
                timeout=SECONDS,
            )
            # The naming of trump is judged on deals (as practice says), and its chart
            # shows each suit's whole name ("♦ diamonds trump" was cut at the left edge).
            heading = page.locator("#coach h3").inner_text()
            assert heading == "Coach · hand 1 · you named ♥ hearts trump", heading
            box = page.locator("#coach .judgement").last
            assert box.locator("p.muted.small").last.inner_text().startswith("300 deals")
            names = box.locator("svg.chart text").evaluate_all(
                "ts => ts.map(t => [t.textContent, t.getBBox().x])"
            )
            assert "♦ diamonds trump" in [n for n, _ in names]
            assert all(x >= 0 for _, x in names), names
        page.wait_for_function(
            f"Number(document.querySelector('#coach').dataset.count || 0) > {before}"
            " || Number(document.querySelector('#breakdown').dataset.hands || 0) > 0",
            timeout=SECONDS,
        )
    else:
        pytest.fail("the hand did not end in 40 decisions")
    assert named == "H"
    page.screenshot(path=str(tmp_path / "smear-hand-end.png"), full_page=True)
    shown = page.locator("#breakdown").inner_text()
    for point in ("High", "Low", "Jack", "Jick", "Game"):  # 3.8
        assert point in shown
    awards = page.locator("#breakdown .awards li").all_inner_texts()
    assert len(awards) == 5
    assert strips and all(
        strip == "AH KH QH JH JD TH 9H 8H 7H 6H 5H 4H 3H 2H".split() for strip in strips
    )
    assert not errors, errors

    page.locator("#quit").click()
    page.wait_for_selector("#review-this", timeout=SECONDS)
    (name,) = [p.name for p in saves.iterdir() if p.suffix == ".json"]
    record = replay(read_json(str(saves / name), "the saved game"), strategies=False)
    mine = [(v, a) for v, a in views_of(record) if v.seat == 0]
    assert chosen == [a for v, a in mine if len(v.legal()) > 1]
    assert record["hands"][0]["trump"] == "H" and record["hands"][0]["pitcher"] == 0

    page.locator("#review-this").click()
    page.wait_for_selector("#review-out:not([hidden])", timeout=SECONDS)
    assert "smear" in page.locator("#review-summary").inner_text()
    headings = []
    for _ in mine:
        headings.append(page.locator("#step h3").first.inner_text())
        page.keyboard.press("ArrowRight")
    assert "Hand 1: you named ♥ hearts trump" in headings
    assert not errors, errors


def test_a_ten_point_trick_that_passed_over_a_seat_names_each_cards_player(open_table):
    """Under follow=only a seat with no trump left is passed over (4.9, 4.15.3), so a
    trick's cards no longer go round in turn: the page's list of tricks (and the end of
    the hand's) names the player of each card after the lead, as the terminal does."""
    page, errors = open_table(preset="ten-point", samples=300, worlds=20, seed=5)

    def skipping(tricks):
        return [
            k
            for k, t in enumerate(tricks)
            if t["seats"] != [(t["seats"][0] + i) % 4 for i in range(len(t["seats"]))]
        ]

    def check(rows, tricks, names):
        for k in skipping(tricks):
            shown = rows.nth(k).locator(".player").all_text_contents()  # (in a closed details too)
            assert [x.strip() for x in shown] == [names(s) for s in tricks[k]["seats"][1:]]

    seen = 0
    for _ in range(40):
        page.wait_for_function(
            "document.body.dataset.status === 'your turn'"
            " || Number(document.querySelector('#breakdown').dataset.hands || 0) > 0",
            timeout=SECONDS,
        )
        if page.locator("#breakdown").get_attribute("data-hands"):
            break
        view = page.evaluate("lastView")
        done = view["tricks"][: len(view["trick_winners"])]
        who = lambda s: "you" if s == 0 else "partner (seat 2)" if s == 2 else f"seat {s}"  # noqa: E731
        check(page.locator("#tricks .past"), done, who)
        seen += len(skipping(done))
        if view["phase"] == "put_down":  # the robber's come-down (4.8.7): a note, not judged
            held = len(view["held"])
            page.locator("#hand button.put-down").first.click()
            page.wait_for_function(
                f"!game.view || game.view.held.length !== {held}", timeout=SECONDS
            )
            continue
        before = int(page.locator("#coach").get_attribute("data-count") or 0)
        buttons = page.locator("#choices button")
        if page.locator("#choices button[data-call='trump:S']").count():
            page.locator("#choices button[data-call='trump:S']").click()
        elif buttons.count():  # the lowest bid the seat may make
            (buttons.nth(1) if buttons.count() > 1 else buttons.first).click()
        else:
            page.locator("#hand button.legal").last.click()
        page.wait_for_function(
            f"Number(document.querySelector('#coach').dataset.count || 0) > {before}"
            " || Number(document.querySelector('#breakdown').dataset.hands || 0) > 0",
            timeout=SECONDS,
        )
    else:
        pytest.fail("the hand did not end in 40 decisions")
    assert seen, "no trick passed over a seat while the person played: pick another seed"
    tricks = page.evaluate("game.hands[0].tricks")
    assert skipping(tricks)
    check(
        page.locator("#breakdown details .past"),
        tricks,
        lambda s: "you" if s == 0 else f"seat {s}",
    )
    assert not errors, errors


def test_a_shoot_is_said_in_the_persons_words(open_table):
    """The person shoots (smear,shoot=true, 6.1): the contract line says "you shoot the
    moon" (it said "you shoots")."""
    page, errors = open_table(
        preset="smear",
        players=3,
        rules="shoot=true",
        opponents="heuristic+rollout",
        samples=300,
        worlds=20,
        seed=8,
    )
    page.wait_for_function("document.body.dataset.status === 'your turn'", timeout=SECONDS)
    page.locator("#choices button[data-call=shoot]").click()
    page.wait_for_selector("#choices button[data-call='trump:S']", timeout=SECONDS)
    assert page.locator("#contract").inner_text() == "Pitcher: you shoot the moon"
    assert not errors, errors


def read_odds_tables(page) -> dict[str, dict[str, str]]:
    """The Odds tab's tables as shown: trump suit -> level -> the P(make k) cell."""
    out = {}
    for table in page.locator("#odds-out table.suit-odds").all():
        rows = table.locator("tbody tr").all()
        out[table.get_attribute("data-trump")] = {
            r.get_attribute("data-level"): r.locator("td.p").inner_text().strip() for r in rows
        }
    return out


def ask_odds(page, preset: str, hand: str, players: str = "4") -> dict:
    form = page.locator("#odds-form")
    form.locator("select[name=preset]").select_option(preset)
    form.locator("select[name=players]").select_option(players)
    form.locator("input[name=hand]").fill(hand)
    form.locator("input[name=samples]").fill("300")
    form.locator("#odds-go").click()
    page.wait_for_selector("#odds-out table.suit-odds", timeout=SECONDS)
    return read_odds_tables(page)


def test_the_odds_tab_under_smear_and_ten_point(browser_site, open_table, tmp_path):
    """A smear hand and a ten-point hand asked about in the page: a table per trump
    suit the hand could name, the levels 1 .. the preset's maximum bid as rows (5 in
    smear, 3.8; 10 in ten-point, 4.10), each P(make k) the API's for the same request
    (the same seed), and the defence value; a bad hand shows the server's one line."""
    from test_serve import call

    url, _, _ = browser_site
    page, errors = open_table("/#odds")
    page.locator("#odds-form input[name=seed]").fill("7")
    for preset, hand, cards, top, suits in (
        ("smear", "AH KH JD 2H 9C 3S", "6", 5, {"H", "D", "C", "S"}),  # JD: a jick in hearts
        ("ten-point", "AH HJ JD 3H TH 9C 7D 2S KS", "9", 10, {"H", "D", "C", "S"}),
    ):
        page.locator("#odds-form select[name=preset]").select_option(preset)
        assert page.locator("#odds-deal").get_attribute("data-cards") == cards
        shown = ask_odds(page, preset, hand)
        assert set(shown) == suits
        for levels in shown.values():  # no shoot row: neither preset has shoot
            assert list(levels) == [str(k) for k in range(1, top + 1)]
        status, doc = call(
            f"{url}/api/odds",
            {"hand": hand, "preset": preset, "players": 4, "samples": 300, "seed": 7},
        )
        assert status == 200, doc
        for s, t in doc["bid_odds"]["by_trump"].items():
            assert shown[s] == {k: f"{100 * p:.1f}%" for k, p in t["p_at_least"].items()}
        passing = page.locator("#odds-passing").inner_text()
        assert f"{doc['bid_odds']['passing']['expected_points']:.2f} points" in passing
        if preset == "smear":
            page.screenshot(path=str(tmp_path / "odds-smear.png"), full_page=True)

    # a bad hand: the server's one line shown, no table
    page.locator("#odds-form select[name=preset]").select_option("ten-point")
    page.locator("#odds-form input[name=hand]").fill("AH KH 2H 9C 7D 3S")
    page.locator("#odds-go").click()
    page.wait_for_selector("#error:not([hidden])", timeout=SECONDS)
    assert "deals 9 cards: the hand has 6" in page.locator("#error").inner_text()
    assert not errors, errors


def test_the_odds_tab_asks_about_the_game_being_played(open_table):
    """In a smear game's auction the Odds tab opens on smear, the table's players and
    the person's whole deal: one click asks about the hand being bid."""
    page, errors = open_table(preset="smear", players=3, coach=False, seed=8)
    page.wait_for_function("document.body.dataset.status === 'your turn'", timeout=SECONDS)
    assert page.locator("#status").inner_text() == "Your call"
    held = page.locator("#hand .card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    assert len(held) == 6
    to_odds(page)
    odds = page.locator("#odds-form")
    assert odds.get_attribute("data-game")  # filled from the game
    assert odds.locator("select[name=preset]").input_value() == "smear"
    assert odds.locator("select[name=players]").input_value() == "3"
    assert odds.locator("input[name=hand]").input_value().split() == held
    assert "levels 1-5" in page.locator("#odds-deal").inner_text()
    assert not errors, errors


def test_the_odds_form_sends_only_the_fields_the_server_takes(open_table):
    """The server refuses a field a request does not take (docs/serve.md): the page sends
    /api/odds only the fields it takes (/api/options' list), whatever else its form holds,
    and the base game's answer is bid-odds' one JSON shape (rules by name, its levels)."""
    page, errors = open_table("/#odds")
    form = page.locator("#odds-form")
    form.evaluate(  # a field the server does not take, as a later form might hold
        "f => { const i = document.createElement('input'); i.name = 'levels';"
        " i.value = '2,3'; f.append(i); }"
    )
    form.locator("select[name=preset]").select_option("")
    form.locator("input[name=samples]").fill("200")
    form.locator("input[name=seed]").fill("3")
    with page.expect_request("**/api/odds") as asked:
        form.locator("#odds-go").click()
    sent = asked.value.post_data_json
    assert "levels" not in sent and sent["seed"] == 3 and sent["samples"] == 200, sent
    page.wait_for_selector("#odds-out table.suit-odds", timeout=SECONDS)
    assert page.locator("#error").is_hidden()
    assert "auction-pitch" in page.locator("#odds-out h3").first.inner_text()
    assert not errors, errors


def trump_choices(page) -> list[str]:
    return page.locator("#odds-trump option").evaluate_all("os => os.map(o => o.value)")


def test_the_trump_select_offers_the_suits_the_server_accepts(open_table):
    """The Odds form's Trump select lists only the suits bid-odds takes for the hand
    typed: a suit held (the base game: its first lead names trump), and under smear's
    named trump a suit the hand holds a trump in, the jick counted (J♠ is the jick of
    clubs, the same colour; VARIANTS.md 1.3).  The list follows the hand as it is typed."""
    page, errors = open_table("/#odds")
    form = page.locator("#odds-form")
    form.locator("input[name=hand]").fill("AH KH JS 2H 9D 3D")
    form.locator("select[name=preset]").select_option("")
    page.wait_for_function("document.querySelectorAll('#odds-trump option').length === 4")
    assert trump_choices(page) == ["", "D", "H", "S"]
    form.locator("select[name=preset]").select_option("smear")
    page.wait_for_function("document.querySelectorAll('#odds-trump option').length === 5")
    assert trump_choices(page) == ["", "C", "D", "H", "S"]
    form.locator("select[name=trump]").select_option("C")
    form.locator("input[name=hand]").fill("AH KH QS 2H 9D 3D")  # no jick: clubs goes
    page.wait_for_function("document.querySelectorAll('#odds-trump option').length === 4")
    assert trump_choices(page) == ["", "D", "H", "S"]
    assert form.locator("select[name=trump]").input_value() == ""
    form.locator("input[name=hand]").fill("AH KH QS 2H 9D 3")  # being typed: no suit yet
    page.wait_for_function("document.querySelectorAll('#odds-trump option').length === 1")
    # its words are shown whole ("every suit it could make t" was cut at the box's edge)
    room = form.locator("select[name=trump]").evaluate(
        """s => { const t = document.createElement("span");
                  t.style.font = getComputedStyle(s).font;
                  t.textContent = s.options[s.selectedIndex].text;
                  document.body.append(t);
                  const need = t.getBoundingClientRect().width; t.remove();
                  return s.clientWidth - need; }"""
    )
    assert room > 20, room  # the text and the arrow beside it
    assert not errors, errors


WIDE = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def test_readable_at_a_phones_width(open_table, tmp_path):
    """At 390 px nothing makes the page wider than the screen (no sideways scrolling):
    the game's form, a coached smear hand from its first call to its end, and the Odds
    tab's tables.  The list of tricks appears with the first trick, not before."""
    page, errors = open_table("/", PHONE)
    assert page.evaluate(WIDE) == 0
    start_game(page, preset="smear", samples=300, worlds=20, seed=8)
    page.wait_for_function("document.body.dataset.status === 'your turn'", timeout=SECONDS)
    # The keys smear uses (3.1-3.6: six cards, bids 2-5, no shoot, trump named, a jick):
    # the bids those offered at this call (3-5, a 2 bid before it)
    assert page.evaluate("game.view.choices") == ["pass", "3", "4", "5"]
    assert page.locator("#play .keys").inner_text() == (
        "Keys: 1-6 play the numbered card; in the auction p passes, 3-5 bid; c d h s name "
        "trump. Trumps (the jick too) wear a gold edge."
    )
    tricks_shown = []
    for _ in range(40):
        page.wait_for_function(
            "document.body.dataset.status === 'your turn'"
            " || Number(document.querySelector('#breakdown').dataset.hands || 0) > 0",
            timeout=SECONDS,
        )
        assert page.evaluate(WIDE) == 0, page.locator("#status").inner_text()
        if page.locator("#breakdown").get_attribute("data-hands"):
            break
        done = page.locator("#tricks .past").count()
        tricks_shown.append((done, page.locator("#tricks-box").is_visible()))
        before = int(page.locator("#coach").get_attribute("data-count") or 0)
        buttons = page.locator("#choices button")
        (buttons.last if buttons.count() else page.locator("#hand button.legal").first).click()
        page.wait_for_function(
            f"Number(document.querySelector('#coach').dataset.count || 0) > {before}"
            " || Number(document.querySelector('#breakdown').dataset.hands || 0) > 0",
            timeout=SECONDS,
        )
    assert page.evaluate(WIDE) == 0
    page.screenshot(path=str(tmp_path / "phone-hand-end.png"), full_page=True)
    # The last card judged: its chart draws how far each card is behind the best (a
    # margin such as -5.62 drawn from 0 showed every bar alike): the best's bar is empty.
    chart = page.locator("#coach .judgement").last
    assert "behind the best" in chart.locator(".chart-note").inner_text()
    widths = chart.locator("svg.chart rect").evaluate_all(
        "rs => rs.map(r => +r.getAttribute('width'))"
    )
    assert len(widths) > 1 and widths[0] <= 1 and widths == sorted(widths)
    assert tricks_shown[0] == (0, False) and any(d > 0 and v for d, v in tricks_shown)
    assert all(v == (d > 0) for d, v in tricks_shown), tricks_shown
    # Saved and reviewed at that width too.
    page.locator("#quit").click()
    page.locator("#review-this").click()
    page.wait_for_selector("#review-out:not([hidden])", timeout=SECONDS)
    for _ in range(3):
        assert page.evaluate(WIDE) == 0
        page.keyboard.press("ArrowRight")
    to_odds(page)
    odds = page.locator("#odds-form")
    odds.locator("input[name=hand]").fill("AH KH JD 2H 9C 3S")
    odds.locator("input[name=samples]").fill("300")
    odds.locator("#odds-go").click()
    page.wait_for_selector("#odds-out table.suit-odds", timeout=SECONDS)
    assert page.evaluate(WIDE) == 0
    assert not errors, errors


def test_the_kitty_the_person_took_is_drawn_as_cards(open_table):
    """kitty=3 chosen in the game's form (docs/rules.md 12.2), offered only where the
    preset can have a kitty (6.3.8: trump named, no rob, no discard): bidding the most
    and naming trump, the person is the pitcher and took the kitty (12.2.2, 12.2.5); the
    page names the kitty's cards and what he put down, drawn as cards (once written
    "[object HTMLSpanElement]": a line's parts holding lists of cards were flattened one
    level only)."""
    page, errors = open_table()
    form = page.locator("#setup")
    kitty = form.locator("select[name=kitty]")
    note = page.locator("#kitty-note")

    def offered():
        """The sizes offered (0: none) once the answer for the form as it stands is in."""
        page.wait_for_function("document.querySelector('#setup').dataset.kitties === 'shown'")
        return kitty.locator("option").evaluate_all("os => os.map(o => o.value)")

    for preset in ("", "ten-point"):  # the first lead names trump; ten-point robs
        form.locator("select[name=preset]").select_option(preset)
        assert offered() == ["0"]
        assert not kitty.is_visible() and kitty.is_disabled() and not note.is_visible()
    form.locator("select[name=preset]").select_option("smear")
    form.locator("select[name=players]").select_option("4")
    # the default opponents bid by the odds table: its kitty rows (12.2) ship at 4
    # players and are made when a game starts elsewhere, so every size is offered at 5 too
    every = ["0", "1", "2", "3", "4", "5", "6"]  # up to a hand's worth (12.2.2)
    assert offered() == every and kitty.is_visible() and not note.is_visible()
    form.locator("select[name=players]").select_option("5")
    assert offered() == every and kitty.is_visible() and not note.is_visible()
    opponents = form.locator("input[name=opponents]")
    default = opponents.input_value()
    opponents.fill("heuristic")  # heuristic bidders play every size
    assert offered() == every and not note.is_visible()
    opponents.fill(default)
    form.locator("select[name=players]").select_option("4")
    assert offered() == every
    start_game(page, kitty=3, coach=False, seed=3)
    for _ in range(9):
        page.wait_for_function(
            "['your turn', 'over', 'error'].includes(document.body.dataset.status)",
            timeout=SECONDS,
        )
        assert page.evaluate("document.body.dataset.status") == "your turn"
        if page.evaluate("game.view.phase") == "play":
            break  # the kitty was taken and 3 put down
        buttons = page.locator("#choices button, #hand button.put-down")  # (12.2.2)
        offered = [buttons.nth(i).get_attribute("data-call") for i in range(buttons.count())]
        action = "trump:H" if "trump:H" in offered else offered[-1]  # the most, to pitch
        buttons.nth(offered.index(action)).click()
        page.wait_for_function(
            f"document.body.dataset.status !== 'your turn' || "
            f"!document.querySelector('button[data-call=\"{action}\"]')",
            timeout=SECONDS,
        )
    line = page.locator(".kitty")
    assert line.count() == 1
    text = line.inner_text()
    assert text.startswith("you took the kitty (3) and put down 3 face down"), text
    assert "[object" not in page.locator("#table").inner_text()
    assert line.locator(".card").count() == 6  # the 3 taken and the 3 put down
    assert not errors, errors


def test_keys_reach_ten_a_bid_of_10_and_a_tenth_card(open_table, tmp_path):
    """Ten-point bids run 5-10 (4.5) and cinch's to 14: the keys reach past 9 as the
    terminal's typed numbers do.  0 is 10 (the tenth card, a bid of 10: said in the
    keys line and on the bid's button); a digit that begins a bid above 10 waits for
    the next digit (Enter: the digit alone)."""
    page, errors = open_table(preset="ten-point", coach=False, seed=5)
    page.wait_for_function("document.body.dataset.status === 'your turn'", timeout=SECONDS)
    # (the bids offered at this call: 7-10, a 6 bid before it, 4.5)
    assert page.evaluate("game.view.calls") == ["6", "pass", "pass"]
    assert page.locator("#play .keys").inner_text() == (
        "Keys: 1-9 play the numbered card; in the auction p passes, 7-9 bid, 0 bids 10; "
        "c d h s name trump; coming down to 6 the numbers put down the numbered card. "
        "Trumps (the jick and the jokers too) wear a gold edge."
    )
    assert page.evaluate("game.view.phase") == "auction"
    assert "10" in page.evaluate("game.view.legal")
    assert page.locator("#choices button[data-call='10']").get_attribute("title") == "key 0"
    page.screenshot(path=str(tmp_path / "ten-point-keys.png"))
    sent = []
    page.on(
        "request",
        lambda r: sent.append(r.post_data_json) if r.url.endswith("/action") else None,
    )
    page.keyboard.press("0")
    page.wait_for_timeout(500)  # the key's request goes at once, or not at all
    assert sent == [{"action": "10"}]

    # The same keys on a table of ten cards and on cinch's bids, through the page's own
    # key handler (its sending stood in for: what it would send is kept).
    got = page.evaluate(
        """() => {
          const sent = [];
          act = (a) => sent.push(a);
          const press = (key) => document.dispatchEvent(new KeyboardEvent("keydown", { key }));
          const cards = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S"];
          game = { ...game, status: "your turn",
                   view: { ...game.view, phase: "play", choices: cards, legal: cards } };
          press("0"); press("1");
          const bids = ["pass", ...Array.from({ length: 14 }, (_, i) => String(i + 1))];
          game = { ...game, view: { ...game.view, phase: "auction", legal: bids } };
          press("0"); press("1"); press("3"); press("1"); press("Enter"); press("9");
          return sent;
        }"""
    )
    assert got == ["5S", "AS", "10", "13", "1", "9"]
    line = "(g) => keysLine(g).map((x) => x.textContent ?? x).join('')"
    assert page.evaluate(line, {"keys": keys_json(Rules.parse("ten-point"), 5)}).startswith(
        "Keys: 1-9 and 0 (the tenth) play the numbered card; in the auction p passes, "
        "5-9 bid, 0 bids 10;"
    )
    assert page.evaluate(line, {"keys": keys_json(Rules.parse("cinch"), 4)}).startswith(
        "Keys: 1-9 play the numbered card; in the auction p passes, 1-9 bid, 0 bids 10, "
        "1 then 1-4 bid 11-14 (Enter after 1 bids 1);"
    )
    assert not errors, errors


def test_a_dealers_steal_is_marked_on_its_button_and_in_the_calls(
    browser_site, open_table, tmp_path
):
    """auction-pitch (RULES "steal"): the dealer may take the bid at the same number.
    The page's button for it and the calls line after say "(steal)", in the terminal's
    words (``View.call_words``, ``View.choice_words``); no other bid is marked.  So do
    the coach's values and heading for that call (``Judgement.words``), and the
    review's step for it."""
    url, saves, _ = browser_site
    known = {p.name for p in saves.iterdir()}  # the file's other tests save games here too
    page, errors = open_table(players=2, samples=300, worlds=20, seed=3)
    stolen = None
    for _ in range(300):
        page.wait_for_function(
            "['your turn', 'over', 'error'].includes(document.body.dataset.status)",
            timeout=SECONDS,
        )
        if page.evaluate("document.body.dataset.status") != "your turn":
            break
        calls = page.locator("#choices button")
        if stolen is not None:  # the next decision, the auction over: the calls line
            assert page.locator("#auction").inner_text().endswith(f"you {stolen} (steal)")
            page.screenshot(path=str(tmp_path / "steal-calls.png"))
            break
        before = int(page.locator("#coach").get_attribute("data-count") or 0)
        if calls.count():
            texts = calls.all_inner_texts()
            marked = [t for t in texts if t.endswith(" (steal)")]
            view = page.evaluate("game.view")
            high = max((int(c) for c in view["calls"] if c.isdigit()), default=0)
            dealer = view["dealer"] == view["seat"]
            assert marked == ([f"Bid {high} (steal)"] if dealer and high else []), texts
            if marked:
                page.screenshot(path=str(tmp_path / "steal-offered.png"))
                stolen = high
                page.locator(f"#choices button[data-call='{high}']").click()
            else:
                calls.first.click()  # pass (a stuck dealer: the lowest bid)
        else:
            page.locator("#hand button.legal").first.click()
        # (the page asks only where there is a choice, and the coach judges each one)
        page.wait_for_function(
            f"Number(document.querySelector('#coach').dataset.count || 0) > {before}",
            timeout=SECONDS,
        )
        if stolen is not None:  # the coach's values for the call: the steal marked alone
            heading = page.locator("#coach h3").inner_text()
            assert heading.endswith(f"your call {stolen} (steal)"), heading
            rows = page.locator("#coach .judgement tbody td:first-child").all_inner_texts()
            marked = [r.removesuffix(" ★") for r in rows if "(steal)" in r]  # ★: the best
            assert marked == [f"{stolen} (steal) (yours)"], rows
            page.screenshot(path=str(tmp_path / "steal-coach.png"), full_page=True)
    assert stolen is not None, "no steal was offered to the person: pick another seed"
    # The review of the game, from the coach's own judgements: the step of the steal.
    page.locator("#quit").click()
    page.locator("#review-this").click()
    page.wait_for_selector("#review-out:not([hidden])", timeout=SECONDS)
    steps = int(page.locator("#step-no").inner_text().split()[-1])
    headings = []
    for _ in range(steps):
        headings.append(page.locator("#step h3").first.inner_text())
        if "(steal)" in headings[-1]:
            rows = page.locator("#step .judgement tbody td:first-child").all_inner_texts()
            marked = [r.removesuffix(" ★") for r in rows if "(steal)" in r]
            assert marked == [f"{stolen} (steal) (yours)"], rows
        page.keyboard.press("ArrowRight")
    marked = [h.split(": ", 1)[1] for h in headings if "(steal)" in h]
    assert marked == [f"your call {stolen} (steal)"], headings
    assert not errors, errors
    # A save from before steals were marked (its judgements without "steal"): the
    # review marks the steal all the same, from the step's view.
    from test_serve import call

    (name,) = [p.name for p in saves.iterdir() if p.suffix == ".json" and p.name not in known]
    doc = read_json(str(saves / name), "the saved game")
    for j in doc["practice"]["judgements"]:
        j.pop("steal", None)
    status, r = call(f"{url}/api/review", {"record": doc, "seat": 0})
    assert status == 200 and r["source"] == "the coach during the game", r
    words = [
        w
        for step in r["steps"]
        if step["judgement"] and step["judgement"]["kind"] == "call"
        for w in step["judgement"]["choice_words"].values()
        if "(steal)" in w
    ]
    assert words == [f"{stolen} (steal)"]


@pytest.mark.parametrize(
    "preset, seed, offered, words",
    [
        ("", 3, ["2", "3", "4"], "p passes, 2-4 bid."),  # a 1 bid before the person's call
        ("setback", 3, ["3", "4"], "p passes, 3-4 bid."),  # setback's min-bid=2, a 2 bid
    ],
)
def test_the_keys_line_names_the_bids_offered(open_table, preset, seed, offered, words):
    """The keys line's bids are the rules' own (min-bid to the maximum: the base game's
    1-4, setback's 2-4, 2.2), and at the person's call the bids offered him (it said
    "1-4 bid" where only 2-4 could be bid); the terminal's help says the same."""
    page, errors = open_table(preset=preset, coach=False, seed=seed)
    page.wait_for_function("document.body.dataset.status === 'your turn'", timeout=SECONDS)
    assert page.evaluate("game.view.choices") == ["pass", *offered]
    assert words in page.locator("#play .keys").inner_text()
    line = "(g) => keysLine(g).map((x) => x.textContent ?? x).join('')"
    rules = Rules.parse(preset or "auction-pitch")
    lo = 2 if preset else 1
    assert f"p passes, {lo}-4 bid." in page.evaluate(line, {"keys": keys_json(rules, 4)})
    # the bids above 9 (cinch's 11-14) as offered: from a high bid of 11
    cinch = keys_json(Rules.parse("cinch"), 4) | {"bids": [12, 14]}
    assert "p passes, 1 then 2-4 bid 12-14;" in page.evaluate(line, {"keys": cinch})
    only = keys_json(Rules.parse("cinch"), 4) | {"bids": [14, 14]}
    assert "p passes, 1 then 4 bids 14;" in page.evaluate(line, {"keys": only})
    assert "p passes;" in page.evaluate(line, {"keys": only | {"bids": None}})
    assert not errors, errors


def test_the_players_select_offers_the_counts_a_preset_is_played_by(open_table):
    """The game form's and the Odds form's Players select disable the counts outside the
    preset's range (docs/rules.md: setback and cinch 4 players, ten-point 4-6, five-point
    2-4), and move a count outside to the nearest inside; auction-pitch offers 2-7."""
    for where, form in (("/", "#setup"), ("/#odds", "#odds-form")):
        page, errors = open_table(where)
        preset = page.locator(f"{form} select[name=preset]")
        players = page.locator(f"{form} select[name=players]")

        def offered(players=players):
            return players.locator("option:not([disabled])").all_inner_texts()

        players.select_option("7")
        preset.select_option("ten-point")
        assert offered() == ["4", "5", "6"] and players.input_value() == "6"
        preset.select_option("setback")
        assert offered() == ["4"] and players.input_value() == "4"
        preset.select_option("five-point")
        assert offered() == ["2", "3", "4"] and players.input_value() == "4"
        preset.select_option("")  # auction-pitch
        assert offered() == [str(n) for n in range(2, 8)]
        assert not errors, errors


@pytest.mark.parametrize(
    "spec",
    [
        "cinch",  # 4.8's discards face up (12.9), the dealer's robbed trumps (12.7)
        "auction-pitch,deal=9,discard=draw,trump=named,discards=shown",  # 12.9 with 12.8
        "smear,kitty=3,deal=9,discard=choice,discards=shown",  # and the kitty's put-down (12.9.1)
    ],
)
def test_the_page_shows_the_discards_face_up(open_table, spec):
    """Under discards=shown every other seat's discards are drawn as cards in the draw
    (12.9), and the kitty's put-down in the kitty's line (12.9.1), as the terminal
    table shows them (tests/test_practice_presets.py): a defender's view, drawn by the
    page's own renderView."""
    import json

    from random_hands import random_hands

    from pitchsim.game.view import View, card_text, cut_hand
    from pitchsim.web.sessions import view_json

    def the_view():
        for rules, hand, _ in random_hands(spec, 4, 20, seed=3):
            for seat, doc, _ in cut_hand(hand, 4, rules, [0] * 4):
                v = View.from_json(json.loads(json.dumps(doc)))
                if v.phase == "play" and seat != v.pitcher and any(d.shown for d in v.draws):
                    return v
        pytest.fail("no defender's view with a discard shown")

    view = the_view()
    page, errors = open_table()
    drawn = page.evaluate(
        """v => { renderView(v, table, null);
          const cards = (sel) => [...document.querySelectorAll(sel)].map((c) => c.dataset.card);
          return { shown: cards("#draw .shown [data-card]"), kitty: cards("#draw .kitty [data-card]"),
                   text: document.querySelector('#draw').textContent }; }""",
        view_json(view),
    )
    want = [card_text(c) for s, d in enumerate(view.draws) if s != view.seat for c in d.shown]
    assert sorted(drawn["shown"]) == sorted(want) and want, drawn
    if view.preset.kitty:
        assert sorted(drawn["kitty"]) == sorted(card_text(c) for c in view.put_down_shown)
        assert "face up" in drawn["text"] and len(view.put_down_shown) == view.put_down_count
    if view.preset.rob == "dealer" and view.put_down_shown:
        assert "face up" in drawn["text"]
    assert not errors, errors
