import { Link } from "react-router";
import { Gift, Medal, ShieldCheck, Swords, Trophy, UserPlus, Wallet } from "lucide-react";
import { FAIR_PLAY_GUARANTEE } from "@common/messages";
import { minLevelLabel } from "@common/domain/levels";
import { formatCents } from "@common/domain/money";
import { prizePoolFromFees, splitPrizePool } from "@common/domain/prizes";
import {
  CANCEL_AFTER_DELAY_MS,
  FEE_TIERS,
  MIN_PLAYERS_PAID,
  OPTIONS_PER_QUESTION,
  PRIZE_SHARES_BPS,
  QUESTION_TIME_MS,
  QUESTIONS_PER_TOURNAMENT,
} from "@common/spec";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "@/components/ui/accordion";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { ScoringRules } from "@/components/scoring-rules";

const STEPS = [
  { icon: UserPlus, title: "Create Account", text: "Register with a username, email and password. It is free." },
  {
    icon: Trophy,
    title: "Join Tournament",
    text: "Choose a tournament by category, level and entry fee. Paid entries come out of your balance.",
  },
  {
    icon: Swords,
    title: "Compete",
    text:
      `When it goes live, answer ${QUESTIONS_PER_TOURNAMENT} multiple-choice questions with ${QUESTION_TIME_MS / 1000} seconds each. ` +
      "Paid tournaments are live shows: everyone gets each question at the same moment, and the answer is revealed when time is up.",
  },
  {
    icon: Wallet,
    title: "Win & Withdraw",
    text: "The top three share the prize pool. Prizes land in your balance; withdraw them to your bank account.",
  },
];

const PLACES = ["1st", "2nd", "3rd"];
const EXAMPLE = { feeCents: 1000, players: 20 };
const minutes = (ms: number) => ms / 60_000;

export default function HowItWorksPage() {
  const collected = EXAMPLE.feeCents * EXAMPLE.players;
  const pool = prizePoolFromFees(collected);
  const split = splitPrizePool(pool, PRIZE_SHARES_BPS.length);

  return (
    <div>
      <section className="border-b border-border bg-gradient-to-br from-violet-950 via-background to-indigo-950">
        <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:py-20">
          <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">How Trivia Arena Works</h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">
            Live tournaments, timed questions, real prize pools. Here is everything you need to know before your first game.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Button size="lg" asChild>
              <Link to="/tournaments">Browse Tournaments</Link>
            </Button>
            <Button size="lg" variant="outline" asChild>
              <Link to="/auth">Create Account</Link>
            </Button>
          </div>
        </div>
      </section>

      <div className="mx-auto max-w-6xl space-y-16 px-4 py-12 sm:py-16">
        <section aria-labelledby="steps">
          <h2 id="steps" className="text-2xl font-bold">
            Four steps
          </h2>
          <ol className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {STEPS.map((s, i) => (
              <li key={s.title} className="rounded-xl border border-border bg-card p-5">
                <s.icon className="h-7 w-7 text-primary" aria-hidden />
                <h3 className="mt-3 font-semibold">
                  {i + 1}. {s.title}
                </h3>
                <p className="mt-1 text-sm text-muted-foreground">{s.text}</p>
              </li>
            ))}
          </ol>
        </section>

        <section aria-labelledby="types">
          <h2 id="types" className="text-2xl font-bold">
            Tournament types
          </h2>
          <div className="mt-6 grid gap-4 md:grid-cols-2 lg:grid-cols-3">
            <Card>
              <CardHeader>
                <CardTitle className="flex items-center gap-2">
                  <Gift className="h-5 w-5 text-success" aria-hidden /> Free & Practice
                </CardTitle>
              </CardHeader>
              <CardContent className="space-y-2 text-sm text-muted-foreground">
                <p>
                  Practice tournaments are always open: no entry fee, no minimum number of players, no level requirement. They award XP but
                  no prizes.
                </p>
                <p>Other free tournaments may carry a prize pool funded by the house.</p>
                <Link to="/tournaments?price=free" className="inline-block font-medium text-primary hover:underline">
                  Free tournaments
                </Link>
              </CardContent>
            </Card>
            {FEE_TIERS.map((tier) => (
              <Card key={tier.name}>
                <CardHeader>
                  <CardTitle className="flex items-center gap-2">
                    <Medal className="h-5 w-5 text-primary" aria-hidden /> {tier.label} tournaments
                  </CardTitle>
                </CardHeader>
                <CardContent className="space-y-2 text-sm text-muted-foreground">
                  <p>
                    Entry fee <span className="font-semibold text-foreground">${formatCents(tier.entryFeeCents)}</span>, up to{" "}
                    {tier.maxParticipants} players.
                  </p>
                  <p>{minLevelLabel(tier.minLevel)}.</p>
                  {tier.name === "premium" && (
                    <Link to="/tournaments?price=premium" className="inline-block font-medium text-primary hover:underline">
                      Premium tournaments
                    </Link>
                  )}
                </CardContent>
              </Card>
            ))}
          </div>
        </section>

        <section aria-labelledby="scoring">
          <h2 id="scoring" className="text-2xl font-bold">
            Scoring
          </h2>
          <Card className="mt-6">
            <CardContent className="pt-6">
              <ScoringRules />
            </CardContent>
          </Card>
        </section>

        <section aria-labelledby="prizes">
          <h2 id="prizes" className="text-2xl font-bold">
            Prize distribution
          </h2>
          <p className="mt-2 max-w-3xl text-muted-foreground">
            For example, {EXAMPLE.players} players paying ${formatCents(EXAMPLE.feeCents)} each bring in ${formatCents(collected)}. The
            platform fee is ${formatCents(collected - pool)}, leaving a prize pool of ${formatCents(pool)}:
          </p>
          <ul className="mt-4 grid gap-4 sm:grid-cols-3">
            {split.map((cents, i) => (
              <li key={PLACES[i]} className="rounded-xl border border-border bg-card p-5 text-center">
                <p className="text-sm text-muted-foreground">
                  {PLACES[i]} place · {PRIZE_SHARES_BPS[i]! / 100}%
                </p>
                <p className="mt-1 text-3xl font-bold">${formatCents(cents)}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="requirements">
          <h2 id="requirements" className="text-2xl font-bold">
            Requirements
          </h2>
          <ul className="mt-4 grid gap-3 text-sm md:grid-cols-2">
            {[
              "A free account. You must be signed in to join and play.",
              "Enough balance for the entry fee of a paid tournament (deposit by card from your dashboard).",
              "The tournament's level requirement. You level up with the XP you earn by playing.",
              `A paid tournament starts once it has ${MIN_PLAYERS_PAID} players; if it is still short ${minutes(CANCEL_AFTER_DELAY_MS)} minutes after its start time, it is cancelled and every entry fee refunded.`,
            ].map((text) => (
              <li key={text} className="flex gap-3 rounded-lg border border-border p-4">
                <ShieldCheck className="h-5 w-5 shrink-0 text-primary" aria-hidden />
                <span className="text-muted-foreground">{text}</span>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="faq">
          <h2 id="faq" className="text-2xl font-bold">
            Frequently asked questions
          </h2>
          <Accordion type="single" collapsible className="mt-4">
            <AccordionItem value="timer">
              <AccordionTrigger>What happens if I run out of time?</AccordionTrigger>
              <AccordionContent>
                If you picked an answer, it is submitted for you when the timer reaches zero. If you did not, the question scores 0. The
                next one follows: in a live show after the answer is revealed, for everyone at once.
              </AccordionContent>
            </AccordionItem>
            <AccordionItem value="reload">
              <AccordionTrigger>What if my connection drops during a question?</AccordionTrigger>
              <AccordionContent>
                The timer runs on our servers. Reopen the tournament and you are back on the same question with the time that is left.
              </AccordionContent>
            </AccordionItem>
            <AccordionItem value="format">
              <AccordionTrigger>How many questions are there?</AccordionTrigger>
              <AccordionContent>
                {QUESTIONS_PER_TOURNAMENT} per tournament, {OPTIONS_PER_QUESTION} possible answers each, getting harder as you go: easy
                first, hard at the end.
              </AccordionContent>
            </AccordionItem>
            <AccordionItem value="prizes">
              <AccordionTrigger>When do I get my prize?</AccordionTrigger>
              <AccordionContent>
                As soon as the tournament ends, prizes are added to the winners' balances, unless the play was flagged as bot-like or
                colluding: then the prize is held for review and your dashboard shows it as under review. You can withdraw prizes to a bank
                account from your dashboard.
              </AccordionContent>
            </AccordionItem>
            <AccordionItem value="fair-play">
              <AccordionTrigger>How do I know the game is fair?</AccordionTrigger>
              <AccordionContent>
                <ul className="list-disc space-y-1 pl-5">
                  {FAIR_PLAY_GUARANTEE.map((claim) => (
                    <li key={claim}>{claim}</li>
                  ))}
                </ul>
                <Link to="/verify-receipt" className="mt-2 inline-block font-medium text-primary hover:underline">
                  Check an answer receipt
                </Link>
              </AccordionContent>
            </AccordionItem>
            <AccordionItem value="cancel">
              <AccordionTrigger>What if not enough players join?</AccordionTrigger>
              <AccordionContent>
                The start waits for {MIN_PLAYERS_PAID} players. After {minutes(CANCEL_AFTER_DELAY_MS)} minutes without them the tournament
                is cancelled and your entry fee goes back to your balance.
              </AccordionContent>
            </AccordionItem>
          </Accordion>
        </section>

        <section className="rounded-2xl border border-border bg-gradient-to-r from-violet-900/50 to-indigo-900/50 px-6 py-10 text-center">
          <h2 className="text-2xl font-bold">Ready for your first tournament?</h2>
          <p className="mx-auto mt-2 max-w-lg text-muted-foreground">Start with a free practice quiz, then move up to prize tournaments.</p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Button asChild>
              <Link to="/tournaments">Find a Tournament</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/contact">Contact Us</Link>
            </Button>
          </div>
        </section>
      </div>
    </div>
  );
}
