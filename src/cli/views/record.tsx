import { Box, Text } from 'ink';
import { cell, COLUMN_GAP, type RecordView } from '../view.js';
import { toneColor } from './tone.js';

/** One resource: aligned labels, coloured values. */
export function RecordList({ view }: { view: RecordView }) {
  const width = Math.max(...view.fields.map(([label]) => label.length)) + 1 + COLUMN_GAP;
  return (
    <Box flexDirection="column">
      {view.title === undefined ? null : <Text bold>{view.title}</Text>}
      {view.fields.map(([label, value], i) => {
        const c = cell(value);
        return (
          <Text key={i}>
            <Text dimColor>{`${label}:`.padEnd(width)}</Text>
            <Text {...(c.tone === undefined ? {} : { color: toneColor[c.tone] })}>{c.text}</Text>
          </Text>
        );
      })}
    </Box>
  );
}
