/**
 * The local Discord-compatible server (REST under `/api/v10` plus the gateway, on one loopback port)
 * that the real discord.js client logs in to in tests. Import from here rather than from the
 * individual files; see README.md in this folder for what it implements and how to use it.
 */
export { FakeDiscord, DEFAULT_BOT_PERMISSIONS, DEFAULT_MEMBER_PERMISSIONS } from './fake-discord.js';
export type { FakeDiscordOptions } from './fake-discord.js';
export type {
  AutocompleteOptions,
  DispatchOptions,
  FakeMessage,
  FakeModal,
  FakeUser,
  InjectedResponse,
  InteractionHandle,
  InteractionOutcome,
  ModalSubmitOptions,
  OptionValue,
  RecordedRequest,
  ResolvedInput,
  SlashOptions,
} from './types.js';
