// Avatars are stored as small data URLs: the picked image is cropped to a square and redrawn
// at 256 x 256 before upload, so a phone photo never reaches the server.

const SIZE = 256;
/** Below the server's 200,000-character limit with room to spare. */
const MAX_CHARS = 150_000;
const ACCEPTED = /^image\/(png|jpeg|webp|gif)$/;

export class AvatarImageError extends Error {}

function loadImage(file: Blob): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      URL.revokeObjectURL(url);
      resolve(img);
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new AvatarImageError("That file could not be read as an image."));
    };
    img.src = url;
  });
}

/** A centre-cropped square WebP (JPEG where WebP encoding is unsupported) data URL. */
export async function resizeAvatar(file: File): Promise<string> {
  if (!ACCEPTED.test(file.type)) throw new AvatarImageError("Choose a PNG, JPEG, WebP or GIF image.");
  const img = await loadImage(file);
  const canvas = document.createElement("canvas");
  canvas.width = SIZE;
  canvas.height = SIZE;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new AvatarImageError("Your browser cannot resize images.");
  const side = Math.min(img.naturalWidth, img.naturalHeight);
  ctx.drawImage(img, (img.naturalWidth - side) / 2, (img.naturalHeight - side) / 2, side, side, 0, 0, SIZE, SIZE);

  for (const quality of [0.85, 0.7, 0.5]) {
    let url = canvas.toDataURL("image/webp", quality);
    // Browsers that cannot encode WebP silently return PNG.
    if (!url.startsWith("data:image/webp")) url = canvas.toDataURL("image/jpeg", quality);
    if (url.length <= MAX_CHARS) return url;
  }
  throw new AvatarImageError("That image is too detailed to use as an avatar. Try another one.");
}
