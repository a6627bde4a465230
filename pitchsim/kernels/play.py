"""A family hand played trick by trick in a kernel (VARIANTS.md 0.4-0.6, 3.7, 4.9).

Mirrors the reference engine's ``play_hand``:

- legality by the effective-suit masks of ``tab``: follow the led card's effective
  suit, or trump too under follow=trump, anything when void; the first lead under
  trump=first-lead any card but a joker (6.3.5), under lead-trump a trump if the
  pitcher holds one;
- follow=only: only trumps are played; a player with none is out; the trick's winner
  leads if still holding a trump, else the next player to the left who does (also the
  first lead); the hand ends when nobody holds a trump;
- the trick goes to the highest order key among the trumps and the led suit's cards.
"""

import numpy as np
from numba import njit
from numba.extending import overload

from .bits import popcount
from .deal import cards_each, pack_mask
from .draw import HAND_TARGET, draw_down, first_to_burn, robber_of, shown_down
from .partner import call_of, duty_seat, partner_of
from .plain import plain_base, play_plain
from .policies.cards import choose_card
from .presets import (
    DISCARD_DRAW,
    DISCARD_NON_TRUMP,
    DISCARD_NONE,
    F_DISCARD,
    F_DISCARDS_SHOWN,
    F_FOLLOW,
    F_KITTY,
    F_PARTNER,
    F_ROB,
    PARTNER_CALLED,
    T_TRUMPS,
)
from .rng import DECISION_COUNTER
from .search.rollout import KIND_MASK, ROLLOUT, seat_search_card
from .trick import (
    FOLLOW_ONLY,
    FOLLOW_SUIT,
    FOLLOW_TRUMP,
    MAX_TRICKS,
    legal_cards,
    next_with_trump,
    shown_void,
    trick_winner,
)

# The trick's rules live in ``trick`` (the rollout's play-out shares them); named here too.
__all__ = [
    "FOLLOW_ONLY",
    "FOLLOW_SUIT",
    "FOLLOW_TRUMP",
    "MAX_TRICKS",
    "legal_cards",
    "next_with_trump",
    "play_hand",
    "play_search",
    "seat_knowledge",
    "shown_void",
    "trick_winner",
]


@njit(cache=True, inline="always")
def any_search(policies, n):
    """Does a seat of ``policies`` search (a ``ROLLOUT`` or ``PIMC`` kind)?"""
    for s in range(n):
        if policies[s] & KIND_MASK >= ROLLOUT:
            return True
    return False


@njit(cache=True, inline="always")
def _passed_over(voids, start, leader, n, trump):
    """Under follow=only the lead passes from ``start`` (the pitcher, or the trick's
    winner) to ``leader``, the first seat holding a trump: the seats passed over show
    they hold none (no change when ``leader`` is ``start`` or -1)."""
    if leader < 0:
        return voids
    s = start
    while s != leader:
        voids |= np.int64(1) << (4 * s + trump)
        s += 1
        if s == n:
            s = 0
    return voids


@njit(cache=True)
def seat_knowledge(
    dealt, held, n, pitcher, dealer, trump, fr, tab, known_out, drawn_back, kitty
):  # fmt: skip
    """What each seat saw of the discard and draw (4.8), from the hands as dealt and as
    held when play starts: ``known_out[s]`` the cards seat s knows are out of play,
    ``drawn_back[s, t]`` (n x n) the discards seat s saw go down that seat t may have
    drawn back since (``drawn_back_of``), and the number of cards the robber put down
    face down (a public count; the cards are known to the robber only).  The robber is
    the pitcher, or under rob=dealer the dealer (12.7: the draw runs from the dealer's
    left, the dealer last, skipping step 3 and robbing by step 5; ``draw.robber_of``).
    Seat s knows: the trumps every seat burnt face up (step 2); its own non-trumps put
    down (step 1), unless a later seat drew from the face-down discards (step 4: it sees
    the count drawn, not the cards); under discards=shown (12.9) every seat's non-trumps
    put down, face up, unless another seat drew from the discards after they went down
    (they may be in its hand since; the seat that drew knows what it took, and that the
    rest stay down); as the robber, the cards it put down (step 5); and those of them
    shown face up to all (``draw.shown_down``: under rob=dealer the trumps, 12.7; under
    rob=true with discards=shown all, 12.9).  Nothing else: the robber's other put-down
    cards are unseen to the others (``worlds``: in a hand or face down), and the count
    returned is of those.  The draw's counts are replayed here as every seat saw them
    (``game.view``'s ``draw`` does the same from a view).

    Under kitty=N (12.2.2; ``kitty`` the cards the pitcher took, ``draw.take_kitty``)
    and under discard=choice and draw (12.8): ``knowledge_in_turn``."""
    for s in range(n):
        known_out[s] = 0
        for t in range(n):
            drawn_back[s, t] = 0
    if trump < 0 or (fr[F_DISCARD] == DISCARD_NONE and fr[F_KITTY] == 0):
        return 0
    if fr[F_DISCARD] != DISCARD_NON_TRUMP:
        return knowledge_in_turn(
            dealt, held, n, pitcher, dealer, trump, fr, tab, known_out, drawn_back, kitty
        )
    tm = tab[trump, T_TRUMPS]
    only = fr[F_FOLLOW] == FOLLOW_ONLY
    rob = fr[F_ROB] != 0
    robber = robber_of(pitcher, dealer, fr)
    shown_on = fr[F_DISCARDS_SHOWN] != 0
    stock = popcount(pack_mask(n, fr)) - n * cards_each(n, fr)
    burnt = np.int64(0)  # trumps burnt face up (step 2)
    # 12.9: per seat, the face-up discards since another seat last drew from them
    shown = np.zeros(n, dtype=np.int64)
    discards = np.int64(0)
    junk = 0  # the face-down discards' count
    done = np.zeros(n, dtype=np.bool_)  # has discarded
    lost = np.zeros(n, dtype=np.bool_)  # a later seat drew from the discards
    reach = np.zeros(n, dtype=np.int64)  # the discards down when the seat drew from them
    for i in range(n):
        s = robber + 1 + i
        if s >= n:
            s -= n
        kept = dealt[s] & tm
        while popcount(kept) > HAND_TARGET:  # 2
            b = np.int64(1) << first_to_burn(kept, trump, tab)
            kept &= ~b
            burnt |= b
        discards |= dealt[s] & ~tm
        if shown_on:
            for x in range(n):
                shown[x] |= dealt[s] & ~tm
        junk += popcount(dealt[s] & ~tm)
        done[s] = True
        h = popcount(kept)
        if rob and s == robber:
            h += stock
            stock = 0
        else:
            take = min(HAND_TARGET - h, stock)
            stock -= take
            h += take
        if h < HAND_TARGET and not only and junk > 0:
            junk -= min(HAND_TARGET - h, junk)
            reach[s] = discards
            for x in range(n):
                if x != s:
                    shown[x] = 0  # s may hold any of them now; s knows what it took
                    if done[x]:
                        lost[x] = True
    out = pack_mask(n, fr) & ~burnt
    for s in range(n):
        out &= ~held[s]
    pile = out & ~discards if rob else np.int64(0)
    up = shown_down(pile, tm, fr)  # face up (4.8 step 5, 12.7, 12.9)
    for s in range(n):
        own = dealt[s] & ~held[s]
        if lost[s]:
            own &= tm
        known_out[s] = own | burnt | (shown[s] & ~held[s]) | up
    known_out[robber] |= pile
    for s in range(n):  # the discards each saw go down: its own, under 12.9 all
        shown[s] = dealt[s] & ~tm | (discards if shown_on else np.int64(0))
    drawn_back_of(shown, reach, held, known_out, n, drawn_back)
    return popcount(pile & ~up)


@njit(cache=True, inline="always")
def drawn_back_of(seen, reach, held, known_out, n, drawn_back):
    """``drawn_back[x, t]``: the discards seat x saw go down (``seen[x]``) and no longer
    knows are out of play, that seat t may hold: those down before t drew from the
    discards (``reach[t]``; 0: it did not), t not x (4.8 step 4: the seat that drew
    knows what it took, 12.9: whoever drew, the others know no more than that)."""
    for x in range(n):
        back = seen[x] & ~known_out[x] & ~held[x]
        for t in range(n):
            drawn_back[x, t] = back & reach[t] if t != x else np.int64(0)


@njit(cache=True)
def knowledge_in_turn(
    dealt, held, n, pitcher, dealer, trump, fr, tab, known_out, drawn_back, kitty
):
    """``seat_knowledge`` under kitty=N with no discard (12.2.2) and under discard=choice
    and draw (12.8.4: every discard face down under discards=hidden): each seat knows
    the cards it put down itself (its dealt hand, the pitcher's with the kitty, less
    what it holds) are out of play, unless under draw a later seat drew from the
    face-down discards after they went down (4.8 step 4: they may be in its hand since;
    the seat that drew knows what it took); the others see only counts.  Under
    discards=shown (12.9) every seat sees every discard face up, so knows them all out
    of play on the same terms: a seat's discards as its own.  The pitcher's put-down
    from a kitty is never drawn from (12.2.2), and under discards=shown is face up
    (12.9.1), out of play to all.  ``drawn_back`` as there (``drawn_back_of``).  Returns
    the count the pitcher put down from a kitty face down (0 without one)."""
    shown_on = fr[F_DISCARDS_SHOWN] != 0
    for s in range(n):
        known_out[s] = dealt[s] & ~held[s]
    put = (dealt[pitcher] | kitty) & ~held[pitcher]
    known_out[pitcher] = put
    if shown_on:  # every discard, and the kitty's put-down, seen by all (12.9, 12.9.1)
        every = np.int64(0)
        for s in range(n):
            every |= known_out[s]
        for s in range(n):
            known_out[s] = every
    if fr[F_DISCARD] == DISCARD_DRAW and fr[F_FOLLOW] != FOLLOW_ONLY:  # the counts of 12.8.2
        tm = tab[trump, T_TRUMPS]
        has_kitty = fr[F_KITTY] != 0
        stock = popcount(pack_mask(n, fr)) - n * cards_each(n, fr) - fr[F_KITTY]
        junk = 0
        # a card called under partner=called is never put down (12.1.3): as the play did
        call = call_of(dealt[pitcher], held[pitcher], trump, fr, tab)
        called = fr[F_PARTNER] == PARTNER_CALLED and call >= 0
        keep = np.int64(1) << call if called else np.int64(0)
        pile = np.int64(0)  # the discards gone down so far (12.9: seen)
        done = np.zeros(n, dtype=np.bool_)  # has discarded into the face-down pile
        reach = np.zeros(n, dtype=np.int64)  # the discards down when the seat drew from them
        seen = known_out.copy()  # the discards each saw go down (12.9: all, below)
        for i in range(n):
            s = dealer + 1 + i
            if s >= n:
                s -= n
            if has_kitty and s == pitcher:
                continue
            down = draw_down(dealt[s], tm, trump, tab, keep)
            pile |= down
            junk += popcount(down)
            done[s] = True
            h = popcount(dealt[s]) - popcount(down)
            take = min(HAND_TARGET - h, stock)
            stock -= take
            h += take
            if h < HAND_TARGET and junk > 0:
                junk -= min(HAND_TARGET - h, junk)
                reach[s] = pile
                for x in range(n):
                    if x == s:
                        continue  # it knows what it took (``held``) and that the rest stay
                    if shown_on:
                        known_out[x] &= ~pile  # any of them may be in s's hand now
                    elif done[x]:
                        known_out[x] = 0
        for x in range(n):
            known_out[x] &= ~held[x]
            if shown_on:  # (a discard its own seat drew back too)
                seen[x] |= pile
        drawn_back_of(seen, reach, held, known_out, n, drawn_back)
    return popcount(put) if fr[F_KITTY] != 0 and not shown_on else 0


@njit(cache=True, inline="always")
def play_hand_base(
    held, dealt, kitty, n, pitcher, dealer, bid, trump, first_lead, policies, fr, tab, key, hands,
    won, trick, tseats, log, legal_log,
):  # fmt: skip
    """``play_hand`` under the base game's shape (``policies.base_shape``): the plain
    policies' loops compiled for it and inlined (``plain.plain_base``).  A function of
    its own, not a ``base`` argument of ``play_hand``: a default argument of an inlined
    function is not pruned where ``play_hand`` is inlined a few levels deep (it
    compiled both loops into a hand kernel, +17 CPU s)."""
    if any_search(policies, n):
        return search_hand(
            held, dealt, kitty, n, pitcher, dealer, bid, trump, first_lead, np.int64(-1), policies, fr,
            tab, key, hands, won, trick, tseats, log, legal_log,
        )  # fmt: skip
    return plain_base(
        held, n, pitcher, trump, first_lead, policies, fr, tab, key, hands, won, trick,
        tseats, log, legal_log,
    )  # fmt: skip


@njit(cache=True, inline="always")
def play_hand(
    held, dealt, kitty, n, pitcher, dealer, bid, trump, first_lead, called, policies, fr, tab, key,
    hands, won, trick, tseats, log, legal_log,
):  # fmt: skip
    """Play a hand from ``held`` (the hands when the first card is led); return
    ``(trump, tricks)``.  ``trump`` -1: the first card's printed suit fixes it;
    ``first_lead`` >= 0: a card pitched in the auction that must lead; ``called``: the
    card the pitcher called (12.1; -1: none), its holder owing it to the first trick
    under partner=called (12.1.3, ``partner.duty_seat``); ``dealer`` and
    ``kitty`` (the cards the pitcher took under kitty=N, 12.2; else 0): read by a
    searching seat's knowledge of the draw (``seat_knowledge``: under rob=dealer the
    dealer robs, 12.7; the pitcher knows what he put down of the kitty).  ``hands``,
    ``won``, ``trick``, ``tseats`` are scratch of size n.  When ``log.size`` > 0 it gets
    per trick (``n + 2`` each) the leader, the card of each seat from the leader on
    (-1: out under follow=only) and the winner; ``legal_log`` (size ``MAX_TRICKS * n``
    or 0) the legal mask of every decision at ``trick * n + position``.

    A dispatcher, inlined into its callers: a table where a seat searches plays
    ``play_search``, any other the plain policies' loop (``plain.play_plain``),
    called directly (a call less a hand).  (Inlining the random players' loop here
    instead gains a random hand about a tenth and costs each kernel calling this
    about 20 CPU s of compile: not done.)"""
    if any_search(policies, n):
        return search_hand(
            held, dealt, kitty, n, pitcher, dealer, bid, trump, first_lead, called, policies, fr,
            tab, key, hands, won, trick, tseats, log, legal_log,
        )  # fmt: skip
    return play_plain(
        held, n, pitcher, trump, first_lead, called, policies, fr, tab, key, hands, won,
        trick, tseats, log, legal_log,
    )  # fmt: skip


def search_hand(
    held, dealt, kitty, n, pitcher, dealer, bid, trump, first_lead, called, policies, fr, tab, key,
    hands, won, trick, tseats, log, legal_log,
):  # fmt: skip
    """``play_search``, compiled in only for a policy array that can name a search
    (compiled code only: ``play_hand`` calls it)."""
    raise NotImplementedError("search_hand runs inside numba kernels only")


@overload(search_hand)
def _search_hand(
    held, dealt, kitty, n, pitcher, dealer, bid, trump, first_lead, called, policies, fr, tab, key,
    hands, won, trick, tseats, log, legal_log,
):  # fmt: skip
    # As ``rollout.seat_search_card``: an int64 array names no search, so its kernels
    # (random and heuristic tables: simulate, bid-odds) do not compile the search loop.
    if policies.dtype.bitwidth != 32:

        def refuse(
            held, dealt, kitty, n, pitcher, dealer, bid, trump, first_lead, called, policies, fr,
            tab, key, hands, won, trick, tseats, log, legal_log,
        ):  # fmt: skip
            if n > 0:
                raise ValueError(
                    "a search play policy in a plain (int64) family play-policy array: "
                    "make it with pitchsim.table.boards.seat_ids"
                )
            return np.int64(-1), np.int64(0)

        return refuse

    def search(
        held, dealt, kitty, n, pitcher, dealer, bid, trump, first_lead, called, policies, fr, tab,
        key, hands, won, trick, tseats, log, legal_log,
    ):  # fmt: skip
        return play_search(
            held, dealt, kitty, n, pitcher, dealer, bid, trump, first_lead, called, policies, fr,
            tab, key, hands, won, trick, tseats, log, legal_log,
        )  # fmt: skip

    return search


@njit(cache=True)
def play_search(
    held,
    dealt,
    kitty,
    n,
    pitcher,
    dealer,
    bid,
    trump,
    first_lead,
    called,
    policies,
    fr,
    tab,
    key,
    hands,
    won,
    trick,
    tseats,
    log,
    legal_log,
):
    """``play_hand`` when a seat searches (``any_search``; the others at the table may
    play any policy).

    ``dealt`` (the hands as dealt) and the view kept here (who played what, the voids
    shown, the hand sizes: ``worlds``) are read only by a search policy (``rollout``:
    ``rollout`` or ``pimc``), whose id is of a search kind (``ROLLOUT``, ``PIMC``) in an
    int32 ``policies`` array."""
    for s in range(n):
        hands[s] = held[s]
        won[s] = 0
    only = fr[F_FOLLOW] == FOLLOW_ONLY
    played = np.int64(0)
    # The view a search policy reads (``worlds``): cards played by each seat, hand sizes,
    # voids shown (bit 4 * seat + effective suit) and what each seat saw of the draw
    # (``seat_knowledge``).
    pby = np.zeros(n, dtype=np.int64)
    sizes = np.empty(n + 1, dtype=np.int64)  # [n]: the pile unseen
    known_out = np.zeros(n, dtype=np.int64)
    drawn_back = np.zeros((n, n), dtype=np.int64)
    for s in range(n):
        sizes[s] = popcount(held[s])
    down = seat_knowledge(
        dealt, held, n, pitcher, dealer, trump, fr, tab, known_out, drawn_back, kitty
    )
    robber = robber_of(pitcher, dealer, fr)  # knows the cards it put down (4.8 step 5)
    leader = next_with_trump(hands, n, pitcher, tab[trump, T_TRUMPS]) if only else pitcher
    voids = _passed_over(np.int64(0), pitcher, leader, n, trump)
    duty = duty_seat(held, n, pitcher, called, fr)  # 12.1.3, as ``plain._play_plain``
    partner = partner_of(held, n, pitcher, called)  # a search reads him as its seat knows him
    # The play seen, in order (``search.play_fit``: a search that reads the play): trick
    # t's cards and who played them, and how many.
    seen = np.zeros((MAX_TRICKS, n), dtype=np.int64)
    seen_seats = np.zeros((MAX_TRICKS, n), dtype=np.int64)
    seen_sizes = np.zeros(MAX_TRICKS, dtype=np.int64)
    t = 0
    while leader >= 0 and hands[leader] != 0:
        count = 0
        taken = np.int64(0)
        seat = leader - 1
        for i in range(n):
            seat += 1
            if seat == n:
                seat = 0  # (no % in the loop: a division per card)
            hand = hands[seat]
            if only and hand & tab[trump, T_TRUMPS] == 0:
                voids |= np.int64(1) << (4 * seat + trump)  # out: shown no trump
                if log.size > 0:
                    log[t * (n + 2) + 1 + i] = -1
                continue  # 4.9: out of the hand
            first = t == 0 and count == 0
            legal = legal_cards(hand, trick, count, trump, first, fr, tab)
            if seat == duty:
                legal = np.int64(1) << called
            if legal_log.size > 0:
                legal_log[t * n + i] = legal
            if first and first_lead >= 0:
                card = first_lead
            elif policies[seat] & KIND_MASK >= ROLLOUT:
                sizes[n] = 0 if seat == robber else down
                card = seat_search_card(
                    policies[seat],
                    legal,
                    hand,
                    seat,
                    n,
                    pitcher,
                    bid,
                    trump,
                    t,
                    trick,
                    tseats,
                    count,
                    played,
                    won,
                    pby,
                    voids,
                    sizes,
                    known_out[seat],
                    drawn_back[seat],
                    fr,
                    tab,
                    key,
                    DECISION_COUNTER + t * n + i,
                    called,
                    partner,
                    seen[: t + 1],
                    seen_seats[: t + 1],
                    seen_sizes[: t + 1],
                )
            else:
                card = choose_card(
                    policies[seat],
                    legal,
                    hand,
                    seat,
                    n,
                    pitcher,
                    bid,
                    trump,
                    t,
                    trick,
                    tseats,
                    count,
                    played,
                    won,
                    fr,
                    tab,
                    key,
                    DECISION_COUNTER + t * n + i,
                )
            if trump < 0:
                trump = card // 13  # 6.3.5: the first card's printed suit is trump
            b = np.int64(1) << card
            v = shown_void(card, trick, count, trump, first and first_lead < 0, fr, tab)
            if v >= 0:
                voids |= np.int64(1) << (4 * seat + v)
            pby[seat] |= b
            sizes[seat] -= 1
            hands[seat] = hand & ~b
            trick[count] = card
            tseats[count] = seat
            seen[t, count] = card
            seen_seats[t, count] = seat
            taken |= b
            count += 1
            seen_sizes[t] = count
            if log.size > 0:
                log[t * (n + 2) + 1 + i] = card
        winner = tseats[trick_winner(trick, count, trump, tab)]
        won[winner] |= taken
        played |= taken
        if log.size > 0:
            log[t * (n + 2)] = leader
            log[t * (n + 2) + n + 1] = winner
        t += 1
        duty = -1
        leader = next_with_trump(hands, n, winner, tab[trump, T_TRUMPS]) if only else winner
        voids = _passed_over(voids, winner, leader, n, trump)
    return trump, t
