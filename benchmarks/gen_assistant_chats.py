"""Generate a deterministic vault of an AI assistant's chats with one user, and questions on it.

Usage::

    python benchmarks/gen_assistant_chats.py OUT [--sessions 40] [--seed 5]

writes into the folder OUT (replaced when it holds an earlier generated vault: the daily-notes
marker and ``Agents/Assistant.md``; refused when it holds anything else) and
``OUT.questions.json`` beside it. Also importable:
``generate_assistant_chats(out, sessions=40, seed=5) -> list[dict]`` (it writes the same JSON
file). Same sessions and seed, same bytes.

The vault is logged the way an agent's memory of chats is: ``.obsidian/daily-notes.json``
(``Daily``, ``YYYY-MM-DD``); ``People/Maya.md`` (frontmatter ``type: person``, a full-name
alias), the user; ``Agents/Assistant.md`` (``type: agent``); and ``Daily/YYYY-MM-DD.md`` for each
session, holding ``# YYYY-MM-DD`` and ``## Session N · HH:MM``, one list item per turn with a
speaker link and a block id: ``- [[Maya]]: text ^s07t03`` (session 7, turn 3). ``sessions``
sessions (at least 20) are spread from 2026-01-05, each 1 to 6 days after the one before, at 07:00
to 22:55; a session is 4 to 8 exchanges (8 to 16 turns), each a turn of Maya's and the
Assistant's reply.

Maya's turns are one line of one or two sentences. The facts are hers: personal facts, plans
with dates, preferences and, in a later session, updates (a changed date, a switched device, a
decision reversed: the earlier statement stays in its note). 45 facts are planted, 18 of them
updated by 19 later turns (one twice), each in a session of its window (a share of the
sessions, so an update always comes after what it updates; checked), the least used session
of the window first, skipping a session where a date its questions name is named by another
fact's. The rest of Maya's turns are requests on the same 15 topics (travel, food,
coding, fitness, ...), least recently used first; they state no fact. Every reply of the
Assistant is 80 to 250 words on the topic of Maya's turn: a paragraph on the item's first line
(ending with the block id), a list of 2 to 8 items (some with items nested 2 spaces deeper) and
sometimes a fenced code block indented under the item and a closing line after it. Replies reuse the
topic words of the facts (Kindle, aisle seat, Lisbon, wedding, June, ...) without stating
Maya's facts, so word overlap alone is a trap; evidence is always Maya's turn.

Each question is ``{"question", "kind", "evidence": [{"note", "line", "block"}], "earlier":
[...], "agent": None}``: ``note`` is the note id (``Daily/2026-02-03``), ``line`` the 1-based
file line of Maya's turn and ``block`` its block id; each is checked against the written file
(the line is that turn, starts with ``- [[Maya]]:`` and ends with `` ^block``). Kinds:

- ``single-hop``: one of Maya's turns answers;
- ``preference``: a preference she stated answers;
- ``knowledge-update``: the latest statement answers: ``evidence`` is the latest turn,
  ``earlier`` the superseded turns (each in an earlier session; checked);
- ``temporal``: the answer needs the note's date ("today", "this morning", "yesterday", "last
  night", "last week" (the Monday-to-Sunday week before), "last Saturday" (the latest Saturday
  before the day), "next Saturday" (the Saturday of the next Monday-to-Sunday week)), or the
  question names a date read from it;
- ``unanswerable``: on the chat's topics but never said; ``evidence`` and ``earlier`` empty.
  Checked: its key phrase (a whole word, plurals too, any case) is in no written note, and its
  specific content words (content words less a few generic ones: name, called, old, ...) are
  not all in any one of Maya's turns.

``earlier`` is empty except for ``knowledge-update``. 90 questions (22, 12, 18, 15 and 23).
Questions paraphrase: at most two content words of a question (lower case, stop words aside,
compared after cutting ``'s``, ``s``, ``es``, ``ed`` and ``ing``) appear in its evidence turn;
checked. Also checked: at least 40 facts, 12 updated, 80 questions and 20 unanswerable; each of
Maya's turns at most two sentences; each reply 80 to 250 words; each session 8 to 16 turns.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gen_conversations import WORD, stem  # the same crude stem the other chats are checked by

START = dt.date(2026, 1, 5)
MARKER = ".obsidian/daily-notes.json"
AGENT_NOTE = "Agents/Assistant.md"
USER, AGENT = "Maya", "Assistant"
FULL_NAME = "Maya Ferreira"
MIN_SESSIONS = 20
MAX_SHARED = 2  # content words a question may share with its evidence turn
EXCHANGES = (4, 8)  # per session: 8 to 16 turns
REPLY_WORDS = (80, 250)
MIN_FACTS, MIN_UPDATED, MIN_QUESTIONS, MIN_UNANSWERABLE = 40, 12, 80, 20
Question = dict[str, Any]
Ref = dict[str, Any]  # {"note", "line", "block"}

SINGLE, PREFERENCE, UPDATE = "single-hop", "preference", "knowledge-update"
TEMPORAL, UNANSWERABLE = "temporal", "unanswerable"
KINDS = (SINGLE, PREFERENCE, UPDATE, TEMPORAL, UNANSWERABLE)


@dataclass(frozen=True)
class Ask:
    """A question answered by the fact it belongs to (slots: see :func:`slots`)."""

    text: str
    kind: str


@dataclass(frozen=True)
class Fact:
    """One turn of Maya's stating a fact, planted in a session within ``window`` (a share of
    the sessions); ``updates`` are the facts it supersedes, earliest first."""

    key: str
    window: tuple[float, float]
    topic: str
    said: str
    asks: tuple[Ask, ...] = ()
    updates: tuple[str, ...] = ()


@dataclass(frozen=True)
class Absent:
    """An unanswerable question and the key phrase that no note may hold."""

    text: str
    key: str


@dataclass(frozen=True)
class Topic:
    """What Maya asks about a topic and what replies on it are made of (an item's nested items
    follow it after `` // ``)."""

    requests: tuple[str, ...]
    sentences: tuple[str, ...]
    items: tuple[str, ...]
    code: tuple[tuple[str, str], ...] = ()
    code_share: float = 0.0


EARLY, MID, LATE, ANY = (0.0, 0.4), (0.3, 0.7), (0.55, 1.0), (0.0, 1.0)

FACTS = [
    Fact("porto", EARLY, "city",
         "I moved to Porto last spring and I still get lost in the old town.",
         (Ask("Which city do I live in?", SINGLE),)),
    Fact("job", EARLY, "work",
         "I'm a product designer at a small fintech, mostly working on their mobile app.",
         (Ask("What do I do for a living?", SINGLE),)),
    Fact("office_lisbon", EARLY, "work",
         "Work news: the company is opening a second office and I'm meant to lead the Lisbon "
         "team from summer."),
    Fact("office_braga", LATE, "work",
         "We decided against the Lisbon office, it's going to be Braga now.",
         (Ask("In which city will the branch I'm leading be?", UPDATE),),
         ("office_lisbon",)),
    Fact("wedding", EARLY, "events",
         "My sister Leonor is getting married on 14 June, so I need to book time off around it.",
         (Ask("What's my sister's name?", SINGLE),)),
    Fact("wedding_moved", LATE, "events",
         "Update on the wedding: the venue double-booked, so it moved to 21 June.",
         (Ask("On what date does Leonor tie the knot?", UPDATE),), ("wedding",)),
    Fact("hen_party", (0.2, 0.45), "events",
         "Leonor's hen party is next Saturday in Aveiro and I'm in charge of games.",
         (Ask("When is my sister's bachelorette weekend?", TEMPORAL),
          Ask("Where am I going on {next_saturday}?", TEMPORAL),
          Ask("Which town is hosting the hen do?", SINGLE))),
    Fact("kindle", EARLY, "reading",
         "I read mostly on my Kindle Paperwhite, usually on the train to work.",
         (Ask("Where do I usually do my reading?", SINGLE),)),
    Fact("kobo", LATE, "reading",
         "I switched from the Kindle to a Kobo Libra because I borrow library ebooks a lot.",
         (Ask("Which e-reader do I use these days?", UPDATE),
          Ask("Why did I change e-readers?", SINGLE)), ("kindle",)),
    Fact("book_club", ANY, "reading",
         "My book club picked The Covenant of Water for this month, it's huge.",
         (Ask("Which novel is my reading group on?", SINGLE),)),
    Fact("aisle", ANY, "travel",
         "On flights I always take an aisle seat, I hate climbing over people.",
         (Ask("Where do I like to sit on a plane?", PREFERENCE),)),
    Fact("early_flights", ANY, "travel",
         "Please never suggest flights before 9 am, I'm useless that early.",
         (Ask("What time of day do I want to fly?", PREFERENCE),)),
    Fact("guesthouses", ANY, "travel",
         "I'd much rather stay in small guesthouses than big hotel chains.",
         (Ask("What kind of accommodation do I pick when travelling?", PREFERENCE),)),
    Fact("japan", (0.0, 0.3), "travel",
         "Rui and I are going to Japan for two weeks in October, Tokyo and Kyoto.",
         (Ask("Which two cities are on our itinerary in Japan?", SINGLE),)),
    Fact("japan_april", (0.4, 0.6), "travel",
         "We pushed the Japan trip to April next year, October flights were far too expensive.",
         (Ask("Why did we postpone Japan the first time?", SINGLE),), ("japan",)),
    Fact("japan_march", (0.7, 1.0), "travel",
         "Booked it at last: Japan is now 8 to 22 March, we caught a fare sale.",
         (Ask("When are we visiting Japan?", UPDATE),), ("japan", "japan_april")),
    Fact("vegetarian", ANY, "food",
         "I'm vegetarian, though I eat fish once or twice a month.",
         (Ask("Do I eat meat?", PREFERENCE),)),
    Fact("spicy", ANY, "food",
         "I love really spicy food, the hotter the better.",
         (Ask("How do I feel about chilli heat?", PREFERENCE),)),
    Fact("no_alcohol", ANY, "food",
         "I don't drink alcohol at all, so skip any wine pairings.",
         (Ask("Should you recommend beer or cava with my meals?", PREFERENCE),)),
    Fact("metric", ANY, "food",
         "Use grams and Celsius in recipes please, cups and Fahrenheit confuse me.",
         (Ask("Which measuring system do you follow when cooking for me?", PREFERENCE),)),
    Fact("peanuts", ANY, "food",
         "I'm allergic to peanuts, so satay and pad thai are usually out.",
         (Ask("What food allergy do I have?", SINGLE),)),
    Fact("decaf", EARLY, "food",
         "I've cut out caffeine after 2 pm, so afternoons are decaf oat flat whites now."),
    Fact("coffee_back", LATE, "food",
         "I'm back on regular coffee all day, the decaf experiment lasted about a month.",
         (Ask("Am I still avoiding caffeine in the afternoon?", UPDATE),), ("decaf",)),
    Fact("half_marathon", EARLY, "fitness",
         "I've entered the Porto half marathon in November, my first one."),
    Fact("ten_k", LATE, "fitness",
         "I dropped to the 10k race instead, my knee can't handle the half.",
         (Ask("Which distance am I running in November?", UPDATE),
          Ask("Why did I pull out of the longer race?", SINGLE)), ("half_marathon",)),
    Fact("first_10k", (0.65, 0.9), "fitness",
         "I ran 10 km without stopping last Saturday, a first for me!",
         (Ask("On what date did I first manage ten kilometres nonstop?", TEMPORAL),
          Ask("What did I achieve on {last_saturday}?", TEMPORAL))),
    Fact("climbing", EARLY, "fitness",
         "I joined the bouldering gym near Campanhã yesterday, my forearms are dead.",
         (Ask("When did I sign up for climbing?", TEMPORAL),)),
    Fact("swimming", LATE, "fitness",
         "I cancelled the bouldering membership, I only went twice a month; swimming at the "
         "municipal pool instead.",
         (Ask("Do I still go to the climbing gym?", UPDATE),), ("climbing",)),
    Fact("early_riser", EARLY, "health",
         "I've started getting up at 5:30 to train before work."),
    Fact("evening_training", LATE, "health",
         "I gave up on the 5:30 alarms, I train in the evenings now.",
         (Ask("At what time of day do I exercise?", UPDATE),), ("early_riser",)),
    Fact("tooth", ANY, "health",
         "I had a wisdom tooth out yesterday, so soft food ideas please.",
         (Ask("On which day did I have oral surgery?", TEMPORAL),)),
    Fact("pottery", (0.0, 0.5), "hobbies",
         "I started a pottery class today, Thursday evenings at a studio in Bonfim.",
         (Ask("When did I begin learning to throw clay?", TEMPORAL),
          Ask("What did I start on {day}?", TEMPORAL),
          Ask("Which night of the week is my ceramics course?", SINGLE))),
    Fact("jazz", ANY, "hobbies",
         "I can't stand podcasts while I work, give me instrumental jazz any day.",
         (Ask("What do I like to have on in the background while working?", PREFERENCE),)),
    Fact("motorbike", (0.5, 1.0), "hobbies",
         "I passed my motorbike test this morning!",
         (Ask("When did I get my licence to ride?", TEMPORAL),
          Ask("What did I pass on {day}?", TEMPORAL))),
    Fact("greyhound", (0.1, 0.4), "pets",
         "Rui and I adopted a rescue greyhound called Biscuit last week.",
         (Ask("Roughly when did we get our dog?", TEMPORAL),
          Ask("What did Rui and I do during {last_week}?", TEMPORAL),
          Ask("What's my dog's name?", SINGLE))),
    Fact("shelter", ANY, "pets",
         "On Saturday mornings I volunteer at the animal shelter in Gaia.",
         (Ask("Where do I help out at weekends?", SINGLE),)),
    Fact("partner", EARLY, "health",
         "My partner Rui works night shifts at São João hospital, so our evenings together are "
         "short.",
         (Ask("What is Rui's job schedule like?", SINGLE),)),
    Fact("engaged", (0.45, 0.65), "events",
         "Rui proposed last night on the beach at Foz, we're engaged!",
         (Ask("When did my partner ask me to marry him?", TEMPORAL),
          Ask("What happened on the evening of {yesterday}?", TEMPORAL),
          Ask("Where did the proposal happen?", SINGLE))),
    Fact("clio", EARLY, "money",
         "We still drive a 2015 Renault Clio and plan to keep it until it dies."),
    Fact("tesla", LATE, "money",
         "We finally sold the Clio and bought a used Tesla Model 3.",
         (Ask("What car do we own now?", UPDATE),
          Ask("Which car did we have before the Tesla?", SINGLE)), ("clio",)),
    Fact("iphone", EARLY, "tech",
         "I'm on an iPhone 12 and the battery barely lasts until lunch.",
         (Ask("What was wrong with my old phone?", SINGLE),)),
    Fact("pixel", LATE, "tech",
         "I gave up on the iPhone and got a Pixel 8, the switch was painless.",
         (Ask("Which smartphone do I have at the moment?", UPDATE),), ("iphone",)),
    Fact("thinkpad", EARLY, "tech",
         "My work laptop is a ThinkPad X1 running Ubuntu."),
    Fact("macbook", LATE, "tech",
         "IT replaced my ThinkPad with a MacBook Pro, so I'm relearning every shortcut.",
         (Ask("What computer do I use for my job now?", UPDATE),), ("thinkpad",)),
    Fact("neovim", ANY, "tech",
         "I use Neovim for everything, so give me Vim keybindings rather than VS Code menus.",
         (Ask("Which text editor do I prefer?", PREFERENCE),)),
    Fact("bullets", ANY, "tech",
         "Please keep answers short and in bullet points, I mostly read them on my phone.",
         (Ask("How do I want your replies formatted?", PREFERENCE),)),
    Fact("walking", ANY, "city",
         "In a new city I'd rather walk everywhere than take taxis.",
         (Ask("How do I like to get around when exploring somewhere unfamiliar?",
              PREFERENCE),)),
    Fact("mornings", ANY, "work",
         "I do my best focus work before 11, so I keep mornings free of meetings.",
         (Ask("When do I like to do deep work?", PREFERENCE),)),
    Fact("habit_flask", EARLY, "coding",
         "I'm building a small habit tracker in Python with Flask, just for me.",
         (Ask("What language is my personal app written in?", SINGLE),)),
    Fact("habit_fastapi", LATE, "coding",
         "I moved the habit tracker from Flask to FastAPI, I wanted async and typed models.",
         (Ask("Which web framework does my side project run on now?", UPDATE),),
         ("habit_flask",)),
    Fact("japanese_app", EARLY, "language",
         "I'm learning Japanese on Duolingo, ten minutes every day on the metro."),
    Fact("japanese_tutor", LATE, "language",
         "I quit the app and booked a weekly tutor on italki instead.",
         (Ask("How am I studying Japanese these days?", UPDATE),), ("japanese_app",)),
    Fact("savings", EARLY, "money",
         "We're putting aside 500 euros a month for a flat deposit.",
         (Ask("What are we saving up for?", SINGLE),)),
    Fact("savings_up", (0.75, 1.0), "money",
         "After my raise we bumped the deposit savings to 700 a month.",
         (Ask("How much do we save each month for the flat?", UPDATE),), ("savings",)),
    Fact("promotion", (0.3, 0.6), "work",
         "I got promoted to lead designer today!",
         (Ask("When did I move up to the senior role?", TEMPORAL),)),
    Fact("manager", (0.0, 0.12), "work",
         "My manager Inês is leaving in February and I might take over two of her reports."),
    Fact("manager_stays", (0.15, 0.35), "work",
         "Inês decided to stay after all, so no extra reports for me.",
         (Ask("Is my boss still leaving the company?", UPDATE),), ("manager",)),
    Fact("mum", EARLY, "events",
         "My mum turns 60 on 12 September and we're planning a surprise lunch.",
         (Ask("How old is my mum turning?", SINGLE),)),
    Fact("mum_found_out", LATE, "events",
         "Mum found out about the surprise, so it's just a normal family dinner at her place "
         "now.",
         (Ask("Is my mother's birthday still a secret party?", UPDATE),), ("mum",)),
    Fact("flat_rent", EARLY, "home",
         "We rent a two-bedroom flat in Cedofeita, the lease ends in June."),
    Fact("flat_bought", LATE, "home",
         "We signed for a flat in Matosinhos near the beach, we move in July.",
         (Ask("Which neighbourhood will we be living in this summer?", UPDATE),),
         ("flat_rent",)),
    Fact("cycling", EARLY, "city",
         "I cycle to work, about twenty minutes along the river."),
    Fact("metro", LATE, "city",
         "Since we moved desks to the new building uphill, I take the metro instead of cycling.",
         (Ask("How do I get to my job these days?", UPDATE),), ("cycling",)),
    Fact("birthday", ANY, "events",
         "My birthday is on 2 August and I want something low-key this year.",
         (Ask("When was I born?", SINGLE),)),
]

ABSENT = [
    Absent("What's the name of my dentist?", "dentist"),
    Absent("When is my brother getting married?", "brother"),
    Absent("What's my cat called?", "cat"),
    Absent("Which airline do I usually fly with?", "airline"),
    Absent("How old is my nephew?", "nephew"),
    Absent("Which football club does Rui support?", "football"),
    Absent("Which university did I graduate from?", "university"),
    Absent("What's my blood type?", "blood type"),
    Absent("What's Rui's surname?", "surname"),
    Absent("Where are Rui and I going on honeymoon?", "honeymoon"),
    Absent("How long have I been playing the piano?", "piano"),
    Absent("What's my shoe size?", "shoe size"),
    Absent("What salary did I get with the promotion?", "salary"),
    Absent("Which concert am I going to?", "concert"),
    Absent("How many kids does my sister have?", "kid"),
    Absent("How big is our mortgage?", "mortgage"),
    Absent("Where does my grandmother live?", "grandmother"),
    Absent("Which electric scooter did I buy?", "scooter"),
    Absent("What's the name of Biscuit's vet?", "vet"),
    Absent("Which cookbook did Rui give me?", "cookbook"),
    Absent("Who is my family doctor?", "doctor"),
    Absent("What colour is the Tesla?", "colour"),
    Absent("What's the name of my pottery teacher?", "teacher"),
]

OPENERS = ("Good question.", "Happy to help with that.", "Sure.", "That's a common one.",
           "Here's how I'd think about it.", "Let's break it down.", "This is very doable.",
           "Glad you asked.")
LEADS = ("A few things that help:", "Here's what I'd suggest:", "Some practical steps:",
         "What usually works:", "In practice:")
CLOSERS = ("Adjust it to your situation and tell me how it goes.",
           "Let me know if you want a shorter version.",
           "Happy to go deeper on any of these.",
           "Tell me what you try and we can refine it.")

TOPICS: dict[str, Topic] = {
    "travel": Topic(
        ("How do I pack for ten days with only a carry-on?",
         "What's the best way to beat jet lag on a long trip east?",
         "Is a rail pass worth it for a two-week trip?",
         "How early should I book flights for a spring holiday?",
         "Any tips for a long-haul flight with a connection?",
         "What should I keep in my day bag when sightseeing?",
         "How do I find a good guesthouse instead of a generic hotel?"),
        ("Most of the comfort on a long trip is decided before you leave, in the bookings and "
         "the bag.",
         "Travellers who pick an aisle seat get up more freely, while a window seat is better "
         "for sleeping against the wall.",
         "Fares for popular routes such as Tokyo or Kyoto in October or April tend to rise "
         "sharply in the last eight weeks.",
         "Small guesthouses often include breakfast and local advice, which big hotel chains "
         "rarely match.",
         "Early departures look cheap, but the taxi at 5 am and the lost sleep often cancel "
         "the saving.",
         "Jet lag is mostly about light: get daylight in the destination's morning and avoid "
         "it in the evening.",
         "Travel insurance is worth checking before you pay for anything non-refundable.",
         "A flexible fare costs a little more, but it turns a change of dates into an email "
         "instead of a loss."),
        ("Pack for five days and plan one laundry stop // rolled clothes take less space than "
         "folded ones // one pair of walking trainers and one lighter pair",
         "Put liquids in a single clear pouch at the top of the bag",
         "Download offline maps and the train timetable before you fly",
         "Choose your seat as soon as check-in opens // aisle for leg room and easy exits "
         "// window if you plan to sleep",
         "Set your watch to the destination time as you board",
         "Keep a copy of your passport and bookings on your phone and in the cloud",
         "Book the first night close to the station you arrive at",
         "Carry a little cash, since some guesthouses and markets don't take cards",
         "Drink water on the plane and go easy on coffee"),
        (("text", "Carry-on checklist\n[ ] chargers and adapter\n[ ] medication\n"
                  "[ ] two outfits, one warm layer\n[ ] toiletries under 100 ml"),),
        0.25),
    "city": Topic(
        ("How do people usually get to know a new neighbourhood?",
         "What's a good way to explore a hilly city on foot?",
         "Is it worth getting a monthly metro pass?",
         "How can I make friends after moving somewhere new?",
         "What should I look for in a neighbourhood before renting?",
         "Any ideas for a free Sunday in the city?"),
        ("Cities like Porto, Lisbon or Braga reward walking: the old town is compact, but the "
         "hills make a map misleading.",
         "The quickest way to learn a place is to repeat a few routes until the landmarks "
         "click.",
         "Commuting by bike along a river is lovely in spring and miserable in a wet January, "
         "so keep a backup.",
         "A monthly metro pass usually pays for itself at around twenty trips.",
         "Neighbourhoods change character between weekday mornings and Saturday nights, so "
         "visit both.",
         "Local groups, a regular café and a weekly class are the usual ways strangers become "
         "acquaintances.",
         "Taxis and ride apps are handy late at night, but on short hops walking is often "
         "faster.",
         "Markets, libraries and free museum days are the cheapest way to feel at home."),
        ("Pick one café and go at the same time every week",
         "Walk a different street home each day for a fortnight",
         "Join one recurring activity // a running club or a language exchange "
         "// a volunteering shift",
         "Check the night services of the metro and buses before you need them",
         "Save the landmarks you keep passing as favourites on your map",
         "Try the commute at rush hour before committing to a flat",
         "Ask neighbours for their favourite bakery, it starts conversations",
         "Note how steep the last ten minutes of a route are // hills matter more than "
         "distance on a bike")),
    "work": Topic(
        ("How do I run a shorter weekly team meeting?",
         "What's a good way to say no to a last-minute request?",
         "How should I prepare for a performance review?",
         "Can you help me structure a one-to-one with a new report?",
         "How do I protect time for deep work?",
         "What should a handover document for a project include?",
         "How do I give feedback on a design without sounding harsh?"),
        ("Most teams lose more time to unclear meetings than to hard problems.",
         "Focus work tends to happen in the morning for many people, so protect those hours "
         "before the calendar fills.",
         "Taking over reports from a manager who is leaving is a chance to reset expectations, "
         "not just inherit them.",
         "A new office in another city, Lisbon or Braga or anywhere else, usually means more "
         "travel and more writing things down.",
         "Designers who lead a team spend less time in the tools and more time explaining "
         "decisions.",
         "A promotion changes what people expect from you before it changes your calendar.",
         "Written updates age better than meetings and let colleagues read them when they are "
         "ready.",
         "When you decline a request, offer a date or a trade instead of a flat refusal."),
        ("Write the agenda as questions to answer, not topics to discuss",
         "Keep a shared doc of decisions with dates // one line per decision // a link to the "
         "discussion",
         "Block two mornings a week for focus work and mark them busy",
         "End every meeting with owners and deadlines",
         "Ask each report what they want to learn this quarter",
         "Give feedback on the work, not the person // start with what works // be specific "
         "about the change",
         "Batch messages and reply at set times instead of constantly",
         "Review your own week on Friday afternoons in ten minutes")),
    "events": Topic(
        ("How do I write a short, funny toast?",
         "Any ideas for games at a hen party?",
         "What's a thoughtful gift for someone turning sixty?",
         "How do I plan a surprise lunch without it leaking?",
         "What should I budget for attending a wedding?",
         "How do I organise a group dinner for twelve people?",
         "Ideas for a low-key birthday that still feels special?"),
        ("Weddings in June book venues, photographers and rooms a year ahead, so dates do move "
         "when a venue double-books.",
         "A surprise stays a surprise only if few people know the details, so share the plan "
         "on a need-to-know basis.",
         "For a sister's wedding, the family usually helps with small jobs on the day, so ask "
         "early what is expected.",
         "A sixtieth birthday is a good moment for a photo book or letters from friends.",
         "Hen parties work best when the activities suit the bride rather than the stereotype.",
         "Group dinners go smoothly with a set menu and one person collecting money in "
         "advance.",
         "A low-key birthday can still feel special with one good meal and the right three "
         "people.",
         "Booking time off around a family event early avoids a clash with everyone else's "
         "holidays."),
        ("Start a shared note with the date, the place and who does what",
         "Collect replies by a fixed day and chase once",
         "For a toast, tell one story and end with a wish // under two minutes // practise it "
         "out loud",
         "Pick games that need no props // two truths and a lie // a quiz about the couple",
         "Order a set menu for large tables",
         "Keep the surprise in one group chat without the guest of honour",
         "Plan travel and the room for the night before the outfit",
         "Ask friends for one photo and one sentence each for a memory book")),
    "reading": Topic(
        ("How do I read more when I'm tired in the evenings?",
         "Can you recommend a few literary novels for a long train ride?",
         "What's the difference between EPUB and other ebook formats?",
         "How do I run a good book club discussion?",
         "Is it worth keeping reading notes?",
         "How do I get back into reading after a slump?"),
        ("E-readers such as the Kindle Paperwhite or a Kobo Libra make a long train commute "
         "feel shorter.",
         "A Kobo reads EPUB natively and can borrow library ebooks, while a Kindle leans on "
         "its own store.",
         "Book clubs pick big novels with good intentions and then stall around page two "
         "hundred.",
         "Reading twenty pages a day adds up to a dozen books a year.",
         "Notes in the margin, even one line per chapter, make a discussion much easier.",
         "Switching formats, say from paper to an e-reader or to audiobooks, can break a "
         "slump.",
         "Long novels are easier on a schedule: divide the pages by the weeks you have.",
         "Many public libraries lend ebooks through an app, free with a library card."),
        ("Keep the book where your phone usually is",
         "Read on the commute first, before checking messages",
         "Split a long book into weekly targets // page count divided by weeks // a buffer "
         "week at the end",
         "Write one question per chapter for the club",
         "Try an audiobook for the dull middle of a thick novel",
         "Highlight sparingly and export the highlights",
         "Abandon books you don't enjoy after fifty pages",
         "Join the library's ebook lending // check which apps your library supports")),
    "food": Topic(
        ("Can you give me a quick weeknight pasta recipe?",
         "What's a good vegetarian dish to cook for guests?",
         "How do I make a proper curry paste from scratch?",
         "Ideas for soft, filling meals?",
         "What can I batch cook on a Sunday for the week?",
         "How do I cut down on caffeine without headaches?",
         "What's a good alcohol-free drink for a dinner party?"),
        ("A vegetarian menu can still be generous: beans, lentils, eggs and cheese carry most "
         "dishes, and fish fits in easily.",
         "Spicy food depends on the chilli, but fresh ginger and black pepper add heat of a "
         "different kind.",
         "Satay, pad thai and many sauces contain peanuts, so always check a recipe when "
         "allergies are involved.",
         "Decaf has improved a lot, and an oat flat white tastes much the same either way.",
         "Caffeine lasts for hours, so a coffee after 2 pm can still be in your system at "
         "bedtime.",
         "Alcohol-free pairings such as sparkling tea or shrubs are having a moment instead of "
         "wine.",
         "Weighing ingredients in grams is more reliable than cups, and oven temperatures in "
         "Celsius avoid mistakes.",
         "Batch cooking works best with components rather than finished meals."),
        ("Roast a tray of vegetables at 200 °C for 35 minutes // peppers, courgettes and "
         "onions // olive oil and salt",
         "Cook a pot of lentils or chickpeas for the week",
         "Make one sauce that works three ways",
         "Keep frozen peas and spinach for emergencies",
         "Season at the end and taste as you go // salt, acid and heat // a squeeze of lemon "
         "fixes a lot",
         "Use 100 g of dry pasta per person",
         "Swap the afternoon coffee for tea or decaf one week at a time",
         "Serve a mocktail with bitters and soda instead of wine"),
        (("text", "Tomato sauce, 4 portions\n800 g tinned tomatoes\n2 cloves garlic\n"
                  "30 ml olive oil\nsimmer 20 min, season at the end"),),
        0.25),
    "fitness": Topic(
        ("What's a good beginner strength routine?",
         "How do I build up to a 10k safely?",
         "How often should I rest between runs?",
         "Any tips for a first half marathon training plan?",
         "How do I warm up properly before climbing?",
         "What's a good swimming workout for fitness?",
         "How do I stay motivated to train in winter?"),
        ("Half marathon training usually takes ten to fourteen weeks, with one long run a week "
         "growing slowly.",
         "Knees complain when mileage rises too fast, so dropping to a 10k race is a sensible "
         "call for many runners.",
         "Bouldering builds forearm and grip strength quickly, and the first weeks leave most "
         "people sore.",
         "Swimming at a municipal pool is gentle on the joints and good for recovery weeks.",
         "Running ten kilometres without stopping is a real milestone, and it usually comes "
         "after eight weeks of steady work.",
         "A gym membership only pays off if the gym is on your way somewhere.",
         "Rest days are where the adaptation happens, not a break from it.",
         "Motivation follows routine more often than it leads it."),
        ("Increase weekly distance by no more than ten percent",
         "Do one long run, one easy run and one faster session // easy means you can talk "
         "// faster means short intervals",
         "Warm up with five minutes of easy movement and mobility",
         "Do strength work twice a week: squats, lunges, rows and planks",
         "Take one full rest day after a hard session",
         "Swim intervals: 4 x 100 m easy, then 4 x 50 m faster",
         "Track how you feel, not only the numbers // sleep // soreness // mood",
         "Lay out your kit the night before an early session")),
    "tech": Topic(
        ("How do I make my phone battery last longer?",
         "Is it worth switching from iPhone to Android?",
         "How do I back up a laptop properly?",
         "What are the most useful Vim motions to learn first?",
         "How do I set up a new laptop quickly?",
         "Can you explain two-factor authentication simply?"),
        ("Batteries in phones like the iPhone 12 lose capacity after a few years, and a "
         "replacement battery is cheaper than a new phone.",
         "Switching from an iPhone to a Pixel is smoother than it used to be: the transfer tool "
         "moves photos, contacts and chats.",
         "A ThinkPad running Ubuntu and a MacBook Pro feel very different, mostly in the "
         "keyboard shortcuts.",
         "Neovim and Vim keybindings are available in most editors, even in VS Code through an "
         "extension.",
         "Backups follow the 3-2-1 rule: three copies, two kinds of storage, one somewhere "
         "else.",
         "Bullet points are easier to read on a phone screen than long paragraphs.",
         "Dotfiles in a git repository make a new laptop feel like yours in an hour.",
         "Two-factor authentication with an app is much safer than codes by text message."),
        ("Turn on optimised charging and lower the screen brightness",
         "Check which apps use the battery in the background",
         "Keep dotfiles in a repository // shell configuration // editor configuration",
         "Learn motions before plugins // w, b and e for words // ci( and dt, for editing "
         "inside",
         "Set up backups before moving any files",
         "Use a password manager with a long master passphrase",
         "Remap caps lock to escape or control",
         "Write your most used shortcuts on a card for the first week"),
        (("lua", "-- init.lua\nvim.opt.number = true\nvim.opt.relativenumber = true\n"
                 "vim.keymap.set('n', '<leader>w', ':write<CR>')"),
         ("bash", "rsync -av --delete ~/Documents/ /media/backup/Documents/\n"
                  "rsync -av --delete ~/Pictures/ /media/backup/Pictures/")),
        0.4),
    "coding": Topic(
        ("How do I read a CSV file in Python without pandas?",
         "What's the cleanest way to structure a small Flask app?",
         "Why does my Python script say ModuleNotFoundError?",
         "How do I write a unit test for a function that uses the current date?",
         "Can you explain async and await simply?",
         "How do I add type hints to an existing module?",
         "How do I store settings for a small app?"),
        ("For a small side project like a habit tracker, the framework matters less than "
         "keeping the data model simple.",
         "Flask is minimal and easy to start with; FastAPI adds async views and typed models "
         "through Pydantic.",
         "Python's standard library already covers CSV files, dates and JSON, so try it before "
         "adding dependencies.",
         "A ModuleNotFoundError nearly always means the script runs with a different "
         "interpreter than the one you installed into.",
         "Tests that depend on today's date are easier when the date is passed in as an "
         "argument.",
         "Type hints pay off most at module boundaries, where functions call each other.",
         "Go compiles to a single binary, which is handy for tiny services, but Python is "
         "quicker to change.",
         "Keep settings in environment variables or a small TOML file, never in the code."),
        ("Create a virtual environment per project // python -m venv .venv // activate it "
         "before installing",
         "Pin dependencies in a requirements file",
         "Keep routes thin and move logic into plain functions",
         "Pass the clock into functions that need the date",
         "Run the tests on every change with a watcher",
         "Add type hints to public functions first // then run a type checker",
         "Use SQLite until you have a reason not to",
         "Log errors with context instead of printing"),
        (("python", 'import csv\nwith open("habits.csv", newline="") as f:\n'
                    '    for row in csv.DictReader(f):\n        print(row["habit"], row["done"])'),
         ("python", "from fastapi import FastAPI\napp = FastAPI()\n"
                    '@app.get("/habits")\nasync def habits() -> list[str]:\n'
                    '    return ["read", "stretch"]'),
         ("python", "from flask import Flask\napp = Flask(__name__)\n"
                    '@app.route("/")\ndef index() -> str:\n    return "ok"'),
         ("python", "import datetime as dt\n"
                    "def streak(days: set[dt.date], today: dt.date) -> int:\n"
                    "    count = 0\n    while today - dt.timedelta(days=count) in days:\n"
                    "        count += 1\n    return count")),
        0.7),
    "money": Topic(
        ("How do I set up a simple monthly budget?",
         "Is it better to pay off a car loan early or save?",
         "How much emergency fund should I keep?",
         "What's the 50/30/20 rule?",
         "How do I track shared expenses with a partner?",
         "Is a used electric car a good idea?"),
        ("Saving for a flat deposit is easier when the money leaves your account on payday, "
         "before you can spend it.",
         "Putting aside a fixed sum a month, say 500 or 700 euros, matters less than doing it "
         "every month.",
         "An old Renault Clio or any small petrol car is cheap to keep until a big repair comes "
         "along.",
         "A used Tesla or another electric car costs more up front but much less per "
         "kilometre, especially with home charging.",
         "A raise is the best moment to increase savings, because you never get used to the "
         "extra money.",
         "Shared expenses work best with one joint account for bills and separate accounts for "
         "the rest.",
         "An emergency fund of three to six months of costs comes before investing.",
         "The 50/30/20 rule splits income into needs, wants and savings."),
        ("Automate the transfer on payday",
         "Review subscriptions every quarter",
         "Keep the deposit savings in a separate account // name it after the goal // don't "
         "link a card to it",
         "Compare the total cost of a car over five years, not the price",
         "Round up purchases into savings",
         "Use a shared spreadsheet for joint costs // one tab per month",
         "Raise the monthly saving whenever your income rises",
         "Keep three months of costs as a buffer"),
        (("text", "Monthly plan\nneeds    50%  rent, bills, food\nwants    30%  eating out, "
                  "trips\nsavings  20%  deposit, buffer"),),
        0.3),
    "home": Topic(
        ("What should I check before signing a lease?",
         "How do I pack a flat for a move without chaos?",
         "Any tips for making a small flat feel bigger?",
         "How do I get rid of damp in a bathroom?",
         "What do I need to do when moving house?",
         "How do we split chores fairly?"),
        ("Renting a two-bedroom flat in a central neighbourhood such as Cedofeita costs more "
         "than one near the beach in Matosinhos, but the commute is shorter.",
         "A lease that ends in June lines up with the busiest moving season, so book movers "
         "early.",
         "Moving in summer gives you long evenings for unpacking.",
         "Damp is mostly a ventilation problem: open windows after showers and cooking.",
         "Small flats feel bigger with fewer, larger pieces of furniture and mirrors opposite "
         "windows.",
         "Signing for a flat is exciting, and the paperwork afterwards is where people lose "
         "track of things.",
         "Chores split better by whole areas than by single tasks.",
         "Label boxes by room and by priority, not by content alone."),
        ("Photograph every room on the day you move in",
         "Read the notice period and the deposit terms",
         "Pack one box of first-night essentials // kettle, mugs and towels // chargers and a "
         "lamp",
         "Book the movers and the internet installation early",
         "Update your address with employers and utilities",
         "Use vertical shelves and hooks",
         "Run the extractor fan for twenty minutes after a shower",
         "Split chores by area and rotate monthly")),
    "language": Topic(
        ("How do I remember kanji better?",
         "Is Duolingo enough to become conversational?",
         "What's a good daily routine for learning a language?",
         "How do I practise speaking if I'm shy?",
         "Should I learn hiragana before anything else?",
         "How do I get over a plateau in language learning?"),
        ("Apps like Duolingo are good for habit and vocabulary, and ten minutes a day on the "
         "metro really adds up.",
         "A weekly tutor, on italki or elsewhere, is where most learners finally start "
         "speaking.",
         "Japanese rewards learning hiragana and katakana first, then kanji in context.",
         "Spaced repetition keeps vocabulary alive with a few minutes of review a day.",
         "Plateaus usually mean the input is too easy, so switch to slightly harder material.",
         "Speaking anxiety fades with repetition more than with preparation.",
         "Before a trip to Japan, survival phrases and numbers matter more than grammar.",
         "Listening to the same short dialogue many times trains the ear faster than many new "
         "ones."),
        ("Learn the kana in the first two weeks",
         "Review flashcards daily with spaced repetition // ten new cards a day // never skip "
         "reviews",
         "Shadow short dialogues out loud",
         "Keep a notebook of phrases you actually need",
         "Book one conversation a week // prepare three questions // record it if allowed",
         "Read graded readers at your level",
         "Change your phone's language for a week",
         "Learn kanji with the words they appear in")),
    "pets": Topic(
        ("How do I help a nervous rescue dog settle in?",
         "How long should daily dog walks be?",
         "Any tips for leaving a dog alone for a few hours?",
         "What's a good routine for a new dog?",
         "How do I stop a dog pulling on the lead?",
         "Can dogs eat carrots?"),
        ("Rescue greyhounds are famously lazy indoors and sprint in short bursts outside.",
         "A new dog usually needs three days to decompress, three weeks to learn the routine "
         "and three months to feel at home.",
         "Animal shelters rely on volunteers for walks, cleaning and socialising, often on "
         "Saturday mornings.",
         "Greyhounds get cold easily, so a coat is useful in winter.",
         "Short, frequent training sessions work better than long ones.",
         "Leaving a dog alone should start with minutes, not hours.",
         "Many dogs enjoy carrots as a crunchy treat.",
         "A quiet corner with a bed gives a nervous dog somewhere to retreat."),
        ("Keep the first weeks calm and predictable",
         "Feed and walk at the same times every day",
         "Practise short absences // leave for five minutes // come back calmly",
         "Use a martingale collar for sighthounds",
         "Reward walking beside you with small treats",
         "Give a chew when you leave",
         "Let the dog approach visitors in its own time",
         "Volunteer walks at a shelter are a good way to learn dog handling // ask for an "
         "induction first")),
    "health": Topic(
        ("How do I fall asleep faster?",
         "What should I eat after having a tooth out?",
         "Is it bad to wake up at 5:30 every day?",
         "How do I build a morning routine that sticks?",
         "What's a good stretch routine for desk work?",
         "How much water should I drink a day?"),
        ("Sleep quality depends more on a regular wake-up time than on the hour you go to bed.",
         "After a wisdom tooth comes out, soft food and no straws for a few days help the "
         "healing.",
         "Getting up at 5:30 to train works if you go to bed early enough; otherwise it just "
         "borrows sleep.",
         "Morning routines stick when they start with one tiny habit.",
         "Desk work tightens hips and shoulders, so stretch every hour or two.",
         "Caffeine late in the day is one of the most common reasons for light sleep.",
         "Evening training can be just as effective as an early alarm.",
         "Night shifts shift the whole household's evenings, so shared meals need planning."),
        ("Keep the same wake-up time, weekends included",
         "Dim the lights an hour before bed",
         "Soft food ideas // soups and purées // scrambled eggs // yoghurt",
         "Avoid screens in bed",
         "Stand and stretch every hour // neck rolls // hip flexor stretch",
         "Start a routine with one habit for two weeks",
         "Keep the bedroom cool and dark",
         "Have a glass of water with every meal")),
    "hobbies": Topic(
        ("How do I centre clay on the wheel?",
         "What's a good first project at a pottery class?",
         "Can you suggest some instrumental music for focus?",
         "How do I start learning to ride a motorbike?",
         "How do I find time for a hobby with a full-time job?",
         "Any ideas for a creative hobby that isn't on a screen?"),
        ("Pottery classes usually start with centring clay on the wheel, which takes weeks to "
         "feel natural.",
         "Weekday evening classes, on a Thursday say, are a good way to end the work week "
         "early.",
         "Instrumental jazz, lo-fi and film scores are popular for focus because there are no "
         "lyrics to follow.",
         "Podcasts compete with reading and writing for the same part of the brain.",
         "Learning to ride starts with a basic course and a test, and the first months are "
         "about confidence.",
         "A hobby survives a busy schedule when it has a fixed slot and other people expect "
         "you.",
         "Glazing is where most beginners get surprised, because the kiln changes how a glaze "
         "looks.",
         "Studios often sell clay by the bag and charge per firing."),
        ("Wedge the clay well before throwing",
         "Keep your elbows braced against your thighs when centring",
         "Start with cylinders, then bowls // thin walls come later // trim when leather-hard",
         "Make a playlist of long instrumental tracks",
         "Book a basic training course first // wear proper gloves and boots",
         "Put the hobby in your calendar like a meeting",
         "Photograph your pieces to see progress",
         "Join a studio's open sessions for extra practice")),
}

STOP_WORDS = """a about after again all also am an and any are as at be been before being but
by can could did do does doing don't for from get got had has have he her here him his how i
i'm i've i'd if in into is it it's its just me more most my no not now of off on once only or
other our out over own she should so some such than that the their them then there these they
this those through to too under until up us very was we we're were what what's when where which
while who whom why will with would you your yours maya assistant"""
STOP = frozenset(STOP_WORDS.split())
GENERIC = frozenset({"name", "call", "old", "many", "much", "long", "big", "live", "usually", "go",
                     "give"})  # stems
SLOT = re.compile(r"{(\w+)}")
SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


def content_words(text: str) -> set[str]:
    """Stems of the words of ``text`` (two letters or more) that are not stop words."""
    return {stem(w) for w in WORD.findall(text.lower())
            if len(w) > 1 and w not in STOP and stem(w) not in STOP}


# --- dates ----------------------------------------------------------------------------------


def spoken(day: dt.date) -> str:
    """A date as people write it: ``10 January``."""
    return f"{day.day} {day:%B}"


def slots(day: dt.date) -> dict[str, str]:
    """The date words a question may name, read from the note's date ``day``."""
    monday = day - dt.timedelta(days=day.weekday())
    return {
        "day": spoken(day),
        "yesterday": spoken(day - dt.timedelta(days=1)),
        "last_week": "the week of " + spoken(monday - dt.timedelta(days=7)),
        "last_saturday": spoken(day - dt.timedelta(days=(day.weekday() - 5) % 7 or 7)),
        "next_saturday": spoken(monday + dt.timedelta(days=12)),
    }


def schedule(rng: random.Random, count: int) -> list[tuple[dt.date, str]]:
    """The (day, HH:MM) of each session: the first on ``START``, each next 1 to 6 days on."""
    out: list[tuple[dt.date, str]] = []
    day = START
    for index in range(count):
        day += dt.timedelta(days=rng.randint(1, 6) if index else 0)
        out.append((day, f"{rng.randint(7, 22):02d}:{rng.choice(range(0, 60, 5)):02d}"))
    return out


# --- sessions -------------------------------------------------------------------------------


def named_days(fact: Fact, day: dt.date) -> set[str]:
    """The dates the questions on ``fact`` name when it is planted on ``day``."""
    values = slots(day)
    return {values[slot] for ask in fact.asks for slot in SLOT.findall(ask.text)}


def place(rng: random.Random, facts: list[Fact], dates: list[tuple[dt.date, str]]
          ) -> dict[str, int]:
    """Each fact's session: in its window, the least used session of it (ties at random)
    where its questions name no date that those of a fact placed before name."""
    count = len(dates)
    used = [0] * count
    where: dict[str, int] = {}
    named: set[str] = set()
    for fact in facts:
        low = min(count - 1, int(fact.window[0] * count))
        high = max(low, min(count - 1, round(fact.window[1] * count) - 1))
        window = [i for i in range(low, high + 1) if not named_days(fact, dates[i][0]) & named]
        if not window:
            raise AssertionError(f"no session for {fact.key}: its dates are named")
        fewest = min(used[i] for i in window)
        where[fact.key] = rng.choice([i for i in window if used[i] == fewest])
        used[where[fact.key]] += 1
        named |= named_days(fact, dates[where[fact.key]][0])
    return where


def exchanges(rng: random.Random, facts: list[Fact], last_used: dict[tuple[str, str], int],
              index: int) -> list[tuple[str | None, str, str]]:
    """One session's exchanges in order: (fact key or None, Maya's turn, topic). Requests are
    drawn least recently used first (ties at random); ``last_used`` is updated."""
    chosen: list[tuple[str | None, str, str]] = [(f.key, f.said, f.topic) for f in facts]
    pool = [(topic, request) for topic, t in TOPICS.items() for request in t.requests]
    pool = sorted(rng.sample(pool, len(pool)), key=lambda pair: last_used.get(pair, -1))
    target = rng.randint(*EXCHANGES)
    for topic, request in pool[: max(0, target - len(chosen))]:
        chosen.append((None, request, topic))
        last_used[(topic, request)] = index
    if len(chosen) > EXCHANGES[1]:
        raise AssertionError(f"session {index + 1} holds {len(chosen)} facts")
    rng.shuffle(chosen)
    return chosen


def words_of(lines: list[str]) -> int:
    """Words of a reply's lines, list markers and code fences aside."""
    return sum(1 for w in " ".join(lines).split() if w != "-" and not w.startswith("```"))


def layout(paragraph: list[str], items: list[str], code: tuple[str, str] | None,
           closer: str) -> list[str]:
    """A reply's lines: the paragraph, then the items (2 spaces in, nested ones 4), then the
    code block and the closing line, both 2 spaces in."""
    lines = [" ".join(paragraph)]
    for item in items:
        main, *nested = item.split(" // ")
        lines += [f"  - {main}", *(f"    - {sub}" for sub in nested)]
    if code is not None:  # the closing line only after a fence, never a lazy list continuation
        lang, body = code
        lines += [f"  ```{lang}", *(f"  {line}" for line in body.splitlines()), "  ```",
                  f"  {closer}"]
    return lines


def reply(rng: random.Random, topic: Topic) -> list[str]:
    """The Assistant's turn on ``topic``, 80 to 250 words: its first line and the lines after."""
    sentences = rng.sample(topic.sentences, len(topic.sentences))
    items = rng.sample(topic.items, len(topic.items))
    opener, lead, closer = rng.choice(OPENERS), rng.choice(LEADS), rng.choice(CLOSERS)
    code = rng.choice(topic.code) if topic.code and rng.random() < topic.code_share else None
    said, listed = rng.randint(2, 3), rng.randint(3, 5)

    def lines() -> list[str]:
        return layout([opener, *sentences[:said], lead], items[:listed], code, closer)

    while words_of(lines()) < REPLY_WORDS[0]:
        if said < len(sentences):
            said += 1
        elif listed < len(items):
            listed += 1
        else:
            raise AssertionError(f"too few words for a reply on {topic.requests[0]!r}")
    while words_of(lines()) > REPLY_WORDS[1]:
        if listed <= 2:
            raise AssertionError(f"too many words for a reply on {topic.requests[0]!r}")
        listed -= 1
    return lines()


def render_day(day: dt.date, number: int, time: str,
               turns: list[tuple[str | None, str, list[str]]]
               ) -> tuple[str, dict[str, tuple[int, str, str]]]:
    """A daily note's text and, for each fact's key, the (file line, block id, line text) of
    Maya's turn stating it. ``turns`` are (fact key or None, speaker, lines)."""
    lines = [f"# {day.isoformat()}", "", f"## Session {number} · {time}"]
    where: dict[str, tuple[int, str, str]] = {}
    for turn, (key, speaker, text) in enumerate(turns, start=1):
        block = f"s{number:02d}t{turn:02d}"
        lines.append(f"- [[{speaker}]]: {text[0]} ^{block}")
        if key is not None:
            where[key] = (len(lines), block, lines[-1])
        lines += text[1:]
    return "\n".join(lines) + "\n", where


# --- questions ------------------------------------------------------------------------------


def check_facts() -> None:
    """The planted facts and questions are as many as promised and well formed."""
    keys = [fact.key for fact in FACTS]
    if len(set(keys)) != len(keys) or any(f.topic not in TOPICS for f in FACTS):
        raise AssertionError("fact keys repeat or a topic is unknown")
    originals = [fact for fact in FACTS if not fact.updates]
    updated = {key for fact in FACTS for key in fact.updates}
    asks = [ask for fact in FACTS for ask in fact.asks]
    if len(originals) < MIN_FACTS or len(updated) < MIN_UPDATED or \
            len(asks) + len(ABSENT) < MIN_QUESTIONS or len(ABSENT) < MIN_UNANSWERABLE:
        raise AssertionError("fewer facts, updates or questions than promised")
    for fact in FACTS:
        if len(SENTENCE_END.findall(fact.said)) > 2 or "\n" in fact.said:
            raise AssertionError(f"{fact.key}: more than two sentences")
        for ask in fact.asks:
            if ask.kind not in KINDS or ask.kind == UNANSWERABLE or \
                    (ask.kind == UPDATE and not fact.updates):
                raise AssertionError(f"{ask.text!r}: kind {ask.kind} on {fact.key}")


def questions_of(session_of: dict[str, int], dates: list[tuple[dt.date, str]],
                 where: dict[str, Ref]) -> list[Question]:
    """Every question with its evidence and, for updates, the superseded turns."""
    out: list[Question] = []
    named: dict[str, str] = {}
    for fact in FACTS:
        if any(session_of[key] >= session_of[fact.key] for key in fact.updates):
            raise AssertionError(f"{fact.key} is not after what it updates")
        for ask in fact.asks:
            values = slots(dates[session_of[fact.key]][0])
            text = ask.text.format(**values)
            for slot in SLOT.findall(ask.text):
                if named.setdefault(values[slot], fact.key) != fact.key:
                    raise AssertionError(f"{text!r}: {named[values[slot]]} names that day too")
            shared = content_words(text) & content_words(fact.said)
            if len(shared) > MAX_SHARED:
                raise AssertionError(f"{text!r} shares {sorted(shared)} with its evidence")
            earlier = [where[key] for key in fact.updates] if ask.kind == UPDATE else []
            out.append({"question": text, "kind": ask.kind, "evidence": [where[fact.key]],
                        "earlier": earlier, "agent": None})
    out += [{"question": absent.text, "kind": UNANSWERABLE, "evidence": [], "earlier": [],
             "agent": None} for absent in ABSENT]
    return out


def check_written(out: Path, questions: list[Question], lines: dict[tuple[str, int], str]
                  ) -> None:
    """Each evidence and earlier line of the written files is Maya's turn with its block id."""
    for q in questions:
        for ref in [*q["evidence"], *q["earlier"]]:
            written = (out / f"{ref['note']}.md").read_text(encoding="utf-8").splitlines()
            line = written[ref["line"] - 1] if 0 < ref["line"] <= len(written) else ""
            if line != lines.get((ref["note"], ref["line"])) or \
                    not line.startswith(f"- [[{USER}]]: ") or \
                    not line.endswith(f" ^{ref['block']}"):
                raise AssertionError(f"{ref} is {line!r} in the written file")


def check_absent(out: Path, said: list[str]) -> None:
    """No note holds an unanswerable question's key phrase, and no turn of Maya's holds all of
    its specific words."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(out.rglob("*.md")))
    turns = [content_words(turn) for turn in said]
    for absent in ABSENT:
        if re.search(rf"\b{re.escape(absent.key)}(?:e?s)?\b", text, re.IGNORECASE):
            raise AssertionError(f"{absent.key!r} is in the vault")
        specific = content_words(absent.text) - GENERIC
        if not specific or any(specific <= turn for turn in turns):
            raise AssertionError(f"{absent.text!r}: its words {sorted(specific)} are said")


# --- files ----------------------------------------------------------------------------------


def prepare(out: Path) -> None:
    """Empty ``out`` when it is a vault made by this script; refuse anything else. Write the
    marker and the two speakers' notes."""
    if out.exists() and any(out.iterdir()):
        if not (out / MARKER).is_file() or not (out / AGENT_NOTE).is_file():
            raise SystemExit(f"{out} exists and is not a generated assistant-chat vault")
        shutil.rmtree(out)
    for folder in (".obsidian", "People", "Agents", "Daily"):
        (out / folder).mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text(json.dumps({"folder": "Daily", "format": "YYYY-MM-DD"}) + "\n",
                              encoding="utf-8")
    (out / "People" / f"{USER}.md").write_text(
        f"---\ntype: person\naliases: [{FULL_NAME}]\n---\n# {USER}\n\n"
        f"{FULL_NAME}, who chats with [[{AGENT}]] in the daily notes.\n", encoding="utf-8")
    (out / AGENT_NOTE).write_text(
        f"---\ntype: agent\n---\n# {AGENT}\n\nThe AI assistant that [[{USER}]] chats with; "
        "every chat is logged in the daily notes.\n", encoding="utf-8")


def questions_path(out: Path) -> Path:
    """Where the questions of the vault ``out`` are written: ``OUT.questions.json``."""
    return out.with_name(out.name + ".questions.json")


def generate_assistant_chats(out: Path, *, sessions: int = 40, seed: int = 5
                             ) -> list[Question]:
    """Write the vault into ``out`` and its questions beside it; return the questions."""
    if sessions < MIN_SESSIONS:
        raise ValueError(f"at least {MIN_SESSIONS} sessions")
    check_facts()
    rng = random.Random(seed)
    out = Path(out)
    prepare(out)
    dates = schedule(rng, sessions)
    session_of = place(rng, FACTS, dates)
    by_session: dict[int, list[Fact]] = {}
    for fact in FACTS:
        by_session.setdefault(session_of[fact.key], []).append(fact)
    last_used: dict[tuple[str, str], int] = {}
    where: dict[str, Ref] = {}
    lines: dict[tuple[str, int], str] = {}
    said: list[str] = []
    for index, (day, time) in enumerate(dates):
        turns: list[tuple[str | None, str, list[str]]] = []
        for key, text, topic in exchanges(rng, by_session.get(index, []), last_used, index):
            turns += [(key, USER, [text]), (None, AGENT, reply(rng, TOPICS[topic]))]
            said.append(text)
        note = f"Daily/{day.isoformat()}"
        text, placed = render_day(day, index + 1, time, turns)
        (out / f"{note}.md").write_text(text, encoding="utf-8")
        for key, (line, block, line_text) in placed.items():
            where[key] = {"note": note, "line": line, "block": block}
            lines[(note, line)] = line_text
    questions = questions_of(session_of, dates, where)
    check_written(out, questions, lines)
    check_absent(out, said)
    questions_path(out).write_text(json.dumps(questions, indent=1, ensure_ascii=False) + "\n",
                                   encoding="utf-8")
    return questions


def tally(out: Path) -> tuple[int, int, int]:
    """The notes, turns and words of a written vault."""
    texts = [p.read_text(encoding="utf-8") for p in out.rglob("*.md")]
    turn = re.compile(rf"^- \[\[(?:{USER}|{AGENT})\]\]: ", re.MULTILINE)
    return len(texts), sum(len(turn.findall(t)) for t in texts), sum(len(t.split())
                                                                     for t in texts)


def main(argv: list[str] | None = None) -> int:
    """Command line: write the vault and ``OUT.questions.json``; print what they hold."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    questions = generate_assistant_chats(args.out, sessions=args.sessions, seed=args.seed)
    notes, turns, words = tally(args.out)
    kinds = ", ".join(f"{kind} {sum(q['kind'] == kind for q in questions)}" for kind in KINDS)
    print(f"{notes} notes, {turns} turns, {words} words in {args.out}; "
          f"{len(questions)} questions ({kinds}) in {questions_path(args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
