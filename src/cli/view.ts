// What a command shows, as data (View), and its layout: plain text and the ink views both draw from
// here. It imports nothing, so the views take in no other module of the CLI (output.ts brings the
// gRPC client).

export type Tone = 'good' | 'bad' | 'warn' | 'muted' | 'accent';
export interface Cell {
  text: string;
  tone?: Tone;
}
type CellValue = string | Cell;

export interface TableView {
  kind: 'table';
  title?: string;
  columns: string[];
  rows: CellValue[][];
  /** Shown instead of an empty table. */
  empty: string;
}
export interface RecordView {
  kind: 'record';
  title?: string;
  fields: Array<[label: string, value: CellValue]>;
}
interface MessageView {
  kind: 'message';
  text: string;
  tone?: Tone;
}
export type View = TableView | RecordView | MessageView;

export function cell(value: CellValue): Cell {
  return typeof value === 'string' ? { text: value } : value;
}

export const COLUMN_GAP = 2;

/** Each column as wide as its widest cell (header included). */
export function columnWidths(view: TableView): number[] {
  return view.columns.map((header, i) => Math.max(header.length, ...view.rows.map((row) => cell(row[i] ?? '').text.length)));
}

/** The narrowest a column is shrunk to when a table does not fit the terminal. */
const MIN_COLUMN_WIDTH = 6;

/**
 * Column widths that fit `available` characters (gaps included): the widest column gives up a
 * character at a time, down to MIN_COLUMN_WIDTH. A table that cannot fit keeps those minimums.
 */
export function fitColumns(widths: readonly number[], available: number | undefined): number[] {
  const fitted = [...widths];
  if (available === undefined || available <= 0) return fitted;
  const total = () => fitted.reduce((sum, w) => sum + w, 0) + COLUMN_GAP * (fitted.length - 1);
  while (total() > available) {
    const widest = fitted.indexOf(Math.max(...fitted));
    if (fitted[widest] <= MIN_COLUMN_WIDTH) break;
    fitted[widest] -= 1;
  }
  return fitted;
}

/** `text` cut to `width` characters, with an ellipsis when it was longer. */
export function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** Plain text of a view: the same layout ink draws, without colour. */
export function renderPlain(view: View): string {
  if (view.kind === 'message') return view.text;
  const lines: string[] = view.title === undefined ? [] : [view.title];
  if (view.kind === 'record') {
    const width = Math.max(...view.fields.map(([label]) => label.length));
    for (const [label, value] of view.fields)
      lines.push(`${`${label}:`.padEnd(width + 1 + COLUMN_GAP)}${cell(value).text}`.trimEnd());
    return lines.join('\n');
  }
  if (view.rows.length === 0) return [...lines, view.empty].join('\n');
  const widths = columnWidths(view);
  const line = (texts: string[]) =>
    texts
      .map((t, i) => (i === texts.length - 1 ? t : t.padEnd(widths[i] + COLUMN_GAP)))
      .join('')
      .trimEnd();
  lines.push(line(view.columns));
  for (const row of view.rows) lines.push(line(row.map((c) => cell(c).text)));
  return lines.join('\n');
}
