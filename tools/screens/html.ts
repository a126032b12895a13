/**
 * One screen as an HTML page that looks like Discord's dark theme: the bot's message, either
 * display components (containers with their accent bar, text displays with Markdown headings,
 * sections with a thumbnail or a button beside the text, media galleries, separators, action rows)
 * or, for a message sent before those, content and embeds with their colour bar; buttons by style,
 * select menus open or closed, the "Only you can see this" line of ephemeral replies, or a modal;
 * Discord's own words in the screen's language (frame.ts).
 * Every text goes through `markdown`, which escapes it first; `visibleText` is what a reader sees
 * of a text (the drift test compares them). The page fetches nothing: the demo shop's pictures are
 * embedded as data: URIs, any other picture (a store's https URL) is drawn as a neutral box.
 */
import type { APIEmbed } from 'discord.js';
import { demoImageFile } from '../../src/demo/images.js';
import type { View, ViewFile } from '../../src/discord/respond.js';
import { isDisplayView } from '../../src/discord/views/display.js';
import type { Locale } from '../../src/i18n/index.js';
import type { Screen } from './catalogue.js';
import { FRAMES, SCREEN_NOW, type Frame } from './frame.js';
import { componentHtml, escape, modalHtml, rowHtml, tagged, type AnyComponent } from './components.js';

const NAMES: Record<string, string> = {
  '100000000000000001': 'Admin',
  '100000000000000002': 'Steve',
  '100000000000000003': 'Moderator',
  '300000000000000001': 'shop-log',
  '300000000000000002': 'Moderators',
  '300000000000000003': 'VIP',
  '300000000000000004': 'SkyVIP',
  '400000000000000001': 'shop',
};

function timestamp(seconds: number, style: string, frame: Frame): string {
  const ms = seconds * 1000;
  if (style === 'R') return frame.relative(Math.round((SCREEN_NOW - ms) / 60_000));
  return frame.fullDate(new Date(ms));
}

/**
 * Discord's Markdown, as far as the bot writes it, to HTML: escapes, code (nothing inside it is
 * formatting), mentions and timestamps, masked links, bold, italics, underline, strikethrough, and
 * per line headings (`#`, `##`, `###`), the small grey `-#` line, list items and quotes.
 */
export function markdown(text: string, locale: Locale = drawing): string {
  const held: string[] = [];
  const hold = (html: string): string => `\u0000${held.push(html) - 1}\u0000`;
  // Backslash escapes first: the escaped character is shown as itself, never as formatting.
  let out = escape(text.replace(/\\([\\*_~`|[\]<>@#:.+-])/g, (_match, char: string) => hold(escape(char))));
  out = out
    // A fenced block (```…```), as Discord draws it: a box of monospace lines.
    .replace(/```\n?([^`]*?)\n?```/g, (_m, body: string) => hold(`<code class="block">${body.replace(/\n/g, '<br>')}</code>`))
    .replace(/`([^`\n]+)`/g, (_m, body: string) => hold(`<code>${body}</code>`))
    .replace(/&#60;t:(\d+):([RfFdDtT])&#62;/g, (_m, seconds: string, style: string) => `<span class="time">${timestamp(Number(seconds), style, FRAMES[locale])}</span>`)
    .replace(/&#60;@&#38;(\d+)&#62;/g, (_m, id: string) => `<span class="mention">@${NAMES[id] ?? 'role'}</span>`)
    .replace(/&#60;@!?(\d+)&#62;/g, (_m, id: string) => `<span class="mention">@${NAMES[id] ?? 'member'}</span>`)
    .replace(/&#60;#(\d+)&#62;/g, (_m, id: string) => `<span class="mention">#${NAMES[id] ?? 'channel'}</span>`)
    .replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g, '<a>$1</a>')
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/__(.+?)__/g, '<u>$1</u>')
    .replace(/~~(.+?)~~/g, '<s>$1</s>')
    .replace(/(^|[^*])\*([^*\n]+)\*/g, '$1<em>$2</em>')
    .replace(/(^|[^\w])_([^_\n]+)_(?!\w)/g, '$1<em>$2</em>');
  out = lines(out.split('\n'));
  // A held piece may hold an escape (code with a backslash in it): restore until none is left.
  while (out.includes('\u0000')) out = out.replace(/\u0000(\d+)\u0000/g, (_m, index: string) => held[Number(index)] ?? '');
  return out;
}

/** Lines to HTML: a heading, `-#` line, list item or quote is a block of its own; other lines are joined by line breaks. */
function lines(all: string[]): string {
  let html = '';
  let afterText = false;
  for (const line of all) {
    const block = blockLine(line);
    if (block) html += block;
    else html += `${afterText ? '<br>' : ''}${line}`;
    afterText = !block;
  }
  return html;
}

function blockLine(line: string): string | undefined {
  const heading = /^(#{1,3}) (.+)$/.exec(line);
  if (heading) return `<div class="h${heading[1]!.length}">${heading[2]}</div>`;
  const small = /^-# (.+)$/.exec(line);
  if (small) return `<div class="sub">${small[1]}</div>`;
  const item = /^\s*[-*] (.+)$/.exec(line);
  if (item) return `<div class="li">${item[1]}</div>`;
  const numbered = /^\s*(\d+)\. (.+)$/.exec(line);
  if (numbered) return `<div class="ol">${numbered[1]}. ${numbered[2]}</div>`;
  const quote = /^&#62; (.*)$/.exec(line);
  if (quote) return `<div class="quote">${quote[1] || '&#8203;'}</div>`;
  return undefined;
}

/** What a reader sees of a text: its Markdown rendered, without tags, whitespace folded. */
export function visibleText(text: string, locale: Locale = 'en'): string {
  return htmlToText(markdown(text, locale));
}

/** The text content of HTML (tags dropped, a block or line break read as a space, entities decoded, whitespace folded). */
export function htmlToText(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<svg[\s\S]*?<\/svg>/g, ' ')
    .replace(/<br>|<\/?div[^>]*>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/[\s\u200b]+/g, ' ')
    .trim();
}

function embedHtml(embed: APIEmbed): string {
  const colour = `#${(embed.color ?? 0x1e1f22).toString(16).padStart(6, '0')}`;
  const fields = (embed.fields ?? [])
    .map((field) => `<div class="field${field.inline ? ' inline' : ''}"><div class="fname">${markdown(field.name)}</div><div class="fvalue">${markdown(field.value)}</div></div>`)
    .join('');
  return `<div class="embed" style="border-left-color:${colour}">
${embed.title ? `<div class="etitle">${markdown(embed.title)}</div>` : ''}
${embed.description ? `<div class="edesc">${markdown(embed.description)}</div>` : ''}
${fields ? `<div class="fields">${fields}</div>` : ''}
${embed.footer?.text ? `<div class="efoot">${markdown(embed.footer.text)}</div>` : ''}</div>`;
}

/** The name a mention of this id shows (the pictures' fixed members, roles and channels). */
function nameOf(id: string, kind: string): string {
  return NAMES[id] ?? (kind === 'user' ? 'member' : kind);
}

/** A picture as the page shows it: a file the message carries (the demo's own) inline, anything else a neutral box. */
function mediaHtml(url: string, files: readonly ViewFile[], kind: 'thumb' | 'shot', component?: AnyComponent): string {
  const tag = component ? ` ${tagged(component)}` : '';
  const name = url.startsWith('attachment://') ? url.slice('attachment://'.length) : undefined;
  const file = name === undefined ? undefined : (files.find((candidate) => candidate.name === name) ?? demoImageFile(name));
  if (file) return `<img${tag} class="${kind}" src="data:${file.contentType ?? 'image/png'};base64,${file.data.toString('base64')}" alt="">`;
  // A store's https picture: Discord would fetch it, the page must not (and shows no address).
  return `<div${tag} class="${kind} nopic"><svg viewBox="0 0 24 24" width="40%" height="40%"><path fill="#6d6f78" d="M4 5h16a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1zm1 12h14l-4.5-6-3.5 4.5-2.5-3z"/><circle cx="8" cy="9" r="1.6" fill="#6d6f78"/></svg></div>`;
}

/** Display components (Components V2), top to bottom, as Discord lays them out. */
function displayHtml(components: readonly AnyComponent[], files: readonly ViewFile[], open: boolean): string {
  return components
    .map((component) => {
      switch (component.type) {
        case 17: {
          const accent = component.accent_color ?? undefined;
          const bar = accent === undefined ? '' : ` style="border-left:4px solid #${accent.toString(16).padStart(6, '0')}"`;
          return `<div ${tagged(component)} class="container"${bar}>${displayHtml(component.components ?? [], files, open)}</div>`;
        }
        case 10:
          return `<div ${tagged(component)} class="td">${markdown(component.content ?? '')}</div>`;
        case 9: {
          const accessory = component.accessory;
          // A thumbnail sits at the top right, beside the first line; a button is centred beside the text.
          const thumb = accessory?.type === 11 && accessory.media !== undefined;
          const side = thumb ? mediaHtml(accessory.media!.url, files, 'thumb', accessory) : accessory ? componentHtml(accessory, open, nameOf) : '';
          return `<div ${tagged(component)} class="section"><div class="stexts">${displayHtml(component.components ?? [], files, open)}</div><div class="acc${thumb ? ' top' : ''}">${side}</div></div>`;
        }
        case 12: {
          const items = component.items ?? [];
          return `<div ${tagged(component)} class="gallery n${Math.min(items.length, 3)}">${items.map((item) => mediaHtml(item.media.url, files, 'shot')).join('')}</div>`;
        }
        case 14:
          return `<div ${tagged(component)} class="sep${component.divider === false ? '' : ' line'}${component.spacing === 2 ? ' large' : ''}"></div>`;
        case 1:
          return rowHtml(component, open, nameOf);
        default:
          return '';
      }
    })
    .join('\n');
}

/** The language of the screen being drawn (screenHtml is synchronous): Discord's own words follow it. */
let drawing: Locale = 'en';

function messageHtml(view: View, screen: Screen): string {
  const frame = FRAMES[drawing];
  const components = (view.components ?? []) as unknown as AnyComponent[];
  const open = screen.openSelect === true;
  const body = isDisplayView(view)
    ? `<div class="display">${displayHtml(components, view.files ?? [], open)}</div>`
    : `${view.content ? `<div class="content">${markdown(view.content)}</div>` : ''}
${(view.embeds ?? []).map(embedHtml).join('\n')}
${components.map((row) => rowHtml(row, open, nameOf)).join('\n')}`;
  return `<div class="msg">
<div class="avatar">🛒</div>
<div class="body">
<div class="head"><span class="name">Shop Bot</span><span class="tag">${frame.appTag}</span><span class="when">${frame.today}</span></div>
${body}
${screen.place === 'ephemeral' ? `<div class="eph">👁 ${frame.onlyYou} · <a>${frame.dismiss}</a></div>` : ''}
</div></div>`;
}

export function screenHtml(screen: Screen): string {
  drawing = screen.locale ?? 'en';
  const inner = screen.modal ? modalHtml(screen.modal, FRAMES[drawing], nameOf) : messageHtml(screen.message ?? {}, screen);
  drawing = 'en';
  const where = screen.place === 'dm' ? '@Shop Bot' : screen.place === 'channel' ? '# shop' : '# general';
  return `<!doctype html><html><head><meta charset="utf-8"><style>${CSS}</style></head>
<body><div id="shot" class="${screen.modal ? 'dim' : ''}"><div class="where">${escape(where)}</div>${inner}</div></body></html>`;
}

const CSS = `
body{margin:0;background:#313338;font-family:"gg sans","Noto Sans","DejaVu Sans",sans-serif;font-size:15px;color:#dbdee1}
#shot{width:620px;padding:12px 16px 16px;background:#313338}#shot.dim{background:#1e1f22}
.where{color:#949ba4;font-size:12px;font-weight:600;margin-bottom:8px;border-bottom:1px solid #3f4147;padding-bottom:6px}
.msg{display:flex;gap:14px}.avatar{width:40px;height:40px;border-radius:50%;background:#5865f2;display:flex;align-items:center;justify-content:center;font-size:20px;flex:none}
.body{min-width:0;flex:1}.head{display:flex;align-items:center;gap:6px;margin-bottom:2px}.name{color:#f2f3f5;font-weight:600}
.tag{background:#5865f2;color:#fff;font-size:10px;font-weight:700;padding:1px 4px;border-radius:3px}.when{color:#949ba4;font-size:12px}
.content{line-height:1.375;white-space:normal;margin-bottom:4px}
.embed{background:#2b2d31;border-left:4px solid;border-radius:4px;padding:8px 16px 12px 12px;margin:6px 0;max-width:520px}
.etitle{color:#f2f3f5;font-weight:600;margin:4px 0}.edesc{font-size:14px;line-height:1.375}.efoot{color:#b5bac1;font-size:12px;margin-top:8px}
.fields{display:flex;flex-wrap:wrap;gap:8px 16px;margin-top:8px}.field{flex:1 1 100%}.field.inline{flex:1 1 28%}
.fname{color:#f2f3f5;font-weight:600;font-size:14px;margin-bottom:2px}.fvalue{font-size:14px;line-height:1.375}
.mention{background:rgba(88,101,242,.3);color:#c9cdfb;border-radius:3px;padding:0 2px}.time{background:#3f4147;border-radius:3px;padding:0 2px}
code{background:#1e1f22;border-radius:3px;padding:0 3px;font-family:"DejaVu Sans Mono",monospace;font-size:13px}code.block{display:block;border:1px solid #1e1f22;border-radius:4px;padding:6px 8px;margin:4px 0}a{color:#00a8fc}
.row{display:flex;flex-wrap:wrap;gap:8px;margin-top:8px}
.button{display:inline-flex;align-items:center;height:32px;padding:0 16px;border-radius:3px;color:#fff;font-size:14px;font-weight:500}
.primary{background:#5865f2}.secondary{background:#4e5058}.success{background:#248046}.danger{background:#da373c}.plain{background:none}.disabled{opacity:.5}
.ext{margin-left:6px}.select{width:100%;max-width:520px}.sbox{background:#1e1f22;border:1px solid #1e1f22;border-radius:4px;padding:9px 12px;display:flex;justify-content:space-between}
.select.open .sbox{border-color:#5865f2;border-radius:4px 4px 0 0}.placeholder{color:#949ba4}.chev{color:#b5bac1}
.options{background:#2b2d31;border:1px solid #1e1f22;border-top:none;border-radius:0 0 4px 4px}
.option{padding:7px 12px;border-bottom:1px solid #313338}.odesc{color:#949ba4;font-size:13px}
.eph{color:#949ba4;font-size:12px;margin-top:8px}
.display{display:flex;flex-direction:column;gap:8px;max-width:540px}
.container{background:#2b2d31;border:1px solid #3f4147;border-radius:8px;padding:16px;display:flex;flex-direction:column;gap:8px}
.container>.row{margin-top:0}
.td{line-height:1.375;overflow-wrap:anywhere}
.h1{color:#f2f3f5;font-size:24px;font-weight:700;line-height:1.3;margin:2px 0}.h2{color:#f2f3f5;font-size:20px;font-weight:700;line-height:1.3;margin:2px 0}
.h3{color:#f2f3f5;font-size:16px;font-weight:700;margin:2px 0}.sub{color:#949ba4;font-size:12px;line-height:1.4}
.li{position:relative;padding-left:18px}.li::before{content:"•";position:absolute;left:5px}.ol{padding-left:4px}
.quote{border-left:4px solid #4e5058;padding-left:10px}
.section{display:flex;gap:12px;align-items:flex-start}.stexts{flex:1;min-width:0;display:flex;flex-direction:column;gap:8px}.acc{flex:none;align-self:center}.acc.top{align-self:flex-start}
.thumb{display:block;width:85px;height:85px;border-radius:8px;object-fit:cover}
.gallery{display:grid;gap:4px;border-radius:8px;overflow:hidden}.gallery.n1{grid-template-columns:1fr}.gallery.n2{grid-template-columns:1fr 1fr}.gallery.n3{grid-template-columns:1fr 1fr 1fr}
.shot{display:block;width:100%;height:240px;object-fit:contain;background:#232428}.gallery.n2 .shot,.gallery.n3 .shot{object-fit:cover;height:160px}
.nopic{background:#232428;border:1px dashed #4e5058;box-sizing:border-box;display:flex;align-items:center;justify-content:center}
.sep{height:0;margin:2px 0}.sep.line{border-top:1px solid #3f4147}.sep.large{margin:10px 0}
.modal{background:#313338;border-radius:8px;width:440px;margin:16px auto;padding:16px;box-shadow:0 0 0 1px #1e1f22}
.mtitle{color:#f2f3f5;font-size:20px;font-weight:600;margin-bottom:16px}.mlabel{color:#b5bac1;font-size:12px;font-weight:700;text-transform:uppercase;margin-bottom:8px}
.req{color:#f23f42}.minput{background:#1e1f22;border-radius:3px;padding:10px;color:#dbdee1;margin-bottom:16px}.minput .placeholder{color:#87898c}.minput.para{min-height:60px}.mdesc{color:#949ba4;font-size:12px;margin:-4px 0 8px}
.mfoot{background:#2b2d31;margin:0 -16px -16px;padding:16px;display:flex;justify-content:flex-end;gap:8px;border-radius:0 0 8px 8px}
`;
