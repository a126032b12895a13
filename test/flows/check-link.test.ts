import { ButtonStyle, ComponentType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import type { FakeMessage, InteractionOutcome } from '../fakes/discord/fake-discord.js';
import { Member } from '../support/buyer.js';
import { useHarness } from '../support/harness.js';
import { linkSteps } from '../support/links.js';
import { textOf } from '../support/ui.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import { LINK_COLORS } from '../../src/discord/payment-links/link-text.js';

const MINUTE = 60_000;
const COMMAND = 'Check payment link';

describe('Check payment link: any member checks the addresses in a message before paying', () => {
  const h = useHarness();
  const { moderator, links, checkout } = linkSteps(h);

  /** Posts a message as `author` in the guild's channel. */
  function post(author: Member, body: { content?: string; embeds?: unknown[]; components?: unknown[]; flags?: number }): FakeMessage {
    return h.discord.postMessage(author.user, h.discord.defaultChannelId, body);
  }
  /** Right click on the message → Apps → Check payment link, as `member`. */
  async function check(member: Member, message: FakeMessage, locale?: string): Promise<InteractionOutcome> {
    const { username: _username, ...dispatch } = member.options;
    const handle = await h.discord.messageCommand(member.user, COMMAND, message, { ...dispatch, ...(locale ? { locale } : {}) });
    return handle.settled();
  }
  const answerText = (outcome: InteractionOutcome) => textOf(outcome.message!);

  it('is on every member’s Apps menu of a message, named in English and Polish, in servers only', () => {
    const definition = (h.discord.registeredCommands() as { name: string; type?: number; name_localizations?: unknown; default_member_permissions?: unknown; contexts?: unknown }[]).find(
      (command) => command.name === COMMAND,
    );
    expect(definition?.type).toBe(3);
    expect(definition?.name_localizations).toEqual({ pl: 'Sprawdź link do płatności' });
    expect(definition?.default_member_permissions).toBeNull();
    expect(definition?.contexts).toEqual([0]);
  });

  it('says a real link was issued by the bot, when, its state and that it is the asker’s own; to another member “for another member”, never who', async () => {
    const buyer = new Member(h);
    const issued = await checkout(buyer, 'Genuine_1');
    const message = post(buyer, { content: `here is my link: ${issued.url}` });

    const own = await check(buyer, message);
    expect(own.ephemeral).toBe(true);
    const ownText = answerText(own);
    expect(ownText).toContain('Issued by this bot in this server');
    expect(ownText).toContain(`<t:${Math.floor(issued.createdAt / 1000)}:f>`);
    expect(ownText).toContain('State: **Pending**');
    expect(ownText).toContain(`Link reference: ${issued.id}`);
    expect(ownText).toContain(en.linkCheck.forYou);
    expect(ownText).not.toContain(en.linkCheck.notIssued);

    const other = new Member(h);
    const otherText = answerText(await check(other, message));
    expect(otherText).toContain(en.linkCheckForOther.heading);
    expect(otherText).not.toContain(buyer.user.id);
    expect(otherText).not.toContain('Genuine');

    // A moderator also reads whom it was issued to.
    const modText = answerText(await check(moderator(), message));
    expect(modText).toContain(en.linkCheck.forMember(`<@${buyer.user.id}>`, 'Genuine\\_1'));
  });

  it('gives the green ✅ only to the asker’s own link; another member’s genuine link has the warning look, in English and Polish', async () => {
    const buyer = new Member(h);
    const issued = await checkout(buyer, 'Owner_1');
    const message = post(buyer, { content: `pay for me please: ${issued.url}` });

    const own = await check(buyer, message);
    expect(own.message!.components).toMatchObject([{ type: ComponentType.Container, accent_color: LINK_COLORS.genuine }]);
    expect(answerText(own)).toContain('✅ **Issued by this bot in this server**');

    for (const [locale, t] of [['en-US', en], ['pl', pl]] as const) {
      const asked = await check(new Member(h), message, locale);
      const text = answerText(asked);
      expect(asked.message!.components).toMatchObject([{ type: ComponentType.Container, accent_color: LINK_COLORS.withdrawn }]);
      expect(text).toContain(t.linkCheckForOther.heading);
      expect(text).toContain(t.linkCheckForOther.issuedAt(`<t:${Math.floor(issued.createdAt / 1000)}:f>`, `<t:${Math.floor(issued.createdAt / 1000)}:R>`));
      expect(text).not.toContain('✅');
      expect(text).not.toContain(t.linkCheck.forYou);
    }
    expect(pl.linkCheckForOther.heading).toContain('nie płać przez ten link. Płać tylko przyciskiem „Zapłać”');
  });

  it('reads a genuine link as Discord renders it: in bold or italics, followed by _ * ~, with invisible characters or Markdown escapes', async () => {
    const buyer = new Member(h);
    const issued = await checkout(buyer, 'Rendered_1');
    const url = issued.url;
    const cut = url.indexOf('?');
    const shown = [
      `**${url}**`,
      `*${url}*`,
      `_${url}_`,
      `__${url}__`,
      `***${url}***`,
      `~~${url}~~`,
      `${url}_`,
      `${url}*`,
      `${url}~`,
      `${url}.`,
      `${url.slice(0, cut)}\u200B${url.slice(cut)}`,
      `${url.slice(0, cut)}\u00AD${url.slice(cut)}`,
      `\u200B${url}\u2060`,
      `${url.slice(0, 12)}\uFEFF${url.slice(12)}`,
    ];
    for (const content of shown) {
      h.clock.advance(MINUTE); // ten checks a minute per member
      const text = answerText(await check(buyer, post(buyer, { content: `my link: ${content}` })));
      expect(text, JSON.stringify(content)).toContain('✅ **Issued by this bot in this server**');
      expect(text, JSON.stringify(content)).not.toContain(en.linkCheck.notIssued);
    }
  });

  it('reads a genuine link whose own last character is _ or ~, shown in bold or escaped, as the bot’s', async () => {
    const buyer = new Member(h);
    h.store.nextPaymentUrl = () => 'https://sklep.example.pl/pay/900?token=Ab_cD-e_';
    const underscored = await checkout(buyer, 'Token_1');
    h.store.nextPaymentUrl = () => 'https://sklep.example.pl/pay/901?token=xy~';
    const tilde = await checkout(buyer, 'Token_2');
    h.store.nextPaymentUrl = undefined;
    for (const content of [`**${underscored.url}**`, `_${underscored.url}_`, underscored.url.replaceAll('_', '\\_'), `${tilde.url}~~`, tilde.url]) {
      const text = answerText(await check(buyer, post(buyer, { content })));
      expect(text, content).toContain('✅ **Issued by this bot in this server**');
    }
    // A look-alike stays a look-alike: only a reading the bot issued counts.
    expect(answerText(await check(buyer, post(buyer, { content: `**${underscored.url}x**` })))).toContain(en.linkCheck.notIssued);
  });

  it('shows a withdrawn link as withdrawn, and an old one as expired', async () => {
    const buyer = new Member(h);
    const withdrawn = await checkout(buyer, 'Revoked_1');
    await links(moderator(), 'revoke', { link: withdrawn.id });
    const message = post(buyer, { content: withdrawn.url });
    expect(answerText(await check(buyer, message))).toContain('State: **Withdrawn**');

    const later = await checkout(buyer, 'Expired_1');
    h.clock.advance(30 * 24 * 60 * MINUTE);
    expect(answerText(await check(buyer, post(buyer, { content: later.url })))).toContain('State: **Expired**');
  });

  it('warns about a look-alike address, naming where it goes and where the shop’s real links go', async () => {
    const buyer = new Member(h);
    const issued = await checkout(buyer, 'Lookalike_1');
    const realHost = new URL(issued.url).hostname;
    const scammer = new Member(h);
    // The same path and token on a look-alike host, and the real host with one character changed.
    const fake = issued.url.replace(realHost, 'sklep-example.pl');
    const altered = `${issued.url.slice(0, -1)}X`;
    const message = post(scammer, { content: `Pay here: <${fake}> or ${altered}.` });

    const reply = await check(buyer, message);
    const text = answerText(reply);
    expect(text.split(en.linkCheck.notIssued).length - 1).toBe(2);
    expect(text).toContain(en.linkCheck.goesTo('sklep-example.pl'));
    expect(text).toContain(en.linkCheck.shopHosts(realHost));
    expect(text).not.toContain('Issued by this bot in this server');
    // The warning is red, and no address in it can be clicked.
    expect(reply.message!.components).toMatchObject([{ type: ComponentType.Container, accent_color: 0xe03131 }]);
    expect(text).toContain(`\`${fake}\``);
    // Nothing but counts in the log: not the addresses, not the member.
    const logged = h.logs.filter((line) => line.includes('payment links checked'));
    expect(logged.length).toBeGreaterThan(0);
    for (const line of h.logs) {
      expect(line).not.toContain('sklep-example.pl');
      expect(line).not.toContain(issued.url);
    }
    expect(JSON.parse(logged.at(-1)!)).toMatchObject({ urls: 2, issued: 0 });
    expect(logged.at(-1)).not.toContain(buyer.user.id);
    expect(logged.at(-1)).not.toContain(h.discord.defaultGuildId);
  });

  it('finds addresses hidden in a button and deep in display components', async () => {
    const buyer = new Member(h);
    const issued = await checkout(buyer, 'Hidden_1');
    const scammer = new Member(h);
    const buttonMessage = post(scammer, {
      content: 'Claim your rank!',
      components: [{ type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Link, label: 'Pay', url: 'https://sklep.examp1e.pl/pay/1' }] }],
    });
    const buttonText = answerText(await check(buyer, buttonMessage));
    expect(buttonText).toContain('`https://sklep.examp1e.pl/pay/1`');
    expect(buttonText).toContain(en.linkCheck.notIssued);

    const displayMessage = post(scammer, {
      flags: 1 << 15,
      components: [
        {
          type: ComponentType.Container,
          components: [
            { type: ComponentType.Section, components: [{ type: ComponentType.TextDisplay, content: `Your order: [open](${issued.url})` }], accessory: { type: ComponentType.Thumbnail, media: { url: 'https://cdn.example/pic.png' } } },
            { type: ComponentType.TextDisplay, content: 'Or https://pay.sklep-example.pl/x' },
          ],
        },
      ],
    });
    const displayText = answerText(await check(buyer, displayMessage));
    expect(displayText).toContain('Issued by this bot in this server');
    expect(displayText).toContain('`https://pay.sklep-example.pl/x`');
    expect(displayText).not.toContain('cdn.example'); // a picture is not a link to pay through
  });

  it('checks at most 10 addresses of a message and says so; a message without any says that', async () => {
    const member = new Member(h);
    const urls = Array.from({ length: 12 }, (_, index) => `https://pay${index}.example/x`);
    const text = answerText(await check(member, post(member, { content: urls.join(' ') })));
    expect(text).toContain(en.linkCheck.onlyFirst(10, 12));
    expect(text).toContain('pay9.example');
    expect(text).not.toContain('pay10.example');
    expect(answerText(await check(member, post(member, { content: 'no links here' })))).toBe(en.linkCheck.none);
  });

  it('lets a member check 10 messages a minute, then asks them to wait until the next minute', async () => {
    h.clock.advance(MINUTE - (h.clock.now() % MINUTE)); // the start of a minute
    const member = new Member(h);
    const message = post(member, { content: 'https://pay.example/x' });
    for (let index = 0; index < 10; index += 1) expect(answerText(await check(member, message))).toContain(en.linkCheck.notIssued);
    h.clock.advance(20_000);
    expect(answerText(await check(member, message))).toBe(en.linkCheck.rateLimited(10, 40));
    // Another member is not held back by them.
    expect(answerText(await check(new Member(h), message))).toContain(en.linkCheck.notIssued);
    h.clock.advance(40_000);
    expect(answerText(await check(member, message))).toContain(en.linkCheck.notIssued);
  });

  it('answers in Polish', async () => {
    const buyer = new Member(h);
    const issued = await checkout(buyer, 'Polski_1');
    const text = answerText(await check(buyer, post(buyer, { content: `${issued.url} https://sklep-example.pl/pay` }), 'pl'));
    expect(text).toContain(pl.linkCheck.title);
    expect(text).toContain('Wydany przez tego bota na tym Discordzie');
    expect(text).toContain('Stan: **Oczekuje**');
    expect(text).toContain(pl.linkCheck.forYou);
    expect(text).toContain(pl.linkCheck.notIssued);
    expect(text).toContain(pl.linkCheck.note);
  });
});
