import { Box, Text } from 'ink';
import { cell, COLUMN_GAP, columnWidths, type TableView } from '../output.js';
import { toneColor } from './tone.js';

/** Columns sized to their content, header in bold, cells coloured by state. */
export function Table({ view }: { view: TableView }) {
  const title = view.title === undefined ? null : <Text bold>{view.title}</Text>;
  if (view.rows.length === 0) {
    return (
      <Box flexDirection="column">
        {title}
        <Text dimColor>{view.empty}</Text>
      </Box>
    );
  }
  const widths = columnWidths(view);
  const pad = (text: string, i: number) => (i === view.columns.length - 1 ? text : text.padEnd(widths[i] + COLUMN_GAP));
  return (
    <Box flexDirection="column">
      {title}
      <Text bold>{view.columns.map(pad).join('').trimEnd()}</Text>
      {view.rows.map((row, r) => (
        <Text key={r}>
          {row.map((value, i) => {
            const c = cell(value);
            return (
              <Text key={i} {...(c.tone === undefined ? {} : { color: toneColor[c.tone] })}>
                {pad(c.text, i)}
              </Text>
            );
          })}
        </Text>
      ))}
    </Box>
  );
}
