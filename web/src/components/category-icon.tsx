import { Brain, Cpu, Film, FlaskConical, Globe, HelpCircle, Landmark, Music, Trophy, type LucideIcon } from "lucide-react";

/** The lucide icons the categories name (categories.icon); imported one by one to keep bundles small. */
const ICONS: Record<string, LucideIcon> = {
  brain: Brain,
  cpu: Cpu,
  "flask-conical": FlaskConical,
  landmark: Landmark,
  film: Film,
  trophy: Trophy,
  music: Music,
  globe: Globe,
};

export function CategoryIcon({ name, className }: { name: string | undefined; className?: string }) {
  const Icon = (name && ICONS[name]) || HelpCircle;
  return <Icon className={className} aria-hidden />;
}
