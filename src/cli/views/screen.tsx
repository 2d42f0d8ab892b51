import { Box, Text } from 'ink';
import type { View } from '../view.js';
import { RecordList } from './record.js';
import { Table } from './table.js';
import { toneColor } from './tone.js';

/** A command's result: its views stacked, one blank line apart. */
export function Screen({ views }: { views: View[] }) {
  return (
    <Box flexDirection="column" gap={1}>
      {views.map((view, i) => {
        if (view.kind === 'table') return <Table key={i} view={view} />;
        if (view.kind === 'record') return <RecordList key={i} view={view} />;
        return (
          <Text key={i} {...(view.tone === undefined ? {} : { color: toneColor[view.tone] })}>
            {view.text}
          </Text>
        );
      })}
    </Box>
  );
}
