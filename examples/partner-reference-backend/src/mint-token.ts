// node dist/mint-token.js USER — prints an app token for USER, signed with BATON_TOKEN_SIGNING_KEY (tests and
// `baton verify-backend --token-command 'node dist/mint-token.js {user}'`; your own sign-in issues real ones).
import { mintToken } from "./auth";

const user = process.argv[2];
const key = process.env.BATON_TOKEN_SIGNING_KEY;
if (!user || !key) {
  process.stderr.write("usage: BATON_TOKEN_SIGNING_KEY=… node dist/mint-token.js USER\n");
  process.exit(2);
}
process.stdout.write(mintToken(key, user) + "\n");
