import { useId } from "react";
import type { Tournament } from "@common/api/types";
import { cn } from "@/lib/cn";
import { useCategories } from "@/lib/categories";
import { CategoryIcon } from "@/components/category-icon";

const GRADIENTS = [
  "from-violet-700 to-indigo-900",
  "from-sky-700 to-blue-950",
  "from-emerald-700 to-teal-950",
  "from-amber-600 to-orange-900",
  "from-rose-700 to-fuchsia-950",
  "from-fuchsia-700 to-purple-950",
  "from-cyan-700 to-slate-900",
  "from-indigo-600 to-slate-950",
];

/** The tournament's picture, or a drawn default: the category's colour and icon (no outside image). */
export function TournamentImage({
  tournament,
  className,
}: {
  tournament: Pick<Tournament, "title" | "imageUrl" | "categoryId">;
  className?: string;
}) {
  const { data: categories } = useCategories();
  // useId has characters a url(#...) reference cannot carry.
  const patternId = `dots-${useId().replace(/[^A-Za-z0-9-]/g, "")}`;
  if (tournament.imageUrl) return <img src={tournament.imageUrl} alt="" className={cn("object-cover", className)} loading="lazy" />;
  const icon = categories?.find((c) => c.id === tournament.categoryId)?.icon;
  const gradient = GRADIENTS[Math.abs(tournament.categoryId) % GRADIENTS.length];
  return (
    <div className={cn("relative overflow-hidden bg-gradient-to-br", gradient, className)} aria-hidden>
      <svg className="absolute inset-0 h-full w-full opacity-15" xmlns="http://www.w3.org/2000/svg">
        <defs>
          <pattern id={patternId} width="22" height="22" patternUnits="userSpaceOnUse">
            <circle cx="2" cy="2" r="1.5" fill="white" />
          </pattern>
        </defs>
        <rect width="100%" height="100%" fill={`url(#${patternId})`} />
      </svg>
      <CategoryIcon name={icon} className="absolute right-4 bottom-3 h-16 w-16 text-white/30" />
    </div>
  );
}
