"""Generate a deterministic "conversation log" vault with planted facts and questions about them.

Usage::

    python benchmarks/gen_conversations.py OUT [--days 120] [--seed 3]

writes into the folder OUT (replaced when it holds an earlier generated vault; refused when it
holds anything else) and ``OUT.questions.json`` beside it. Also importable:
``generate_conversations(out, days=120, seed=3) -> list[dict]``. Same days and seed, same bytes.

The vault: ``.obsidian/daily-notes.json`` (``Daily``, ``YYYY-MM-DD``); ``People/<Name>.md`` for
12 people (frontmatter ``type: person``, ``aliases``, ``role`` on line 4, ``timezone`` on line 5,
the city on line 10, two working-style lines on 13 and 14); ``Projects/<Name>.md`` for 4
projects (``owner`` on line 4); ``Daily/YYYY-MM-DD.md`` for ``days`` consecutive weekdays from
2025-11-03, each with 3-6 entries ``### HH:MM — Title`` of 3-8 lines: standups, project syncs,
1:1s, Slack threads, customer calls and small talk between the people, most of it filler that
shares names, projects and words with the facts.

About 80 facts (decisions, numbers, dates, preferences, hand-overs) are planted on their own
lines inside entries that fit them, on days drawn from a window (early, middle, late or any),
at most a few per day. A few facts change over time (the Atlas launch date is proposed early,
slips in the middle, and is agreed late). Every planted line is unique in the vault.

Each question is ``{"question", "evidence": [{"note", "line"}], "agent": None}``; the question
paraphrases its evidence (names, synonyms, no copied wording), and ``line`` is the 1-based file
line. Some questions need a person's or project's note too (the timezone of whoever took over
a service), some only a person note, and some name the day they are about.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

START = dt.date(2025, 11, 3)
MARKER = ".obsidian/daily-notes.json"
Question = dict[str, Any]


@dataclass(frozen=True)
class Person:
    """One person: name, role, timezone, city, bio and two working-style lines."""

    name: str
    role: str
    timezone: str
    team: str
    city: str
    bio: str
    style: tuple[str, str]


@dataclass(frozen=True)
class Project:
    """One project: name, owner, members and goal."""

    name: str
    owner: str
    members: tuple[str, ...]
    status: str
    goal: str


@dataclass(frozen=True)
class Ask:
    """A question about a plant: its fact lines (by index) and lines of People/Projects notes."""

    text: str
    lines: tuple[int, ...] = (0,)
    notes: tuple[tuple[str, str], ...] = ()  # (note id, field name of NOTE_LINES)


@dataclass(frozen=True)
class Plant:
    """Fact lines planted together in one entry, and the questions they answer."""

    window: tuple[float, float]
    title: str
    people: tuple[str, ...]
    lines: tuple[str, ...]
    asks: tuple[Ask, ...]


@dataclass
class Entry:
    """One ``### HH:MM — Title`` entry under construction; ``facts`` maps line index to plant."""

    title: str
    lines: list[str]
    facts: dict[int, tuple[Plant, int]] = field(default_factory=dict)


PEOPLE = [
    Person("Maya Chen", "product lead", "UTC-8", "Product", "San Francisco",
           "Runs product for [[Atlas]] and the roadmap.",
           ("Wants a written one-pager before any new feature gets a sprint.",
            "Keeps Friday afternoons free of meetings for deep work.")),
    Person("Omar Haddad", "engineering manager", "UTC+4", "Engineering", "Dubai",
           "Manages the platform and payments engineers, owner of [[Beacon]].",
           ("Expects every incident to have a written timeline within a day.",
            "Likes estimates as ranges, not single numbers.")),
    Person("Lena Fischer", "product designer", "UTC+1", "Design", "Berlin",
           "Designs the mobile app and the customer portal.",
           ("Shares Figma links with comments open to everyone.",
            "Prefers to see real customer quotes over summaries.")),
    Person("Tomas Rivera", "backend engineer", "UTC-6", "Engineering", "Mexico City",
           "Works on billing, webhooks and the public API.",
           ("Reviews pull requests in one batch after lunch.",
            "Asks for a failing test before looking at any bug report.")),
    Person("Aiko Tanaka", "data analyst", "UTC+9", "Data", "Tokyo",
           "Owns [[Cobalt]] and the company metrics.",
           ("Documents every metric definition in the Cobalt glossary.",
            "Answers questions in writing, usually the next morning.")),
    Person("Jonas Berg", "site reliability engineer", "UTC+2", "Engineering", "Helsinki",
           "Keeps production up; runs the on-call rota.",
           ("Writes runbooks for anything he has to do twice.",
            "Prefers chat over calls, even during incidents.")),
    Person("Nadia Petrova", "finance lead", "UTC+3", "Finance", "Istanbul",
           "Runs finance, payroll and vendor contracts.",
           ("Wants budget requests with a monthly breakdown.",
            "Closes the books on the fifth working day of each month.")),
    Person("Sam Okafor", "head of sales", "UTC+0", "Sales", "London",
           "Leads sales and the larger customer negotiations.",
           ("Travels to customers most Tuesdays and Wednesdays.",
            "Keeps the CRM as the single source of truth for deals.")),
    Person("Grace Liu", "customer success manager", "UTC+8", "Customer Success", "Singapore",
           "Looks after onboarding and renewals; owner of [[Harbor]].",
           ("Runs a monthly health review of the top 20 accounts.",
            "Would rather hear bad news early than polished late.")),
    Person("Ravi Menon", "mobile engineer", "UTC+5:30", "Engineering", "Pune",
           "Builds the iOS and Android apps for [[Atlas]].",
           ("Prefers pairing sessions over long written specs.",
            "Tests every build on a five-year-old Android phone.")),
    Person("Isabel Souza", "legal counsel", "UTC-3", "Legal", "Sao Paulo",
           "Handles contracts, privacy and compliance.",
           ("Needs contracts at least five working days before signature.",
            "Keeps a clause library that sales can copy from.")),
    Person("Ben Carter", "CEO", "UTC-5", "Leadership", "New York",
           "Co-founder; fundraising, board and hiring.",
           ("Decides fast; bring a recommendation, not a list of options.",
            "Holds open office hours on Monday mornings.")),
]
BY_NAME = {person.name: person for person in PEOPLE}
PROJECTS = [
    Project("Atlas", "Maya Chen", ("Maya Chen", "Ravi Menon", "Lena Fischer", "Tomas Rivera"),
            "active", "Relaunch the mobile app with offline mode and a new onboarding."),
    Project("Beacon", "Omar Haddad", ("Omar Haddad", "Tomas Rivera", "Nadia Petrova",
                                      "Jonas Berg"),
            "active", "Move subscription billing to a new payment provider without downtime."),
    Project("Cobalt", "Aiko Tanaka", ("Aiko Tanaka", "Jonas Berg", "Omar Haddad"),
            "active", "One data warehouse for product, sales and finance metrics."),
    Project("Harbor", "Grace Liu", ("Grace Liu", "Lena Fischer", "Sam Okafor", "Tomas Rivera"),
            "planning", "A self-service portal for invoices, users and usage."),
]
CUSTOMERS = ["Northwind", "Brightline Logistics", "Kestrel Health", "Alder & Finch",
             "Mosaic Retail", "Pinecrest Bank", "Orbit Foods", "Lumen Studios"]
# file line of each field in People/ and Projects/ notes (see person_note, project_note)
NOTE_LINES = {"role": 4, "timezone": 5, "city": 10, "style1": 13, "style2": 14, "owner": 4}
EARLY, MIDDLE, LATE, ANY = (0.0, 0.3), (0.35, 0.65), (0.7, 1.0), (0.0, 1.0)


def p(name: str, item: str) -> tuple[str, str]:
    """A People-note evidence reference."""
    return (f"People/{name}", item)


PLANTS = [
    # Atlas: the mobile relaunch; its launch date changes twice
    Plant((0.0, 0.2), "Atlas planning", ("Maya Chen", "Ravi Menon", "Lena Fischer"),
          ("- [[Maya Chen]]: I'd aim the Atlas launch at {date+60}, that gives QA two full "
           "sprints",),
          (Ask("What release date did Maya first suggest for the new mobile app?"),)),
    Plant((0.4, 0.55), "Atlas check-in", ("Maya Chen", "Ravi Menon", "Omar Haddad"),
          ("- [[Maya Chen]]: Android crash rate is still 2.1%, so Atlas slips to {date+40}",),
          (Ask("Why did the Atlas release get pushed back?"),)),
    Plant((0.85, 1.0), "Atlas go/no-go", ("Maya Chen", "Omar Haddad", "Ravi Menon"),
          ("- [[Omar Haddad]]: agreed with [[Maya Chen]], Atlas ships {date+12} and not a day "
           "earlier",),
          (Ask("When did Maya and Omar settle the final Atlas launch date?"),
           Ask("what's the final ship date for Atlas"))),
    Plant(ANY, "Atlas sync", ("Ravi Menon", "Maya Chen"),
          ("- [[Ravi Menon]]: got the iOS build down to 48 MB by dropping the bundled fonts",),
          (Ask("How big is the iPhone app download now, and what did Ravi remove?"),)),
    Plant(EARLY, "Atlas scope", ("Ravi Menon", "Maya Chen", "Lena Fischer"),
          ("- Decision: Atlas supports Android 10 and newer; [[Ravi Menon]] removes the legacy "
           "WebView path",),
          (Ask("What's the oldest Android version the relaunched app will run on?"),)),
    Plant(ANY, "Onboarding test results", ("Lena Fischer", "Maya Chen"),
          ("- [[Lena Fischer]]: onboarding gets three screens max, the fourth one tested "
           "terribly",),
          (Ask("How many onboarding steps is Lena willing to keep?"),)),
    Plant(MIDDLE, "Atlas beta", ("Maya Chen", "Ravi Menon"),
          ("- [[Maya Chen]]: 350 people signed up for the TestFlight beta, way over the 200 we "
           "hoped for",),
          (Ask("How many testers enrolled in the iOS beta of the mobile relaunch?"),)),
    Plant(EARLY, "Thread in #atlas", ("Ravi Menon", "Tomas Rivera"),
          ("- Decision: push notifications go through OneSignal, Firebase topics were too "
           "limited for [[Ravi Menon]]'s segments",),
          (Ask("Which service will deliver the app's push messages?"),)),
    Plant(ANY, "Atlas tooling", ("Ravi Menon", "Omar Haddad"),
          ("- [[Ravi Menon]]: I'd like Sentry over Crashlytics, we already pay for it on the "
           "web side",),
          (Ask("Which crash reporting tool does Ravi want for the app, and why?"),)),
    Plant(EARLY, "Atlas kickoff", ("Maya Chen", "Lena Fischer", "Ben Carter"),
          ("- [[Maya Chen]]: success for Atlas is a 4.5 store rating within 90 days",),
          (Ask("What App Store score would count as a win for the relaunch?"),)),
    Plant(ANY, "Design crit", ("Lena Fischer", "Ravi Menon"),
          ("- [[Lena Fischer]]: dark mode is out of v1, we'll revisit after launch",),
          (Ask("Will the first version of the new app have a dark theme?"),)),
    # Beacon: the billing migration
    Plant(EARLY, "Beacon vendor review", ("Omar Haddad", "Nadia Petrova", "Tomas Rivera"),
          ("- Decision: Beacon moves billing from Braintree to Adyen; [[Nadia Petrova]] signs "
           "the contract",),
          (Ask("Which payment processor are we migrating subscriptions to?"),
           Ask("Who is putting her name on the new payment provider agreement, and what is "
               "her job?", notes=(p("Nadia Petrova", "role"),)))),
    Plant(EARLY, "Finance check-in", ("Nadia Petrova", "Omar Haddad"),
          ("- [[Nadia Petrova]]: finance approved EUR 84,000 for the Beacon migration, "
           "contractors included",),
          (Ask("How much money did finance sign off for the billing migration?"),)),
    Plant(MIDDLE, "Beacon cutover plan", ("Omar Haddad", "Jonas Berg", "Tomas Rivera"),
          ("- [[Omar Haddad]]: cutover for Beacon is the weekend of {date+30}; [[Jonas Berg]] "
           "is on call",),
          (Ask("When is the billing switchover scheduled?"),
           Ask("What time zone is the engineer on call for the billing switchover in?",
               notes=(p("Jonas Berg", "timezone"),)))),
    Plant(EARLY, "Adyen pricing", ("Nadia Petrova", "Sam Okafor"),
          ("- [[Nadia Petrova]]: Adyen's blended rate comes out at 1.9% plus 10 cents per "
           "transaction",),
          (Ask("What card processing fees will we pay with the new provider?"),)),
    Plant(MIDDLE, "Beacon sync", ("Tomas Rivera", "Omar Haddad"),
          ("- [[Tomas Rivera]]: we run both billing systems side by side for 14 days before "
           "switching off the old one",),
          (Ask("How long will the old and new payment setups run in parallel?"),)),
    Plant(MIDDLE, "Thread in #beacon", ("Nadia Petrova", "Tomas Rivera"),
          ("- [[Nadia Petrova]]: invoices in CHF stay manual for now, Adyen can't settle them "
           "to our Swiss account yet",),
          (Ask("Which currency do we still have to bill by hand, and why?"),)),
    Plant(ANY, "Beacon staging bug", ("Tomas Rivera", "Jonas Berg"),
          ("- [[Tomas Rivera]]: every charge request carries an idempotency key now, retries "
           "were double-charging people in staging",),
          (Ask("What was causing duplicate charges in the test environment?"),)),
    Plant(MIDDLE, "Dunning rules", ("Nadia Petrova", "Grace Liu"),
          ("- [[Nadia Petrova]]: failed card payments get retried on day 1, 3 and 7, then the "
           "account is paused",),
          (Ask("What happens when a customer's card is declined, and on which days?"),)),
    Plant(MIDDLE, "1:1 Tomas / Omar", ("Tomas Rivera", "Omar Haddad"),
          ("- [[Tomas Rivera]]: I'm out from {date+10} to {date+24}, paternity leave",
           "- [[Omar Haddad]]: fine, [[Jonas Berg]] covers the webhook service until you're "
           "back"),
          (Ask("When will Tomas be away on leave?"),
           Ask("Who looks after the webhooks while Tomas is out?", lines=(0, 1)),
           Ask("Which city does the person covering the webhook service during Tomas' leave "
               "work from?", lines=(1,), notes=(p("Jonas Berg", "city"),)))),
    # Cobalt: the warehouse
    Plant(EARLY, "Cobalt decision", ("Aiko Tanaka", "Omar Haddad", "Nadia Petrova"),
          ("- Decision: Cobalt goes on BigQuery, Snowflake came in about 30% more expensive "
           "for our query mix",),
          (Ask("Why did we turn down Snowflake for the data warehouse?"),)),
    Plant(MIDDLE, "Cobalt sync", ("Aiko Tanaka", "Jonas Berg"),
          ("- [[Aiko Tanaka]]: nightly dbt run takes 41 minutes now, was 2 hours before the "
           "partitioning",),
          (Ask("How long does the nightly transformation job take after Aiko's changes?"),)),
    Plant(ANY, "Weekly metrics", ("Aiko Tanaka", "Maya Chen", "Ben Carter"),
          ("- [[Aiko Tanaka]]: weekly active users hit 12,480 last week, best week since "
           "October",),
          (Ask("What WAU figure did Aiko report in the weekly numbers?"),)),
    Plant(ANY, "Funnel review", ("Aiko Tanaka", "Sam Okafor"),
          ("- [[Aiko Tanaka]]: trial-to-paid conversion was 6.3% in {prev_month}",),
          (Ask("What share of free trials turned into paying accounts?"),)),
    Plant(EARLY, "Cobalt data retention", ("Jonas Berg", "Aiko Tanaka", "Isabel Souza"),
          ("- [[Jonas Berg]]: raw event tables keep 400 days, anything older goes to cold "
           "storage",),
          (Ask("How long is raw event data kept in the warehouse?"),)),
    Plant(ANY, "1:1 Aiko / Maya", ("Aiko Tanaka", "Maya Chen"),
          ("- [[Aiko Tanaka]]: I'd rather get data requests as a ticket with the question "
           "written out, not a DM",),
          (Ask("How does Aiko want people to ask her for an analysis?"),)),
    Plant(LATE, "Cobalt rollout", ("Omar Haddad", "Aiko Tanaka"),
          ("- [[Omar Haddad]]: Cobalt dashboards replace the Looker ones on {date+21}, the "
           "Looker licence ends that week",),
          (Ask("When do the old Looker reports get switched off?"),)),
    Plant(ANY, "Churn review", ("Aiko Tanaka", "Grace Liu", "Ben Carter"),
          ("- [[Aiko Tanaka]]: logo churn came in at 2.7% for {prev_month}, revenue churn "
           "lower at 1.4%",),
          (Ask("What percentage of customers cancelled last month according to Aiko?"),)),
    # Harbor: the customer portal
    Plant(MIDDLE, "Harbor planning", ("Grace Liu", "Lena Fischer", "Sam Okafor"),
          ("- [[Grace Liu]]: Harbor beta opens to 15 customers first, Kestrel Health and "
           "Northwind among them",),
          (Ask("How many accounts get early access to the customer portal?"),)),
    Plant(MIDDLE, "Harbor architecture", ("Tomas Rivera", "Grace Liu", "Omar Haddad"),
          ("- Decision: Harbor login uses Auth0 with SSO for enterprise accounts; [[Tomas "
           "Rivera]] owns the integration",),
          (Ask("What identity provider will handle sign-in for the self-service portal?"),)),
    Plant(ANY, "Portal design review", ("Lena Fischer", "Grace Liu"),
          ("- [[Lena Fischer]]: the invoice page in Harbor shows the last 24 months, older "
           "ones on request",),
          (Ask("How far back can customers look at their bills in the portal?"),)),
    Plant(LATE, "Harbor beta feedback", ("Grace Liu", "Lena Fischer"),
          ("- [[Grace Liu]]: top ask from portal beta users is a CSV export of usage",),
          (Ask("What are the portal's early users requesting the most?"),)),
    Plant(ANY, "Pinecrest deal", ("Sam Okafor", "Isabel Souza"),
          ("- [[Sam Okafor]]: Pinecrest Bank won't sign unless Harbor passes their pen test by "
           "{date+40}",),
          (Ask("What condition did the bank put on signing?"),)),
    Plant(LATE, "Support review", ("Grace Liu", "Ben Carter"),
          ("- [[Grace Liu]]: support tickets dropped 18% in the first month the portal was "
           "live",),
          (Ask("By how much did helpdesk volume fall after the portal launched?"),)),
    # sales and customers
    Plant(ANY, "Sales pipeline", ("Sam Okafor", "Ben Carter"),
          ("- [[Sam Okafor]]: Brightline Logistics signed, 220 seats at $38 a seat per month",),
          (Ask("What per-user price did Brightline agree to?"),)),
    Plant(ANY, "Lost deals", ("Sam Okafor", "Maya Chen"),
          ("- [[Sam Okafor]]: Mosaic Retail went with a competitor, they needed an on-prem "
           "install",),
          (Ask("Why did we lose Mosaic?"),)),
    Plant(EARLY, "Q1 forecast", ("Sam Okafor", "Ben Carter", "Nadia Petrova"),
          ("- [[Sam Okafor]]: Q1 pipeline stands at $1.2M, about 40% of it in Europe",),
          (Ask("How big is the sales pipeline for the first quarter?"),)),
    Plant(ANY, "Call with Northwind", ("Grace Liu", "Sam Okafor"),
          ("- [[Grace Liu]]: Northwind renewed for two years with a 5% uplift",),
          (Ask("On what terms did Northwind extend their contract?"),)),
    Plant(ANY, "Call with Alder & Finch", ("Sam Okafor", "Grace Liu"),
          ("- [[Sam Okafor]]: Alder & Finch want a 30-day pilot before any paperwork",),
          (Ask("What do Alder & Finch need before they commit to a contract?"),)),
    Plant(ANY, "Account health", ("Grace Liu", "Maya Chen"),
          ("- [[Grace Liu]]: Kestrel Health's admin asked for audit logs three times this "
           "month",),
          (Ask("Which feature does the Kestrel team keep asking us for?"),)),
    Plant(EARLY, "Sales team sync", ("Sam Okafor", "Ben Carter"),
          ("- [[Sam Okafor]]: reps can go up to 15% off without Ben signing off",),
          (Ask("How big a discount can salespeople offer without the CEO's approval?"),)),
    Plant(ANY, "Call with Orbit Foods", ("Ben Carter", "Sam Okafor"),
          ("- [[Ben Carter]]: Orbit Foods is paused until their new CFO starts in "
           "{next_month}",),
          (Ask("Why is the Orbit Foods deal on hold?"),)),
    # company
    Plant(MIDDLE, "Leadership sync", ("Ben Carter", "Nadia Petrova", "Omar Haddad"),
          ("- [[Ben Carter]]: offsite is in Lisbon, {date+35} to {date+37}",),
          (Ask("Where is the team retreat taking place?"),)),
    Plant(ANY, "Board prep", ("Ben Carter", "Nadia Petrova", "Aiko Tanaka"),
          ("- [[Ben Carter]]: board meeting moved to {date+9}, deck due to me two days "
           "before",),
          (Ask("When is the board meeting now, and when does Ben need the slides?"),)),
    Plant(EARLY, "Hiring sync", ("Omar Haddad", "Ben Carter"),
          ("- [[Omar Haddad]]: we're opening three backend roles and one SRE role this "
           "quarter",),
          (Ask("How many engineering positions is Omar recruiting for?"),)),
    Plant(ANY, "All-hands", ("Ben Carter", "Nadia Petrova"),
          ("- [[Ben Carter]]: runway is 26 months at the current burn",),
          (Ask("How long will our cash last, according to Ben?"),)),
    Plant(EARLY, "Finance Q&A", ("Nadia Petrova", "Sam Okafor"),
          ("- [[Nadia Petrova]]: travel spend is capped at EUR 1,500 per person per quarter",),
          (Ask("What's the quarterly travel allowance per employee?"),)),
    Plant(LATE, "Leadership sync", ("Ben Carter", "Aiko Tanaka", "Grace Liu"),
          ("- [[Ben Carter]]: all-hands moves to Thursdays at 16:00 UTC so [[Aiko Tanaka]] and "
           "[[Grace Liu]] can join",),
          (Ask("When does the company-wide meeting take place now?"),)),
    Plant(ANY, "Contract templates", ("Isabel Souza", "Sam Okafor"),
          ("- [[Isabel Souza]]: the DPA template now caps liability at 12 months of fees",),
          (Ask("What limit on liability is in our data processing agreement?"),)),
    Plant(MIDDLE, "Compliance sync", ("Isabel Souza", "Jonas Berg", "Sam Okafor"),
          ("- [[Isabel Souza]]: we need SOC 2 Type II before the Pinecrest contract, the audit "
           "window starts {date+14}",),
          (Ask("When does the SOC 2 audit period begin?"),)),
    Plant(ANY, "Legal update", ("Isabel Souza", "Ben Carter"),
          ("- [[Isabel Souza]]: trademark for the new name was filed in the EU and US, the UK "
           "is still pending",),
          (Ask("In which market is the trademark application still outstanding?"),)),
    Plant(EARLY, "People ops", ("Ben Carter", "Nadia Petrova"),
          ("- [[Ben Carter]]: we keep the four-day week pilot going until the end of June",),
          (Ask("Until when does the four-day work week trial run?"),)),
    # infrastructure and incidents
    Plant(EARLY, "Incident review", ("Jonas Berg", "Omar Haddad", "Tomas Rivera"),
          ("- [[Jonas Berg]]: root cause was an expired TLS certificate on the API gateway, "
           "37 minutes of errors",),
          (Ask("What broke the API gateway on {day}, and for how long?"),)),
    Plant(ANY, "On-call review", ("Jonas Berg", "Omar Haddad"),
          ("- [[Jonas Berg]]: we're moving alerting from Opsgenie to PagerDuty at the end of "
           "the month",),
          (Ask("Which paging tool is on-call switching to?"),)),
    Plant(ANY, "Search performance", ("Jonas Berg", "Tomas Rivera"),
          ("- [[Jonas Berg]]: p95 latency on the search API is 180 ms after the index rebuild",),
          (Ask("What is the 95th percentile response time of search now?"),)),
    Plant(ANY, "Cloud costs", ("Jonas Berg", "Nadia Petrova"),
          ("- [[Jonas Berg]]: the AWS bill for {prev_month} was $61,300, 8% over forecast",),
          (Ask("How much did we spend on hosting in {prev_month}?"),)),
    Plant(LATE, "Release planning", ("Omar Haddad", "Maya Chen", "Ravi Menon"),
          ("- [[Omar Haddad]]: code freeze starts {date+5} at noon, only hotfixes after that",),
          (Ask("When does the code freeze begin?"),)),
    Plant(MIDDLE, "Maintenance window", ("Tomas Rivera", "Jonas Berg"),
          ("- [[Tomas Rivera]]: Postgres goes from 13 to 16 in the maintenance window, "
           "downtime under 10 minutes",),
          (Ask("Which database version are we upgrading to, and how much downtime is "
               "expected?"),)),
    Plant(ANY, "Thread in #infra", ("Jonas Berg", "Omar Haddad"),
          ("- [[Jonas Berg]]: backups are now tested every Sunday by restoring into a scratch "
           "cluster",),
          (Ask("How often do we check that a backup can actually be restored?"),)),
    Plant(ANY, "Incident review", ("Jonas Berg", "Tomas Rivera", "Omar Haddad"),
          ("- [[Jonas Berg]]: the queue backlog peaked at 1.3 million jobs, workers were "
           "pinned to an old image",),
          (Ask("How large did the job queue get during the worker incident on {day}?"),)),
    # design and process
    Plant(ANY, "Design team sync", ("Lena Fischer", "Maya Chen"),
          ("- [[Lena Fischer]]: design critiques move to async Loom videos, live crits only "
           "for big flows",),
          (Ask("How will design feedback sessions work from now on?"),)),
    Plant(EARLY, "Tooling decision", ("Omar Haddad", "Maya Chen", "Tomas Rivera"),
          ("- Decision: we drop Jira and move all tickets to Linear by {date+15}",),
          (Ask("Which issue tracker are we switching to, and by when?"),)),
    Plant(ANY, "Roadmap", ("Maya Chen", "Ben Carter"),
          ("- [[Maya Chen]]: roadmap review happens on the first Monday of every month",),
          (Ask("How often does the product plan get reviewed?"),)),
    Plant(MIDDLE, "Engineering sync", ("Omar Haddad", "Tomas Rivera", "Ravi Menon"),
          ("- [[Omar Haddad]]: sprints go from two weeks to one week for the rest of the "
           "quarter",),
          (Ask("What iteration length did Omar settle on?"),)),
    Plant(ANY, "Brand refresh", ("Lena Fischer", "Ben Carter"),
          ("- [[Lena Fischer]]: new brand colour is #2F6FED, the old teal is retired",),
          (Ask("What's the hex code of our new primary color?"),)),
    # preferences said in passing
    Plant(ANY, "1:1 Ben / Aiko", ("Ben Carter", "Aiko Tanaka"),
          ("- [[Ben Carter]]: send me the weekly numbers as a one-page PDF, I read them on the "
           "train",),
          (Ask("In what format does Ben want the weekly metrics?"),)),
    Plant(ANY, "1:1 Omar / Jonas", ("Omar Haddad", "Jonas Berg"),
          ("- [[Omar Haddad]]: no meetings for me before 10, I do code review first thing",),
          (Ask("Can I book Omar for an early-morning call?"),)),
    Plant(ANY, "Finance reminders", ("Nadia Petrova", "Lena Fischer"),
          ("- [[Nadia Petrova]]: expense claims need the actual receipt, screenshots of card "
           "statements don't count",),
          (Ask("What proof does Nadia require when someone files expenses?"),)),
    Plant(ANY, "Renewals sync", ("Grace Liu", "Sam Okafor"),
          ("- [[Grace Liu]]: please loop me in on any customer email that mentions cancelling",),
          (Ask("When should Grace be copied on messages from customers?"),)),
    Plant(ANY, "Team dinner", ("Sam Okafor", "Lena Fischer"),
          ("- [[Sam Okafor]]: I'm vegetarian, so the dinner place needs real veggie options",),
          (Ask("Does Sam have any dietary restrictions?"),)),
    Plant(ANY, "1:1 Maya / Lena", ("Maya Chen", "Lena Fischer"),
          ("- [[Maya Chen]]: I prefer spec feedback as Google Docs comments, not Slack "
           "threads",),
          (Ask("Where does Maya want to receive comments on product specs?"),)),
    # hand-overs whose question needs the person's note
    Plant(ANY, "Customer advisory board", ("Ben Carter", "Grace Liu"),
          ("- [[Ben Carter]]: [[Grace Liu]] runs the customer advisory board from now on",),
          (Ask("In which city is the person now running the customer advisory board?",
               notes=(p("Grace Liu", "city"),)),)),
    Plant(MIDDLE, "Atlas release train", ("Omar Haddad", "Ravi Menon", "Maya Chen"),
          ("- [[Omar Haddad]]: [[Ravi Menon]] leads the Atlas release train until launch",),
          (Ask("Which timezone is the Atlas release lead in, so I can schedule with them?",
               notes=(p("Ravi Menon", "timezone"),)),)),
    Plant(ANY, "Legal intake", ("Maya Chen", "Isabel Souza", "Sam Okafor"),
          ("- [[Maya Chen]]: from now on [[Isabel Souza]] reviews every customer contract over "
           "$50k",),
          (Ask("Who checks large customer contracts, what is their role and what time zone "
               "are they in?", notes=(p("Isabel Souza", "role"), p("Isabel Souza", "timezone"))),
           )),
    Plant(LATE, "Pinecrest negotiation", ("Sam Okafor", "Nadia Petrova"),
          ("- [[Sam Okafor]]: [[Nadia Petrova]] joins the Pinecrest pricing call on Thursday",),
          (Ask("The finance person joining the Pinecrest call: what time zone is she in?",
               notes=(p("Nadia Petrova", "timezone"),)),)),
    Plant(ANY, "Board prep", ("Ben Carter", "Aiko Tanaka"),
          ("- [[Ben Carter]]: [[Aiko Tanaka]] owns the churn deep-dive for the board pack",),
          (Ask("What's the local time zone of whoever is doing the churn analysis for the "
               "board?", notes=(p("Aiko Tanaka", "timezone"),)),)),
    Plant(ANY, "Cobalt access", ("Aiko Tanaka", "Jonas Berg"),
          ("- [[Aiko Tanaka]]: warehouse access requests go through [[Jonas Berg]], not me",),
          (Ask("Who grants access to the data warehouse, and what does that person do?",
               notes=(p("Jonas Berg", "role"),)),)),
]
NOTE_ASKS = [
    Ask("What's Lena's time zone?", (), (p("Lena Fischer", "timezone"),)),
    Ask("Which city does Tomas work from?", (), (p("Tomas Rivera", "city"),)),
    Ask("What does Isabel do at the company?", (), (p("Isabel Souza", "role"),)),
    Ask("Does Ravi like pairing or written specs better?", (), (p("Ravi Menon", "style1"),)),
    Ask("Which days is Sam usually out visiting clients?", (), (p("Sam Okafor", "style1"),)),
    Ask("When does Nadia close the monthly books?", (), (p("Nadia Petrova", "style2"),)),
    Ask("How does Omar want estimates?", (), (p("Omar Haddad", "style2"),)),
    Ask("Who owns the Cobalt project?", (), (("Projects/Cobalt", "owner"),)),
    Ask("Who is in charge of the customer portal project?", (), (("Projects/Harbor", "owner"),)),
]
STATUS = [
    "- [[{p}]]: still heads down on {proj}, nothing blocking",
    "- [[{p}]]: blocked on review for the {proj} branch, can someone take a look?",
    "- [[{p}]]: closed {n} tickets yesterday, mostly small {proj} bugs",
    "- [[{p}]]: out early today, dentist",
    "- [[{p}]]: no news from my side",
    "- [[{p}]]: pairing with [[{q}]] on {proj} this afternoon",
    "- [[{p}]]: the {proj} demo went fine, a few questions about timelines",
    "- [[{p}]]: writing up the {proj} notes, will share by end of day",
    "- [[{p}]]: in interviews most of the day",
    "- [[{p}]]: flaky test in the {proj} pipeline again, a rerun fixed it",
    "- [[{p}]]: catching up on email after yesterday's calls",
    "- [[{p}]]: finishing the {proj} estimates, I'd like another pair of eyes",
    "- [[{p}]]: staging is slow again, looking into it",
    "- [[{p}]]: prepping for the {cust} call",
]
Talk = tuple[str, ...]  # one remark, or a remark and the reply to it
CHAT: list[Talk] = [
    ("- [[{p}]]: quick one, where does the {proj} dashboard live these days?",
     "- [[{q}]]: pinned it in the channel"),
    ("- [[{p}]]: I think we're overthinking the {proj} rollout",
     "- [[{q}]]: maybe, but I'd rather be careful with {cust} watching"),
    ("- [[{p}]]: the {proj} launch checklist still has {n} open items",
     "- [[{q}]]: most of them are copy changes, I'll clear them"),
    ("- [[{p}]]: the budget conversation for {proj} is next week, not today",),
    ("- [[{p}]]: we should revisit the date once QA has numbers",
     "- [[{q}]]: agreed, no point guessing before that"),
    ("- [[{p}]]: can we push this to tomorrow? I'm in back-to-back calls",
     "- [[{q}]]: sure, I'll move it"),
    ("- [[{p}]]: the docs for {proj} are out of date, I'll fix the README",),
    ("- [[{p}]]: the vendor sent a revised quote, still too high",
     "- [[{q}]]: ask them for a two-year price, that usually moves things"),
    ("- [[{p}]]: sprint goal mostly met, {n} stories carry over",),
    ("- [[{p}]]: found an edge case in the {proj} import, empty files crash it",
     "- [[{q}]]: good catch, I'll add a test for that"),
    ("- [[{p}]]: I'll put a proposal in the {proj} channel",
     "- [[{q}]]: sounds good"),
    ("- [[{p}]]: we need a decision on this soon",
     "- [[{q}]]: not a blocker yet, but worth tracking"),
    ("- [[{p}]]: let's timebox this to fifteen minutes",),
    ("- [[{p}]]: status for {proj} is yellow, mostly scope creep",
     "- [[{q}]]: I can help trim the list after lunch"),
    ("- [[{p}]]: who's on call this weekend?",
     "- [[{q}]]: checking the rota, will reply in the thread"),
    ("- [[{p}]]: I've been going back and forth on the onboarding flow again",),
    ("- [[{p}]]: numbers for {proj} look about the same as last week",),
    ("- [[{p}]]: the board deck template is in the shared drive",),
    ("- [[{p}]]: tried the new build on my phone, login felt snappier",
     "- [[{q}]]: same here, though the settings page still lags"),
    ("- [[{p}]]: let's take the details offline",),
    ("- [[{p}]]: {cust} asked about pricing again, sent them the standard deck",),
    ("- [[{p}]]: can we add the reporting idea to {proj}?",
     "- [[{q}]]: I'd park that until after the milestone"),
    ("- [[{p}]]: did anyone read the {proj} risk list? I added {n} items",),
    ("- [[{p}]]: the cost numbers are still rough, don't quote them yet",
     "- [[{q}]]: noted, I'll keep them out of the customer update"),
    ("- [[{p}]]: thanks everyone, good session",),
    ("- [ ] [[{p}]] to send the notes to the group",),
    ("- [ ] [[{p}]] to follow up with {cust}",),
    ("- [ ] [[{q}]] to update the {proj} tracker",),
    ("- [x] [[{p}]] shared the {proj} demo recording",),
    ("Discussed the {proj} timeline; nothing final yet.",),
    ("Short one, mostly status. Action items are in the {proj} tracker.",),
    ("Ran over time again; the second half moves to {wd}.",),
]
PROJECT_CHAT: dict[str, list[Talk]] = {
    "Atlas": [("- [[{p}]]: the Android build is green again",),
              ("- [[{p}]]: QA found {n} new crashes on older phones",
               "- [[{q}]]: send me the device list, I'll reproduce them"),
              ("- [[{p}]]: launch comms draft for Atlas is in the doc, comments welcome",),
              ("- [[{p}]]: offline mode still loses drafts when the app is killed",)],
    "Beacon": [("- [[{p}]]: the Adyen sandbox credentials finally arrived",),
               ("- [[{p}]]: webhook retries look fine in staging",),
               ("- [[{p}]]: finance wants a reconciliation report after the cutover",
                "- [[{q}]]: I'll draft the columns this week"),
               ("- [[{p}]]: the Beacon runbook needs a rollback section",)],
    "Cobalt": [("- [[{p}]]: dbt models for invoices are merged",),
               ("- [[{p}]]: the warehouse cost dashboard is up",),
               ("- [[{p}]]: sales wants pipeline data in Cobalt too",
                "- [[{q}]]: after the core tables are stable, not before"),
               ("- [[{p}]]: event schema v2 is documented in the glossary",)],
    "Harbor": [("- [[{p}]]: portal invite emails will go out in batches",),
               ("- [[{p}]]: the usage page mockups are ready for review",),
               ("- [[{p}]]: customers keep asking when the portal opens",
                "- [[{q}]]: tell them spring, no exact date yet"),
               ("- [[{p}]]: the Harbor API needs rate limits before beta",)],
}
CUSTOMER_CHAT: list[Talk] = [
    ("- [[{p}]]: {cust} is happy overall, a few complaints about slow exports",),
    ("- [[{p}]]: {cust} wants a call about the contract next week",
     "- [[{q}]]: I'll send a few slots"),
    ("- [[{p}]]: their new ops lead joined the call, seems sharp",),
    ("- [[{p}]]: renewal with {cust} comes up next quarter",),
    ("- [[{p}]]: {cust} asked for a named contact in support",
     "- [[{q}]]: I'll send them the onboarding guide again and introduce myself"),
    ("- [[{p}]]: usage at {cust} is up since the last release",),
]
SMALL_TALK: list[Talk] = [
    ("- [[{p}]]: anyone tried the new ramen place near the office?",
     "- [[{q}]]: yes, long queue but worth it"),
    ("- [[{p}]]: the coffee machine on the third floor is fixed, finally",),
    ("- [[{p}]]: photos from the hike are in the random channel",
     "- [[{q}]]: the view from the top was unreal"),
    ("- [[{p}]]: book club picks a new book on {wd}",),
    ("- [[{p}]]: my kid's school is closed {wd}, I'll work from home",),
]
GENERIC_TITLES = ["{proj} sync", "Thread in #{lproj}", "1:1 {a} / {b}", "Planning", "Retro",
                  "{proj} design review", "Call with {cust}", "Lunch chat", "Weekly review",
                  "Quick sync", "{proj} status"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
DATE_SLOT = re.compile(r"\{date\+(\d+)\}")


def weekdays(days: int) -> list[dt.date]:
    """``days`` consecutive weekdays from START."""
    out: list[dt.date] = []
    day = START
    while len(out) < days:
        if day.weekday() < 5:
            out.append(day)
        day += dt.timedelta(days=1)
    return out


def spoken(day: dt.date) -> str:
    """A date as people write it: ``March 3``."""
    return f"{day:%B} {day.day}"


def fill_dates(text: str, day: dt.date) -> str:
    """``{date+N}``, ``{prev_month}``, ``{next_month}`` and ``{day}`` for a note of ``day``."""
    text = DATE_SLOT.sub(lambda m: spoken(day + dt.timedelta(days=int(m.group(1)))), text)
    first = day.replace(day=1)
    previous = first - dt.timedelta(days=1)
    following = (first + dt.timedelta(days=32)).replace(day=1)
    return (text.replace("{prev_month}", f"{previous:%B}")
            .replace("{next_month}", f"{following:%B}").replace("{day}", spoken(day)))


def filler(rng: random.Random, pool: list[Talk], people: list[str], count: int,
           project: str | None = None, customer: str | None = None) -> list[list[str]]:
    """Remarks (with their replies) from ``pool`` between ``people``, at most ``count`` lines
    in all, mostly about ``project`` (when given) and ``customer``."""
    talks: list[list[str]] = []
    used = 0
    for talk in rng.sample(pool, len(pool)):
        if used + len(talk) > count:
            continue
        a, b = rng.sample(people, 2) if len(people) > 1 else (people[0], people[0])
        about = project if project and rng.random() < 0.75 else rng.choice(PROJECTS).name
        slots = {"p": a, "q": b, "proj": about, "cust": customer or rng.choice(CUSTOMERS),
                 "n": rng.randint(2, 9), "wd": rng.choice(WEEKDAYS)}
        talks.append([line.format(**slots) for line in talk])
        used += len(talk)
    return sorted(talks, key=placement)


def placement(talk: list[str]) -> int:
    """Summaries open an entry, tasks and thanks close it, talk goes between."""
    if talk[0].startswith(("Discussed", "Short one", "Ran over")):
        return 0
    return 2 if talk[0].startswith(("- [ ]", "- [x]")) or "thanks everyone" in talk[0] else 1


def attendees(people: list[str]) -> str:
    """The ``Attendees:`` line of a meeting."""
    return "Attendees: " + ", ".join(f"[[{name}]]" for name in people)


def project_of(title: str, people: tuple[str, ...]) -> Project:
    """The project a plant is about: named in its title, else the first one a person is in."""
    for project in PROJECTS:
        if project.name in title:
            return project
    return next((pr for pr in PROJECTS if people[0] in pr.members), PROJECTS[0])


def fact_entry(rng: random.Random, plant: Plant, day: dt.date) -> Entry:
    """An entry holding the plant's lines among 2-6 filler lines (3-8 lines in all)."""
    people = list(plant.people)
    extra = [name for name in sorted(BY_NAME) if name not in people]
    if rng.random() < 0.5:
        people.append(rng.choice(extra))
    project = project_of(plant.title, plant.people)
    pool = CHAT + PROJECT_CHAT[project.name]
    room = 8 - len(plant.lines)
    talks = filler(rng, pool, people, rng.randint(2, min(6, room)), project.name)
    if rng.random() < 0.4 and sum(map(len, talks)) + len(plant.lines) < 8:
        talks.insert(0, [attendees(people)])
    low = 1 if talks and talks[0][0].startswith("Attendees") else 0
    at = rng.randint(low, len(talks))
    entry = Entry(plant.title, [line for talk in talks[:at] for line in talk], {})
    for index, text in enumerate(plant.lines):
        entry.facts[len(entry.lines)] = (plant, index)
        entry.lines.append(fill_dates(text, day))
    entry.lines += [line for talk in talks[at:] for line in talk]
    return entry


def standup(rng: random.Random) -> Entry:
    """A standup: one status line for each of 3-6 people."""
    people = rng.sample(sorted(BY_NAME), rng.randint(3, 6))
    lines: list[str] = []
    for template in rng.sample(STATUS, len(people)):
        name = people[len(lines)]
        other = rng.choice([n for n in people if n != name])
        lines.append(template.format(p=name, q=other, proj=rng.choice(PROJECTS).name,
                                     cust=rng.choice(CUSTOMERS), n=rng.randint(2, 9)))
    return Entry("Standup", lines)


def generic_entry(rng: random.Random) -> Entry:
    """A meeting, thread, 1:1, customer call or chat of 3-8 filler lines."""
    template = rng.choice(GENERIC_TITLES)
    project = rng.choice(PROJECTS)
    customer = rng.choice(CUSTOMERS)
    people = rng.sample(list(dict.fromkeys([*project.members, "Ben Carter", "Sam Okafor"])), 3)
    a, b = people[0].split()[0], people[1].split()[0]
    title = template.format(proj=project.name, lproj=project.name.lower(), a=a, b=b,
                            cust=customer)
    if "1:1" in title:
        people = people[:2]
    pool = CHAT + PROJECT_CHAT[project.name]
    if template.startswith("Call"):
        people = list(dict.fromkeys(["Sam Okafor", "Grace Liu", people[0]]))
        pool = CUSTOMER_CHAT
    elif template == "Lunch chat":
        pool = SMALL_TALK
    count = rng.randint(3, min(8, sum(map(len, pool))))
    lines = [line for talk in filler(rng, pool, people, count, project.name, customer)
             for line in talk]
    if template in ("Planning", "Retro", "Weekly review") and len(lines) < 8:
        lines.insert(0, attendees(people))
    return Entry(title, lines)


def place(rng: random.Random, plants: list[Plant], days: int) -> dict[int, list[Plant]]:
    """Each plant on a day of its window, the least used days first (ties drawn at random)."""
    by_day: dict[int, list[Plant]] = {i: [] for i in range(days)}
    for plant in plants:
        low = min(days - 1, int(plant.window[0] * days))
        high = max(low, min(days - 1, int(plant.window[1] * days) - 1))
        window = list(range(low, high + 1))
        fewest = min(len(by_day[i]) for i in window)
        by_day[rng.choice([i for i in window if len(by_day[i]) == fewest])].append(plant)
    return by_day


def day_entries(rng: random.Random, day: dt.date, plants: list[Plant]) -> list[Entry]:
    """The entries of one day, in time order: an optional standup, facts and filler."""
    entries = [fact_entry(rng, plant, day) for plant in plants]
    total = max(len(entries) + 1, rng.randint(3, 5))
    while len(entries) < total:
        entries.append(generic_entry(rng))
    rng.shuffle(entries)
    if rng.random() < 0.6:
        entries.insert(0, standup(rng))
    return entries


def render_daily(rng: random.Random, day: dt.date, entries: list[Entry]
                 ) -> tuple[str, dict[tuple[str, int], int]]:
    """The daily note's text and the file line of each planted (plant title, line index)."""
    lines = ["---", "type: daily", f"date: {day.isoformat()}", "tags: [daily]", "---",
             f"# {day.isoformat()}"]
    slots = sorted(rng.sample(range(8 * 12, 18 * 12), len(entries)))
    where: dict[tuple[str, int], int] = {}
    for entry, slot in zip(entries, slots, strict=True):
        lines += ["", f"### {slot // 12:02d}:{slot % 12 * 5:02d} — {entry.title}"]
        for index, text in enumerate(entry.lines):
            lines.append(text)
            if index in entry.facts:
                plant, number = entry.facts[index]
                where[(id_of(plant), number)] = len(lines)
    return "\n".join(lines) + "\n", where


def id_of(plant: Plant) -> str:
    """A plant's key: its first fact line (unique)."""
    return plant.lines[0]


def person_note(person: Person) -> str:
    """A People/ note; field lines as in NOTE_LINES."""
    projects = [pr for pr in PROJECTS if person.name in pr.members]
    lines = ["---", "type: person", f"aliases: [{person.name.split()[0]}]",
             f"role: {person.role}", f"timezone: {person.timezone}", f"team: {person.team}",
             "---", f"# {person.name}", "", f"Based in {person.city}. {person.bio}", "",
             "## Working style", f"- {person.style[0]}", f"- {person.style[1]}", "",
             "## Projects"]
    lines += [f"- [[{pr.name}]]" + (" (owner)" if pr.owner == person.name else "")
              for pr in projects] or ["- none right now"]
    return "\n".join(lines) + "\n"


def project_note(project: Project) -> str:
    """A Projects/ note; ``owner`` on line 4."""
    lines = ["---", "type: project", f"status: {project.status}",
             f'owner: "[[{project.owner}]]"', "members:"]
    lines += [f'  - "[[{name}]]"' for name in project.members]
    lines += ["---", f"# {project.name}", "", project.goal]
    return "\n".join(lines) + "\n"


def prepare(out: Path) -> None:
    """Empty ``out`` when it is a vault made by this script; refuse anything else."""
    if out.exists() and any(out.iterdir()):
        if not (out / MARKER).is_file() or not (out / "Daily").is_dir():
            raise SystemExit(f"{out} exists and is not a generated conversation vault")
        shutil.rmtree(out)
    (out / ".obsidian").mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text(json.dumps({"folder": "Daily", "format": "YYYY-MM-DD"}) + "\n",
                              encoding="utf-8")


def write_notes(out: Path) -> None:
    """People and project notes."""
    for folder in ("People", "Projects"):
        (out / folder).mkdir()
    for person in PEOPLE:
        (out / "People" / f"{person.name}.md").write_text(person_note(person), encoding="utf-8")
    for project in PROJECTS:
        (out / "Projects" / f"{project.name}.md").write_text(project_note(project),
                                                             encoding="utf-8")


def question(ask: Ask, note: str | None, lines: dict[int, int], day: dt.date | None) -> Question:
    """One question with its evidence (daily lines first, then People/Projects lines)."""
    evidence: list[dict[str, Any]] = [{"note": note, "line": lines[i]} for i in ask.lines] \
        if note else []
    evidence += [{"note": other, "line": NOTE_LINES[item]} for other, item in ask.notes]
    text = fill_dates(ask.text, day) if day else ask.text
    return {"question": text, "evidence": evidence, "agent": None}


def check_unique(out: Path, questions: list[Question]) -> None:
    """Every daily evidence line is unique in the vault (so its text identifies it)."""
    seen: dict[str, int] = {}
    for path in sorted(out.rglob("*.md")):
        for line in path.read_text(encoding="utf-8").splitlines():
            seen[line.strip()] = seen.get(line.strip(), 0) + 1
    for q in questions:
        for ev in q["evidence"]:
            text = (out / f"{ev['note']}.md").read_text(encoding="utf-8").splitlines()
            line = text[ev["line"] - 1].strip()
            if not line or (str(ev["note"]).startswith("Daily/") and seen[line] != 1):
                raise AssertionError(f"evidence line not unique: {ev} {line!r}")


def generate_conversations(out: Path, days: int = 120, seed: int = 3) -> list[Question]:
    """Write the vault into ``out`` and return its questions (see the module docstring)."""
    rng = random.Random(seed)
    out = Path(out)
    prepare(out)
    write_notes(out)
    (out / "Daily").mkdir()
    dates = weekdays(days)
    by_day = place(rng, PLANTS, days)
    where: dict[str, tuple[str, dt.date, dict[int, int]]] = {}
    for index, day in enumerate(dates):
        text, lines = render_daily(rng, day, day_entries(rng, day, by_day[index]))
        (out / "Daily" / f"{day.isoformat()}.md").write_text(text, encoding="utf-8")
        for (key, number), line in lines.items():
            where.setdefault(key, (f"Daily/{day.isoformat()}", day, {}))[2][number] = line
    questions = [question(ask, where[id_of(plant)][0], where[id_of(plant)][2],
                          where[id_of(plant)][1])
                 for plant in PLANTS for ask in plant.asks]
    questions += [question(ask, None, {}, None) for ask in NOTE_ASKS]
    check_unique(out, questions)
    return questions


def main(argv: list[str] | None = None) -> int:
    """Command line: write the vault and ``OUT.questions.json``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--days", type=int, default=120)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args(argv)
    questions = generate_conversations(args.out, args.days, args.seed)
    target = args.out.with_name(args.out.name + ".questions.json")
    target.write_text(json.dumps(questions, indent=1, ensure_ascii=False) + "\n",
                      encoding="utf-8")
    print(f"{args.days} daily notes and {len(questions)} questions in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
