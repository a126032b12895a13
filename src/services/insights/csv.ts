import type { InsightsReport } from './report.js';

/** The CSV's words: the header's names and the label of a day's whole-shop row. */
export interface CsvTexts {
  header: readonly [date: string, server: string, product: string, orders: string, paid: string, links: string];
  allProducts: string;
}

/**
 * The period's daily rows as a file a spreadsheet opens as a table: a header row, then per day a
 * row for the whole shop (with the links issued) and one per product paid that day. Polish: `;`
 * between fields, decimal commas and a byte-order mark (what a Polish Excel expects); English:
 * commas and dots. Text that a spreadsheet would run as a formula is kept as text.
 */
export function insightsCsv(report: InsightsReport, locale: 'en' | 'pl', texts: CsvTexts, names: (row: { server: string; product: string }) => { server: string; product: string }): Buffer {
  const separator = locale === 'pl' ? ';' : ',';
  const money = (grosze: number) => {
    const text = (grosze / 100).toFixed(2);
    return locale === 'pl' ? text.replace('.', ',') : text;
  };
  const cell = (value: string) => {
    const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
    return safe.includes(separator) || /["\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  const lines = [texts.header.map(cell).join(separator)];
  for (const day of report.daily) {
    lines.push([day.day, '', texts.allProducts, String(day.orders), money(day.paidGrosze), String(day.linksIssued)].map(cell).join(separator));
    for (const row of [...day.products].sort((a, b) => b.grosze - a.grosze)) {
      const named = names(row);
      lines.push([day.day, named.server, named.product, String(row.orders), money(row.grosze), ''].map(cell).join(separator));
    }
  }
  const body = `${lines.join('\r\n')}\r\n`;
  return Buffer.concat([locale === 'pl' ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(body, 'utf8')]);
}
