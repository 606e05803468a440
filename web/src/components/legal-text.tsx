// A legal document's text as elements: headings, paragraphs, lists and bold runs, every piece
// as plain React text (common/domain/legal.ts splits it), so nothing in a text can become markup.
import { inlineSegments, parseLegalText } from "@common/domain/legal";

function Inline({ text }: { text: string }) {
  return (
    <>
      {inlineSegments(text).map((s, i) =>
        s.bold ? (
          <strong key={i} className="font-semibold text-foreground">
            {s.text}
          </strong>
        ) : (
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}

/** `headingOffset` lowers every heading (1 in a dialog whose title is the page's heading). */
export function LegalText({ text, headingOffset = 0 }: { text: string; headingOffset?: 0 | 1 }) {
  return (
    <div className="space-y-4 text-sm leading-relaxed text-muted-foreground">
      {parseLegalText(text).map((b, i) => {
        if (b.kind === "heading") {
          const level = Math.min(b.level + headingOffset, 4);
          if (level === 1)
            return (
              <h1 key={i} className="text-3xl font-bold text-foreground">
                {b.text}
              </h1>
            );
          if (level === 2)
            return (
              <h2 key={i} className="pt-4 text-xl font-semibold text-foreground">
                {b.text}
              </h2>
            );
          if (level === 3)
            return (
              <h3 key={i} className="pt-2 text-base font-semibold text-foreground">
                {b.text}
              </h3>
            );
          return (
            <h4 key={i} className="font-semibold text-foreground">
              {b.text}
            </h4>
          );
        }
        if (b.kind === "list") {
          const items = b.items.map((item, j) => (
            <li key={j}>
              <Inline text={item} />
            </li>
          ));
          return b.ordered ? (
            <ol key={i} className="list-decimal space-y-1 pl-5">
              {items}
            </ol>
          ) : (
            <ul key={i} className="list-disc space-y-1 pl-5">
              {items}
            </ul>
          );
        }
        return (
          <p key={i}>
            <Inline text={b.text} />
          </p>
        );
      })}
    </div>
  );
}
