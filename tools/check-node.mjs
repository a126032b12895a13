// The first thing `npm start` and every script runs: on a Node.js too old for the bot, one sentence
// naming the release needed, instead of an error from deep inside (Node 18 said "Could not read .env:
// process.loadEnvFile is not a function"). Imported before anything else, and written in the
// plainest JavaScript (no optional chaining, no newer built-ins) so that an old Node still reads it.
// 20.12 is the first release with process.loadEnvFile, which reads .env; package.json's engines and
// .nvmrc say the same.
var NEEDED = [20, 12];
var running = String(process.versions.node);
var parts = running.split('.');
var major = Number(parts[0]);
var minor = Number(parts[1]);
if (major < NEEDED[0] || (major === NEEDED[0] && minor < NEEDED[1])) {
  process.stderr.write(
    'This bot needs Node.js ' + NEEDED.join('.') + ' or newer, and this is Node.js ' + running + '. ' +
      'Install Node.js 20 or newer (nvm install reads .nvmrc: nvm install && nvm use), then run it again.\n',
  );
  process.exit(1);
}
