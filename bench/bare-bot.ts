/**
 * The floor: a bare discord.js bot that answers every slash command at once with a fixed menu
 * (an embed and a select of the shop's servers, about the size of the real bot's first screen).
 * No storage, no store, no router: whatever this costs per interaction, discord.js and the
 * machine cost the real bot too. Run by bench/run.ts with DISCORD_TOKEN and DISCORD_API_URL.
 */
import { Client, ComponentType, Events, GatewayIntentBits, MessageFlags, type InteractionReplyOptions } from 'discord.js';

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

const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api } });
client.on(Events.InteractionCreate, (interaction) => {
  if (interaction.isChatInputCommand()) interaction.reply(menu).catch((error: unknown) => process.stderr.write(`bare bot: ${String(error)}\n`));
});

async function stop(): Promise<void> {
  await client.destroy();
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

await client.login(token);
