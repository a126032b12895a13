/**
 * One screen as an HTML page that looks like Discord's dark theme: the bot's message (content,
 * embeds with their colour bar, buttons by style, select menus open or closed), the "Only you can
 * see this" line of ephemeral replies, or a modal. Every text goes through `markdown`, which
 * escapes it first; `visibleText` is what a reader sees of a text (the drift test compares them).
 */
import type { APIEmbed, APIModalInteractionResponseCallbackData } from 'discord.js';
import type { View } from '../../src/discord/respond.js';
import type { Screen } from './catalogue.js';

/** The pictures' fixed "now", for Discord's relative timestamps. */
export const SCREEN_NOW = Date.UTC(2026, 4, 12, 18, 30);
const NAMES: Record<string, string> = {
  '100000000000000001': 'Admin',
  '100000000000000002': 'Steve',
  '100000000000000003': 'Moderator',
  '300000000000000001': 'shop-log',
  '300000000000000002': 'Moderators',
  '400000000000000001': 'shop',
};

interface AnyComponent {
  type: number;
  style?: number;
  label?: string;
  url?: string;
  disabled?: boolean;
  placeholder?: string;
  options?: { label: string; description?: string; default?: boolean }[];
  components?: AnyComponent[];
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function timestamp(seconds: number, style: string): string {
  const ms = seconds * 1000;
  if (style === 'R') {
    const hours = Math.round((SCREEN_NOW - ms) / 3_600_000);
    if (hours === 0) return 'now';
    return hours > 0 ? `${hours} hours ago` : `in ${-hours} hours`;
  }
  const date = new Date(ms);
  const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  return `${date.getUTCDate()} ${months[date.getUTCMonth()]} ${date.getUTCFullYear()} ${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
}

/** Discord's Markdown, as far as the bot writes it, to HTML. */
export function markdown(text: string): string {
  const escaped: string[] = [];
  // Backslash escapes first: the escaped character is shown as itself, never as formatting.
  let out = text.replace(/\\([\\*_~`|[\]<>@#:.+-])/g, (_match, char: string) => `\u0000${escaped.push(char) - 1}\u0000`);
  out = escape(out);
  out = out
    .replace(/&#60;t:(\d+):([RfFdDtT])&#62;/g, (_m, seconds: string, style: string) => `<span class="time">${timestamp(Number(seconds), style)}</span>`)
    .replace(/&#60;@&amp;(\d+)&#62;/g, (_m, id: string) => `<span class="mention">@${NAMES[id] ?? 'role'}</span>`)
    .replace(/&#60;@!?(\d+)&#62;/g, (_m, id: string) => `<span class="mention">@${NAMES[id] ?? 'member'}</span>`)
    .replace(/&#60;#(\d+)&#62;/g, (_m, id: string) => `<span class="mention">#${NAMES[id] ?? 'channel'}</span>`)
    .replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g, '<a>$1</a>')
    // A fenced block (```…```) first, as Discord draws it: a box of monospace lines.
    .replace(/```\n?([^`]*?)\n?```/g, (_m, body: string) => `<code class="block">${body.replace(/\n/g, '\u0001')}</code>`)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*\n]+)\*/g, '$1<em>$2</em>')
    .replace(/\n/g, '<br>')
    .replace(/\u0001/g, '<br>');
  return out.replace(/\u0000(\d+)\u0000/g, (_m, index: string) => escape(escaped[Number(index)] ?? ''));
}

/** What a reader sees of a text: its Markdown rendered, without tags, whitespace folded. */
export function visibleText(text: string): string {
  return htmlToText(markdown(text));
}

/** The text content of HTML (tags dropped, entities decoded, whitespace folded). */
export function htmlToText(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<br>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/\s+/g, ' ')
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

const BUTTON_STYLES: Record<number, string> = { 1: 'primary', 2: 'secondary', 3: 'success', 4: 'danger', 5: 'secondary link' };

function componentHtml(component: AnyComponent, open: boolean): string {
  if (component.type === 2) {
    const style = BUTTON_STYLES[component.style ?? 2] ?? 'secondary';
    return `<span class="button ${style}${component.disabled ? ' disabled' : ''}">${escape(component.label ?? '')}${component.style === 5 ? ' <span class="ext">↗</span>' : ''}</span>`;
  }
  if (component.type === 3) {
    const chosen = component.options?.find((option) => option.default);
    const shown = chosen ? escape(chosen.label) : `<span class="placeholder">${escape(component.placeholder ?? '')}</span>`;
    const list = open
      ? `<div class="options">${(component.options ?? [])
          .map((option) => `<div class="option"><div>${escape(option.label)}</div>${option.description ? `<div class="odesc">${escape(option.description)}</div>` : ''}</div>`)
          .join('')}</div>`
      : '';
    return `<div class="select${open ? ' open' : ''}"><div class="sbox">${shown}<span class="chev">${open ? '⌃' : '⌄'}</span></div>${list}</div>`;
  }
  return '';
}

function messageHtml(view: View, screen: Screen): string {
  const rows = (view.components ?? []) as unknown as AnyComponent[];
  return `<div class="msg">
<div class="avatar">🛒</div>
<div class="body">
<div class="head"><span class="name">Shop Bot</span><span class="tag">APP</span><span class="when">Today at 20:30</span></div>
${view.content ? `<div class="content">${markdown(view.content)}</div>` : ''}
${(view.embeds ?? []).map(embedHtml).join('\n')}
${rows.map((row) => `<div class="row">${(row.components ?? []).map((component) => componentHtml(component, screen.openSelect === true)).join('')}</div>`).join('\n')}
${screen.place === 'ephemeral' ? '<div class="eph">👁 Only you can see this · <a>Dismiss message</a></div>' : ''}
</div></div>`;
}

function modalHtml(modal: APIModalInteractionResponseCallbackData): string {
  const inputs = (modal.components as unknown as { components: { label?: string; placeholder?: string; required?: boolean }[] }[]).flatMap((row) => row.components);
  return `<div class="modal"><div class="mtitle">${escape(modal.title)}</div>
${inputs.map((input) => `<div class="mlabel">${escape(input.label ?? '')}${input.required ? ' <span class="req">*</span>' : ''}</div><div class="minput">${escape(input.placeholder ?? '')}</div>`).join('')}
<div class="mfoot"><span class="button plain">Cancel</span><span class="button primary">Submit</span></div></div>`;
}

export function screenHtml(screen: Screen): string {
  const inner = screen.modal ? modalHtml(screen.modal) : messageHtml(screen.message ?? {}, screen);
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
.modal{background:#313338;border-radius:8px;width:440px;margin:16px auto;padding:16px;box-shadow:0 0 0 1px #1e1f22}
.mtitle{color:#f2f3f5;font-size:20px;font-weight:600;margin-bottom:16px}.mlabel{color:#b5bac1;font-size:12px;font-weight:700;text-transform:uppercase;margin-bottom:8px}
.req{color:#f23f42}.minput{background:#1e1f22;border-radius:3px;padding:10px;color:#87898c;margin-bottom:16px}
.mfoot{background:#2b2d31;margin:0 -16px -16px;padding:16px;display:flex;justify-content:flex-end;gap:8px;border-radius:0 0 8px 8px}
`;
