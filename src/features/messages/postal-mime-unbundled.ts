// What `postal-mime` resolves to in the deployed bundle (wrangler.toml, [alias]). Resend's SDK
// imports it at load for one method, forwarding an e-mail Resend received (`forwardPassthrough`),
// which this Worker never calls: it only sends, and verifies Resend's events. Leaving the parser
// out saves about 13 KiB of the gzipped bundle. Reaching this is a bug, said as such.
const unbundled = {
  parse(): never {
    throw new Error("postal-mime is not bundled in this Worker: Resend's received-mail forwarding is not used here.");
  },
};
export default unbundled;
