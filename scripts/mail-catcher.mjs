// The local mail catcher of `npm run dev` (and `npm run tour`): maildev's SMTP server and web inbox
// on loopback, so the Worker's e-mails, their HTML and their calendar invitations can be read in a
// browser, and scripts can read them back through its REST API (GET /email).
import { createServer } from "node:net";
import { MailDev } from "maildev";

/** A port that is free now (for MAIL_*_PORT=0). */
const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/**
 * The `wrangler dev` flags that send the Worker's e-mail over SMTP to the catcher, in the clear
 * (it listens on loopback only), from `from`.
 */
export const catcherVarArgs = (catcher, from) =>
  [
    ["MESSAGE_PROVIDER", "smtp"],
    ["SMTP_HOST", catcher.smtpHost],
    ["SMTP_PORT", String(catcher.smtpPort)],
    ["SMTP_SECURITY", "none"],
    ["MAIL_FROM", from],
  ].flatMap(([name, value]) => ["--var", `${name}:${value}`]);

/** Starts maildev; answers where its SMTP server and inbox are, and how to stop it. */
export async function startMailCatcher({ smtpPort, webPort }) {
  const smtp = smtpPort || (await freePort());
  const web = webPort || (await freePort());
  const maildev = new MailDev({ smtp, web, ip: "127.0.0.1", webIp: "127.0.0.1", silent: true, mcp: false });
  await maildev.start();
  return {
    smtpHost: "127.0.0.1",
    smtpPort: smtp,
    inbox: `http://127.0.0.1:${web}`,
    close: () => maildev.stop(),
  };
}
