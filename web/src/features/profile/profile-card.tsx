import { useRef, useState } from "react";
import { Camera, MapPin } from "lucide-react";
import type { User } from "@common/api/types";
import { levelProgress } from "@common/domain/levels";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Progress } from "@/components/ui/progress";
import { Spinner } from "@/components/ui/spinner";
import { SocialLinkList } from "@/components/social-links";
import { UserAvatar } from "@/components/user-avatar";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { useUpdateProfile } from "./api";
import { AvatarImageError, resizeAvatar } from "./avatar-image";

/** The side card: avatar (changed through a file picker shown on hover or focus), name, badges, bio and links. */
export function ProfileCard({ user }: { user: User }) {
  const update = useUpdateProfile();
  const fileInput = useRef<HTMLInputElement>(null);
  const [resizing, setResizing] = useState(false);
  const busy = resizing || update.isPending;

  const saveAvatar = (avatar: string | null) =>
    update.mutate(
      { username: user.username, email: user.email, avatar },
      {
        onSuccess: () => toast.success("Profile updated", "Your profile has been successfully updated."),
        onError: (error) => toast.error("Update failed", errorMessage(error, "Failed to update profile")),
      },
    );

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setResizing(true);
    try {
      saveAvatar(await resizeAvatar(file));
    } catch (e) {
      toast.error("Update failed", e instanceof AvatarImageError ? e.message : "That image could not be used.");
    } finally {
      setResizing(false);
      if (fileInput.current) fileInput.current.value = "";
    }
  };

  return (
    <Card>
      <CardContent className="flex flex-col items-center p-6 text-center">
        <div className="group relative">
          <UserAvatar user={user} className="h-28 w-28 text-3xl" />
          <button
            type="button"
            onClick={() => fileInput.current?.click()}
            disabled={busy}
            className="absolute inset-0 flex flex-col items-center justify-center gap-1 rounded-full bg-black/60 text-xs font-medium text-white opacity-0 transition-opacity cursor-pointer group-hover:opacity-100 focus-visible:opacity-100 disabled:opacity-100"
            aria-label="Change avatar"
          >
            {busy ? <Spinner className="h-6 w-6 text-white" label="Uploading avatar" /> : <Camera className="h-6 w-6" aria-hidden />}
            {!busy && <span aria-hidden>Change</span>}
          </button>
          <input
            ref={fileInput}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
            className="sr-only"
            tabIndex={-1}
            aria-label="Avatar image file"
            onChange={(e) => void pick(e.target.files?.[0])}
          />
        </div>
        {user.avatar && (
          <Button variant="link" size="sm" className="mt-1 h-auto py-1 text-xs" disabled={busy} onClick={() => saveAvatar(null)}>
            Remove photo
          </Button>
        )}
        <h2 className="mt-3 text-xl font-bold break-all">{user.username}</h2>
        <p className="mt-1 flex items-center gap-1 text-sm text-muted-foreground">
          <MapPin className="h-3.5 w-3.5" aria-hidden />
          {user.location || "No location set"}
        </p>
        <div className="mt-3 flex flex-wrap justify-center gap-2">
          <Badge>Level {user.level}</Badge>
          <Badge variant="secondary">
            {user.tournamentsWon} {user.tournamentsWon === 1 ? "Win" : "Wins"}
          </Badge>
        </div>
        <p className="mt-4 whitespace-pre-line text-sm text-muted-foreground">
          {user.bio || "No bio added yet. Tell the world about yourself!"}
        </p>
        <SocialLinkList links={user.socialLinks} className="mt-4 justify-center" />
      </CardContent>
    </Card>
  );
}

/** XP toward the next level (the same figure as the dashboard's), played and won. */
export function ProfileStatsCard({ user }: { user: User }) {
  const progress = levelProgress(user.experiencePoints);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Stats</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <div>
          <div className="mb-1.5 flex justify-between text-sm">
            <span>Level {user.level}</span>
            <span className="text-muted-foreground">{user.experiencePoints.toLocaleString()} XP</span>
          </div>
          <Progress value={progress.percent} label="Experience toward the next level" />
          <p className="mt-1.5 text-xs text-muted-foreground">
            {progress.xpToNext.toLocaleString()} XP until level {progress.nextLevel}
          </p>
        </div>
        <dl className="grid grid-cols-2 gap-3 text-center">
          <div className="rounded-lg bg-muted p-3">
            <dt className="text-xs text-muted-foreground">Tournaments Played</dt>
            <dd className="text-xl font-bold">{user.tournamentsPlayed}</dd>
          </div>
          <div className="rounded-lg bg-muted p-3">
            <dt className="text-xs text-muted-foreground">Tournaments Won</dt>
            <dd className="text-xl font-bold">{user.tournamentsWon}</dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}
