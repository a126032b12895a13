import { describe, expect, it } from 'vitest';
import { goalsText } from '../../commands/admin/panel.js';
import { topView } from '../../commands/top/views.js';
import type { View } from '../../src/discord/respond.js';
import { textDisplays } from '../../src/discord/views/display.js';
import { en } from '../../src/i18n/en.js';
import { pl } from '../../src/i18n/pl.js';
import { goalsHash, goalView, progressBar, shownPercentage, type ServerGoals } from '../../src/services/community.js';
import { goalListSchema, richestListSchema } from '../../src/spaceis/community-schemas.js';

describe('the goal progress bar', () => {
  it('fills a tenth per 10 %, rounded, clamped to 0–100 %', () => {
    expect(progressBar(0)).toBe('▱▱▱▱▱▱▱▱▱▱');
    expect(progressBar(30)).toBe('▰▰▰▱▱▱▱▱▱▱');
    expect(progressBar(34)).toBe('▰▰▰▱▱▱▱▱▱▱');
    expect(progressBar(35)).toBe('▰▰▰▰▱▱▱▱▱▱');
    expect(progressBar(100)).toBe('▰▰▰▰▰▰▰▰▰▰');
    expect(progressBar(250)).toBe('▰▰▰▰▰▰▰▰▰▰');
    expect(progressBar(-5)).toBe('▱▱▱▱▱▱▱▱▱▱');
    expect(progressBar(Number.NaN)).toBe('▱▱▱▱▱▱▱▱▱▱');
    expect(progressBar(50, 4)).toBe('▰▰▱▱');
  });

  it('shows whole percentages within 0–100, and a goal at or past 100 % as reached', () => {
    expect([shownPercentage(99.9), shownPercentage(130), shownPercentage(-1)]).toEqual([99, 100, 0]);
    expect(goalView({ id: '1', name: 'Mapa', percentage: 100, formattedText: '  ' })).toEqual({ name: 'Mapa', percentage: 100, text: undefined, reached: true });
    expect(goalView({ id: undefined, name: 'Mapa', percentage: 99, formattedText: '99/100' }).reached).toBe(false);
  });
});

describe('goals and richest as read from the store', () => {
  it('drops rows without a name or percentage, reads numeric strings, strips unknown fields', () => {
    const goals = goalListSchema.parse([
      { id: 7, name: 'Mapa', percentage: '45', formattedText: '45/100', secret: 'x' },
      { name: 'Bez procentu' },
      { name: '', percentage: 5 },
      'nonsense',
    ]);
    expect(goals).toEqual([{ id: '7', name: 'Mapa', percentage: 45, formattedText: '45/100' }]);
    expect(goalListSchema.parse({ goals: [{ name: 'A', percentage: 1 }] })).toHaveLength(1);
    expect(goalListSchema.safeParse('not a list').success).toBe(false);
  });

  it('reads richest rows leniently: a row without a nick is dropped, odd fields are undefined', () => {
    expect(richestListSchema.parse([{ nick: 'Steve', amount: '12,50', totalBuys: '3' }, { amount: 1 }, { nick: 'Alex', amount: {}, totalBuys: -1 }])).toEqual([
      { nick: 'Steve', amount: 12.5, totalBuys: 3 },
      { nick: 'Alex', amount: undefined, totalBuys: undefined },
    ]);
  });
});

describe('the goals hash', () => {
  const goals = (percentage: number, text?: string): ServerGoals[] => [{ serverId: 's', serverName: 'Survival', goals: [{ name: 'Mapa', percentage, text, reached: percentage >= 100 }] }];
  it('changes with what the panel shows, and only with that', () => {
    expect(goalsHash(goals(30))).toBe(goalsHash(goals(30)));
    expect(goalsHash(goals(30.4))).toBe(goalsHash(goals(30))); // shown as 30 % either way
    expect(goalsHash(goals(130))).toBe(goalsHash(goals(100)));
    expect(goalsHash(goals(31))).not.toBe(goalsHash(goals(30)));
    expect(goalsHash(goals(30, 'a'))).not.toBe(goalsHash(goals(30)));
    expect(goalsHash([])).not.toBe(goalsHash(goals(30)));
  });
});

/** The text under each `###` heading of a view (its lists), as a member reads them. */
function listsOf(view: View): string[] {
  const texts = textDisplays(view.components ?? []).map((display) => display.content);
  return texts.flatMap((content, index) => (content.startsWith('### ') && texts[index + 1] !== undefined ? [texts[index + 1]!] : []));
}

describe('the views', () => {
  it('draw goals with names and the store\'s text as plain text', () => {
    const shown = goalsText(en, { serverId: 's', serverName: '**S**', goals: [{ name: '[x](https://evil.example)', percentage: 100, text: '@everyone', reached: true }] });
    expect(shown).toBe(`### 🎯 Goals · \\*\\*S\\*\\*\n\n**\\[x\\](https\\://evil.example)**\n▰▰▰▰▰▰▰▰▰▰ 100% · ${en.community.goalReached}\n\\@everyone`);
  });

  it('/shop-top: counts, never amounts; a player for a hidden nick; what the shop does not publish', () => {
    const server = { id: 's', name: 'Survival' };
    const view = topView(pl, {
      server,
      supporters: { kind: 'ok', rows: [{ nick: 'Steve', purchases: 22 }, { nick: undefined, purchases: 5 }, { nick: 'Alex', purchases: undefined }, { nick: 'Ktoś', purchases: 1 }] },
      purchases: { kind: 'not-published' },
    });
    const [supporters, latest] = listsOf(view);
    expect(supporters).toBe('🥇 **Steve** · 22 zakupy\n🥈 **Gracz** · 5 zakupów\n🥉 **Alex**\n4. **Ktoś** · 1 zakup');
    expect(latest).toBe(pl.community.notPublished);
    const failed = topView(en, { server, supporters: { kind: 'failed' }, purchases: { kind: 'ok', rows: [{ product: undefined, variant: undefined, nick: 'A', at: undefined }] } });
    expect(listsOf(failed)).toEqual([en.community.notNow, `• ${en.community.anItem} · A`]);
  });
});
