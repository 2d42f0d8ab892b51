import { Text } from 'ink';

/** A failure, in one red line. */
export function ErrorMessage({ line }: { line: string }) {
  return (
    <Text color="red">
      <Text bold>✖</Text> {line}
    </Text>
  );
}
