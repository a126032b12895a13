// `npm start`: builds if a source changed (tools/build-if-stale.mjs), then runs the bot (its bundle,
// tools/bundle.mjs) in this same process. A `prestart` script would start a second node process first, and every restart (systemd,
// pm2, Docker without the image's own CMD) waits for it. Plain JavaScript: it runs before anything is compiled.
import { buildIfStale } from './build-if-stale.mjs';

const status = await buildIfStale();
if (status !== 0) process.exit(status);
await import('../dist/bundle/main.js');
