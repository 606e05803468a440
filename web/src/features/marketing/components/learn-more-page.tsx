import { Link } from "react-router";
import { BookOpen, Brain, Coins, Swords } from "lucide-react";
import { TIERS, feeTierLabel, tierForLevel, tierLabel } from "@common/domain/levels";
import {
  CANCEL_AFTER_DELAY_MS,
  DIFFICULTY_RAMP,
  FEE_TIERS,
  MIN_PLAYERS_PAID,
  OPTIONS_PER_QUESTION,
  PAUSE_AFTER_ANSWER_MS,
  PLACEMENT_XP,
  PLATFORM_FEE_SHARE,
  PRIZE_SHARES_BPS,
  QUESTION_TIME_MS,
  QUESTIONS_PER_TOURNAMENT,
  REVEAL_PAUSE_MS,
  SCHEDULE_SPACING_MS,
  TOURNAMENT_DURATION_MS,
  XP_PER_CORRECT,
  XP_PER_LEVEL,
} from "@common/spec";
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from "@/components/ui/accordion";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { useCategories } from "@/lib/categories";

const MISSION = [
  { icon: Brain, title: "Knowledge", text: "Questions in every category, from history and science to music and sports." },
  { icon: Swords, title: "Competition", text: "Live tournaments against real players, ranked on the same clock." },
  { icon: Coins, title: "Rewards", text: "Prize pools paid to the top three, straight into your balance." },
  {
    icon: BookOpen,
    title: "Learning",
    text: "Answers come with explanations once they are revealed, so you learn something from every question.",
  },
];

const hours = (ms: number) => ms / 3_600_000;
const minutes = (ms: number) => ms / 60_000;
const countOf = (level: number) => DIFFICULTY_RAMP.filter((d) => d === level).length;

export default function LearnMorePage() {
  const { data: categories } = useCategories();
  return (
    <div>
      <section className="border-b border-border bg-gradient-to-br from-violet-950 via-background to-indigo-950">
        <div className="mx-auto max-w-4xl px-4 py-16 text-center sm:py-20">
          <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">About Trivia Arena</h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-muted-foreground">
            A place to prove what you know: live trivia tournaments where speed and accuracy win real prizes.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Button size="lg" asChild>
              <Link to="/how-it-works">How It Works</Link>
            </Button>
            <Button size="lg" variant="outline" asChild>
              <Link to="/tournaments">Browse Tournaments</Link>
            </Button>
          </div>
        </div>
      </section>

      <div className="mx-auto max-w-6xl space-y-16 px-4 py-12 sm:py-16">
        <section aria-labelledby="mission">
          <h2 id="mission" className="text-2xl font-bold">
            Our mission
          </h2>
          <p className="mt-2 max-w-3xl text-muted-foreground">Make knowledge competitive, fair and rewarding.</p>
          <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {MISSION.map((m) => (
              <Card key={m.title}>
                <CardContent className="pt-6">
                  <m.icon className="h-8 w-8 text-primary" aria-hidden />
                  <h3 className="mt-3 font-semibold">{m.title}</h3>
                  <p className="mt-1 text-sm text-muted-foreground">{m.text}</p>
                </CardContent>
              </Card>
            ))}
          </div>
        </section>

        <section aria-labelledby="progression" className="grid gap-6 md:grid-cols-2">
          <div>
            <h2 id="progression" className="text-2xl font-bold">
              Progression
            </h2>
            <h3 className="mt-4 font-semibold">How to earn XP</h3>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-muted-foreground">
              <li>{XP_PER_CORRECT} XP for every correct answer, plus 1-5 XP for answering fast.</li>
              <li>
                Placement XP: {PLACEMENT_XP.first} for 1st, {PLACEMENT_XP.second} for 2nd, {PLACEMENT_XP.third} for 3rd,{" "}
                {PLACEMENT_XP.topTen} for 4th-10th and {PLACEMENT_XP.participation} for taking part.
              </li>
              <li>Every {XP_PER_LEVEL.toLocaleString()} XP is a new level.</li>
            </ul>
          </div>
          <div>
            <h3 className="font-semibold md:mt-12">Level benefits</h3>
            <ul className="mt-2 space-y-2 text-sm">
              {TIERS.map((tier) => (
                <li key={tier.name} className="rounded-lg border border-border p-3">
                  <span className="font-semibold">{tierLabel(tier)}</span>
                  <p className="text-muted-foreground">
                    {FEE_TIERS.filter((f) => tierForLevel(f.minLevel) === tier.name)
                      .map((f) => `Unlocks ${feeTierLabel(f)}`)
                      .join("; ") || "Every tournament of a lower level stays open to you"}
                    {tier.name !== "Beginner" && "; bonus placement XP"}.
                  </p>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section aria-labelledby="tournament-info">
          <h2 id="tournament-info" className="text-2xl font-bold">
            Tournament information
          </h2>
          <Accordion type="single" collapsible className="mt-4">
            <AccordionItem value="schedule">
              <AccordionTrigger>Schedule</AccordionTrigger>
              <AccordionContent>
                New tournaments are scheduled about every {hours(SCHEDULE_SPACING_MS)} hours in every category, so there is always one
                coming up. Each one lasts up to {minutes(TOURNAMENT_DURATION_MS)} minutes from its start, or until every player has
                finished. Practice tournaments are open all the time.
              </AccordionContent>
            </AccordionItem>
            <AccordionItem value="format">
              <AccordionTrigger>Question Format</AccordionTrigger>
              <AccordionContent>
                {QUESTIONS_PER_TOURNAMENT} multiple-choice questions with {OPTIONS_PER_QUESTION} answers each and {QUESTION_TIME_MS / 1000}{" "}
                seconds per question. Difficulty rises as you go: {countOf(1)} easy, {countOf(2)} medium, then {countOf(3)} hard questions.
                Paid tournaments are live shows: every player gets each question at the same moment with the same time to answer, answers
                are locked in, and the correct answer is revealed to everyone when the time is up; the next question follows{" "}
                {REVEAL_PAUSE_MS / 1000} seconds after the reveal. Free and practice tournaments are self-paced: your next question follows{" "}
                {PAUSE_AFTER_ANSWER_MS / 1000} seconds after you answer.
              </AccordionContent>
            </AccordionItem>
            <AccordionItem value="minimum">
              <AccordionTrigger>Minimum Player Requirement</AccordionTrigger>
              <AccordionContent>
                A paid tournament needs {MIN_PLAYERS_PAID} players to start. Until then its start is delayed;{" "}
                {minutes(CANCEL_AFTER_DELAY_MS)} minutes after the planned start without enough players it is cancelled and every entry fee
                is refunded in full. Free practice tournaments have no minimum.
              </AccordionContent>
            </AccordionItem>
            <AccordionItem value="prizes">
              <AccordionTrigger>Prize Distribution</AccordionTrigger>
              <AccordionContent>
                {Math.round((1 - PLATFORM_FEE_SHARE) * 100)}% of the entry fees form the prize pool; the platform keeps{" "}
                {Math.round(PLATFORM_FEE_SHARE * 100)}%. 1st place takes {PRIZE_SHARES_BPS[0] / 100}%, 2nd {PRIZE_SHARES_BPS[1] / 100}% and
                3rd {PRIZE_SHARES_BPS[2] / 100}% of the pool.
              </AccordionContent>
            </AccordionItem>
            <AccordionItem value="categories">
              <AccordionTrigger>Categories</AccordionTrigger>
              <AccordionContent>
                {categories && categories.length > 0 ? (
                  <ul className="flex flex-wrap gap-2">
                    {categories.map((c) => (
                      <li key={c.id}>
                        <Link
                          to={`/tournaments?category=${encodeURIComponent(c.slug)}`}
                          className="inline-block rounded-full border border-border px-3 py-1 hover:bg-muted"
                        >
                          {c.name}
                        </Link>
                      </li>
                    ))}
                  </ul>
                ) : (
                  "Categories are loading."
                )}
              </AccordionContent>
            </AccordionItem>
          </Accordion>
        </section>

        <section className="rounded-2xl border border-border bg-gradient-to-r from-violet-900/50 to-indigo-900/50 px-6 py-10 text-center">
          <h2 className="text-2xl font-bold">Put your knowledge to the test</h2>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Button asChild>
              <Link to="/tournaments">Browse Tournaments</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/how-it-works">How It Works</Link>
            </Button>
          </div>
        </section>
      </div>
    </div>
  );
}
