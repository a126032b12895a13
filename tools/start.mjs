// `npm start`: builds if a source changed (tools/build-if-stale.mjs), then runs the bot (its bundle,
// tools/bundle.mjs) in this same process. A `prestart` script would start a second node process first, and every restart (systemd,
// pm2, Docker without the image's own CMD) waits for it. Plain JavaScript: it runs before anything is compiled.
// The Node.js release is checked first: imports run in order, so nothing else loads on a Node too old.
import './check-node.mjs';
import { buildIfStale } from './build-if-stale.mjs';

const status = await buildIfStale();
if (status !== 0) process.exit(status);
await import('../dist/bundle/main.js');
