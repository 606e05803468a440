// One colour per kind of status across the console: waiting, done, refused or failed, neutral.
import { Badge } from "@/components/ui/badge";

const TONES: Record<string, "default" | "secondary" | "destructive" | "success" | "outline"> = {
  pending: "secondary",
  held: "secondary",
  exported: "secondary",
  approved: "success",
  completed: "success",
  paid: "success",
  released: "success",
  active: "success",
  ok: "success",
  rejected: "destructive",
  failed: "destructive",
  cancelled: "destructive",
  forfeited: "destructive",
  suspended: "destructive",
  banned: "destructive",
};

export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return <Badge variant={TONES[status] ?? "outline"}>{label ?? status}</Badge>;
}
