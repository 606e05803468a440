import { useState } from "react";
import { Link } from "react-router";
import { ArrowRight, CreditCard, LifeBuoy, ShieldCheck, Swords, Trophy, UserPlus, Wallet, Zap } from "lucide-react";
import { FAIR_PLAY_GUARANTEE } from "@common/messages";
import { HOME_TOP_PLAYERS, HOME_TOURNAMENTS, QUESTION_TIME_MS, QUESTIONS_PER_TOURNAMENT } from "@common/spec";
import { heroFigures } from "@common/domain/hero-figures";
import { EmptyState } from "@/components/empty-state";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Skeleton } from "@/components/ui/skeleton";
import { RegionBoard } from "@/features/leaderboards/components/region-board";
import { useTournaments } from "@/features/tournaments/api";
import { useCategories } from "@/lib/categories";
import { useHeroFigures } from "./api";
import { CategoryIcon } from "@/components/category-icon";
import { TournamentCard } from "@/features/tournaments/components/tournament-card";
import { FeaturedEvents } from "@/features/tournaments/components/featured-events";

export default function HomePage() {
  return (
    <>
      <Hero />
      <FeaturedEvents className="mx-auto max-w-7xl px-4 pt-12 sm:pt-16" />
      <LiveTournaments />
      <HowItWorks />
      <Categories />
      <TopPlayers />
      <Community />
    </>
  );
}

function Section({
  id,
  title,
  subtitle,
  action,
  children,
}: {
  id: string;
  title: string;
  subtitle?: string;
  action?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="mx-auto max-w-7xl px-4 py-12 sm:py-16">
      <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id={id} className="text-2xl font-bold sm:text-3xl">
            {title}
          </h2>
          {subtitle && <p className="mt-1 text-muted-foreground">{subtitle}</p>}
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}

function Hero() {
  const figures = useHeroFigures();
  // The real figures (prizes paid, tournaments completed); the spec's claims only once reached.
  const shown = figures.data ? heroFigures(figures.data) : figures.isError ? { paidToWinners: "—", tournamentsCompleted: "—" } : null;
  return (
    <section className="relative overflow-hidden border-b border-border bg-gradient-to-br from-violet-950 via-background to-indigo-950">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-16 sm:py-24 lg:grid-cols-[3fr_2fr] lg:items-center">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full border border-primary/40 bg-primary/10 px-3 py-1 text-xs font-medium text-primary">
            <Zap className="h-3.5 w-3.5" aria-hidden /> Live trivia tournaments with cash prizes
          </p>
          <h1 className="mt-5 text-4xl font-extrabold tracking-tight sm:text-6xl">
            Test your knowledge. <span className="text-primary">Win real prizes.</span>
          </h1>
          <p className="mt-5 max-w-xl text-lg text-muted-foreground">
            Join live tournaments, answer {QUESTIONS_PER_TOURNAMENT} timed questions faster than your opponents and take home the prize
            pool.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Button size="lg" asChild>
              <Link to="/tournaments">
                Play Now <ArrowRight className="h-4 w-4" aria-hidden />
              </Link>
            </Button>
            <Button size="lg" variant="outline" asChild>
              <Link to="/learn-more">Learn more about Trivia Arena</Link>
            </Button>
          </div>
        </div>
        <dl className="grid grid-cols-2 gap-4">
          <Figure label="Paid to winners" value={shown?.paidToWinners} />
          <Figure label="Tournaments completed" value={shown?.tournamentsCompleted} />
          <Figure label="Questions per tournament" value={String(QUESTIONS_PER_TOURNAMENT)} />
          <Figure label="Seconds per question" value={String(QUESTION_TIME_MS / 1000)} />
        </dl>
      </div>
    </section>
  );
}

/** `value` undefined while it loads (or when it could not be): a placeholder, never a made-up figure. */
function Figure({ label, value }: { label: string; value: string | undefined }) {
  return (
    <div className="rounded-xl border border-border bg-card/60 p-5">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="mt-1 text-3xl font-bold">{value ?? <Skeleton className="h-9 w-24" />}</dd>
    </div>
  );
}

type PriceFilter = "free" | "paid";

const PILLS: { value: PriceFilter | undefined; label: string }[] = [
  { value: undefined, label: "All" },
  { value: "free", label: "Free" },
  { value: "paid", label: "Paid" },
];

function LiveTournaments() {
  const [price, setPrice] = useState<PriceFilter | undefined>(undefined);
  // The next real tournaments (not the always-open practice ones): live first, then the soonest to start.
  const { data, isLoading, error } = useTournaments({ kind: "standard", status: "active", pageSize: HOME_TOURNAMENTS, price });
  const shown = data?.items ?? [];

  return (
    <Section
      id="live-tournaments"
      title="Live Tournaments"
      subtitle="Live now or starting soon: join and start answering."
      action={
        <div className="flex gap-2" role="group" aria-label="Filter by price">
          {PILLS.map((p) => (
            <Button
              key={p.label}
              size="sm"
              variant={price === p.value ? "default" : "outline"}
              aria-pressed={price === p.value}
              onClick={() => setPrice(p.value)}
            >
              {p.label}
            </Button>
          ))}
        </div>
      }
    >
      {isLoading ? (
        // Cards' height, so the sections below stay where they are when the cards arrive.
        <div role="status" aria-label="Loading tournaments" className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: HOME_TOURNAMENTS }, (_, i) => (
            <Skeleton key={i} className="h-[29rem]" />
          ))}
        </div>
      ) : error ? (
        <p className="py-8 text-center text-sm text-destructive">{error.message}</p>
      ) : shown.length === 0 ? (
        <EmptyState
          icon={Trophy}
          title="No tournaments open right now"
          description="New tournaments start every few hours in every category."
        >
          <Button asChild variant="outline">
            <Link to="/tournaments">Browse all tournaments</Link>
          </Button>
        </EmptyState>
      ) : (
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {shown.map((t) => (
            <TournamentCard key={t.id} tournament={t} />
          ))}
        </div>
      )}
      <div className="mt-6 text-center">
        <Link to="/tournaments" className="inline-flex items-center gap-1 text-sm font-medium text-primary hover:underline">
          View all tournaments <ArrowRight className="h-4 w-4" aria-hidden />
        </Link>
      </div>
    </Section>
  );
}

const STEPS = [
  { icon: UserPlus, title: "Create Account", text: "Sign up for free in under a minute." },
  { icon: Trophy, title: "Join Tournament", text: "Pick a free or paid tournament that matches your level and interests." },
  {
    icon: Swords,
    title: "Compete",
    text: `Answer ${QUESTIONS_PER_TOURNAMENT} questions, ${QUESTION_TIME_MS / 1000} seconds each. Correct and fast wins.`,
  },
  { icon: Wallet, title: "Win & Withdraw", text: "Top 3 players share the prize pool. Withdraw winnings to your bank account." },
];

function HowItWorks() {
  return (
    <Section
      id="how-it-works"
      title="How It Works"
      action={
        <Link to="/how-it-works" className="text-sm font-medium text-primary hover:underline">
          Read the details
        </Link>
      }
    >
      <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {STEPS.map((s, i) => (
          <li key={s.title}>
            <Card className="h-full">
              <CardContent className="pt-6">
                <div className="flex items-center gap-3">
                  <span className="flex h-10 w-10 items-center justify-center rounded-full bg-primary/15 text-primary">
                    <s.icon className="h-5 w-5" aria-hidden />
                  </span>
                  <span className="text-sm font-semibold text-muted-foreground">Step {i + 1}</span>
                </div>
                <h3 className="mt-4 font-semibold">{s.title}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{s.text}</p>
              </CardContent>
            </Card>
          </li>
        ))}
      </ol>
    </Section>
  );
}

/** Tiles shown while the categories load: the demo bank's eight, two full rows at every width. */
const CATEGORY_PLACEHOLDERS = 8;

function Categories() {
  const { data, isLoading, error } = useCategories();
  return (
    <Section id="categories" title="Categories" subtitle="Upcoming and live tournaments in each category.">
      {isLoading ? (
        <div role="status" aria-label="Loading categories" className="grid grid-cols-2 gap-4 md:grid-cols-4">
          {Array.from({ length: CATEGORY_PLACEHOLDERS }, (_, i) => (
            <Skeleton key={i} className="h-32" />
          ))}
        </div>
      ) : error ? (
        <p className="py-8 text-center text-sm text-destructive">{error.message}</p>
      ) : (
        <ul className="grid grid-cols-2 gap-4 md:grid-cols-4">
          {data?.map((c) => (
            <li key={c.id}>
              <Link
                to={`/tournaments?category=${encodeURIComponent(c.slug)}`}
                className="flex h-full flex-col gap-3 rounded-xl border border-border bg-card p-4 transition-colors hover:border-primary/60 hover:bg-muted/40"
              >
                <CategoryIcon name={c.icon} className="h-7 w-7 text-primary" />
                <span className="font-semibold">{c.name}</span>
                <span className="text-xs text-muted-foreground">
                  {c.activeTournaments} active {c.activeTournaments === 1 ? "tournament" : "tournaments"}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function TopPlayers() {
  return (
    <Section
      id="top-players"
      title="Top Players This Week"
      subtitle="Ranked by the prizes won in the last seven days."
      action={
        <Link to="/leaderboards" className="text-sm font-medium text-primary hover:underline">
          Full leaderboard
        </Link>
      }
    >
      <RegionBoard limit={HOME_TOP_PLAYERS} period="week" />
    </Section>
  );
}

function Community() {
  const items = [
    {
      icon: CreditCard,
      title: "Secure Payments",
      text: "Card payments go through our payment provider and every cent of your balance is recorded in a ledger. Winnings are paid out to your bank account.",
    },
    {
      icon: ShieldCheck,
      title: "Fair Play Guarantee",
      text: FAIR_PLAY_GUARANTEE.join(" "),
      link: { to: "/verify-receipt", label: "Check an answer receipt" },
    },
    {
      icon: LifeBuoy,
      title: "Help When You Need It",
      text: "Questions about a tournament, a payment or your account? Our support team answers by email.",
    },
  ];
  return (
    <Section id="community" title="Play With Confidence">
      <div className="grid gap-4 md:grid-cols-3">
        {items.map((item) => (
          <Card key={item.title}>
            <CardContent className="pt-6">
              <item.icon className="h-8 w-8 text-primary" aria-hidden />
              <h3 className="mt-4 font-semibold">{item.title}</h3>
              <p className="mt-1 text-sm text-muted-foreground">{item.text}</p>
              {item.link && (
                <Link to={item.link.to} className="mt-2 inline-block text-sm font-medium text-primary hover:underline">
                  {item.link.label}
                </Link>
              )}
            </CardContent>
          </Card>
        ))}
      </div>
      <div className="mt-8 flex flex-col items-center gap-3 rounded-2xl border border-border bg-gradient-to-r from-violet-900/50 to-indigo-900/50 px-6 py-10 text-center">
        <h3 className="text-2xl font-bold">Ready to play?</h3>
        <p className="max-w-lg text-muted-foreground">Create a free account and start with a practice quiz, no deposit needed.</p>
        <div className="flex flex-wrap justify-center gap-3">
          <Button asChild>
            <Link to="/auth?tab=register">Sign Up Free</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/contact">Contact Support</Link>
          </Button>
        </div>
      </div>
    </Section>
  );
}
