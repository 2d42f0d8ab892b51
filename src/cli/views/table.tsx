import { Box, Text, useStdout } from 'ink';
import { cell, COLUMN_GAP, columnWidths, fitColumns, truncate, type TableView } from '../view.js';
import { toneColor } from './tone.js';

/**
 * Columns sized to their content, header in bold, cells coloured by state. A table wider than the
 * terminal shrinks its widest columns, cutting their text with an ellipsis.
 */
export function Table({ view }: { view: TableView }) {
  const { stdout } = useStdout();
  const title = view.title === undefined ? null : <Text bold>{view.title}</Text>;
  if (view.rows.length === 0) {
    return (
      <Box flexDirection="column">
        {title}
        <Text dimColor>{view.empty}</Text>
      </Box>
    );
  }
  const widths = fitColumns(columnWidths(view), stdout.columns);
  const pad = (text: string, i: number) => {
    const fitted = truncate(text, widths[i]);
    return i === view.columns.length - 1 ? fitted : fitted.padEnd(widths[i] + COLUMN_GAP);
  };
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
