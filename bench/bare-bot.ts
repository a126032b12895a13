/**
 * The floor: a bare discord.js bot that answers every slash command at once with a fixed menu
 * (an embed and a select of the shop's servers, about the size of the real bot's first screen),
 * and every component with a full page of a menu (25 options, Previous/Next).
 * No storage, no store, no router: whatever this costs per interaction, discord.js and the
 * machine cost the real bot too. Started by bench/bot-process.ts with DISCORD_TOKEN and DISCORD_API_URL.
 */
import {
  ButtonStyle,
  Client,
  ComponentType,
  Events,
  GatewayIntentBits,
  MessageFlags,
  type InteractionReplyOptions,
  type InteractionUpdateOptions,
} from 'discord.js';

const token = process.env.DISCORD_TOKEN ?? '';
const api = process.env.DISCORD_API_URL ?? '';

const menu: InteractionReplyOptions = {
  content: '',
  flags: MessageFlags.Ephemeral,
  embeds: [{ title: 'Shop', description: 'Choose a server.', color: 0x2b8a3e }],
  components: [
    {
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.StringSelect,
          custom_id: 'v1:shop:srv:0',
          placeholder: 'Server…',
          min_values: 1,
          max_values: 1,
          options: [
            { value: 'aaaaaaaa', label: 'Survival', description: 'Survival 1.21' },
            { value: 'bbbbbbbb', label: 'SkyBlock', description: 'Wyspy 1.21' },
            { value: 'cccccccc', label: 'BoxPVP' },
            { value: 'dddddddd', label: 'Creative', description: 'Działki i WorldEdit' },
          ],
        },
      ],
    },
  ],
};

/** What a member walking the shop sees at every step: a full page of 25 options and Previous/Next. */
const page: InteractionUpdateOptions = {
  content: '',
  embeds: [{ title: 'Shop › Survival › Monety › Pakiet monet', description: 'Choose a variant.\nPage 2 of 12', color: 0x2b8a3e }],
  components: [
    {
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.StringSelect,
          custom_id: 'v1:shop:var:0',
          placeholder: 'Choose a variant',
          min_values: 1,
          max_values: 1,
          options: Array.from({ length: 25 }, (_unused, index) => ({ value: `v${index}`, label: `${(index + 1) * 10} monet`, description: 'from PLN 1.99' })),
        },
      ],
    },
    {
      type: ComponentType.ActionRow,
      components: [
        { type: ComponentType.Button, custom_id: 'v1:shop:varp:0:p', label: 'Previous', style: ButtonStyle.Secondary },
        { type: ComponentType.Button, custom_id: 'v1:shop:varp:0:n', label: 'Next', style: ButtonStyle.Secondary },
      ],
    },
  ],
};

const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api } });
const fail = (error: unknown) => process.stderr.write(`bare bot: ${String(error)}\n`);
client.on(Events.InteractionCreate, (interaction) => {
  if (interaction.isChatInputCommand()) interaction.reply(menu).catch(fail);
  else if (interaction.isMessageComponent()) interaction.update(page).catch(fail);
});

async function stop(): Promise<void> {
  await client.destroy();
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

await client.login(token);
