import { describe, expect, it } from "vitest";
import { escapeHtml, htmlOf } from "../../../src/features/messages/html";

const body = (html: string) => html.slice(html.indexOf("<h1"), html.indexOf("<hr"));

describe("the HTML part of an e-mail", () => {
  it("escapes every character of the text, so neither a value nor a template adds markup", () => {
    const html = htmlOf({ subject: "Booked <script>x</script>", text: 'Hello <img src=x onerror=alert(1)> & "friends"', locale: "en", shop: "A&B" });
    expect(html).not.toMatch(/<script|<img/);
    expect(body(html)).toBe(
      '<h1 style="font-size:20px;line-height:1.3;margin:0 0 16px;">Booked &lt;script&gt;x&lt;/script&gt;</h1>\n' +
        '<p style="margin:0 0 16px;">Hello &lt;img src=x onerror=alert(1)&gt; &amp; &quot;friends&quot;</p>\n',
    );
    expect(html).toContain("This is an automatic message from A&amp;B.");
  });

  it("makes paragraphs at blank lines, keeps single line breaks, and links http(s) addresses without trailing punctuation", () => {
    const html = htmlOf({ subject: "S", text: "One\nline two\n\nSee https://x.test/a?b=1&c=2.\n\n\nEnd", locale: "sv", shop: "Salong" });
    expect(body(html)).toBe(
      '<h1 style="font-size:20px;line-height:1.3;margin:0 0 16px;">S</h1>\n' +
        '<p style="margin:0 0 16px;">One<br>\nline two</p>\n' +
        '<p style="margin:0 0 16px;">See <a href="https://x.test/a?b=1&amp;c=2" style="color:#0b57d0;text-decoration:underline;">https://x.test/a?b=1&amp;c=2</a>.</p>\n' +
        '<p style="margin:0 0 16px;">End</p>\n',
    );
    expect(html).toContain('<html lang="sv" dir="ltr">');
    expect(html).toContain("Det här är ett automatiskt meddelande från Salong.");
  });

  it("links no other scheme", () => {
    expect(body(htmlOf({ subject: "S", text: "javascript:alert(1) ftp://x.test", locale: "nb", shop: "F" }))).not.toContain("<a ");
  });

  it("escapes the five characters HTML gives meaning to", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  });
});
