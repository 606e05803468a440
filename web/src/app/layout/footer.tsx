import { Link } from "react-router";
import { Trophy } from "lucide-react";
import { LEGAL_CATALOG } from "@common/legal/legal-catalog";

const COLUMNS = [
  {
    title: "Tournaments",
    links: [
      { to: "/tournaments", label: "All Tournaments" },
      { to: "/tournaments?status=upcoming", label: "Upcoming" },
      { to: "/tournaments?price=free", label: "Free Tournaments" },
      { to: "/tournaments?price=premium", label: "Premium Tournaments" },
    ],
  },
  {
    title: "Learn",
    links: [
      { to: "/learn-more", label: "About Trivia Arena" },
      { to: "/how-it-works", label: "How It Works" },
      { to: "/leaderboards", label: "Leaderboards" },
      { to: "/verify-receipt", label: "Verify a Receipt" },
    ],
  },
  {
    title: "Account",
    links: [
      { to: "/dashboard", label: "Dashboard" },
      { to: "/payment-success", label: "Payment Status" },
      { to: "/checkout/10", label: "Add Credits" },
      { to: "/withdraw-confirm/10", label: "Withdraw Winnings" },
      { to: "/auth", label: "Sign In" },
    ],
  },
];

export function Footer() {
  return (
    <footer className="mt-16 border-t border-border">
      <div className="mx-auto grid max-w-7xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <Link to="/" className="flex items-center gap-2 font-bold">
            <Trophy className="h-5 w-5 text-primary" aria-hidden /> Trivia Arena
          </Link>
          <p className="mt-3 text-sm text-muted-foreground">
            Live trivia tournaments with real cash prizes. Play fair, play fast, win big.
          </p>
        </div>
        {COLUMNS.map((col) => (
          <div key={col.title}>
            <h2 className="text-sm font-semibold">{col.title}</h2>
            <ul className="mt-3 space-y-2">
              {col.links.map((l) => (
                <li key={l.to}>
                  <Link to={l.to} className="text-sm text-muted-foreground hover:text-foreground">
                    {l.label}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <div className="flex flex-wrap items-center justify-center gap-x-4 gap-y-2 border-t border-border px-4 py-4 text-xs text-muted-foreground">
        <p>© {new Date().getFullYear()} Trivia Arena. Play responsibly.</p>
        <nav aria-label="Legal">
          <ul className="flex flex-wrap gap-x-4 gap-y-1">
            {LEGAL_CATALOG.map((d) => (
              <li key={d.path}>
                <Link to={d.path} className="hover:text-foreground">
                  {d.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}
