"""Generate a deterministic conversation-log vault (two people, many sessions) and questions on it.

Usage::

    python benchmarks/gen_conversations.py OUT [--sessions 30] [--seed 3] [--words people]

writes into the folder OUT (replaced when it holds an earlier generated vault; refused when it
holds anything else) and ``OUT.questions.json`` beside it. Also importable:
``generate_conversations(out, sessions=30, seed=3, words="plain") -> list[dict]``. Same
sessions, seed and words, same bytes. ``--words people`` types every turn as people do
(:mod:`people_words`: a fact spread over two turns, a terse one first, typos, casual case,
fillers, a pet called "the little guy" once its story began): the same sessions and questions,
an evidence turn typed as two lines giving both.

The vault is logged the way an agent's memory of chats is: ``.obsidian/daily-notes.json``
(``Daily``, ``YYYY-MM-DD``); ``People/Ana.md`` and ``People/Joel.md``, one short note per
speaker (frontmatter ``type: person``, a full-name alias); and ``Daily/YYYY-MM-DD.md`` for every
day with a session, holding ``# YYYY-MM-DD`` and then each session of that day (one or two)
under ``## Session N · HH:MM``, one list item per turn: ``- [[Ana]]: text ^s07t12`` (session 7,
turn 12; a speaker link on every turn). ``sessions`` sessions (at least 20) are spread from
2026-01-03: the next one 2 to 9 days later, or (one time in five, after a session before 15:00)
the same evening, so several days hold two sessions.

A session is a greeting and a goodbye fitting its time of day, the planted exchanges drawn for
it and chit-chat, added until a drawn target of 12 to 22 turns is reached. Chit-chat is generic
(work, weather, shows, food, friends) or about the running stories (the cello, the dog, the
novel, ...) once a story has begun, the least recently used first; it shares names and topic
words with the planted turns but answers no question. 44 exchanges are planted, each on a
session in its window (a share of the sessions: stories stay in order), the least used session
of the window first. Many are a question turn followed by the answer in the reply; some turns
hold relative dates whose meaning depends on the note's date: "today", "yesterday", "tomorrow",
"three weeks ago", "next Friday" (the Friday of the next Monday-to-Sunday week), "last
Saturday" (the latest Saturday before the day), "last week" (the Monday-to-Sunday week before).

Each question is ``{"question", "kind", "evidence": [{"note", "line", "block"}], "agent":
None}``: ``line`` is the 1-based file line of an answering turn and ``block`` its block id, each
checked against the written file. Kinds: ``single-hop`` (one turn answers), ``multi-hop`` (two
turns, in different sessions), ``temporal`` (the answer is a date read from the note's date and
a relative date in the turn, or the question names the day, week or month: "on 10 January",
"in May 2026", resolved from the note that holds the turn; a month is replaced by the day when
another exchange of the same sort falls in that month) and ``open`` (a summary of three or more
turns across sessions); 89 questions in all (37, 16, 26 and 10). Questions paraphrase: at most
two content words of a question (stop words and the two names aside, words compared after
cutting ``'s``, ``s``, ``es``, ``ed`` and ``ing``) appear in its evidence turns; checked. When
an answer follows a question turn, the question often uses that turn's words, not the answer's.
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

from people_words import as_typed

START = dt.date(2026, 1, 3)
MARKER = ".obsidian/daily-notes.json"
MIN_SESSIONS = 20
MAX_SHARED = 2  # content words a question may share with its evidence
SPEAKERS = {"A": "Ana", "J": "Joel"}
PEOPLE = "people"
WORDS = ("plain", PEOPLE)  # how turns are worded: as planted, or as people type (people_words)
FULL_NAMES = {"Ana": "Ana Ribeiro", "Joel": "Joel Lindqvist"}
Question = dict[str, Any]
Turn = tuple[str, str]  # (speaker letter, text)
Ref = tuple[str, int]  # (plant key, turn index)
Block = tuple[str | None, list[list[Turn]]]  # (plant key or None, each turn as typed: 1+ lines)
Where = dict[Ref, list[tuple[str, int, str, str]]]  # each planted turn's (note, line, block, text)


@dataclass(frozen=True)
class Ask:
    """A question about planted turns: ``refs`` are (plant key, turn index), the plant's own key
    when empty (then ``turns`` index the plant's turns); ``rivals`` are plants of the same sort
    (a month named in the question becomes the day when one falls in the same month)."""

    text: str
    kind: str
    turns: tuple[int, ...] = (0,)
    refs: tuple[Ref, ...] = ()
    rivals: tuple[str, ...] = ()


@dataclass(frozen=True)
class Plant:
    """Turns planted together in one session, within ``window`` (a share of the sessions)."""

    key: str
    window: tuple[float, float]
    turns: tuple[Turn, ...]
    asks: tuple[Ask, ...] = ()


SINGLE, MULTI, TEMPORAL, OPEN = "single-hop", "multi-hop", "temporal", "open"
KINDS = (SINGLE, MULTI, TEMPORAL, OPEN)
EARLY, MIDDLE, LATE, ANY = (0.0, 0.3), (0.35, 0.65), (0.7, 1.0), (0.0, 1.0)

PLANTS = [
    # Ana's cello
    Plant("cello_buy", (0.0, 0.15), (
        ("J", "So what was the big errand you were being so mysterious about?"),
        ("A", "I picked up a secondhand cello yesterday! 400 euros, bow and case included"),
        ("J", "No way, you've talked about that forever")),
        (Ask("How much did Ana pay for her cello?", SINGLE, (1,)),
         Ask("What did Ana buy on {yesterday}?", TEMPORAL, (1,)))),
    Plant("cello_teacher", (0.25, 0.45), (
        ("J", "Are you still teaching yourself from videos?"),
        ("A", "Not anymore, I have lessons every Thursday evening with Mr. Duarte, a retired "
              "orchestra player")),
        (Ask("Is Ana still teaching herself from videos?", SINGLE, (1,)),
         Ask("Who gives Ana her cello lessons?", SINGLE, (1,)))),
    Plant("cello_recital", (0.8, 0.95), (
        ("A", "The student recital is next Friday, I'm playing the Bach prelude and my hands "
              "are already shaking"),
        ("J", "You'll be great, I'm coming")),
        (Ask("When is Ana's recital?", TEMPORAL),
         Ask("What is Ana doing on {next_friday}?", TEMPORAL))),
    # Ana's sister Clara
    Plant("clara_move", (0.05, 0.25), (
        ("J", "How's your family doing?"),
        ("A", "Clara just told us she's moving to Lisbon next month, her company approved "
              "the transfer")),
        (Ask("Where is Ana's sister Clara moving?", SINGLE, (1,)),
         Ask("What family news did Ana share {in_month}?", TEMPORAL, (1,),
             rivals=("clara_job", "parents_sell")))),
    Plant("clara_job", (0.55, 0.75), (
        ("J", "Did your sister settle in ok?"),
        ("A", "She did, and she quit that job already, now she runs a little bookshop near the "
              "river with a friend")),
        (Ask("What does Ana's sister do now in the city she moved to?", MULTI,
             refs=(("clara_move", 1), ("clara_job", 1))),)),
    Plant("parents_sell", (0.6, 0.8), (
        ("A", "My parents are selling the farmhouse and moving into a flat in town, mum cried "
              "signing the papers"),),
        (Ask("What are Ana's parents doing with the farmhouse?", SINGLE),)),
    # Ana's running
    Plant("run_signup", (0.0, 0.2), (
        ("A", "I registered for the Porto half marathon, don't let me back out"),
        ("J", "I'll hold you to it")),
        (Ask("Which marathon did Ana enter?", SINGLE),
         Ask("Which event did Ana sign up for {in_month}?", TEMPORAL))),
    Plant("run_injury", (0.35, 0.55), (
        ("J", "You're limping in that photo, what happened?"),
        ("A", "Shin splints. The physio says two weeks off, only swimming")),
        (Ask("Why was Ana limping?", SINGLE, (1,)),
         Ask("What did the physio tell Ana to do instead of running?", SINGLE, (1,)),
         Ask("What injury did Ana have {in_month}?", TEMPORAL, (1,)))),
    Plant("run_result", (0.7, 0.8), (
        ("A", "Finished in 2:04! The last kilometre was pure suffering but I didn't walk once"),
        ("J", "That's amazing, under your goal")),
        (Ask("What was Ana's finishing time in the half marathon?", SINGLE),)),
    # Ana's flat
    Plant("flat_kitchen", (0.1, 0.3), (
        ("A", "The builders ripped out the old kitchen today, I'm living on microwave noodles "
              "for a month"),),
        (Ask("What are the builders doing in Ana's flat?", SINGLE),
         Ask("What happened at Ana's place on {day}?", TEMPORAL))),
    Plant("flat_tiles", (0.35, 0.5), (
        ("J", "Did you pick the tiles in the end?"),
        ("A", "Dark green ones with a matte finish, the builder thinks I'm mad")),
        (Ask("What colour did Ana choose for her new tiles?", SINGLE, (1,)),)),
    # Ana's trip
    Plant("trip_plan", (0.2, 0.4), (
        ("J", "Where are you going for your holiday in the end?"),
        ("A", "Booked the flights! Ten days in Osaka, then the train to Tokyo")),
        (Ask("Where is Ana going for her holiday?", SINGLE, (1,)),)),
    Plant("ana_language", (0.42, 0.6), (
        ("A", "I've started Japanese on an app, twenty minutes every morning on the bus"),),
        (Ask("How does Ana practise her Japanese?", SINGLE),)),
    Plant("trip_back", (0.9, 1.0), (
        ("A", "Back home, the jet lag is brutal. The best part was a cooking class in Kyoto, I "
              "learned to make proper ramen broth"),),
        (Ask("What was the highlight of Ana's trip to Japan?", SINGLE),
         Ask("Where had Ana just come back from {in_month}?", TEMPORAL))),
    # Ana's friend's wedding
    Plant("wedding_invite", (0.15, 0.35), (
        ("A", "Sofia asked me to be her maid of honour! The wedding is in the Douro valley in "
              "September"),),
        (Ask("What role will Ana have at Sofia's wedding?", SINGLE),
         Ask("What did Sofia ask Ana {in_month}?", TEMPORAL))),
    Plant("wedding_speech", (0.7, 0.9), (
        ("A", "I've written three drafts of the toast and they're all terrible"),
        ("J", "Start with the story about the camping trip, everyone loves that one")),
        (Ask("What did Joel suggest for Ana's toast?", SINGLE, (1,)),)),
    # Ana's work and life
    Plant("ana_exam", (0.2, 0.45), (
        ("A", "I passed the paediatric nursing certification last week, the exam was four hours "
              "long"),),
        (Ask("What did Ana accomplish during {last_week}?", TEMPORAL),)),
    Plant("ana_night_shift", (0.65, 0.85), (
        ("J", "So, did you make up your mind about the offer?"),
        ("A", "I'm taking the night position at the children's hospital, better pay and I like "
              "the team")),
        (Ask("What did Ana decide {in_month}?", TEMPORAL, (1,), rivals=("run_signup", "trip_plan")),
         Ask("Which job offer did Ana accept?", SINGLE, (1,)))),
    Plant("ana_allergy", ANY, (
        ("J", "Fancy the seafood place on the harbour this weekend?"),
        ("A", "Can't, I'm allergic to shellfish, remember the prawn incident?")),
        (Ask("Why won't Ana go to the seafood place?", SINGLE, (1,)),)),
    Plant("ana_book", ANY, (
        ("J", "What are you reading these days?"),
        ("A", "A biography of Marie Curie my aunt lent me, it's surprisingly gripping")),
        (Ask("What has Ana been reading lately?", SINGLE, (1,)),)),
    Plant("ana_birthday", (0.3, 0.6), (
        ("J", "What are you doing for your birthday?"),
        ("A", "Dinner at that Georgian place with my parents, then karaoke with the nurses from "
              "my ward")),
        (Ask("What are Ana's plans for her birthday?", SINGLE, (1,)),)),
    Plant("ana_volunteer", (0.2, 0.5), (
        ("A", "On Sundays I help out at the food bank now, sorting donations"),),
        (Ask("Where does Ana volunteer on Sundays?", SINGLE),)),
    Plant("ana_phone", ANY, (
        ("A", "Dropped my phone in the river during the kayak trip, gone for good"),),
        (Ask("How did Ana lose her phone?", SINGLE),
         Ask("What did Ana lose {in_month}?", TEMPORAL))),
    # Joel's dog
    Plant("dog_adopt", (0.05, 0.2), (
        ("J", "We adopted a beagle from the shelter yesterday, he's called Pixel and he already "
              "chewed a shoe"),
        ("A", "Send pictures immediately!")),
        (Ask("When did Joel adopt Pixel?", TEMPORAL),
         Ask("What breed is Joel's dog Pixel?", SINGLE))),
    Plant("dog_vet", (0.4, 0.6), (
        ("A", "How's the little menace doing?"),
        ("J", "Pixel swallowed a sock on Sunday, we spent the whole night at the emergency vet, "
              "he's fine now")),
        (Ask("Why did Joel's beagle end up at the vet?", MULTI,
             refs=(("dog_adopt", 0), ("dog_vet", 1))),
         Ask("Why did Joel spend a night at the vet {in_month}?", TEMPORAL, (1,)))),
    Plant("dog_training", (0.7, 0.9), (
        ("J", "Pixel passed his obedience class, he sits and stays now, mostly"),),),
    # Joel's pottery
    Plant("pottery_start", (0.1, 0.3), (
        ("A", "You said you needed a hobby away from screens, any luck?"),
        ("J", "I joined a wheel-throwing class at the community studio, Tuesday nights. My first "
              "bowl looks like a hat")),
        (Ask("What new pastime did Joel take up to get away from screens?", SINGLE, (1,)),
         Ask("On which evening does Joel go to his pottery class?", SINGLE,
             (1,)))),
    Plant("pottery_gift", (0.6, 0.8), (
        ("J", "I'm giving my mum four mugs I glazed myself for her birthday"),),
        (Ask("What present is Joel making his mum, and where did he learn how?", MULTI,
             refs=(("pottery_gift", 0), ("pottery_start", 1))),)),
    # Joel's dad
    Plant("dad_surgery", (0.15, 0.35), (
        ("J", "Dad's knee operation is next Friday, I'm driving up to stay with him for the "
              "week"),
        ("A", "Fingers crossed, tell him I said hi")),
        (Ask("When is Joel's father's knee surgery?", TEMPORAL),
         Ask("What is happening to Joel's father on {next_friday}?", TEMPORAL))),
    Plant("dad_recovery", (0.4, 0.6), (
        ("A", "How's your dad getting on?"),
        ("J", "Walking with a cane already, the physio is impressed. He wants to be back on the "
              "golf course by summer")),
        (Ask("How is Joel's dad getting on after the operation?", SINGLE, (1,)),
         Ask("What operation did Joel's father have, and how is he getting around now?", MULTI,
             refs=(("dad_surgery", 0), ("dad_recovery", 1))))),
    # Joel's school
    Plant("joel_job", (0.0, 0.1), (
        ("A", "Are you still teaching at the high school?"),
        ("J", "Yes, years 11 and 12 mostly, and I run the robotics club on Wednesdays")),
        (Ask("Which year groups does Joel teach at the high school?", SINGLE, (1,)),)),
    Plant("joel_trip", (0.3, 0.5), (
        ("J", "I'm taking thirty students to the science museum in Munich tomorrow, pray for "
              "me"),),
        (Ask("Where did Joel take his students on {tomorrow}?", TEMPORAL),)),
    Plant("joel_promotion", (0.65, 0.8), (
        ("J", "They asked me to be head of the science department from September"),
        ("A", "Joel! That's huge, congratulations")),
        (Ask("What new role was Joel offered at his school?", SINGLE),
         Ask("What career news did Joel share {in_month}?", TEMPORAL, rivals=("joel_results",)))),
    Plant("joel_results", (0.88, 1.0), (
        ("J", "My year 12s got their results, 27 of 30 passed chemistry, best in five years"),),
        (Ask("What subject does Joel teach?", SINGLE),)),
    # Joel's car
    Plant("car_breakdown", (0.25, 0.45), (
        ("J", "The car died on the motorway last Saturday, the gearbox is gone, 1,800 to fix"),
        ("A", "Ouch. Are you going to fix it or sell it?"),
        ("J", "Probably scrap it and get an electric one")),
        (Ask("What went wrong with Joel's car on {last_saturday}?", TEMPORAL),
         Ask("Was Joel going to fix his old car or sell it?", SINGLE, (2,)))),
    Plant("car_new", (0.55, 0.75), (
        ("J", "Picked up a secondhand Renault Zoe, the range is about 300 km and Pixel loves the "
              "back seat"),),
        (Ask("What car did Joel buy {in_month}?", TEMPORAL),
         Ask("What did Joel replace his broken-down car with, and what was wrong with the old "
             "one?", MULTI, refs=(("car_new", 0), ("car_breakdown", 0))),)),
    # Joel's novel
    Plant("novel_start", (0.05, 0.3), (
        ("J", "Don't laugh, I've started writing a fantasy novel, about a lighthouse keeper who "
              "can hear the dead"),),
        (Ask("What is Joel's novel about?", SINGLE),
         Ask("What creative project did Joel begin {in_month}?", TEMPORAL,
             rivals=("pottery_start",)))),
    Plant("novel_progress", (0.5, 0.7), (
        ("A", "How's the book coming along?"),
        ("J", "Hit 40,000 words this morning, halfway through the first draft")),
        (Ask("How many words had Joel written on {day}?", TEMPORAL, (1,)),)),
    Plant("novel_agent", (0.85, 1.0), (
        ("J", "A literary agent in London wants the full manuscript after the first three "
              "chapters"),),
        (Ask("Who wants to read Joel's whole manuscript?", SINGLE),
         Ask("What good news about his book did Joel get {in_month}?", TEMPORAL,
             rivals=("novel_progress",)))),
    # Joel's life
    Plant("joel_coffee", ANY, (
        ("J", "I gave up coffee three weeks ago, switched to green tea, the headaches are "
              "finally gone"),),
        (Ask("What does Joel drink now instead of coffee?", SINGLE),
         Ask("Since about when has Joel been off coffee?", TEMPORAL))),
    Plant("joel_neighbours", ANY, (
        ("A", "Did things get better with the new neighbours?"),
        ("J", "No, they still play the drums at midnight, my polite note changed nothing")),
        (Ask("Did things get better between Joel and his new neighbours?", SINGLE, (1,)),)),
    Plant("joel_niece", (0.4, 0.7), (
        ("J", "My sister had the baby yesterday, a girl, Lucia, 3.2 kilos"),
        ("A", "Congratulations Uncle Joel!")),
        (Ask("When was Joel's niece born?", TEMPORAL),
         Ask("What happened in Joel's family on {yesterday}?", TEMPORAL),
         Ask("What did Joel's sister name the baby?", SINGLE))),
    Plant("joel_summer", (0.6, 0.85), (
        ("A", "Any plans for the summer break?"),
        ("J", "Two weeks hiking in the Pyrenees with my brother, if Pixel's dogsitter says yes")),
        (Ask("What are Joel's plans for the summer break?", SINGLE, (1,)),)),
    Plant("joel_balcony", (0.5, 0.8), (
        ("J", "The tomatoes are finally coming up on the balcony, and the basil went wild"),),
        (Ask("What is Joel growing on his balcony?", SINGLE),)),
]
CROSS = [  # questions over several plants (their refs)
    Ask("Who teaches Ana the cello, and what did it cost her?", MULTI,
        refs=(("cello_teacher", 1), ("cello_buy", 1))),
    Ask("Did Ana's injury stop her finishing the race, and what was her time?", MULTI,
        refs=(("run_injury", 1), ("run_result", 0))),
    Ask("What colour is the wall covering in Ana's renovated kitchen?", MULTI,
        refs=(("flat_kitchen", 0), ("flat_tiles", 1))),
    Ask("Where did Ana's Japan trip start, and what did she enjoy most?", MULTI,
        refs=(("trip_plan", 1), ("trip_back", 0))),
    Ask("Which breed is the dog that loves Joel's new car?", MULTI,
        refs=(("car_new", 0), ("dog_adopt", 0))),
    Ask("Why is Ana learning Japanese?", MULTI,
        refs=(("ana_language", 0), ("trip_plan", 1))),
    Ask("Whose wedding is Ana writing a speech for, and where is it held?", MULTI,
        refs=(("wedding_speech", 0), ("wedding_invite", 0))),
    Ask("Which qualification did Ana earn before taking the job with kids at night?", MULTI,
        refs=(("ana_exam", 0), ("ana_night_shift", 1))),
    Ask("Which of Joel's pets swallowed a sock, and what did it learn later?", MULTI,
        refs=(("dog_vet", 1), ("dog_training", 0))),
    Ask("What is Joel's book about, and how many words had he reached by the middle of the "
        "first version?", MULTI, refs=(("novel_start", 0), ("novel_progress", 1))),
    Ask("Which subject does Joel teach, and where was the museum his students visited?", MULTI,
        refs=(("joel_results", 0), ("joel_trip", 0))),
    Ask("How has Ana's cello playing gone since she started?", OPEN,
        refs=(("cello_buy", 1), ("cello_teacher", 1), ("cello_recital", 0))),
    Ask("How did Ana's half marathon training go?", OPEN,
        refs=(("run_signup", 0), ("run_injury", 1), ("run_result", 0))),
    Ask("How has life with Pixel been for Joel?", OPEN,
        refs=(("dog_adopt", 0), ("dog_vet", 1), ("dog_training", 0))),
    Ask("How has Joel's novel developed over the months?", OPEN,
        refs=(("novel_start", 0), ("novel_progress", 1), ("novel_agent", 0))),
    Ask("What has been going on with Ana's sister and parents?", OPEN,
        refs=(("clara_move", 1), ("clara_job", 1), ("parents_sell", 0))),
    Ask("What has happened at Joel's school this year?", OPEN,
        refs=(("joel_trip", 0), ("joel_promotion", 0), ("joel_results", 0))),
    Ask("What has been happening with Joel's dad and sister?", OPEN,
        refs=(("dad_surgery", 0), ("dad_recovery", 1), ("joel_niece", 0))),
    Ask("What does Ana do outside of work?", OPEN,
        refs=(("cello_teacher", 1), ("ana_volunteer", 0), ("ana_language", 0))),
    Ask("What hobbies has Joel picked up this year?", OPEN,
        refs=(("pottery_start", 1), ("novel_start", 0), ("joel_balcony", 0))),
    Ask("How have Joel's car troubles played out?", OPEN,
        refs=(("car_breakdown", 0), ("car_breakdown", 2), ("car_new", 0))),
]
# chit-chat about a story, used only in sessions after the story's plant (key)
STORY_TALK: list[tuple[str, tuple[Turn, ...]]] = [
    ("cello_buy", (("A", "Practised the cello for an hour last night, the neighbours must love "
                         "me"), ("J", "Play me something next time we meet"))),
    ("cello_buy", (("A", "My fingertips finally stopped hurting from the strings"),)),
    ("cello_teacher", (("A", "Mr. Duarte made me play the same four bars for the whole lesson"),
                       ("J", "Sounds like a proper teacher"))),
    ("dog_adopt", (("J", "Pixel says hi, he's asleep on my feet"),
                   ("A", "Give him a scratch from me"))),
    ("dog_adopt", (("J", "Took Pixel to the beach, he was terrified of the waves"),)),
    ("dog_adopt", (("A", "Is the dog still eating your shoes?"),
                   ("J", "Only the expensive ones"))),
    ("run_signup", (("A", "Did a 10 km run this morning, my legs are jelly"),
                    ("J", "You're a machine"))),
    ("run_signup", (("J", "How's the training going?"), ("A", "Slowly, but it's going"))),
    ("novel_start", (("J", "Wrote two pages of the novel last night and deleted one of them"),)),
    ("novel_start", (("A", "Any news from the lighthouse?"),
                     ("J", "The keeper is still stuck in chapter four"))),
    ("flat_kitchen", (("A", "Still dust everywhere from the builders"),
                      ("J", "The joys of renovation"))),
    ("clara_move", (("A", "Clara sent photos of the trams in Lisbon, I'm so jealous"),)),
    ("dad_surgery", (("J", "Dad sends his thanks for the card"),
                     ("A", "Tell him to behave and do his exercises"))),
    ("pottery_start", (("J", "Made another wonky bowl at the studio, it's a tradition now"),)),
    ("trip_plan", (("A", "Bought a guidebook for Japan, it's already full of sticky notes"),)),
    ("car_new", (("J", "The electric car is so quiet I keep thinking it's off"),)),
    ("wedding_invite", (("A", "Dress fitting for Sofia's wedding today, I looked like a "
                              "meringue"), ("J", "I'm sure you looked great"))),
    ("joel_job", (("J", "Marking lab reports all evening, send help"),)),
    ("joel_job", (("A", "How were the robotics kids this week?"),
                  ("J", "One of them built a robot that only drives backwards, I love it"))),
    ("ana_night_shift", (("A", "Nights are weird, I had breakfast at 7 pm"),)),
]
SMALL_TALK: list[tuple[Turn, ...]] = [  # slots: {show} {food} {n} {weekday} {friend} {place}
    (("J", "How was your week?"), ("A", "Long. {n} shifts in a row, I'm a zombie")),
    (("A", "Did you watch the last episode of {show}?"), ("J", "Not yet, no spoilers!")),
    (("J", "It's been raining for {n} days straight here"),
     ("A", "Same here, I've forgotten what the sun looks like")),
    (("A", "I tried making {food} from scratch, total disaster"),
     ("J", "Send me the recipe anyway")),
    (("J", "Any good podcast recommendations?"),
     ("A", "I've been listening to one about unsolved mysteries, very creepy")),
    (("A", "My phone battery keeps dying by lunchtime"), ("J", "Time for a new one")),
    (("J", "Went to a quiz night with {friend} and the others, we came last"),
     ("A", "Classic")),
    (("A", "Work was chaos today, {n} admissions at once"),
     ("J", "Hope you got a break at least")),
    (("J", "The students were unusually quiet on {weekday}, suspicious"),
     ("A", "They're planning something")),
    (("A", "Found a great bakery near {place}, the cinnamon buns are dangerous"),),
    (("J", "Cleaned the whole flat on {weekday}, I feel like a new person"),),
    (("A", "Can't believe how fast this month went"), ("J", "Tell me about it")),
    (("J", "My brother keeps sending me memes at 3 am"), ("A", "Mute him")),
    (("A", "Mum called for an hour about the neighbours' fence"), ("J", "Riveting stuff")),
    (("A", "Should I get a plant for the living room?"),
     ("J", "Get a cactus, impossible to kill")),
    (("J", "Watched a documentary about octopuses, they're smarter than me"),),
    (("A", "Traffic was terrible this morning, {n} roadworks on the way to work"),),
    (("J", "What are you up to this weekend?"), ("A", "Nothing much, sleep and laundry")),
    (("A", "I'm thinking of cutting my hair short"), ("J", "Do it, it'll grow back")),
    (("J", "Trying to read more before bed instead of scrolling"), ("A", "How's that going?"),
     ("J", "{n} nights out of seven, if I'm honest")),
    (("A", "Have you seen {show}?"), ("J", "Started it, the first episode was slow"),
     ("A", "It gets better, trust me")),
    (("J", "Made {food} for dinner, not bad at all"), ("A", "Look at you, a proper cook")),
    (("A", "The new head nurse is strict but fair"),),
    (("J", "Staff meeting ran {n} hours on {weekday}, I nearly fell asleep"),),
    (("A", "My downstairs neighbour gave me a whole bag of lemons"), ("J", "Lemonade time")),
    (("J", "Is it me or is everything more expensive this year?"), ("A", "It's not you")),
    (("A", "I keep forgetting to call the bank"), ("J", "Set a reminder, right now")),
    (("J", "The wifi at school has been down since {weekday}"),),
    (("A", "We should do a video call soon instead of typing"), ("J", "Yes, let's")),
    (("J", "Got a parking ticket, five minutes over"), ("A", "Criminal")),
    (("A", "Slept eleven hours, no regrets"),),
    (("J", "Bumped into {friend} at {place}, sends you a hug"), ("A", "Aw, hug back")),
    (("A", "{friend} is coming over for {food} on {weekday}"), ("J", "Save me some")),
    (("J", "Can you recommend a good series? I finished {show}"),
     ("A", "Try something lighter next, you need it")),
    (("A", "Had coffee with {friend} at {place}, we talked for {n} hours"),),
    (("J", "My knee hurts when it rains, I'm officially old"), ("A", "Welcome to the club")),
    (("A", "The hospital canteen had {food} today, a rare win"),),
    (("J", "Do you still have my umbrella?"), ("A", "Maybe. Probably. I'll check")),
    (("A", "My landlord finally fixed the heating"), ("J", "Only took {n} weeks")),
    (("J", "I signed up for a gym and went once"), ("A", "Once is a start")),
    (("A", "There's a street market at {place} on {weekday}, want to come?"),
     ("J", "If I'm free, I'll let you know")),
]
GREETINGS: list[tuple[str, tuple[Turn, ...]]] = [  # (part of the day or "", turns)
    ("", (("A", "Hey Joel!"), ("J", "Hi Ana, how are you?"), ("A", "Good, a bit tired. You?"))),
    ("morning", (("J", "Morning! Got a minute?"), ("A", "Always, what's up?"))),
    ("morning", (("A", "Good morning! Coffee in hand?"), ("J", "Tea these days, but yes"))),
    ("", (("A", "Hi! Got a sec?"), ("J", "Sure, it's been a crazy few days though"))),
    ("evening", (("J", "Hey, are you around?"), ("A", "Yes, just got home"))),
    ("", (("A", "Hello hello"), ("J", "Hi! Perfect timing, I was about to message you"))),
    ("evening", (("J", "Evening! Survived the day?"), ("A", "Barely. You?"))),
    ("", (("J", "Hi Ana, quick catch-up?"), ("A", "Sure, go"))),
]
GOODBYES: list[tuple[str, tuple[Turn, ...]]] = [
    ("", (("J", "I have to run, talk soon"), ("A", "Bye! Say hi to everyone"))),
    ("evening", (("A", "Okay, dinner time for me. Later!"), ("J", "Enjoy!"))),
    ("evening", (("J", "Bedtime for me, night!"),)),
    ("morning", (("A", "Got to go, my shift starts soon"), ("J", "Have a good one"))),
    ("", (("A", "Got to go, talk later"), ("J", "Bye!"))),
    ("morning", (("J", "First period in ten minutes, bye!"), ("A", "Good luck!"))),
]
SHOWS = ["Severance", "The Bear", "Slow Horses", "Shogun", "Only Murders in the Building",
         "Bake Off", "The Last of Us"]
FOODS = ["pasta", "sourdough", "dumplings", "a curry", "pastel de nata", "a risotto",
         "bacalhau", "tacos"]
FRIENDS = ["Marta", "Ines", "Tiago", "Nora", "Leo", "Rita"]
PLACES = ["the station", "the old market", "the hospital", "the river", "Rua das Flores",
          "the park"]
NUMBERS = ["two", "three", "four", "five", "six"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
STOP_WORDS = """a about after again all am an and any are as at be been before being but by
can could did do does doing during for from get got had has have he her here him his how i if in
into is it its just me more most my new no not now of off on once only or other our out over own
she should so some such than that the their them then there these they this those through to too
under until up us very was we were what when where which while who whom why will with would you
your yours ana joel ana's joel's"""
STOP = frozenset(STOP_WORDS.split())
WORD = re.compile(r"[a-z0-9']+")


def stem(word: str) -> str:
    """A crude stem: without ``'s`` and a final ``s``, ``es``, ``ed`` or ``ing``."""
    word = word.removesuffix("'s").strip("'")
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> set[str]:
    """Stems of the words of ``text`` that are not stop words or the speakers' names."""
    return {stem(w) for w in WORD.findall(text.lower()) if w not in STOP} - {"ana", "joel"}


# --- dates ----------------------------------------------------------------------------------


def spoken(day: dt.date) -> str:
    """A date as people write it: ``10 January``."""
    return f"{day.day} {day:%B}"


def slots(day: dt.date, month_is_unique: bool) -> dict[str, str]:
    """The date words a question may name, read from the note's date ``day``."""
    monday = day - dt.timedelta(days=day.weekday())
    return {
        "day": spoken(day),
        "yesterday": spoken(day - dt.timedelta(days=1)),
        "tomorrow": spoken(day + dt.timedelta(days=1)),
        "next_friday": spoken(monday + dt.timedelta(days=11)),
        "last_saturday": spoken(day - dt.timedelta(days=(day.weekday() - 5) % 7 or 7)),
        "last_week": "the week of " + spoken(monday - dt.timedelta(days=7)),
        "in_month": f"in {day:%B %Y}" if month_is_unique else f"on {spoken(day)} {day.year}",
    }


def schedule(rng: random.Random, count: int) -> list[tuple[dt.date, str]]:
    """The (day, HH:MM) of each session: gaps of 0-9 days, a second session of a day later."""
    out: list[tuple[dt.date, str]] = []
    day = START
    for index in range(count):
        if index and rng.random() < 0.2 and int(out[-1][1][:2]) < 15:
            hour = rng.randint(18, 22)
        else:
            day += dt.timedelta(days=rng.randint(2, 9) if index else 0)
            hour = rng.randint(7, 14)
        out.append((day, f"{hour:02d}:{rng.choice(range(0, 60, 5)):02d}"))
    return out


# --- sessions -------------------------------------------------------------------------------


def place(rng: random.Random, plants: list[Plant], count: int) -> dict[str, int]:
    """Each plant's session: in its window, the least used session of it (ties at random)."""
    used = [0] * count
    where: dict[str, int] = {}
    for plant in plants:
        low = min(count - 1, int(plant.window[0] * count))
        high = max(low, min(count - 1, round(plant.window[1] * count) - 1))
        window = range(low, high + 1)
        fewest = min(used[i] for i in window)
        where[plant.key] = rng.choice([i for i in window if used[i] == fewest])
        used[where[plant.key]] += 1
    return where


def fill(turns: tuple[Turn, ...], rng: random.Random) -> list[Turn]:
    """Chit-chat turns with their slots filled."""
    values = {"show": rng.choice(SHOWS), "food": rng.choice(FOODS), "n": rng.choice(NUMBERS),
              "weekday": rng.choice(WEEKDAYS), "friend": rng.choice(FRIENDS),
              "place": rng.choice(PLACES)}
    return [(who, text.format(**values)) for who, text in turns]


def fits(part: str, hour: int) -> bool:
    """Does a greeting or goodbye for ``part`` of the day fit a session at ``hour``?"""
    return not part or (part == "morning") == (hour < 12)


def session_blocks(rng: random.Random, plants: list[Plant], begun: set[str], hour: int,
                   last_used: dict[tuple[Turn, ...], int], index: int
                   ) -> list[tuple[str | None, list[Turn]]]:
    """The blocks of one session in order: (plant key or None, turns). Chit-chat is drawn
    least recently used first (ties at random); ``last_used`` is updated."""
    middle: list[tuple[str | None, list[Turn]]] = [(p.key, list(p.turns)) for p in plants]
    target = rng.randint(12, 22)
    stories = [turns for key, turns in STORY_TALK if key in begun]
    pool = [*stories, *SMALL_TALK]
    pool = sorted(rng.sample(pool, len(pool)), key=lambda talk: last_used.get(talk, -1))
    greeting = rng.choice([turns for part, turns in GREETINGS if fits(part, hour)])
    goodbye = rng.choice([turns for part, turns in GOODBYES if fits(part, hour)])
    length = len(greeting) + len(goodbye) + sum(len(t) for _, t in middle)
    for talk in pool:
        if length >= target:
            break
        middle.append((None, fill(talk, rng)))
        last_used[talk] = index
        length += len(talk)
    rng.shuffle(middle)
    return [(None, list(greeting)), *middle, (None, list(goodbye))]


def render_day(day: dt.date, sessions: list[tuple[int, str, list[Block]]]
               ) -> tuple[str, dict[Ref, list[tuple[int, str, str]]]]:
    """A daily note's text and, for each planted (key, turn index), the (file line, block id,
    line text) of each line it was typed as."""
    lines = [f"# {day.isoformat()}"]
    where: dict[Ref, list[tuple[int, str, str]]] = {}
    for number, time, blocks in sessions:
        lines += ["", f"## Session {number} · {time}"]
        turn = 0
        for key, turns in blocks:
            for position, typed in enumerate(turns):
                for who, text in typed:
                    turn += 1
                    block = f"s{number:02d}t{turn:02d}"
                    lines.append(f"- [[{SPEAKERS[who]}]]: {text} ^{block}")
                    if key is not None:
                        where.setdefault((key, position), []).append((len(lines), block,
                                                                      lines[-1]))
    return "\n".join(lines) + "\n", where


# --- questions ------------------------------------------------------------------------------


def questions_of(plants: list[Plant], session_of: dict[str, int],
                 dates: list[tuple[dt.date, str]], where: Where) -> list[Question]:
    """Every question with its evidence (the planted turns, by note, file line and block id)."""
    by_key = {plant.key: plant for plant in plants}
    asks = [(plant.key, ask) for plant in plants for ask in plant.asks]
    asks += [(ask.refs[0][0], ask) for ask in CROSS]
    out: list[Question] = []
    for key, ask in asks:
        day = dates[session_of[key]][0]
        month = (day.year, day.month)
        unique = all((dates[session_of[r]][0].year, dates[session_of[r]][0].month) != month
                     for r in ask.rivals)
        refs = ask.refs or tuple((key, turn) for turn in ask.turns)
        for ref_key, turn in refs:
            if not 0 <= turn < len(by_key[ref_key].turns):
                raise AssertionError(f"no turn {turn} in {ref_key}")
        text = ask.text.format(**slots(day, unique))
        evidence = [{"note": note, "line": line, "block": block}
                    for r in refs for note, line, block, _ in where[r]]
        shared = content_words(text) & set().union(
            *(content_words(by_key[k].turns[t][1]) for k, t in refs))
        if ask.kind in (MULTI, OPEN) and len({session_of[k] for k, _ in refs}) < 2:
            raise AssertionError(f"{text!r}: its evidence is in one session")
        if len(shared) > MAX_SHARED:
            raise AssertionError(f"{text!r} shares {sorted(shared)} with its evidence")
        out.append({"question": text, "kind": ask.kind, "evidence": evidence, "agent": None})
    return out


def check_evidence(out: Path, questions: list[Question], where: Where) -> None:
    """Each evidence line of the written files is the planted turn with its block id."""
    expected = {(note, line): text for typed in where.values() for note, line, _, text in typed}
    for q in questions:
        if q["kind"] not in KINDS:
            raise AssertionError(f"unknown kind {q['kind']}")
        for ev in q["evidence"]:
            written = (out / f"{ev['note']}.md").read_text(encoding="utf-8").splitlines()
            line = written[ev["line"] - 1] if 0 < ev["line"] <= len(written) else ""
            if line != expected[(ev["note"], ev["line"])] or \
                    not line.endswith(f" ^{ev['block']}"):
                raise AssertionError(f"evidence {ev} is {line!r} in the written file")


# --- files ----------------------------------------------------------------------------------


def prepare(out: Path) -> None:
    """Empty ``out`` when it is a vault made by this script; refuse anything else."""
    if out.exists() and any(out.iterdir()):
        if not (out / MARKER).is_file() or not (out / "Daily").is_dir():
            raise SystemExit(f"{out} exists and is not a generated conversation vault")
        shutil.rmtree(out)
    (out / ".obsidian").mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text(json.dumps({"folder": "Daily", "format": "YYYY-MM-DD"}) + "\n",
                              encoding="utf-8")


def person_note(name: str) -> str:
    """A speaker's People note."""
    other = next(n for n in SPEAKERS.values() if n != name)
    return (f"---\ntype: person\naliases: [{FULL_NAMES[name]}]\n---\n# {name}\n\n"
            f"{FULL_NAMES[name]}, who chats with [[{other}]] in the daily notes.\n")


def generate_conversations(out: Path, sessions: int = 30, seed: int = 3,
                           words: str = "plain") -> list[Question]:
    """Write the vault into ``out`` and return its questions (see the module docstring)."""
    if words not in WORDS:
        raise ValueError(f"words is one of {', '.join(WORDS)}")
    if sessions < MIN_SESSIONS:
        raise ValueError(f"at least {MIN_SESSIONS} sessions")
    rng = random.Random(seed)
    out = Path(out)
    prepare(out)
    (out / "People").mkdir()
    (out / "Daily").mkdir()
    for name in SPEAKERS.values():
        (out / "People" / f"{name}.md").write_text(person_note(name), encoding="utf-8")
    dates = schedule(rng, sessions)
    session_of = place(rng, PLANTS, sessions)
    by_session: dict[int, list[Plant]] = {}
    for plant in PLANTS:
        by_session.setdefault(session_of[plant.key], []).append(plant)
    days: dict[dt.date, list[tuple[int, str, list[Block]]]] = {}
    typing = random.Random(f"typed-{seed}")  # its own: the same sessions either way
    begun: set[str] = set()
    last_used: dict[tuple[Turn, ...], int] = {}
    for index, (day, time) in enumerate(dates):
        here = by_session.get(index, [])
        blocks = session_blocks(rng, here, begun, int(time[:2]), last_used, index)
        days.setdefault(day, []).append((index + 1, time, [
            (key, [typed(turn, typing, key, begun) if words == PEOPLE else [turn]
                   for turn in turns]) for key, turns in blocks]))
        begun |= {plant.key for plant in here}
    where: Where = {}
    for day, held in days.items():
        text, lines = render_day(day, held)
        (out / "Daily" / f"{day.isoformat()}.md").write_text(text, encoding="utf-8")
        for ref, typed_as in lines.items():
            where[ref] = [(f"Daily/{day.isoformat()}", *line) for line in typed_as]
    questions = questions_of(PLANTS, session_of, dates, where)
    check_evidence(out, questions, where)
    return questions


def typed(turn: Turn, rng: random.Random, key: str | None, begun: set[str]) -> list[Turn]:
    """A turn as people type it (:mod:`people_words`); a plant's turn refers back when its
    story began in an earlier session."""
    story = key.split("_")[0] if key else None
    later = story is not None and any(k.split("_")[0] == story for k in begun)
    return as_typed(turn, rng, story, later)


def main(argv: list[str] | None = None) -> int:
    """Command line: write the vault and ``OUT.questions.json``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sessions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--words", choices=WORDS, default="plain")
    args = parser.parse_args(argv)
    questions = generate_conversations(args.out, args.sessions, args.seed, args.words)
    target = args.out.with_name(args.out.name + ".questions.json")
    target.write_text(json.dumps(questions, indent=1, ensure_ascii=False) + "\n",
                      encoding="utf-8")
    kinds = {kind: sum(q["kind"] == kind for q in questions) for kind in KINDS}
    print(f"{args.sessions} sessions and {len(questions)} questions ({kinds}) in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
