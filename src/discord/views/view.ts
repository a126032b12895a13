import type { APIActionRowComponent, APIComponentInMessageActionRow, APIEmbed, APIMessageTopLevelComponent } from 'discord.js';

/** What a screen is, as the views build it and the responder sends it (a file of its own: both import it). */

export type ActionRow = APIActionRowComponent<APIComponentInMessageActionRow>;

/** A file sent with a message (the demo shop's pictures), referred to by its components as `attachment://<name>`. */
export interface ViewFile {
  name: string;
  data: Buffer;
  contentType?: string;
}

/**
 * A whole message as the bot shows it. Fields left out are kept as they are when a message is
 * edited. Screens are display components (`flags` with IsComponentsV2, built by views/display.ts);
 * `content` and `embeds` remain only for a message sent before them (an old DM edited again).
 */
export interface View {
  content?: string;
  embeds?: APIEmbed[];
  components?: APIMessageTopLevelComponent[];
  flags?: number;
  files?: ViewFile[];
}
