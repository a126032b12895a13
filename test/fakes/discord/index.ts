/**
 * The local Discord-compatible server (REST under `/api/v10` plus the gateway, on one loopback port)
 * that the real discord.js client logs in to in tests. Import from here rather than from the
 * individual files; see README.md in this folder for what it implements and how to use it.
 */
// fake-discord.ts re-exports the types a test needs (types.ts) and the default permissions.
export * from './fake-discord.js';
