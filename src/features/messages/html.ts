// The HTML part of an e-mail: the text part as rendered from its Liquid template, every character
// of it HTML-escaped (template values and the template's own words alike, so neither a visitor's
// name nor an account's template can add markup or script), laid out for phones and screen readers.
import type { Locale } from "../../domain/slot-format";

const FOOTER: Record<Locale, (shop: string) => string> = {
  en: (shop) => `This is an automatic message from ${shop}. To reach ${shop}, reply to this e-mail.`,
  sv: (shop) => `Det här är ett automatiskt meddelande från ${shop}. Svara på det här e-postmeddelandet för att nå ${shop}.`,
  nb: (shop) => `Dette er en automatisk melding fra ${shop}. Svar på denne e-posten for å nå ${shop}.`,
};

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

// A link ends at white space or at a character that cannot end one in running text ("see https://x.").
const URL_IN_TEXT = /https?:\/\/[^\s<>"]*[^\s<>".,;:!?)\]'"]/g;

/** One paragraph: escaped text, its line breaks kept, its http(s) addresses as links. */
function paragraph(text: string): string {
  let html = "";
  let last = 0;
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const url = escapeHtml(match[0]);
    html += escapeHtml(text.slice(last, match.index)) + `<a href="${url}" style="color:#0b57d0;text-decoration:underline;">${url}</a>`;
    last = match.index + match[0].length;
  }
  html += escapeHtml(text.slice(last));
  return html.replace(/\r?\n/g, "<br>\n");
}

const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";

/** A whole HTML document: `lang` for screen readers, one column that fits a phone, text in readable contrast. */
export function htmlOf(input: { subject: string; text: string; locale: Locale; shop: string }): string {
  const subject = escapeHtml(input.subject);
  const paragraphs = input.text
    .split(/(?:\r?\n){2,}/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p style="margin:0 0 16px;">${paragraph(p)}</p>`)
    .join("\n");
  return `<!DOCTYPE html>
<html lang="${input.locale}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${subject}</title>
</head>
<body style="margin:0;padding:0;background:#ffffff;color:#1a1a1a;">
<main style="max-width:36rem;margin:0 auto;padding:24px 16px;${FONT}font-size:16px;line-height:1.5;overflow-wrap:anywhere;">
<h1 style="font-size:20px;line-height:1.3;margin:0 0 16px;">${subject}</h1>
${paragraphs}
<hr style="border:0;border-top:1px solid #d0d0d0;margin:24px 0 16px;">
<p style="margin:0;font-size:14px;color:#4d4d4d;">${escapeHtml(FOOTER[input.locale](input.shop))}</p>
</main>
</body>
</html>
`;
}
